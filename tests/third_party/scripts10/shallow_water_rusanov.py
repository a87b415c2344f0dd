"""1-D shallow water by finite volumes: a dam break with a Rusanov (local Lax-Friedrichs) flux,
transmissive ghost cells written each step, the step from the CFL condition clipped with
`dt = min(dt, t_end - t)`, conserved variables in one (2, n) array updated in place by a helper
that writes its argument, diagnostics printed every few steps, masses written into a preallocated array with a count.
"""
import numpy as np

G = 9.81
NX = 80
X = np.linspace(0.0, 1.0, NX + 2)  # with one ghost cell on each side
DX = X[1] - X[0]
CFL = 0.45


def initial(nx, h_left=2.0, h_right=1.0):
    q = np.zeros((2, nx + 2))
    q[0] = h_right
    q[0, : (nx + 2) // 2] = h_left
    return q


def ghosts(q):
    q[:, 0] = q[:, 1]
    q[:, -1] = q[:, -2]


def physical_flux(h, hu):
    u = hu / h
    return np.array([hu, hu * u + 0.5 * G * h * h])


def rusanov(q, flux_out):
    """Interface fluxes F_{i+1/2} for the n + 1 interfaces between the cells of q."""
    ql, qr = q[:, :-1], q[:, 1:]
    fl = physical_flux(ql[0], ql[1])
    fr = physical_flux(qr[0], qr[1])
    cl = np.abs(ql[1] / ql[0]) + np.sqrt(G * ql[0])
    cr = np.abs(qr[1] / qr[0]) + np.sqrt(G * qr[0])
    a = np.maximum(cl, cr)
    flux_out[...] = 0.5 * (fl + fr) - 0.5 * a * (qr - ql)
    return a.max()


def step(q, dt, flux):
    q[:, 1:-1] -= dt / DX * (flux[:, 1:] - flux[:, :-1])
    ghosts(q)


def solve(q, t_end, max_steps=400):
    flux = np.empty((2, q.shape[1] - 1))
    t = 0.0
    n = 0
    masses = np.zeros(max_steps)
    ghosts(q)
    while t < t_end and n < max_steps:
        smax = rusanov(q, flux)
        dt = CFL * DX / smax
        dt = min(dt, t_end - t)
        step(q, dt, flux)
        masses[n] = q[0, 1:-1].sum() * DX
        t += dt
        n += 1
    return t, n, masses


def front(q, level=1.05):
    wet = q[0, 1:-1] > level
    return X[1:-1][wet].max()


CHECKS = {
    "solve": lambda: (initial(40), 0.05),
    "solve#short": lambda: (initial(40, 1.5, 0.5), 0.01, 3),
    "rusanov": lambda: (initial(20), np.zeros((2, 21))),
    "step": lambda: (initial(20), 0.001, np.ones((2, 21))),
}

if __name__ == "__main__":
    q = initial(NX)
    t_total = 0.0
    for k in range(3):
        t, n, masses = solve(q, 0.02)
        t_total += t
        print(k, n, repr(t_total), repr(masses[n - 1]), repr(float(front(q))))
        print("  h range", repr(q[0].min()), repr(q[0].max()), "momentum", repr(q[1].sum() * DX))
    print(np.round(q[0, ::10], 6))
