"""Explicit seven-point finite-difference solver for the 3-D heat equation.

Domain: transient conduction in a block of material (a furnace wall sample).
Forward Euler in time, second-order central differences in space on a
uniform grid. The bottom face is heated (fixed temperature), the top face
loses heat to ambient through a Robin (convective) condition written with
ghost-free one-sided differences, and the four side faces are insulated
(zero normal gradient, copied from the first interior plane). A heat source
switches on in a small cube in the middle after a delay.
"""
import numpy as np

ENTRY = "simulate"

T_BOTTOM = 400.0      # K, heated face
T_AMBIENT = 300.0     # K
BIOT = 0.3            # h dx / k of the top face
SOURCE_DELAY = 3      # steps before the internal source switches on


def insulate_sides(T):
    """Zero-gradient side faces, in place."""
    T[:, 0, :] = T[:, 1, :]
    T[:, -1, :] = T[:, -2, :]
    T[:, :, 0] = T[:, :, 1]
    T[:, :, -1] = T[:, :, -2]


def apply_faces(T):
    T[0] = T_BOTTOM
    # Robin: -k dT/dz = h (T - T_amb)  ->  T_top = (T_below + Bi T_amb) / (1 + Bi)
    T[-1] = (T[-2] + BIOT * T_AMBIENT) / (1.0 + BIOT)
    insulate_sides(T)


def step(T, lap, r, q):
    """One forward-Euler step; lap is a work array of T's shape."""
    lap[...] = 0.0
    lap[1:-1, 1:-1, 1:-1] = (T[2:, 1:-1, 1:-1] + T[:-2, 1:-1, 1:-1]
                             + T[1:-1, 2:, 1:-1] + T[1:-1, :-2, 1:-1]
                             + T[1:-1, 1:-1, 2:] + T[1:-1, 1:-1, :-2]
                             - 6.0 * T[1:-1, 1:-1, 1:-1])
    T += r * lap
    T += q
    apply_faces(T)


def simulate(T, r, steps, q_source):
    """Advance T in place for `steps` steps; return the mean-temperature
    history and the heat flux through the bottom face per step."""
    nz, ny, nx = T.shape
    lap = np.zeros_like(T)
    q = np.zeros_like(T)
    mean_T = np.zeros(steps)
    flux = np.zeros(steps)
    c = nz // 2
    apply_faces(T)
    for k in range(steps):
        if k == SOURCE_DELAY:
            q[c - 1:c + 1, ny // 2 - 1:ny // 2 + 1, nx // 2 - 1:nx // 2 + 1] = q_source
        step(T, lap, r, q)
        mean_T[k] = T[1:-1].mean()
        flux[k] = np.sum(T[0, 1:-1, 1:-1] - T[1, 1:-1, 1:-1])
    return mean_T, flux


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        nz, ny, nx, steps = 6, 5, 7, 8
    else:
        nz, ny, nx, steps = 64, 96, 96, 1500
    T = T_AMBIENT + rng.random((nz, ny, nx))
    return dict(T=T, r=0.15, steps=steps, q_source=2.0)


if __name__ == "__main__":
    inputs = make_inputs("large")
    mean_T, flux = simulate(**inputs)
    print(f"mean T end   = {mean_T[-1]:.6f}")
    print(f"bottom flux  = {flux[-1]:.6f}")
    print(f"max T        = {inputs['T'].max():.6f}")
