"""Random walk of tracer particles in a 1-D channel with reflecting walls.

Domain: diffusion of tracers across a slab [0, L]. The Gaussian steps are
drawn up front (so the run is reproducible and the kernel has no RNG in it);
each time step every particle moves, and a particle that leaves the slab is
mirrored back at the wall it crossed. Wall hits are counted per wall and the
final positions are binned into a histogram with np.add.at.
"""
import numpy as np

ENTRY = "walk"

L = 1.0
NBINS = 8


def reflect(x, hits):
    n = x.shape[0]
    for i in range(n):
        if x[i] < 0:
            x[i] = -x[i]
            hits[0] += 1
        elif x[i] > L:
            x[i] = 2 * L - x[i]
            hits[1] += 1


def walk(x, steps, drift, hist, hits):
    """Move the particles x in place; fill hist and hits; return mean path."""
    nt, n = steps.shape
    msd = np.zeros(nt)
    x0 = x.copy()
    for t in range(nt):
        for i in range(n):
            x[i] += steps[t, i] + drift
        reflect(x, hits)
        msd[t] = np.mean((x - x0) ** 2)
    bins = (x / L * NBINS).astype(np.int64)
    bins[bins == NBINS] = NBINS - 1
    hist[...] = 0
    np.add.at(hist, bins, 1)
    return msd


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        n, nt, sigma = 5, 10, 0.2
    else:
        n, nt, sigma = 20000, 500, 0.02
    x = L * rng.random(n)
    steps = sigma * rng.standard_normal((nt, n))
    return dict(x=x, steps=steps, drift=0.01 * sigma, hist=np.zeros(NBINS, dtype=np.int64),
                hits=np.zeros(2, dtype=np.int64))


if __name__ == "__main__":
    inputs = make_inputs("large")
    msd = walk(**inputs)
    print(f"msd end    = {msd[-1]:.6f}")
    print(f"hits       = {inputs['hits'].tolist()}")
    print(f"histogram  = {inputs['hist'].tolist()}")
    print(f"mean x     = {inputs['x'].mean():.6f}")
