"""A discrete-time LQR for a cart-pole linearised about the upright position, in the pattern of
control-engineering course scripts: the continuous model discretised by a truncated matrix
exponential series (terms added in a `while` until they are small), the Riccati difference
equation iterated until P stops changing (`P, P_prev = P_next, P` with an iteration count and a
`for ... else` that warns when it did not converge), the gain from `np.linalg.solve`, closed-loop
runs with the force saturated by `np.clip(u, -U_MAX, U_MAX, out=u)`, process noise drawn with a
seed into a preallocated array, the stage cost accumulated, a list of initial states from set-up
code, and the closed-loop spectral radius; a `try` around the gain when R is singular.
"""
import numpy as np

M_CART, M_POLE, L_POLE, G = 1.0, 0.2, 0.5, 9.81
DT = 0.02
U_MAX = 8.0
rng = np.random.default_rng(7)


def continuous_model():
    A = np.zeros((4, 4))
    A[0, 1] = A[2, 3] = 1.0
    A[1, 2] = -M_POLE * G / M_CART
    A[3, 2] = (M_CART + M_POLE) * G / (M_CART * L_POLE)
    B = np.array([[0.0], [1.0 / M_CART], [0.0], [-1.0 / (M_CART * L_POLE)]])
    return A, B


def discretise(A, B, dt, tol=1e-16):
    """Ad = sum (A dt)^k / k!, Bd = sum A^k dt^(k+1) / (k+1)! B, terms added while they matter."""
    n = A.shape[0]
    Ad = np.eye(n)
    S = np.eye(n) * dt
    term = np.eye(n)
    k = 1
    while True:
        term = term @ A * (dt / k)
        Ad += term
        S += term * (dt / (k + 1))
        if np.abs(term).max() < tol:
            break
        k += 1
    return Ad, S @ B, k


def riccati(A, B, Q, R, tol=1e-10, max_it=2000):
    P = Q.copy()
    for it in range(max_it):
        BtP = B.T @ P
        K = np.linalg.solve(R + BtP @ B, BtP @ A)
        P_next = Q + A.T @ P @ (A - B @ K)
        P_next = 0.5 * (P_next + P_next.T)
        if np.abs(P_next - P).max() < tol * np.abs(P).max():
            return P_next, K, it + 1
        P, P_prev = P_next, P
    else:
        print("Riccati iteration did not converge, last change", np.abs(P - P_prev).max())
    return P, K, max_it


def simulate(Ad, Bd, K, x0, steps, Q, R, noise=0.0):
    x = np.array(x0, dtype=float)
    traj = np.zeros((steps + 1, x.size))
    traj[0] = x
    w = noise * rng.standard_normal((steps, x.size))
    u = np.zeros(1)
    cost = 0.0
    saturated = 0
    for n in range(steps):
        u[:] = -(K @ x)
        if abs(u[0]) > U_MAX:
            saturated += 1
        np.clip(u, -U_MAX, U_MAX, out=u)
        cost += x @ Q @ x + u @ R @ u
        x = Ad @ x + Bd @ u + w[n]
        traj[n + 1] = x
    return traj, cost, saturated


def spectral_radius(Ad, Bd, K):
    return np.abs(np.linalg.eigvals(Ad - Bd @ K)).max()


CHECKS = {
    "continuous_model": lambda: (),
    "discretise": lambda: (*continuous_model(), DT),
    "riccati": lambda: (*discretise(*continuous_model(), DT)[:2], np.diag([1.0, 0.1, 10.0, 0.1]), np.array([[0.5]])),
    "riccati#capped": lambda: (*discretise(*continuous_model(), DT)[:2], np.eye(4), np.array([[1.0]]), 1e-10, 5),
    "simulate": lambda: (*discretise(*continuous_model(), DT)[:2], np.array([[-1.0, -2.0, -30.0, -5.0]]), [0.0, 0.0, 0.2, 0.0],
                         40, np.eye(4), np.eye(1)),
    "spectral_radius": lambda: (np.eye(2) * 0.5, np.array([[0.0], [1.0]]), np.array([[0.1, 0.2]])),
}

if __name__ == "__main__":
    A, B = continuous_model()
    Ad, Bd, terms = discretise(A, B, DT)
    print("series terms", terms, "Ad[3, 2]", "%.10f" % Ad[3, 2])
    Q = np.diag([1.0, 0.1, 10.0, 0.1])
    R = np.array([[0.5]])
    P, K, iters = riccati(Ad, Bd, Q, R)
    print("Riccati iterations", iters, "gain", np.round(K, 5))
    print("closed-loop radius", "%.8f" % spectral_radius(Ad, Bd, K))
    starts = [[0.0, 0.0, 0.1, 0.0], [0.5, 0.0, -0.2, 0.3], [0.0, 0.0, 0.6, 0.0]]
    for x0 in starts:
        traj, cost, sat = simulate(Ad, Bd, K, x0, 250, Q, R, noise=1e-3)
        print("x0", x0, "cost", "%.6f" % cost, "saturated steps", sat, "final angle", "%.3e" % traj[-1, 2])
    try:
        np.linalg.solve(np.zeros((1, 1)) + Bd.T @ np.zeros((4, 4)) @ Bd, Bd.T @ Ad)
    except np.linalg.LinAlgError as err:
        print("R = 0 and P = 0:", err)
