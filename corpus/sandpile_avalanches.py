"""Bak-Tang-Wiesenfeld sandpile: avalanches of a self-organised critical system.

Domain: statistical physics (self-organised criticality). Grains are dropped one at a time on
random sites of an n x n table, drawn from a seeded generator passed in. A site holding four or
more grains topples, giving one grain to each neighbour; grains pushed over the edge are lost.
After each drop the table topples until it is stable, in a data-dependent `while` loop whose
body rebinds the table through a helper that writes it and returns it (`Z = topple(Z)`). The
avalanche sizes (number of topplings) follow a power law once the pile is critical; the mass on
the table and the mean avalanche size are printed every few drops.
"""
import numpy as np

ENTRY = "drive_pile"
# np2ref: verify vmap  (integer state only: nothing to differentiate)


def empty_table(n):
    return np.zeros((n, n), dtype=np.int64)


def topple(Z):
    """One parallel toppling of every unstable site; grains leaving the table are lost."""
    unstable = (Z >= 4).astype(np.int64)
    Z -= 4 * unstable
    Z[1:, :] += unstable[:-1, :]
    Z[:-1, :] += unstable[1:, :]
    Z[:, 1:] += unstable[:, :-1]
    Z[:, :-1] += unstable[:, 1:]
    return Z


def drive_pile(Z, ndrops, every, rng):
    """Drop ndrops grains on the table Z (relaxed in place); returns the avalanche sizes."""
    n = Z.shape[0]
    sizes = np.zeros(ndrops, dtype=np.int64)
    for drop in range(ndrops):
        i = rng.integers(0, n)
        j = rng.integers(0, n)
        Z[i, j] += 1
        while np.any(Z >= 4):
            sizes[drop] += np.count_nonzero(Z >= 4)
            Z = topple(Z)
        if drop % every == 0:
            print(f"drop {drop:6d}  mass = {Z.sum():6d}  mean density = {Z.mean():.6f}"
                  f"  mean avalanche = {sizes[:drop + 1].mean():.6f}")
    return sizes


def make_inputs(size="small"):
    rng = np.random.default_rng(17)
    n, ndrops, every = (5, 40, 10) if size == "small" else (24, 6000, 1000)
    Z = empty_table(n)
    Z += rng.integers(0, 4, size=(n, n))  # a random stable start
    return dict(Z=Z, ndrops=ndrops, every=every, rng=rng)


if __name__ == "__main__":
    inputs = make_inputs("large")
    sizes = drive_pile(**inputs)
    big = sizes[sizes > 0]
    print(f"avalanches = {big.size}, largest = {sizes.max()}")
    print(f"mean density at the end = {inputs['Z'].mean():.6f} (critical ~ 2.125)")
