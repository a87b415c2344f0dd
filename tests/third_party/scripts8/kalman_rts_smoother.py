"""A Kalman filter and a Rauch-Tung-Striebel smoother for a constant-acceleration target in 1-D:
the state means and covariances stored in (T, 3) and (T, 3, 3) arrays written row by row
(`m[t] = ...`, `P[t] = ...`), missing measurements (NaN) skipped with `np.isnan`, the gain from
`np.linalg.solve`, Joseph-form covariance updates, the backward pass in a reversed `range`, the
log-likelihood accumulated in a Python float and the NIS printed every N steps.
"""
import numpy as np

DT = 0.1
F = np.array([[1, DT, 0.5 * DT * DT], [0, 1, DT], [0, 0, 1]])
H = np.array([[1.0, 0.0, 0.0]])
Q = 0.05 * np.eye(3)
R = np.array([[0.25]])


def kalman(zs, m0, P0, every):
    T = zs.shape[0]
    m = np.zeros((T, 3))
    P = np.zeros((T, 3, 3))
    mp = np.zeros((T, 3))
    Pp = np.zeros((T, 3, 3))
    x, C = m0.copy(), P0.copy()
    loglik = 0.0
    for t in range(T):
        x = F @ x
        C = F @ C @ F.T + Q
        mp[t], Pp[t] = x, C
        if not np.isnan(zs[t]):
            S = H @ C @ H.T + R
            v = zs[t] - (H @ x)[0]
            K = np.linalg.solve(S, H @ C).T
            x = x + K[:, 0] * v
            IKH = np.eye(3) - K @ H
            C = IKH @ C @ IKH.T + K @ R @ K.T
            nis = v * v / S[0, 0]
            loglik -= 0.5 * (np.log(2 * np.pi * S[0, 0]) + nis)
            if t % every == 0:
                print(f"t={t} nis={nis:.6f}")
        m[t], P[t] = x, C
    return m, P, mp, Pp, loglik


def rts(m, P, mp, Pp):
    ms = m.copy()
    Ps = P.copy()
    for t in range(m.shape[0] - 2, -1, -1):
        G = np.linalg.solve(Pp[t + 1].T, F @ P[t].T).T
        ms[t] += G @ (ms[t + 1] - mp[t + 1])
        Ps[t] += G @ (Ps[t + 1] - Pp[t + 1]) @ G.T
    return ms, Ps


def make_track(T=40, seed=3):
    rng = np.random.default_rng(seed)
    acc = np.cumsum(rng.normal(0, 0.3, T)) * DT
    pos = np.cumsum(np.cumsum(acc) * DT) * DT
    zs = pos + rng.normal(0, 0.5, T)
    zs[[5, 6, T - 3]] = np.nan
    return zs


CHECKS = {
    "kalman": lambda: (make_track(), np.zeros(3), np.eye(3), 10),
    "rts": lambda: kalman(make_track(12), np.zeros(3), np.eye(3), 100)[:4],
}

if __name__ == "__main__":
    m, P, mp, Pp, ll = kalman(make_track(), np.zeros(3), np.eye(3), 10)
    ms, Ps = rts(m, P, mp, Pp)
    print(repr(ll), repr(ms[0]), repr(np.trace(Ps[20])), repr(m[-1, 0]))
