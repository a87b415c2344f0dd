"""Lennard-Jones particles in a periodic cube: pair loops, minimum image by np.rint, velocity Verlet.

Domain: molecular dynamics in reduced units, positions stored as a (3, N) array (one row per
axis) as a port of a Fortran/Numba code keeps them. The force routine loops over pairs i < j,
folds each separation with `X -= box[0] * np.rint(X / box[0])`, and inside the cut-off adds
the pair force to both particles (`F[0, i] -= ff * X`), accumulating the potential energy and
the virial in Python floats. The driver folds positions back with `U %= box[:, None]` and
records the total energy per step in a preallocated history. Pattern from public MD scripts
(docs/scripts.md); written anew here.
"""
import numpy as np

# np2ref: verify vmap  (grad: the inner pair loop's bound depends on i, so under grad the outer loop is traced one iteration at a time, past the trace budget)

ENTRY = "run"

RC2 = 2.5 ** 2
RC6I = (1.0 / RC2) ** 3
ECUT = RC6I * (RC6I - 1.0)


def lennardjones(U, box):
    npart = U.shape[1]
    F = np.zeros((3, npart))
    Epot = 0.0
    Vir = 0.0
    for i in range(npart):
        for j in range(i + 1, npart):
            X = U[0, j] - U[0, i]
            Y = U[1, j] - U[1, i]
            Z = U[2, j] - U[2, i]
            X -= box[0] * np.rint(X / box[0])
            Y -= box[1] * np.rint(Y / box[1])
            Z -= box[2] * np.rint(Z / box[2])
            r2 = X * X + Y * Y + Z * Z
            if r2 < RC2:
                r2i = 1.0 / r2
                r6i = r2i * r2i * r2i
                Epot = Epot + r6i * (r6i - 1.0) - ECUT
                ff = 48 * r2i * r6i * (r6i - 0.5)
                F[0, i] -= ff * X
                F[1, i] -= ff * Y
                F[2, i] -= ff * Z
                F[0, j] += ff * X
                F[1, j] += ff * Y
                F[2, j] += ff * Z
                Vir += ff * r2
    return F, 4.0 * Epot, Vir


def run(U, V, box, dt, nsteps):
    """Advance U and V in place; returns the total energy after each step and the last virial."""
    F, Epot, Vir = lennardjones(U, box)
    energies = np.zeros(nsteps)
    for s in range(nsteps):
        V += 0.5 * dt * F
        U += dt * V
        U %= box[:, None]
        F, Epot, Vir = lennardjones(U, box)
        V += 0.5 * dt * F
        energies[s] = Epot + 0.5 * np.sum(V * V)
    return energies, Vir


def make_inputs(size="small"):
    rng = np.random.default_rng(2)
    n, nsteps = (3, 4) if size == "small" else (6, 200)
    g = np.arange(n) * 1.2
    U = np.array(np.meshgrid(g, g, g)).reshape(3, -1) + 0.05 * rng.random((3, n ** 3))
    V = 0.1 * rng.standard_normal((3, n ** 3))
    box = np.full(3, 1.2 * n)
    return dict(U=U, V=V, box=box, dt=0.002, nsteps=nsteps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    energies, vir = run(**inputs)
    print(f"energy drift = {energies[-1] - energies[0]:.3e}")
    print(f"final energy = {energies[-1]:.6f}")
    print(f"virial       = {vir:.6f}")
