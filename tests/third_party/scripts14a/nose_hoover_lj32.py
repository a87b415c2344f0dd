"""A Lennard-Jones fluid in float32 under a Nose-Hoover thermostat, in the pattern of molecular
dynamics course codes: particles on a cubic lattice made with jax.numpy at module level and
handed to the NumPy code as float32 jax.Arrays, velocities drawn with a seed and the centre of
mass drift removed in place, pair forces with the minimum image by `np.rint`, a cutoff mask and
the shifted potential, forces written into an array handed in, the thermostat variable xi
integrated beside velocity Verlet (the velocities scaled by exp(-xi dt/2) before and after),
the conserved extended energy and the temperature printed every few steps, positions wrapped
with `%=`.
"""
import jax.numpy as jnp
import numpy as np

N_SIDE = 3
N = N_SIDE ** 3
RHO = np.float32(0.8)
BOX = np.float32((N / RHO) ** (1.0 / 3.0))
RC = np.float32(2.5)
grid = jnp.arange(N_SIDE, dtype=jnp.float32)
LATTICE = jnp.stack(jnp.meshgrid(grid, grid, grid, indexing="ij"), axis=-1).reshape(-1, 3) * (BOX / N_SIDE)
rng = np.random.default_rng(31)
V_START = rng.normal(0.0, 1.0, (N, 3)).astype(np.float32)


def remove_drift(v):
    v -= v.mean(axis=0)
    return v


def forces(x, box, f):
    d = x[:, None, :] - x[None, :, :]
    d -= box * np.rint(d / box)
    r2 = (d * d).sum(axis=2)
    np.fill_diagonal(r2, np.inf)
    inside = r2 < RC * RC
    inv6 = np.where(inside, 1.0 / r2 ** 3, 0.0).astype(np.float32)
    shift = np.float32(4.0) * (RC ** -12 - RC ** -6)
    pot = 0.5 * np.sum(np.where(inside, 4.0 * (inv6 * inv6 - inv6) - shift, 0.0))
    coef = np.where(inside, 24.0 * (2.0 * inv6 * inv6 - inv6) / r2, 0.0).astype(np.float32)
    f[...] = (coef[:, :, None] * d).sum(axis=1)
    return pot


def temperature(v):
    return (v * v).sum() / (3 * (v.shape[0] - 1))


def run(x0, v0, dt, steps, t_target, q_mass, every):
    x = np.array(x0)
    v = remove_drift(np.array(v0, dtype=np.float32))
    f = np.zeros_like(x)
    pot = forces(x, BOX, f)
    xi = 0.0
    s = 0.0
    g = 3 * (x.shape[0] - 1)
    history = np.zeros((steps // every, 3), dtype=np.float32)
    for n in range(1, steps + 1):
        v *= np.exp(-0.5 * dt * xi)
        v += 0.5 * dt * f
        x += dt * v
        x %= BOX
        pot = forces(x, BOX, f)
        v += 0.5 * dt * f
        kin = 0.5 * (v * v).sum()
        xi += dt * (2.0 * kin - g * t_target) / q_mass
        s += dt * xi
        v *= np.exp(-0.5 * dt * xi)
        if n % every == 0:
            kin = 0.5 * (v * v).sum()
            ext = kin + pot + 0.5 * q_mass * xi * xi + g * t_target * s
            history[n // every - 1] = pot, kin, ext
            print("step", n, "T", "%.3f" % temperature(v), "E_ext", "%.2f" % ext)
    return x, v, history


CHECKS = {
    "remove_drift": lambda: (V_START.copy(),),
    "forces": lambda: (np.asarray(LATTICE) + np.float32(0.05) * V_START, BOX, np.zeros((N, 3), np.float32)),
    "temperature": lambda: (V_START,),
    "run": lambda: (LATTICE, V_START, 0.004, 20, 1.0, 2.0, 10),
    "run#list_velocities": lambda: (np.asarray(LATTICE), V_START[:, :].tolist(), 0.004, 8, 0.7, 5.0, 4),
}

if __name__ == "__main__":
    print("box", "%.5f" % BOX, "N", N, "lattice dtype", np.asarray(LATTICE).dtype)
    x, v, history = run(LATTICE, V_START, 0.004, 60, 1.0, 2.0, 20)
    print("dtypes", x.dtype, v.dtype, history.dtype)
    drift = history[:, 2].max() - history[:, 2].min()
    print("extended energy drift small", bool(drift < 0.05 * abs(history[0, 2])))
    print("inside box", bool(((x >= 0) & (x < BOX)).all()))
