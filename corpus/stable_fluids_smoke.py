"""Stable fluids (Stam): a rising smoke plume in a closed box.

Domain: computer-graphics / CFD. Velocity (u, v) and a smoke density live on an n x n
cell-centred grid. Each step adds buoyancy where there is smoke, advects velocity and density by
semi-Lagrangian back-tracing (the departure points are rebound through np.clip so they stay in
the box: `x = np.clip(x, 0.0, n - 1.0)`), and projects the velocity onto a divergence-free field
with Jacobi iterations for the pressure. The grid index arrays come from
`np.meshgrid(range(n), range(n))` in set-up code. Smoke mass and the divergence norm before and
after projection are printed every few steps.
"""
import numpy as np

ENTRY = "run_smoke"


def grid_indices(n):
    J, I = np.meshgrid(range(n), range(n))
    return I.astype(float), J.astype(float)


def source_mask(n):
    I, J = grid_indices(n)
    return (I < n // 5) & (np.abs(J - (n - 1) / 2.0) < n / 8.0)


def bilinear(q, x, y):
    """q sampled at fractional indices (x along axis 0, y along axis 1), in the box."""
    n = q.shape[0]
    i0 = np.floor(x).astype(np.int64)
    j0 = np.floor(y).astype(np.int64)
    i0 = np.clip(i0, 0, n - 2)
    j0 = np.clip(j0, 0, n - 2)
    s = x - i0
    t = y - j0
    return ((1 - s) * (1 - t) * q[i0, j0] + s * (1 - t) * q[i0 + 1, j0]
            + (1 - s) * t * q[i0, j0 + 1] + s * t * q[i0 + 1, j0 + 1])


def advect(q, u, v, I, J, dt):
    n = q.shape[0]
    x = I - dt * u
    y = J - dt * v
    x = np.clip(x, 0.0, n - 1.0)
    y = np.clip(y, 0.0, n - 1.0)
    return bilinear(q, x, y)


def divergence(u, v):
    div = np.zeros_like(u)
    div[1:-1, 1:-1] = 0.5 * (u[2:, 1:-1] - u[:-2, 1:-1] + v[1:-1, 2:] - v[1:-1, :-2])
    return div


def project(u, v, iters):
    div = divergence(u, v)
    p = np.zeros_like(u)
    for _ in range(iters):
        p[1:-1, 1:-1] = 0.25 * (p[2:, 1:-1] + p[:-2, 1:-1] + p[1:-1, 2:] + p[1:-1, :-2]
                                - div[1:-1, 1:-1])
        p[0, :], p[-1, :] = p[1, :], p[-2, :]  # dp/dn = 0 at the walls
        p[:, 0], p[:, -1] = p[:, 1], p[:, -2]
    u[1:-1, 1:-1] -= 0.5 * (p[2:, 1:-1] - p[:-2, 1:-1])
    v[1:-1, 1:-1] -= 0.5 * (p[1:-1, 2:] - p[1:-1, :-2])
    return u, v


def no_slip(u, v):
    u[0, :] = u[-1, :] = u[:, 0] = u[:, -1] = 0.0
    v[0, :] = v[-1, :] = v[:, 0] = v[:, -1] = 0.0
    return u, v


def run_smoke(u, v, smoke, source, buoyancy, dt, nsteps, iters, every):
    """Advance u, v, smoke; the caller's arrays hold the first step's forcing and source,
    the rest runs on the advected copies. Returns the final fields."""
    I, J = grid_indices(u.shape[0])
    for step in range(nsteps):
        smoke[source] = 1.0
        u += dt * buoyancy * smoke
        u, v = no_slip(u, v)
        u_new = advect(u, u, v, I, J, dt)
        v_new = advect(v, u, v, I, J, dt)
        smoke = advect(smoke, u, v, I, J, dt)
        u, v = no_slip(u_new, v_new)
        before = np.linalg.norm(divergence(u, v))
        u, v = project(u, v, iters)
        u, v = no_slip(u, v)
        if step % every == 0:
            print(f"step {step:4d}  smoke = {smoke.sum():.10f}  |div| {before:.8e} -> "
                  f"{np.linalg.norm(divergence(u, v)):.8e}")
    return u, v, smoke


def make_inputs(size="small"):
    n, nsteps, iters, every = (8, 3, 5, 1) if size == "small" else (48, 200, 80, 25)
    return dict(u=np.zeros((n, n)), v=np.zeros((n, n)), smoke=np.zeros((n, n)),
                source=source_mask(n), buoyancy=0.2, dt=0.5, nsteps=nsteps, iters=iters,
                every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    u, v, smoke = run_smoke(**inputs)
    print(f"plume height  = {np.argwhere(smoke > 0.05)[:, 0].max()}")
    print(f"max speed     = {np.sqrt(u * u + v * v).max():.10f}")
