"""Marching squares contour extraction (the pattern of "isolines from scratch" scripts): a
scalar field from module-level metaballs, the 4-bit case index of each cell built from corner
comparisons with `<<` and `|` into a uint8 array, an int8 edge-pair lookup table (with the two
saddle cases resolved by the cell-centre average), segment end points by linear interpolation
along edges written into a preallocated (n, 2, 2) float array with a running count (first
written with a `break` and an early return when full, NPR030; then guarded by an `if`), the total contour length, a filled-area estimate from the case
counts via `np.bincount(minlength=16)`, and the contours at several levels in a loop.
"""
import numpy as np

N = 24
_y, _x = np.mgrid[0:N, 0:N] / (N - 1.0)
CENTRES = np.array([[0.3, 0.35, 0.02], [0.65, 0.6, 0.03], [0.7, 0.25, 0.012]])
FIELD = sum(r / ((_x - cx) ** 2 + (_y - cy) ** 2 + 1e-3) for cx, cy, r in CENTRES)

# edges: 0 bottom, 1 right, 2 top, 3 left; each case lists up to two (edge, edge) segments
TABLE = np.array([
    [-1, -1, -1, -1], [3, 0, -1, -1], [0, 1, -1, -1], [3, 1, -1, -1],
    [1, 2, -1, -1], [3, 2, 1, 0], [0, 2, -1, -1], [3, 2, -1, -1],
    [2, 3, -1, -1], [2, 0, -1, -1], [2, 1, 0, 3], [2, 1, -1, -1],
    [1, 3, -1, -1], [1, 0, -1, -1], [0, 3, -1, -1], [-1, -1, -1, -1]], dtype=np.int8)


ONES = np.array([bin(k).count("1") for k in range(16)])


def cases(f, level):
    above = (f > level).astype(np.uint8)
    idx = above[:-1, :-1] | (above[:-1, 1:] << 1) | (above[1:, 1:] << 2) | (above[1:, :-1] << 3)
    return idx


def edge_point(f, i, j, edge, level):
    if edge == 0:
        a, b, p, q = f[i, j], f[i, j + 1], (j, i), (j + 1, i)
    elif edge == 1:
        a, b, p, q = f[i, j + 1], f[i + 1, j + 1], (j + 1, i), (j + 1, i + 1)
    elif edge == 2:
        a, b, p, q = f[i + 1, j + 1], f[i + 1, j], (j + 1, i + 1), (j, i + 1)
    else:
        a, b, p, q = f[i + 1, j], f[i, j], (j, i + 1), (j, i)
    t = (level - a) / (b - a)
    return p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])


def contour(f, level, segs):
    idx = cases(f, level)
    n = 0
    for i in range(idx.shape[0]):
        for j in range(idx.shape[1]):
            c = idx[i, j]
            if c == 5 or c == 10:
                centre = 0.25 * (f[i, j] + f[i, j + 1] + f[i + 1, j] + f[i + 1, j + 1])
                if centre > level:
                    c = 15 - c
            for s in range(2):
                e0 = TABLE[c, 2 * s]
                if e0 < 0:
                    break
                if n == segs.shape[0]:
                    return n
                segs[n, 0] = edge_point(f, i, j, e0, level)
                segs[n, 1] = edge_point(f, i, j, TABLE[c, 2 * s + 1], level)
                n += 1
    return n


def contour_guarded(f, level, segs):
    idx = cases(f, level)
    n = 0
    for i in range(idx.shape[0]):
        for j in range(idx.shape[1]):
            c = idx[i, j]
            if c == 5 or c == 10:
                centre = 0.25 * (f[i, j] + f[i, j + 1] + f[i + 1, j] + f[i + 1, j + 1])
                if centre > level:
                    c = 15 - c
            for s in range(2):
                e0 = TABLE[c, 2 * s]
                if e0 >= 0 and n < segs.shape[0]:
                    segs[n, 0] = edge_point(f, i, j, e0, level)
                    segs[n, 1] = edge_point(f, i, j, TABLE[c, 2 * s + 1], level)
                    n += 1
    return n


def length(segs, n):
    d = segs[:n, 1] - segs[:n, 0]
    return np.sqrt((d ** 2).sum(axis=1)).sum()


def area_estimate(f, level):
    counts = np.bincount(cases(f, level).ravel(), minlength=16)
    return (counts * ONES).sum() / 4.0


CHECKS = {
    "cases": lambda: (FIELD, 1.0),
    "edge_point": lambda: (FIELD, 3, 4, 2, 1.0),
    "contour": lambda: (FIELD[:8, :8], 1.0, np.zeros((40, 2, 2))),
    "contour#full": lambda: (FIELD, 0.8, np.zeros((5, 2, 2))),
    "contour_guarded": lambda: (FIELD[:8, :8], 1.0, np.zeros((40, 2, 2))),
    "contour_guarded#full": lambda: (FIELD, 0.8, np.zeros((5, 2, 2))),
    "length": lambda: (np.arange(24.0).reshape(6, 2, 2) ** 0.5, 4),
    "area_estimate": lambda: (FIELD, 1.5),
}

if __name__ == "__main__":
    segs = np.zeros((400, 2, 2))
    for level in (0.6, 1.0, 2.5):
        n = contour_guarded(FIELD, level, segs)
        print("level", level, "segments", n, "length", length(segs, n), "area", area_estimate(FIELD, level))
    print("first", segs[0].ravel(), "case dtype", cases(FIELD, 1.0).dtype)
    print("saddles", int(np.isin(cases(FIELD, 1.2), [5, 10]).sum()))
