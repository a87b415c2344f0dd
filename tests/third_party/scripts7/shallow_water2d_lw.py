"""2-D shallow water by the two-step Lax-Wendroff (Richtmyer) scheme on a box with reflecting
walls: ghost rows copied each step with the normal velocity negated (`hu[0, :] = -hu[1, :]`),
half-step arrays allocated once and written by slices, the state rebound with
`h, h_new = h_new, h` swaps, a CFL check that stops early with `break`, mass printed every k steps.
"""
import numpy as np

G = 9.81
N = 34
DX = 1.0 / (N - 2)


def reflect(h, hu, hv):
    h[0, :] = h[1, :]
    h[-1, :] = h[-2, :]
    h[:, 0] = h[:, 1]
    h[:, -1] = h[:, -2]
    hu[0, :] = -hu[1, :]
    hu[-1, :] = -hu[-2, :]
    hu[:, 0] = hu[:, 1]
    hu[:, -1] = hu[:, -2]
    hv[0, :] = hv[1, :]
    hv[-1, :] = hv[-2, :]
    hv[:, 0] = -hv[:, 1]
    hv[:, -1] = -hv[:, -2]


def fluxes(h, hu, hv):
    u = hu / h
    v = hv / h
    F = (hu, hu * u + 0.5 * G * h * h, hu * v)
    Gy = (hv, hv * u, hv * v + 0.5 * G * h * h)
    return F, Gy


def lw_step(q, qn, dt):
    h, hu, hv = q
    F, Gy = fluxes(h, hu, hv)
    half_x = [0.5 * (a[1:, 1:-1] + a[:-1, 1:-1]) - 0.5 * dt / DX * (f[1:, 1:-1] - f[:-1, 1:-1]) for a, f in zip(q, F)]
    half_y = [0.5 * (a[1:-1, 1:] + a[1:-1, :-1]) - 0.5 * dt / DX * (g[1:-1, 1:] - g[1:-1, :-1]) for a, g in zip(q, Gy)]
    Fx, _ = fluxes(*half_x)
    _, Gh = fluxes(*half_y)
    for k in range(3):
        qn[k][1:-1, 1:-1] = q[k][1:-1, 1:-1] - dt / DX * (Fx[k][1:, :] - Fx[k][:-1, :]) \
            - dt / DX * (Gh[k][:, 1:] - Gh[k][:, :-1])
    reflect(*qn)


def simulate(h, nsteps, cfl):
    hu = np.zeros_like(h)
    hv = np.zeros_like(h)
    hn, hun, hvn = np.empty_like(h), np.empty_like(h), np.empty_like(h)
    reflect(h, hu, hv)
    t = 0.0
    done = 0
    for n in range(nsteps):
        c = np.sqrt(G * h) + np.maximum(np.abs(hu / h), np.abs(hv / h))
        dt = cfl * DX / c.max()
        if dt < 1e-6:
            break
        lw_step((h, hu, hv), (hn, hun, hvn), dt)
        h, hn = hn, h
        hu, hun = hun, hu
        hv, hvn = hvn, hv
        t += dt
        done += 1
        if n % 10 == 0:
            print(n, repr(t), repr(float(h[1:-1, 1:-1].sum() * DX * DX)))
    return h, hu, hv, t, done


def initial():
    x = np.linspace(-0.5, 0.5, N)
    return 1.0 + 0.2 * np.exp(-40.0 * (x[:, None] ** 2 + (x[None, :] - 0.1) ** 2))


CHECKS = {"simulate": lambda: (initial(), 25, 0.4), "simulate#stop": lambda: (initial(), 5, 1e-9)}

if __name__ == "__main__":
    h, hu, hv, t, done = simulate(initial(), 40, 0.4)
    print(done, repr(t), repr(h.max()), repr(h.min()), repr(np.abs(hu).sum()))
