"""An Euler-Bernoulli cantilever by finite elements and Newmark-beta time stepping, in the pattern
of structural-dynamics course scripts: Hermite cubic element stiffness and consistent mass
matrices, dense global K and M assembled with `K[np.ix_(dofs, dofs)] += ke` in an element loop,
the clamped end removed by slicing the free dofs (`K[2:, 2:]`), Rayleigh damping from the first
two natural frequencies (np.linalg.eigh of M^-1/2 K M^-1/2 with the Cholesky factor), the
average-acceleration Newmark scheme with the effective stiffness solved each step, a static
solve inside a try/except np.linalg.LinAlgError at module level (an unsupported beam's singular
stiffness raises there), a helper falling back to least squares in its own try, a tip load
switched off after a while, the tip displacement and the energy printed every few steps, the peak found with
np.argmax over the history, a static deflection checked against PL^3/3EI.
"""
import numpy as np

E, I, RHO, A = 210e9, 8.0e-6, 7850.0, 5.0e-3
L = 2.0
NEL = 6
BETA, GAMMA_N = 0.25, 0.5


def element(le):
    k = E * I / le ** 3 * np.array([[12, 6 * le, -12, 6 * le],
                                    [6 * le, 4 * le * le, -6 * le, 2 * le * le],
                                    [-12, -6 * le, 12, -6 * le],
                                    [6 * le, 2 * le * le, -6 * le, 4 * le * le]])
    m = RHO * A * le / 420.0 * np.array([[156, 22 * le, 54, -13 * le],
                                         [22 * le, 4 * le * le, 13 * le, -3 * le * le],
                                         [54, 13 * le, 156, -22 * le],
                                         [-13 * le, -3 * le * le, -22 * le, 4 * le * le]])
    return k, m


def assemble(nel, length):
    ndof = 2 * (nel + 1)
    K = np.zeros((ndof, ndof))
    M = np.zeros((ndof, ndof))
    ke, me = element(length / nel)
    for e in range(nel):
        dofs = np.arange(2 * e, 2 * e + 4)
        K[np.ix_(dofs, dofs)] += ke
        M[np.ix_(dofs, dofs)] += me
    return K, M


def frequencies(K, M):
    Lc = np.linalg.cholesky(M)
    Li = np.linalg.inv(Lc)
    w2 = np.linalg.eigh(Li @ K @ Li.T)[0]
    return np.sqrt(w2)


def solve_or_lstsq(A, b):
    try:
        return np.linalg.solve(A, b), True
    except np.linalg.LinAlgError:
        return np.linalg.lstsq(A, b, rcond=None)[0], False


def newmark(K, M, C, f_tip, steps, dt, off_step, every=10):
    n = K.shape[0]
    u = np.zeros(n)
    v = np.zeros(n)
    f = np.zeros(n)
    f[-2] = f_tip
    a = np.linalg.solve(M, f - C @ v - K @ u)
    a0 = 1.0 / (BETA * dt * dt)
    a1 = GAMMA_N / (BETA * dt)
    K_eff = K + a0 * M + a1 * C
    history = np.zeros(steps)
    for s in range(steps):
        if s == off_step:
            f[-2] = 0.0
        rhs = f + M @ (a0 * u + v / (BETA * dt) + (0.5 / BETA - 1.0) * a) \
            + C @ (a1 * u + (GAMMA_N / BETA - 1.0) * v + dt * (0.5 * GAMMA_N / BETA - 1.0) * a)
        u_new = np.linalg.solve(K_eff, rhs)
        a_new = a0 * (u_new - u) - v / (BETA * dt) - (0.5 / BETA - 1.0) * a
        v += dt * ((1.0 - GAMMA_N) * a + GAMMA_N * a_new)
        u[:] = u_new
        a = a_new
        history[s] = u[-2]
        if s % every == 0:
            energy = 0.5 * v @ M @ v + 0.5 * u @ K @ u
            print("step", s, "tip", "%.6e" % u[-2], "energy", "%.6e" % energy)
    peak = np.argmax(np.abs(history))
    return history, peak


def tip_deflection(K, load):
    f = np.zeros(K.shape[0])
    f[-2] = load
    return np.linalg.solve(K, f)[-2]


def rayleigh(K, M, zeta=0.02):
    w = frequencies(K, M)[:2]
    alpha, beta = 2.0 * zeta * w[0] * w[1] / (w[0] + w[1]), 2.0 * zeta / (w[0] + w[1])
    return alpha * M + beta * K


CHECKS = {
    "newmark": lambda: (*assemble(NEL, L)[:1], assemble(NEL, L)[1], np.zeros((14, 14)), 100.0, 30, 1e-4, 10),
    "assemble": lambda: (4, 1.5),
    "element": lambda: (0.25,),
    "frequencies": lambda: tuple(m[2:, 2:] for m in assemble(3, 1.0)),
    "solve_or_lstsq": lambda: (np.array([[2.0, 1.0], [1.0, 3.0]]), np.array([1.0, -1.0])),
    "solve_or_lstsq#singular": lambda: (np.array([[1.0, 2.0], [0.0, 0.0]]), np.array([3.0, 0.0])),
    "tip_deflection": lambda: (assemble(3, 1.0)[0][2:, 2:], -50.0),
    "rayleigh": lambda: tuple(m[2:, 2:] for m in assemble(4, 2.0)),
}

if __name__ == "__main__":
    K, M = assemble(NEL, L)
    Kf, Mf = K[2:, 2:], M[2:, 2:]
    w = frequencies(Kf, Mf)
    beta1 = 1.8751040687
    exact = beta1 ** 2 * np.sqrt(E * I / (RHO * A * L ** 4))
    print("f1", repr(round(float(w[0]), 6)), "exact", repr(round(float(exact), 6)))
    C = rayleigh(Kf, Mf)
    history, peak = newmark(Kf, Mf, C, 1000.0, 120, 2e-4, 40, every=20)
    print("peak step", int(peak), "peak tip", "%.6e" % history[peak])
    static = tip_deflection(Kf, 1000.0)
    print("static ratio", repr(round(float(static / (1000.0 * L ** 3 / (3 * E * I))), 9)))
    x, ok = solve_or_lstsq(np.zeros((2, 2)), np.ones(2))
    print("singular", ok, x)
    try:
        print("free beam tip", tip_deflection(K - K, 1000.0))  # nothing holds it: singular
    except np.linalg.LinAlgError as err:
        print("free beam:", err)
