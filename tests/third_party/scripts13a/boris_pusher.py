"""Charged particles in crossed electric and magnetic fields pushed by the Boris scheme, in the
pattern of plasma-physics teaching codes: int8 charges (+1 / -1) and float masses, the field
interpolated from a grid by nearest-cell indices `np.floor_divide(x, CELL).astype(np.int64)`,
the half electric kick, the magnetic rotation with np.cross (t = qB dt / 2m, s = 2t / (1 + t^2)),
positions wrapped into the periodic box with np.mod (negative positions and -0.0 included),
cell crossings counted in a uint16 grid with np.add.at (of the mask as 0/1, the form NPR107's
hint gives for masked indices), the E x B drift measured against
E/B, the kinetic energy and the gyro-phase printed every few steps; a leapfrog that skips the
rotation (`if not magnetic: ...`) for comparison.
"""
import numpy as np

BOX = 8.0
NC = 8
CELL = BOX / NC
rng = np.random.default_rng(5)
NP = 12
Q = np.where(rng.random(NP) < 0.5, 1, -1).astype(np.int8)
M = np.where(Q > 0, 4.0, 1.0)
X0 = rng.random((NP, 3)) * BOX
X0[0] = [0.0, -0.0, BOX - 1e-12]
V0 = rng.standard_normal((NP, 3))


def fields(ncell):
    """A uniform B along z and an E along x that changes sign with the cell column."""
    E = np.zeros((ncell, ncell, 3))
    E[..., 0] = 0.5
    E[ncell // 2:, :, 0] *= -1.0
    B = np.zeros((ncell, ncell, 3))
    B[..., 2] = 2.0
    return E, B


def gather(grid, x):
    idx = np.floor_divide(x[:, :2], CELL).astype(np.int64) % NC
    return grid[idx[:, 0], idx[:, 1]]


def boris(x, v, q, m, E, B, dt, steps, counts, magnetic=True, every=10):
    qm = q / m
    cell_old = np.floor_divide(x[:, :2], CELL).astype(np.int64)
    ke0 = 0.5 * (m * (v * v).sum(axis=1)).sum()
    for n in range(1, steps + 1):
        e = gather(E, x)
        b = gather(B, x)
        v += 0.5 * dt * qm[:, None] * e
        if magnetic:
            t = 0.5 * dt * qm[:, None] * b
            s = 2.0 * t / (1.0 + (t * t).sum(axis=1, keepdims=True))
            v_prime = v + np.cross(v, t)
            v += np.cross(v_prime, s)
        v += 0.5 * dt * qm[:, None] * e
        x += dt * v
        x[:] = np.mod(x, BOX)
        cell = np.floor_divide(x[:, :2], CELL).astype(np.int64)
        moved = np.any(cell != cell_old, axis=1)
        # (first `np.add.at(counts, (cell[moved, 0], cell[moved, 1]), 1)`: NPR107)
        np.add.at(counts, (cell[:, 0], cell[:, 1]), moved.astype(np.uint16))
        cell_old = cell
        if n % every == 0:
            ke = 0.5 * (m * (v * v).sum(axis=1)).sum()
            phase = np.arctan2(v[0, 1], v[0, 0])
            print("step", n, "ke/ke0", "%.9f" % (ke / ke0), "phase", "%.6f" % phase, "crossings", int(counts.sum()))
    return ke0


def drift_speed(q, m, e, b, dt, steps):
    """One particle in uniform fields: the mean velocity over many gyrations, against E x B / B^2."""
    x = np.zeros((1, 3))
    v = np.zeros((1, 3))
    mean = np.zeros(3)
    for _ in range(steps):
        v += 0.5 * dt * q / m * e
        t = 0.5 * dt * q / m * b
        s = 2.0 * t / (1.0 + t @ t)
        v += np.cross(v + np.cross(v, t), s)
        v += 0.5 * dt * q / m * e
        x += dt * v
        mean += v[0] / steps
    return mean, np.cross(e, b) / (b @ b)


def wrap_signs(x):
    w = np.mod(x, BOX)
    return w, np.signbit(w), np.floor_divide(x, CELL)


CHECKS = {
    "boris": lambda: (X0.copy(), V0.copy(), Q, M, *fields(NC), 0.05, 30, np.zeros((NC, NC), np.uint16)),
    "boris#electric": lambda: (X0.copy(), V0.copy(), Q, M, *fields(NC), 0.05, 20, np.zeros((NC, NC), np.uint16), False, 5),
    "gather": lambda: (fields(NC)[0], np.array([[0.0, -0.0, 1.0], [-0.5, 7.99, 0.0], [8.0, 3.0, 2.0]])),
    "drift_speed": lambda: (-1, 1.0, np.array([0.5, 0.0, 0.0]), np.array([0.0, 0.0, 2.0]), 0.05, 200),
    "wrap_signs": lambda: (np.array([-0.0, 0.0, -8.0, 8.0, -1e-17, 15.999999999999998, -3.5]),),
    "fields": lambda: (4,),
}

if __name__ == "__main__":
    E, B = fields(NC)
    x, v = X0.copy(), V0.copy()
    counts = np.zeros((NC, NC), dtype=np.uint16)
    ke0 = boris(x, v, Q, M, E, B, 0.05, 60, counts, every=20)
    print("ke0", "%.9f" % ke0, "counts dtype", counts.dtype, "busiest", np.unravel_index(np.argmax(counts), counts.shape))
    mean, expected = drift_speed(1, 1.0, np.array([0.5, 0.0, 0.0]), np.array([0.0, 0.0, 2.0]), 0.05, 400)
    print("drift", np.round(mean, 6), "E x B / B^2", expected)
    print(wrap_signs(np.array([-0.0, 0.0, -8.0, 8.0, -1e-17, -3.5])))
