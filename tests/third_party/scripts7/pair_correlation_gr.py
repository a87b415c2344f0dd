"""Pair correlation g(r) of particles in a periodic box: minimum-image separations by
`d -= L * np.rint(d / L)`, distances below r_max binned by `np.histogram(r, bins=edges)` and by
`np.bincount((r / dr).astype(int), minlength=nbins)` of the masked distances, normalised by shell
volumes, accumulated over frames of a random walk into a running float64 array with `+=`.
"""
import numpy as np

L = 5.0
NB = 20
RMAX = 2.5


def pair_distances(pos):
    d = pos[:, None, :] - pos[None, :, :]
    d -= L * np.rint(d / L)
    r = np.sqrt((d ** 2).sum(axis=2))
    iu = np.triu_indices(pos.shape[0], k=1)
    return r[iu]


def gr_hist(pos, edges):
    r = pair_distances(pos)
    counts, _ = np.histogram(r, bins=edges)
    return counts


def gr_bincount(pos, dr):
    r = pair_distances(pos)
    r = r[r < RMAX]
    return np.bincount((r / dr).astype(int), minlength=NB)[:NB]


def normalise(counts, edges, n, nframes):
    shell = 4.0 / 3.0 * np.pi * (edges[1:] ** 3 - edges[:-1] ** 3)
    density = n / L ** 3
    return counts / (nframes * 0.5 * n * density * shell)


def run(pos, nframes, seed):
    np.random.seed(seed)
    edges = np.linspace(0.0, RMAX, NB + 1)
    acc = np.zeros(NB)
    acc2 = np.zeros(NB, dtype=np.int64)
    for f in range(nframes):
        pos += 0.1 * np.random.randn(*pos.shape)
        pos %= L
        acc += gr_hist(pos, edges)
        acc2 += gr_bincount(pos, RMAX / NB)
    return normalise(acc, edges, pos.shape[0], nframes), acc2, pos


def make_pos():
    g = np.linspace(0, L, 4, endpoint=False) + 0.3
    return np.stack(np.meshgrid(g, g, g, indexing="ij"), axis=-1).reshape(-1, 3)


CHECKS = {"run": lambda: (make_pos(), 4, 2), "gr_hist": lambda: (make_pos() * 0.97, np.linspace(0, RMAX, NB + 1)),
          "gr_bincount": lambda: (make_pos() * 0.97, RMAX / NB)}

if __name__ == "__main__":
    g, counts, pos = run(make_pos(), 5, 2)
    print(repr(g.round(8).tolist()), counts.tolist(), repr(pos.sum()))
