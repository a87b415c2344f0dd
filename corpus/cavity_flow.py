"""Lid-driven cavity flow: incompressible Navier-Stokes by the projection
(pressure-Poisson) method on a collocated grid.

Domain: the standard CFD benchmark of a square cavity whose lid moves at
constant speed. Each time step builds the source term of the pressure
Poisson equation from the velocity field, relaxes the pressure with a fixed
number of Jacobi pseudo-time iterations (copying the previous iterate), and
updates u and v with first-order upwind convection, central diffusion and
the pressure gradient. Boundary conditions live in helper functions that
write their argument in place: dp/dn = 0 on three walls and p = 0 at the
lid; no-slip walls and the moving lid for the velocity.
"""
import numpy as np

ENTRY = "cavity_flow"

RHO = 1.0
NU = 0.1
U_LID = 1.0
NIT = 20          # pressure iterations per time step


def pressure_bc(p):
    p[:, -1] = p[:, -2]   # dp/dx = 0 at x = 2
    p[0, :] = p[1, :]     # dp/dy = 0 at y = 0
    p[:, 0] = p[:, 1]     # dp/dx = 0 at x = 0
    p[-1, :] = 0.0        # p = 0 at y = 2 (the lid)


def velocity_bc(u, v):
    u[0, :] = 0.0
    u[:, 0] = 0.0
    u[:, -1] = 0.0
    u[-1, :] = U_LID      # the moving lid
    v[0, :] = 0.0
    v[-1, :] = 0.0
    v[:, 0] = 0.0
    v[:, -1] = 0.0


def build_up_b(b, u, v, dt, dx, dy):
    """Source term of the pressure Poisson equation, written into b."""
    dudx = (u[1:-1, 2:] - u[1:-1, 0:-2]) / (2 * dx)
    dvdy = (v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy)
    dudy = (u[2:, 1:-1] - u[0:-2, 1:-1]) / (2 * dy)
    dvdx = (v[1:-1, 2:] - v[1:-1, 0:-2]) / (2 * dx)
    b[1:-1, 1:-1] = RHO * (1 / dt * (dudx + dvdy) - dudx ** 2 - 2 * dudy * dvdx - dvdy ** 2)


def pressure_poisson(p, b, dx, dy):
    pn = np.empty_like(p)
    for q in range(NIT):
        pn[:] = p
        p[1:-1, 1:-1] = (((pn[1:-1, 2:] + pn[1:-1, 0:-2]) * dy ** 2
                          + (pn[2:, 1:-1] + pn[0:-2, 1:-1]) * dx ** 2)
                         / (2 * (dx ** 2 + dy ** 2))
                         - dx ** 2 * dy ** 2 / (2 * (dx ** 2 + dy ** 2)) * b[1:-1, 1:-1])
        pressure_bc(p)


def cavity_flow(u, v, p, nt, dt, dx, dy):
    """March nt steps, updating u, v, p in place; return the kinetic energy
    per step and the final centre-line u profile."""
    un = np.empty_like(u)
    vn = np.empty_like(v)
    b = np.zeros_like(p)
    energy = np.zeros(nt)
    for n in range(nt):
        un[:] = u
        vn[:] = v
        build_up_b(b, u, v, dt, dx, dy)
        pressure_poisson(p, b, dx, dy)
        u[1:-1, 1:-1] = (un[1:-1, 1:-1]
                         - un[1:-1, 1:-1] * dt / dx * (un[1:-1, 1:-1] - un[1:-1, 0:-2])
                         - vn[1:-1, 1:-1] * dt / dy * (un[1:-1, 1:-1] - un[0:-2, 1:-1])
                         - dt / (2 * RHO * dx) * (p[1:-1, 2:] - p[1:-1, 0:-2])
                         + NU * (dt / dx ** 2 * (un[1:-1, 2:] - 2 * un[1:-1, 1:-1] + un[1:-1, 0:-2])
                                 + dt / dy ** 2 * (un[2:, 1:-1] - 2 * un[1:-1, 1:-1] + un[0:-2, 1:-1])))
        v[1:-1, 1:-1] = (vn[1:-1, 1:-1]
                         - un[1:-1, 1:-1] * dt / dx * (vn[1:-1, 1:-1] - vn[1:-1, 0:-2])
                         - vn[1:-1, 1:-1] * dt / dy * (vn[1:-1, 1:-1] - vn[0:-2, 1:-1])
                         - dt / (2 * RHO * dy) * (p[2:, 1:-1] - p[0:-2, 1:-1])
                         + NU * (dt / dx ** 2 * (vn[1:-1, 2:] - 2 * vn[1:-1, 1:-1] + vn[1:-1, 0:-2])
                                 + dt / dy ** 2 * (vn[2:, 1:-1] - 2 * vn[1:-1, 1:-1] + vn[0:-2, 1:-1])))
        velocity_bc(u, v)
        energy[n] = 0.5 * np.sum(u * u + v * v) * dx * dy
    centre = u[:, u.shape[1] // 2].copy()
    return energy, centre


def make_inputs(size="small"):
    nx, nt = (9, 5) if size == "small" else (81, 700)
    dx = dy = 2.0 / (nx - 1)
    return dict(u=np.zeros((nx, nx)), v=np.zeros((nx, nx)), p=np.zeros((nx, nx)),
                nt=nt, dt=0.001 if size != "small" else 0.01, dx=dx, dy=dy)


if __name__ == "__main__":
    inputs = make_inputs("large")
    energy, centre = cavity_flow(**inputs)
    print(f"kinetic energy = {energy[-1]:.6f}")
    print(f"min centre u   = {centre.min():.6f}")
    print(f"sum p          = {inputs['p'].sum():.6f}")
