"""Particles set up with jax.numpy (float32 positions, int32 cell ids), pushed with NumPy.

The set-up returns jax.Arrays; the solver copies them with `np.array` and runs NumPy. A
`np.float64` time step makes `pos = pos + dt * vel` float64 from the first step on (a strong
NumPy scalar), while `vel *= damp` keeps float32 (in place). Cell counts use `np.add.at` on an
int32 histogram indexed by the int32 ids; the ids are moved with `ids = (ids + 1) % NCELL`
(int32 with a Python int stays int32).
"""
import jax.numpy as jnp
import numpy as np

NP = 48
NCELL = 8
DT = np.float64(0.05)


def setup(n):
    k = jnp.arange(n, dtype=jnp.float32)
    pos = jnp.sin(k * 0.37) * 0.5 + 0.5
    vel = jnp.cos(k * 0.11) * 0.2
    ids = (jnp.arange(n, dtype=jnp.int32) * 3) % NCELL
    return pos, vel, ids


def push(pos0, vel0, ids0, dt, nsteps):
    pos = np.array(pos0)
    vel = np.array(vel0)
    ids = np.asarray(ids0)
    counts = np.zeros(NCELL, dtype=np.int32)
    damp = 0.999
    for step in range(nsteps):
        pos = pos + dt * vel
        vel *= damp
        out = (pos < 0.0) | (pos > 1.0)
        vel[out] = -vel[out]
        pos = np.clip(pos, 0.0, 1.0)
        ids = (ids + 1) % NCELL
        np.add.at(counts, ids, 1)
    return pos, vel, ids, counts


def energy(vel):
    return 0.5 * np.sum(vel * vel)


def run(pos0, vel0, ids0, dt, nsteps):
    pos, vel, ids, counts = push(pos0, vel0, ids0, dt, nsteps)
    e = energy(vel)
    return pos.dtype.name, vel.dtype.name, ids.dtype.name, counts, e, pos, vel, ids


def make_inputs(size="small"):
    pos, vel, ids = setup(NP)
    return (pos, vel, ids, DT, 9)


def make_numpy_inputs():
    pos, vel, ids = setup(NP)
    return (np.asarray(pos), np.asarray(vel), np.asarray(ids), DT, 9)


CHECKS = {
    "run": make_inputs,
    "run#numpy": make_numpy_inputs,
    "run#python_dt": lambda: make_inputs()[:3] + (0.05, 9),
    "energy": lambda: (np.asarray(setup(NP)[1]),),
}

if __name__ == "__main__":
    pos, vel, ids = setup(NP)
    result = run(pos, vel, ids, DT, 9)
    print(result[:3], result[3].tolist(), repr(result[4]), type(result[4]).__name__)
    print(repr(result[5].sum()), repr(result[6].sum()), int(result[7].sum()))
    e = energy(np.asarray(vel))
    print("energy", repr(e), type(e).__name__)
