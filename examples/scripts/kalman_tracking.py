"""Constant-velocity Kalman filter over a measurement loop (np.linalg.solve and np.linalg.inv).

A 2-D target with state (x, y, vx, vy); noisy position measurements are drawn with a seeded
Generator before the loop. Each step predicts (F @ x, F @ P @ F.T + Q), forms the innovation
covariance S, the gain K (once with np.linalg.solve, K = solve(S, H @ P).T, once with
np.linalg.inv), updates x and P in place (`x += K @ y`, `P[...] = ...`), and stores the
estimate in a row of a history array. The normalised innovation squared is accumulated.
"""
import numpy as np

ENTRY = "track"
DT = 0.1
Q_SCALE = 0.01
R_SCALE = 0.25


def model():
    F = np.eye(4)
    F[0, 2] = F[1, 3] = DT
    H = np.zeros((2, 4))
    H[0, 0] = H[1, 1] = 1.0
    Q = Q_SCALE * np.eye(4)
    R = R_SCALE * np.eye(2)
    return F, H, Q, R


def track(x, P, zs, use_inv):
    F, H, Q, R = model()
    hist = np.zeros((len(zs), 4))
    nis = 0.0
    for k in range(len(zs)):
        x[:] = F @ x
        P[...] = F @ P @ F.T + Q
        y = zs[k] - H @ x
        S = H @ P @ H.T + R
        if use_inv:
            K = P @ H.T @ np.linalg.inv(S)
        else:
            K = np.linalg.solve(S, H @ P).T
        x += K @ y
        P[...] = (np.eye(4) - K @ H) @ P
        nis += y @ np.linalg.solve(S, y)
        hist[k] = x
    print(repr(float(nis / len(zs))))
    return hist, nis


def measurements(n, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(1, n + 1) * DT
    truth = np.stack([1.0 + 2.0 * t, -1.0 + 0.5 * t], axis=1)
    return truth + np.sqrt(R_SCALE) * rng.standard_normal((n, 2))


def make_inputs(size="small"):
    n = 10 if size == "small" else 200
    return dict(x=np.zeros(4), P=10.0 * np.eye(4), zs=measurements(n, 2), use_inv=False)


CHECKS = {"track": lambda: make_inputs("small"),
          "track#inv": lambda: {**make_inputs("small"), "use_inv": True}}

if __name__ == "__main__":
    for use_inv in (False, True):
        inputs = make_inputs("large")
        inputs["use_inv"] = use_inv
        hist, nis = track(**inputs)
        print(repr(hist[-1].tolist()), repr(nis), repr(inputs["P"].trace()))
