"""Linearised rotating shallow water on an Arakawa C-grid, in the pattern of ocean-model teaching
codes: a channel periodic in x with walls at y = 0 and y = Ly, surface height h at the cell
centres (ny, nx), u on the west faces (ny, nx), v on the south faces (ny + 1, nx) with v = 0 kept
on the two walls, a beta-plane Coriolis parameter by rows, the four-point averages of v at u
points and of u at v points with np.roll, forward-backward stepping (h first, then u and v
with the new h; the Coriolis terms use the old velocities), new arrays written into spares
and swapped (`u, u_new = u_new, u`), a wind stress by rows, Rayleigh drag, energy and the
largest |h| printed every few steps, and a geostrophic check at the end.
"""
import numpy as np

G = 9.81
H0 = 100.0
F0 = 1e-4
BETA = 2e-11
DRAG = 1e-6


def coriolis_rows(ny, dy, at_v=False):
    y = (np.arange(ny + 1) if at_v else np.arange(ny) + 0.5) * dy
    return F0 + BETA * (y - 0.5 * ny * dy)


def v_at_u(v):
    """v averaged onto u points: the two v faces above/below, at i and i - 1."""
    vc = 0.5 * (v[:-1] + v[1:])  # (ny, nx) at centres
    return 0.5 * (vc + np.roll(vc, 1, axis=1))


def u_at_v(u):
    uc = 0.5 * (u + np.roll(u, -1, axis=1))  # (ny, nx) at centres
    out = np.zeros((u.shape[0] + 1, u.shape[1]))
    out[1:-1] = 0.5 * (uc[:-1] + uc[1:])
    return out


def step(h, u, v, h_new, u_new, v_new, dt, dx, dy, fu, fv, tau):
    div = (np.roll(u, -1, axis=1) - u) / dx + (v[1:] - v[:-1]) / dy
    h_new[...] = h - dt * H0 * div
    u_new[...] = u + dt * (fu[:, None] * v_at_u(v) - G * (h_new - np.roll(h_new, 1, axis=1)) / dx
                           + tau[:, None] / H0 - DRAG * u)
    v_new[1:-1] = v[1:-1] + dt * (-fv[1:-1, None] * u_at_v(u)[1:-1] - G * (h_new[1:] - h_new[:-1]) / dy
                                  - DRAG * v[1:-1])
    v_new[0] = 0.0
    v_new[-1] = 0.0


def energy(h, u, v, dx, dy):
    return 0.5 * (H0 * (u * u).sum() + H0 * (v * v).sum() + G * (h * h).sum()) * dx * dy


def run(h, u, v, steps, dt, dx, dy, tau, every=10):
    ny = h.shape[0]
    fu = coriolis_rows(ny, dy)
    fv = coriolis_rows(ny, dy, at_v=True)
    h_new, u_new, v_new = np.empty_like(h), np.empty_like(u), np.zeros_like(v)
    e0 = energy(h, u, v, dx, dy)
    for n in range(1, steps + 1):
        step(h, u, v, h_new, u_new, v_new, dt, dx, dy, fu, fv, tau)
        h, h_new = h_new, h
        u, u_new = u_new, u
        v, v_new = v_new, v
        if n % every == 0:
            e = energy(h, u, v, dx, dy)
            print("step", n, "energy ratio", repr(round(float(e / e0), 9)), "max|h|", repr(round(float(np.abs(h).max()), 9)))
    return h, u, v


def geostrophic_error(h, u, dy):
    """|u + (g/f) dh/dy| away from the walls, relative to |u|."""
    ny = h.shape[0]
    f = coriolis_rows(ny, dy)[1:-1]
    ug = -G / f[:, None] * (h[2:] - h[:-2]) / (2.0 * dy)
    uc = 0.5 * (u[1:-1] + np.roll(u[1:-1], -1, axis=1))
    return np.abs(uc - ug).max() / max(np.abs(uc).max(), 1e-30)


def bump(ny, nx, dx, dy, amp=1.0):
    y = (np.arange(ny) + 0.5) * dy
    x = (np.arange(nx) + 0.5) * dx
    X, Y = np.meshgrid(x, y)
    r2 = ((X - x.mean()) ** 2 + (Y - y.mean()) ** 2) / (4.0 * dx) ** 2
    return amp * np.exp(-r2)


NY, NX, DX, DY = 12, 16, 1e4, 1e4
TAU = 1e-3 * np.sin(np.pi * (np.arange(NY) + 0.5) / NY)

CHECKS = {
    "run": lambda: (bump(NY, NX, DX, DY), np.zeros((NY, NX)), np.zeros((NY + 1, NX)), 40, 60.0, DX, DY, TAU),
    "step": lambda: (bump(NY, NX, DX, DY), bump(NY, NX, DX, DY, 0.1), np.ones((NY + 1, NX)) * 0.01,
                     np.zeros((NY, NX)), np.zeros((NY, NX)), np.full((NY + 1, NX), 7.0), 60.0, DX, DY,
                     coriolis_rows(NY, DY), coriolis_rows(NY, DY, True), TAU),
    "v_at_u": lambda: (np.arange(5.0 * 4).reshape(5, 4),),
    "u_at_v": lambda: (np.arange(4.0 * 4).reshape(4, 4),),
    "geostrophic_error": lambda: (bump(NY, NX, DX, DY), bump(NY, NX, DX, DY, 0.5), DY),
    "energy": lambda: (bump(NY, NX, DX, DY), np.ones((NY, NX)), np.zeros((NY + 1, NX)), DX, DY),
}

if __name__ == "__main__":
    h0 = bump(NY, NX, DX, DY)
    u0 = np.zeros((NY, NX))
    v0 = np.zeros((NY + 1, NX))
    h, u, v = run(h0, u0, v0, 120, 60.0, DX, DY, TAU, every=30)
    print("walls still", np.all(v[0] == 0.0), np.all(v[-1] == 0.0))
    print("mass", repr(round(float(h.sum()), 9)), "geostrophic", repr(round(float(geostrophic_error(h, u, DY)), 6)))
    print("h0 untouched?", np.array_equal(h0, bump(NY, NX, DX, DY)))
    print(np.round(h[NY // 2], 6))
