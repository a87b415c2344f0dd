"""Semi-Lagrangian advection in the pattern of weather-model teaching scripts: in 1-D the
departure points of a periodic grid interpolated with `np.interp(xd, x, q, period=L)`, the
Courant number above one on purpose; in 2-D solid-body rotation with departure points found by
two midpoint iterations, bilinear interpolation by gathers at `np.floor(...).astype(int)`
indices wrapped with `%` (negative coordinates included), a cubic Lagrange variant along x
with four gathered columns and a monotone clip to the local min/max of the stencil, a global
mass fixer `q *= mass0 / q.sum()`, the field rebound each step (`q, q_new = q_new, q`), and
the extrema and mass printed every quarter turn; the constant wind comes in as a Python list.
"""
import numpy as np

L = 1.0
N1 = 40
N2 = 24


def advect_1d(q, wind, dt, steps):
    x = np.arange(N1) * (L / N1)
    for _ in range(steps):
        xd = x - wind[0] * dt
        q = np.interp(xd, x, q, period=L)
    return q


def bilinear(q, xi, yj):
    """q at fractional grid coordinates (xi, yj), periodic."""
    n, m = q.shape
    i0 = np.floor(xi).astype(int)
    j0 = np.floor(yj).astype(int)
    fx = xi - i0
    fy = yj - j0
    i0 %= n
    j0 %= m
    i1 = (i0 + 1) % n
    j1 = (j0 + 1) % m
    return ((1 - fx) * (1 - fy) * q[i0, j0] + fx * (1 - fy) * q[i1, j0]
            + (1 - fx) * fy * q[i0, j1] + fx * fy * q[i1, j1])


def cubic_x(q, xi, yj, out):
    """Cubic Lagrange along x at the nearest row, clipped to the stencil's range."""
    n, m = q.shape
    j = np.rint(yj).astype(int) % m
    i1 = np.floor(xi).astype(int)
    t = xi - i1
    w = [-t * (t - 1) * (t - 2) / 6, (t + 1) * (t - 1) * (t - 2) / 2,
         -(t + 1) * t * (t - 2) / 2, (t + 1) * t * (t - 1) / 6]
    cols = [q[(i1 + k) % n, j] for k in (-1, 0, 1, 2)]
    out[...] = sum(wk * ck for wk, ck in zip(w, cols))
    lo = np.minimum(cols[1], cols[2])
    hi = np.maximum(cols[1], cols[2])
    np.clip(out, lo, hi, out=out)
    return out


def departure(X, Y, omega, dt, cx, cy):
    xd, yd = X.copy(), Y.copy()
    for _ in range(2):  # midpoint iterations
        xm = 0.5 * (X + xd)
        ym = 0.5 * (Y + yd)
        xd = X + omega * dt * (ym - cy)
        yd = Y - omega * dt * (xm - cx)
    return xd, yd


def rotate(q, steps, dt, cubic=False, every=6):
    n = q.shape[0]
    X, Y = np.meshgrid(np.arange(n, dtype=float), np.arange(n, dtype=float), indexing="ij")
    omega = 2.0 * np.pi / (steps * dt)
    xd, yd = departure(X, Y, omega, dt, (n - 1) / 2.0, (n - 1) / 2.0)
    mass0 = q.sum()
    q_new = np.empty_like(q)
    for s in range(1, steps + 1):
        if cubic:
            cubic_x(q, xd, yd, q_new)
        else:
            q_new[...] = bilinear(q, xd, yd)
        q_new *= mass0 / q_new.sum()
        q, q_new = q_new, q
        if s % every == 0:
            print("step", s, "min", repr(round(float(q.min()), 10)), "max", repr(round(float(q.max()), 10)),
                  "mass", repr(round(float(q.sum()), 9)))
    return q


def cone(n, r=4.0):
    X, Y = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    d = np.hypot(X - n / 4.0, Y - n / 2.0)
    return np.maximum(0.0, 1.0 - d / r)


WIND = [0.35, 0.0]

CHECKS = {
    "advect_1d": lambda: (np.exp(-((np.arange(N1) / N1 - 0.3) / 0.05) ** 2), WIND, 0.1, 7),
    "bilinear": lambda: (cone(N2), np.array([-0.5, 3.25, 23.9, 24.0, -24.75]), np.array([0.0, 11.5, -1.25, 5.5, 47.0])),
    "cubic_x": lambda: (cone(8), np.array([[-0.5, 3.25], [7.9, 2.0]]), np.array([[0.0, 1.6], [6.5, -2.5]]), np.zeros((2, 2))),
    "departure": lambda: (*np.meshgrid(np.arange(4.0), np.arange(4.0), indexing="ij"), 0.3, 0.5, 1.5, 1.5),
    "rotate": lambda: (cone(12), 8, 1.0, False, 4),
    "rotate#cubic": lambda: (cone(12), 8, 1.0, True, 4),
}

if __name__ == "__main__":
    q1 = np.exp(-((np.arange(N1) / N1 - 0.3) / 0.05) ** 2)
    out = advect_1d(q1, WIND, 0.1, 10)  # Courant 1.4: ten steps of 0.035 = 0.35 of the domain
    print("1d peak moved to", int(np.argmax(out)), "max", repr(round(float(out.max()), 10)))
    q0 = cone(N2)
    for cubic in (False, True):
        q = rotate(q0.copy(), 24, 1.0, cubic=cubic)
        print("cubic" if cubic else "bilinear", "error", repr(round(float(np.abs(q - q0).max()), 10)),
              "negative", bool((q < 0).any()))
