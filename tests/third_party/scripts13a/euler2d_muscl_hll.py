"""A 2-D compressible Euler solver in the pattern of teaching finite-volume codes: conserved
variables q[4, ny + 4, nx + 4] with two ghost layers filled through views each step
(transmissive on x, reflecting walls on y with the normal momentum's sign flipped), MUSCL
reconstruction with a minmod limiter written with np.sign / np.minimum, the HLL flux with
Davis' wave speeds, dimensional splitting by a helper that writes the interior through a view
handed in, a CFL time step from the largest signal speed, a `while t < t_end` loop whose last
step is cut, and diagnostics printed every few steps (mass, the smallest density and pressure).
"""
import numpy as np

GAMMA = 1.4
NG = 2
CFL = 0.4


def primitive(q):
    rho = q[0]
    u = q[1] / rho
    v = q[2] / rho
    p = (GAMMA - 1.0) * (q[3] - 0.5 * rho * (u * u + v * v))
    return rho, u, v, p


def fill_ghosts(q):
    # transmissive left/right: copy the first/last interior column outwards
    for g in range(NG):
        q[:, :, g] = q[:, :, NG]
        q[:, :, -1 - g] = q[:, :, -1 - NG]
    # reflecting walls at the bottom/top: mirror, flip the y momentum
    q[:, NG - 1::-1, :] = q[:, NG:2 * NG, :]
    q[:, -NG:, :] = q[:, -NG - 1:-2 * NG - 1:-1, :]
    q[2, :NG, :] *= -1.0
    q[2, -NG:, :] *= -1.0


def minmod(a, b):
    return 0.5 * (np.sign(a) + np.sign(b)) * np.minimum(np.abs(a), np.abs(b))


def hll_x(ql, qr):
    """HLL flux through faces normal to x; ql, qr are [4, ...] states either side."""
    rl, ul, vl, pl = primitive(ql)
    rr, ur, vr, pr = primitive(qr)
    cl = np.sqrt(GAMMA * pl / rl)
    cr = np.sqrt(GAMMA * pr / rr)
    fl = np.stack([rl * ul, rl * ul * ul + pl, rl * ul * vl, (ql[3] + pl) * ul])
    fr = np.stack([rr * ur, rr * ur * ur + pr, rr * ur * vr, (qr[3] + pr) * ur])
    sl = np.minimum(ul - cl, ur - cr)
    sr = np.maximum(ul + cl, ur + cr)
    f = (sr * fl - sl * fr + sl * sr * (qr - ql)) / (sr - sl)
    f = np.where(sl >= 0.0, fl, f)
    f = np.where(sr <= 0.0, fr, f)
    return f


def sweep_x(q, dt_dx, out):
    """One MUSCL-HLL update along x of the padded state q into `out` (the interior of q's rows)."""
    d = minmod(q[:, :, 1:-1] - q[:, :, :-2], q[:, :, 2:] - q[:, :, 1:-1])
    left = q[:, :, 1:-2] + 0.5 * d[:, :, :-1]
    right = q[:, :, 2:-1] - 0.5 * d[:, :, 1:]
    flux = hll_x(left, right)
    out -= dt_dx * (flux[:, NG:-NG, 1:] - flux[:, NG:-NG, :-1])


def swap_xy(q):
    """The state with x and y exchanged (momenta swapped) so that sweep_x does the y sweep."""
    s = q.transpose(0, 2, 1).copy()
    s[[1, 2]] = s[[2, 1]]
    return s


def max_speed(q):
    rho, u, v, p = primitive(q[:, NG:-NG, NG:-NG])
    c = np.sqrt(GAMMA * p / rho)
    return max(np.max(np.abs(u) + c), np.max(np.abs(v) + c))


def advance(q, dx, t_end, every=4):
    t = 0.0
    step = 0
    while t < t_end:
        fill_ghosts(q)
        dt = CFL * dx / max_speed(q)
        if t + dt > t_end:
            dt = t_end - t
        sweep_x(q, dt / dx, q[:, NG:-NG, NG:-NG])
        fill_ghosts(q)
        s = swap_xy(q)
        sweep_x(s, dt / dx, s[:, NG:-NG, NG:-NG])
        q[...] = swap_xy(s)
        t += dt
        step += 1
        if step % every == 0:
            report(q, step, t, dx)
    return t, step


def report(q, step, t, dx):
    rho, u, v, p = primitive(q[:, NG:-NG, NG:-NG])
    print("step", step, "t", round(t, 6), "mass", repr(round(float(rho.sum() * dx * dx), 10)),
          "min rho", repr(round(float(rho.min()), 10)), "min p", repr(round(float(p.min()), 10)))


def initial(nx, ny):
    """A Sod-like interface on a diagonal, at rest."""
    q = np.zeros((4, ny + 2 * NG, nx + 2 * NG))
    x = (np.arange(nx) + 0.5) / nx
    y = (np.arange(ny) + 0.5) / ny
    X, Y = np.meshgrid(x, y)
    inside = X + Y < 0.8
    rho = np.where(inside, 1.0, 0.125)
    p = np.where(inside, 1.0, 0.1)
    q[0, NG:-NG, NG:-NG] = rho
    q[3, NG:-NG, NG:-NG] = p / (GAMMA - 1.0)
    return q


CHECKS = {
    "advance": lambda: (initial(12, 10), 1.0 / 12, 0.05),
    "fill_ghosts": lambda: (initial(6, 5) + np.arange(4 * 9 * 10).reshape(4, 9, 10) * 0.01,),
    "sweep_x": lambda: (initial(8, 6) + 0.1, 0.2, np.ones((4, 6, 8))),
    "hll_x": lambda: (initial(5, 4)[:, 2:-2, 2:-2] + 0.2, initial(5, 4)[:, 2:-2, 2:-2][:, ::-1] + 0.3),
    "swap_xy": lambda: (np.arange(24.0).reshape(4, 2, 3),),
    "max_speed": lambda: (initial(6, 6),),
}

if __name__ == "__main__":
    nx = ny = 16
    q = initial(nx, ny)
    t, steps = advance(q, 1.0 / nx, 0.1)
    rho = q[0, NG:-NG, NG:-NG]
    print("steps", steps, "t", repr(t))
    print("density row", np.round(rho[ny // 2], 6))
    print("energy", repr(round(float(q[3, NG:-NG, NG:-NG].sum()), 9)))
