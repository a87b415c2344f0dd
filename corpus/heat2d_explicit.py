"""Explicit five-point finite-difference solver for the 2-D heat equation.

Domain: temperature in a rectangular plate. The top edge and left edge are
held at fixed temperatures, the bottom edge follows a prescribed profile
(stored right-to-left, as the instrument logged it), the right edge is
insulated, and a set of embedded hot inclusions is clamped to a fixed value.
Newtonian cooling to ambient acts throughout the interior.
"""
import numpy as np

ENTRY = "simulate"

T_AMBIENT = 15.0
COOLING = 1.0e-3


def apply_dirichlet(u, t_top, t_left, bottom_profile):
    """Impose the boundary conditions on u in place."""
    u[0, :] = t_top
    ut = u.T                       # transposed view: row 0 is the left column
    ut[0] = t_left
    u[-1, ::-1] = bottom_profile   # profile recorded from right to left
    u[:, -1] = u[:, -2]            # insulated right edge


def laplacian(u, lap):
    """Five-point Laplacian of u written into lap (zero on the boundary)."""
    lap.fill(0.0)
    lap[1:-1, 1:-1] = (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:]
                       + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1])


def step(u, lap, alpha):
    laplacian(u, lap)
    u[1:-1, 1:-1] += alpha * lap[1:-1, 1:-1]
    u[1:-1, 1:-1] -= COOLING * (u[1:-1, 1:-1] - T_AMBIENT)


def simulate(u, alpha, steps, t_top, t_left, bottom_profile, hot_mask, t_hot):
    """Advance the plate temperature u in place; return the centre history."""
    ny, nx = u.shape
    lap = np.zeros_like(u)
    centre = np.zeros(steps)
    apply_dirichlet(u, t_top, t_left, bottom_profile)
    for k in range(steps):
        step(u, lap, alpha)
        u[hot_mask] = t_hot
        apply_dirichlet(u, t_top, t_left, bottom_profile)
        centre[k] = u[ny // 2, nx // 2]
    return centre


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        ny, nx, steps = 10, 12, 8
    else:
        ny, nx, steps = 200, 240, 2000
    u = T_AMBIENT + rng.random((ny, nx))
    bottom_profile = 40.0 + 10.0 * np.sin(np.linspace(0.0, np.pi, nx))
    hot_mask = rng.random((ny, nx)) < 0.02
    hot_mask[0, :] = False
    hot_mask[-1, :] = False
    hot_mask[ny // 3, nx // 3] = True
    return dict(u=u, alpha=0.2, steps=steps, t_top=100.0, t_left=0.0,
                bottom_profile=bottom_profile, hot_mask=hot_mask, t_hot=250.0)


if __name__ == "__main__":
    inputs = make_inputs("large")
    centre = simulate(**inputs)
    u = inputs["u"]
    print(f"sum    = {u.sum():.6f}")
    print(f"max    = {u.max():.6f}")
    print(f"centre = {centre[-1]:.6f}")
