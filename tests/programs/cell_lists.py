"""Slices bounded by values read from arrays through a name bound in the loop (`c = i % k`,
`lo = starts[c]`): `order[starts[c]:ends[c]]`, a cell list's neighbours (examples/scripts/
sph_cell_lists.py), read through npr_get's masked form (rewrite/rules/reads.py)."""

import numpy as np


def cell_sums(order, starts, ends, w, ncell):
    """Each point sums weights of its cell's members, gathered by a slice of the order: weighted,
    plain, less the largest (np.sum / np.max straight of the gather)."""
    n = order.shape[0]
    out = np.zeros(n, dtype=w.dtype)
    for i in range(n):
        c = i % ncell
        js = order[starts[c]:ends[c]]
        out[i] += np.sum(w[js] * (js + 1))
        out[i] += np.sum(w[js])  # (a masked reduction indexed with integers)
        if ends[c] > starts[c]:
            out[i] -= np.max(w[js])
    return out


def neighbour_density(pos, order, starts, ends, ncell):
    """Distances to the members of the cell and its right neighbour, minimum image, a kernel."""
    n = pos.shape[0]
    rho = np.zeros(n)
    for i in range(n):
        for dc in (0, 1):
            c = (i + dc) % ncell
            lo = starts[c]
            js = order[lo:ends[c]]
            d = pos[js] - pos[i]
            d -= np.round(d)
            r = np.sqrt(np.sum(d * d, axis=1))
            rho[i] += np.sum(np.where(r < 0.5, 1.0 - 2.0 * r, 0.0))
    return rho


def counted(order, starts, ends, ncell):
    """Integer results: each cell's member count and largest member."""
    counts = np.zeros(ncell, dtype=np.int64)
    top = np.full(ncell, -1, dtype=order.dtype)
    for c in range(ncell):
        k = c
        members = order[starts[k]:ends[k]]
        counts[c] = np.sum(members >= 0)
        if ends[k] > starts[k]:
            top[c] = np.max(members)
    return counts, top

