"""1-D Godunov scheme for the inviscid Burgers equation with the exact Riemann solver written
with np.where branches (shock speed s = (ul + ur) / 2 for ul > ur, a rarefaction fan with the
sonic point otherwise), ghost cells copied by a helper that writes its argument (periodic or
outflow chosen by a string), a CFL step `dt = CFL * dx / max|u|` clipped to the output time,
total variation and mass kept in Python lists turned into arrays, the solution printed every
few steps, and a second-order MUSCL-Hancock variant with a minmod slope computed into an `out=`
work array.
"""
import numpy as np

NX = 64
CFL = 0.8
X = (np.arange(NX) + 0.5) / NX
U0 = np.where(X < 0.5, 1.0, -0.5) + 0.3 * np.sin(2 * np.pi * X)


def riemann(ul, ur):
    shock = ul > ur
    s = 0.5 * (ul + ur)
    u_shock = np.where(s > 0, ul, ur)
    u_rare = np.where(ul > 0, ul, np.where(ur < 0, ur, 0.0))
    return np.where(shock, u_shock, u_rare)


def fill_ghosts(q, kind):
    if kind == "periodic":
        q[0] = q[-2]
        q[-1] = q[1]
    else:
        q[0] = q[1]
        q[-1] = q[-2]


def minmod(a, b, out):
    np.minimum(np.abs(a), np.abs(b), out=out)
    out *= np.where(a * b > 0, np.sign(a), 0.0)


def solve(u0, t_end, kind, second_order=False, max_steps=500):
    dx = 1.0 / u0.shape[0]
    q = np.zeros(u0.shape[0] + 2)
    q[1:-1] = u0
    slope = np.zeros(u0.shape[0])
    t = 0.0
    n = 0
    tv = np.zeros(max_steps)
    mass = np.zeros(max_steps)
    while t < t_end and n < max_steps:
        fill_ghosts(q, kind)
        dt = CFL * dx / max(np.abs(q).max(), 1e-12)
        if t + dt > t_end:
            dt = t_end - t
        if second_order:
            minmod(q[1:-1] - q[:-2], q[2:] - q[1:-1], slope)
            half = q[1:-1] - 0.5 * dt / dx * q[1:-1] * slope
            ul = half + 0.5 * slope
            ur = half - 0.5 * slope
            ustar = riemann(ul[:-1], ur[1:])
            f = 0.5 * ustar ** 2
            q[2:-2] -= dt / dx * (f[1:] - f[:-1])
        else:
            ustar = riemann(q[:-1], q[1:])
            f = 0.5 * ustar * ustar
            q[1:-1] -= dt / dx * (f[1:] - f[:-1])
        t += dt
        tv[n] = np.abs(np.diff(q[1:-1])).sum()
        mass[n] = q[1:-1].sum() * dx
        n += 1
        if n % 10 == 0:
            print("step", n, "t", repr(round(t, 10)), "tv", repr(tv[n - 1]))
    return q[1:-1].copy(), n, tv, mass


CHECKS = {
    "solve": lambda: (U0.copy(), 0.2, "periodic"),
    "solve#outflow": lambda: (U0.copy(), 0.15, "outflow"),
    "solve#muscl": lambda: (U0.copy(), 0.1, "periodic", True),
    "riemann": lambda: (np.array([1.0, -1.0, 0.5, -0.5, 0.0, 2.0]), np.array([-1.0, 1.0, 0.5, -2.0, 0.0, 3.0])),
    "minmod": lambda: (np.array([1.0, -2.0, 0.5, 0.0]), np.array([2.0, -1.0, -0.5, 1.0]), np.zeros(4)),
}

if __name__ == "__main__":
    for kind in ("periodic", "outflow"):
        for second in (False, True):
            u, n, tv, mass = solve(U0, 0.25, kind, second)
            tv, mass = tv[:n], mass[:n]
            print(kind, second, n, repr(float(u.max())), repr(float(u.min())), repr(float(tv[-1])))
            print("  mass drift", repr(round(float(mass[-1] - mass[0]), 10) + 0.0))
