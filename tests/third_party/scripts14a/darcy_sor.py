"""Steady groundwater flow (Darcy) in a confined aquifer with a heterogeneous conductivity, in the
pattern of hydrogeology course codes: a log-normal K field drawn with a seed and smoothed by a
moving average (`np.cumsum` window), face conductances by harmonic means, fixed heads on the
left and right edges, no-flow top and bottom, a pumping well as a sink, the head solved by
successive over-relaxation point by point (a `while` on the largest change with an iteration
cap), Darcy fluxes on faces, the water balance over the boundaries, and particle tracking from
the upstream edge by Euler steps in the cell velocity until the particle leaves or is captured
by the well.
"""
import numpy as np

NR, NC = 12, 16
H_LEFT, H_RIGHT = 10.0, 8.0
WELL = (6, 10)
rng = np.random.default_rng(2024)


def smooth_rows(a, w):
    c = np.cumsum(np.pad(a, ((0, 0), (w, w)), mode="edge"), axis=1)
    return (c[:, 2 * w:] - np.concatenate([np.zeros((a.shape[0], 1)), c[:, :-2 * w - 1]], axis=1)) / (2 * w + 1)


def conductivity(nr, nc, sigma=0.8):
    logk = rng.normal(0.0, sigma, (nr, nc))
    logk = smooth_rows(logk, 2)
    logk = smooth_rows(logk.T, 1).T
    return np.exp(logk)


def face_conductances(K):
    kx = 2.0 * K[:, 1:] * K[:, :-1] / (K[:, 1:] + K[:, :-1])
    ky = 2.0 * K[1:, :] * K[:-1, :] / (K[1:, :] + K[:-1, :])
    return kx, ky


def sor(h, kx, ky, q, omega=1.7, tol=1e-8, max_it=500):
    nr, nc = h.shape
    it = 0
    change = np.inf
    while change > tol and it < max_it:
        change = 0.0
        for i in range(nr):
            for j in range(1, nc - 1):
                num = kx[i, j - 1] * h[i, j - 1] + kx[i, j] * h[i, j + 1] + q[i, j]
                den = kx[i, j - 1] + kx[i, j]
                if i > 0:
                    num += ky[i - 1, j] * h[i - 1, j]
                    den += ky[i - 1, j]
                if i < nr - 1:
                    num += ky[i, j] * h[i + 1, j]
                    den += ky[i, j]
                new = (1.0 - omega) * h[i, j] + omega * num / den
                change = max(change, abs(new - h[i, j]))
                h[i, j] = new
        it += 1
    return it, change


def fluxes(h, kx, ky):
    qx = -kx * (h[:, 1:] - h[:, :-1])
    qy = -ky * (h[1:, :] - h[:-1, :])
    return qx, qy


def balance(qx, pumping):
    inflow = qx[:, 0].sum()
    outflow = qx[:, -1].sum()
    return inflow, outflow, inflow - outflow - pumping


def track_slice(qx, qy, start, dt=0.2, max_steps=400):
    r, c = float(start[0]), float(start[1])
    path = np.zeros((max_steps + 1, 2))
    path[0] = r, c
    for n in range(1, max_steps + 1):
        i, j = int(r), min(int(c), qx.shape[1] - 1)
        vx = qx[i, j]
        vy = 0.5 * (qy[i - 1, j] if i > 0 else 0.0) + 0.5 * (qy[i, j] if i < qy.shape[0] else 0.0)
        c += dt * vx
        r = min(max(r + dt * vy, 0.0), NR - 1e-9)
        path[n] = r, c
        if c >= NC - 1 or (i, j) == WELL:
            return path[:n + 1], n
    return path, max_steps


def track(qx, qy, start, dt=0.2, max_steps=400):
    """The hint's form of track_slice: NaN rows after the exit, the step count returned."""
    r, c = float(start[0]), float(start[1])
    path = np.full((max_steps + 1, 2), np.nan)
    path[0] = r, c
    steps = max_steps
    for n in range(1, max_steps + 1):
        i, j = int(r), min(int(c), qx.shape[1] - 1)
        vx = qx[i, j]
        vy = 0.5 * (qy[i - 1, j] if i > 0 else 0.0) + 0.5 * (qy[i, j] if i < qy.shape[0] else 0.0)
        c += dt * vx
        r = min(max(r + dt * vy, 0.0), NR - 1e-9)
        path[n] = r, c
        if c >= NC - 1 or (i, j) == WELL:
            steps = n
            break
    return path, steps


CHECKS = {
    "smooth_rows": lambda: (np.arange(12.0).reshape(2, 6) ** 2, 1),
    "face_conductances": lambda: (np.array([[1.0, 3.0, 0.5], [2.0, 2.0, 8.0]]),),
    "sor": lambda: (np.linspace(10.0, 8.0, 6)[None, :].repeat(4, axis=0), *face_conductances(np.exp(np.linspace(-1, 1, 24)).reshape(4, 6)),
                    np.zeros((4, 6)), 1.5, 1e-6, 200),
    "sor#capped": lambda: (np.full((3, 5), 9.0), np.ones((3, 4)), np.ones((2, 5)), np.ones((3, 5)), 1.2, 1e-12, 4),
    "fluxes": lambda: (np.arange(12.0).reshape(3, 4) ** 0.5, np.ones((3, 3)), np.full((2, 4), 2.0)),
    "balance": lambda: (np.array([[1.0, 0.5, 0.25], [2.0, 1.0, 0.5]]), 0.4),
    "track_slice": lambda: (np.full((NR, NC - 1), 0.5), np.zeros((NR - 1, NC)), (2, 0)),
    "track": lambda: (np.full((NR, NC - 1), 0.5), np.zeros((NR - 1, NC)), (2, 0)),
    "track#stalled": lambda: (np.full((NR, NC - 1), 0.01), np.full((NR - 1, NC), -0.2), (9.5, 0.0), 0.5, 30),
}

if __name__ == "__main__":
    K = conductivity(NR, NC)
    kx, ky = face_conductances(K)
    print("K range", "%.6f" % K.min(), "%.6f" % K.max(), "geometric mean", "%.6f" % np.exp(np.log(K).mean()))
    h = np.zeros((NR, NC))
    h[:, 0], h[:, -1] = H_LEFT, H_RIGHT
    h[:, 1:-1] = 0.5 * (H_LEFT + H_RIGHT)
    q = np.zeros_like(h)
    q[WELL] = -0.6
    it, change = sor(h, kx, ky, q, tol=1e-10)
    print("SOR iterations", it, "last change below tol", change <= 1e-10)
    print("head at well", "%.8f" % h[WELL], "min head", "%.8f" % h.min())
    qx, qy = fluxes(h, kx, ky)
    inflow, outflow, err = balance(qx, 0.6)
    print("inflow", "%.8f" % inflow, "outflow", "%.8f" % outflow, "balance ok", abs(err) < 1e-6)
    for start in [(1.5, 0.0), (6.5, 0.0), (10.5, 0.0)]:
        path, n = track(qx, qy, start)
        print("particle from", start, "steps", n, "ends", np.round(path[n], 6))
