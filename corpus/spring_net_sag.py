"""A hanging spring network: a square mesh of masses joined by springs, sagging under gravity.

Domain: mass-spring cloth / structural mechanics. The mesh (nodes and the list of springs along
rows, columns and both diagonals) is built by set-up code from `np.meshgrid(range(nx), range(ny))`.
Each step accumulates the Hooke forces of every spring on both of its ends with np.add.at, adds
gravity and linear damping, and advances with semi-implicit Euler. The top row is pinned by a
boundary helper that returns the corrected pair (`pos, vel = pin(pos, vel, fixed, anchor)`).
Elastic, kinetic and gravitational energy are printed every few steps; the mesh settles.
"""
import numpy as np

ENTRY = "run_springs"

G = 9.81


def square_mesh(nx, ny, a):
    """Node positions (nx*ny, 2), row-major with y pointing up, the springs (m, 2) and the
    indices of the top row."""
    X, Y = np.meshgrid(range(nx), range(ny))
    pos = a * np.stack([X.ravel(), Y.ravel()], axis=1).astype(float)
    idx = np.arange(nx * ny).reshape(ny, nx)
    springs = np.concatenate([
        np.stack([idx[:, :-1].ravel(), idx[:, 1:].ravel()], axis=1),     # along rows
        np.stack([idx[:-1, :].ravel(), idx[1:, :].ravel()], axis=1),     # along columns
        np.stack([idx[:-1, :-1].ravel(), idx[1:, 1:].ravel()], axis=1),  # diagonals
        np.stack([idx[:-1, 1:].ravel(), idx[1:, :-1].ravel()], axis=1),
    ])
    return pos, springs, idx[-1]


def spring_forces(pos, springs, rest, k):
    """Hooke forces on the nodes and the elastic energy."""
    i, j = springs[:, 0], springs[:, 1]
    d = pos[j] - pos[i]
    length = np.sqrt(np.sum(d * d, axis=1))
    stretch = length - rest
    f = (k * stretch / length)[:, None] * d
    force = np.zeros_like(pos)
    np.add.at(force, i, f)
    np.add.at(force, j, -f)
    return force, 0.5 * k * np.sum(stretch * stretch)


def pin(pos, vel, fixed, anchor):
    pos[fixed] = anchor
    vel[fixed] = 0.0
    return pos, vel


def run_springs(pos, vel, springs, fixed, mass, k, damping, dt, nsteps, every):
    """Advance pos and vel in place (the nodes `fixed` pinned); returns the total energy per
    step."""
    ytop = pos[:, 1].max()
    anchor = pos[fixed].copy()
    d0 = pos[springs[:, 1]] - pos[springs[:, 0]]
    rest = np.sqrt(np.sum(d0 * d0, axis=1))
    total = np.zeros(nsteps)
    for step in range(nsteps):
        force, elastic = spring_forces(pos, springs, rest, k)
        force[:, 1] -= mass * G
        force -= damping * vel
        vel += dt * force / mass
        pos += dt * vel
        pos, vel = pin(pos, vel, fixed, anchor)
        kinetic = 0.5 * mass * np.sum(vel * vel)
        gravity = mass * G * np.sum(pos[:, 1] - ytop)
        total[step] = elastic + kinetic + gravity
        if step % every == 0:
            print(f"step {step:5d}  elastic = {elastic:.10f}  kinetic = {kinetic:.10f}"
                  f"  gravity = {gravity:.10f}")
    return total


def make_inputs(size="small"):
    nx, ny, nsteps, every = (3, 3, 6, 2) if size == "small" else (30, 20, 4000, 500)
    pos, springs, top = square_mesh(nx, ny, 0.1)
    return dict(pos=pos, vel=np.zeros_like(pos), springs=springs, fixed=top, mass=0.01, k=50.0,
                damping=0.02, dt=1e-3, nsteps=nsteps, every=every)


if __name__ == "__main__":
    inputs = make_inputs("large")
    total = run_springs(**inputs)
    print(f"final energy = {total[-1]:.10f}")
    print(f"lowest node  = {inputs['pos'][:, 1].min():.10f}")
