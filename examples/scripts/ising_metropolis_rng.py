"""2-D Ising model, checkerboard Metropolis with np.random.default_rng (docs/scripts.md).

Spins are int64 +-1 on an L x L periodic lattice; each sweep updates the two sublattices of
a checkerboard mask in turn, the neighbour sum from np.roll, the acceptance from a table of
Boltzmann factors indexed by the integer energy change. Magnetisation and energy are printed
every few sweeps.
"""
import numpy as np

ENTRY = "simulate"
J = 1.0
PRINT_EVERY = 5


def neighbour_sum(s):
    return (np.roll(s, 1, axis=0) + np.roll(s, -1, axis=0)
            + np.roll(s, 1, axis=1) + np.roll(s, -1, axis=1))


def energy(s):
    return -J * np.sum(s * (np.roll(s, 1, axis=0) + np.roll(s, 1, axis=1))) / s.size


def simulate(spins, beta, nsweeps, seed):
    rng = np.random.default_rng(seed)
    L = spins.shape[0]
    ii, jj = np.indices((L, L))
    black = (ii + jj) % 2 == 0
    boltz = np.exp(-2.0 * beta * J * np.arange(-4, 5))
    mags = np.zeros(nsweeps)
    for sweep in range(nsweeps):
        for mask in (black, ~black):
            nb = neighbour_sum(spins)
            dE = spins * nb                     # in units of 2J, from -4 to 4
            r = rng.random((L, L))
            flip = mask & (r < boltz[dE + 4])
            spins[flip] *= -1
        mags[sweep] = np.abs(spins.mean())
        if sweep % PRINT_EVERY == 0:
            print(sweep, repr(float(mags[sweep])), repr(float(energy(spins))))
    return mags


def make_inputs(size="small"):
    L = 8 if size == "small" else 32
    rng = np.random.default_rng(1)
    spins = np.where(rng.random((L, L)) < 0.5, -1, 1)
    return dict(spins=spins, beta=0.6, nsweeps=12, seed=7)


if __name__ == "__main__":
    inputs = make_inputs("large")
    mags = simulate(**inputs)
    print(repr(mags.tolist()))
    print(repr(int(inputs["spins"].sum())), repr(float(energy(inputs["spins"]))))
