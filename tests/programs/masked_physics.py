"""Programs for tests/masks/test_masked_physics.py: shapes of third-party physics code that np2ref
refused or diagnosed poorly (particle cutoffs through masks, ...)."""

import numpy as np


# -- Lennard-Jones cutoffs through a mask ----------------------------------------------------
def lj_forces(d, rc2, eps):
    r2 = (d ** 2).sum(axis=1)
    mask = r2 < rc2
    inv = np.zeros_like(r2)
    inv[mask] = 1.0 / r2[mask]
    return 24 * eps * (2 * inv ** 7 - inv ** 4)


def lj_kept_root(d, rc2):
    r2 = (d ** 2).sum(axis=1)
    mask = r2 < rc2
    r = np.sqrt(r2[mask])
    e = np.zeros_like(r2)
    e[mask] = 4 * (r ** -12 - r ** -6)
    return e


def lj_kept_chain(d, rc2):
    r2 = np.sum(d * d, axis=-1)
    mask = r2 < rc2
    inv2 = 1.0 / r2[mask]
    inv6 = inv2 * inv2 * inv2
    e = np.zeros(r2.shape)
    e[mask] = 4.0 * inv6 * (inv6 - 1.0)
    e[mask] += 0.5 * inv2
    return e, e.sum()


def lj_shifted_energy(d, rc2, eps):
    r2 = (d ** 2).sum(axis=1)
    mask = r2 < rc2
    sr6 = (1.0 / r2[mask]) ** 3
    shift = 4 * ((1 / rc2) ** 6 - (1 / rc2) ** 3)
    return 4 * eps * np.sum(sr6 ** 2 - sr6) - shift * np.count_nonzero(mask)


def lj_force_vectors(d, rc2):
    r2 = (d ** 2).sum(axis=1)
    mask = r2 < rc2
    f = np.zeros_like(d)
    f[mask] = d[mask] / r2[mask][:, None]
    g = np.zeros_like(d)
    g[mask] = d[mask] * (1.0 / r2[mask, None]) ** 4
    return f, g


def lj_pair_loop(x, rc2):
    n = x.shape[0]
    f = np.zeros_like(x)
    for i in range(n):
        d = x[i] - x
        r2 = (d ** 2).sum(axis=1)
        mask = (r2 < rc2) & (r2 > 0)
        inv2 = 1.0 / r2[mask]
        inv6 = inv2 ** 3
        fmag = np.zeros(n)
        fmag[mask] = 24 * (2 * inv6 ** 2 - inv6) * inv2
        f[i] = (fmag[:, None] * d).sum(axis=0)
    return f


def lj_into_argument(e, r2, rc2):
    mask = r2 < rc2
    inv = 1.0 / r2[mask]
    e[mask] = inv ** 6 - inv ** 3
    e[mask] *= 4


def masked_known_when_traced(x, n):
    mask = np.arange(n) < 3
    v = x[mask] * 2
    out = np.zeros(n)
    out[mask] = v + 1
    return out


def where_division(d, rc2):
    r2 = (d ** 2).sum(axis=1)
    return np.where(r2 < rc2, 1.0 / r2, 0.0)


def selection_under_another_mask(x, y):
    v = x[x > 0.5] * 2
    out = np.zeros_like(y)
    out[y > 0.5] = v
    return out


def rows_times_values(d, r2, mask):
    f = np.zeros_like(d)
    f[mask] = d[mask] * r2[mask]
    return f


def rows_times_values_summed(d, r2, mask):
    return np.sum(d[mask] * r2[mask])


# -- sliding windows and 2-d histograms -----------------------------------------------------------
def moving_average(x, k):
    w = np.lib.stride_tricks.sliding_window_view(x, 3)
    tiles = np.lib.stride_tricks.sliding_window_view(k, (2, 2), axis=(0, 1))
    return w.mean(axis=-1), tiles.max(axis=(-1, -2)), np.lib.stride_tricks.sliding_window_view(k, 2, axis=1)[:, 1]


def written_window(x):
    w = np.lib.stride_tricks.sliding_window_view(x, 3)
    w[0, 0] = 1.0
    return x


def occupancy(x, y):
    h, xe, ye = np.histogram2d(x, y, bins=4, range=[[0, 1], [0, 1]])
    d, _, _ = np.histogram2d(x, y, bins=[2, 3], range=[[0, 1], [0, 1]], density=True)
    auto = np.histogram2d(x, y, bins=3)
    return h, xe, ye, d, auto


# -- reductions of a prefix bound to a name in a loop -----------------------------------------------
def prefix_stats(x):
    out = np.zeros((x.shape[0], 4))
    for i in range(1, x.shape[0]):
        seg = x[:i]
        out[i, 0] = np.max(seg)
        out[i, 1] = np.min(seg)
        out[i, 2] = np.sum(seg) + seg.sum()
        out[i, 3] = seg.mean() + np.amax(seg) - seg.min()
    return out


def prefix_max_from_zero(x):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        seg = x[:i]
        out[i] = np.max(seg)
    return out


# -- text of values ---------------------------------------------------------------------------------
def repr_of_data(x):
    return x * 2, repr(x)


def repr_of_static(x, n):
    print(f"x = {x}, total {x.sum():.3f}")  # printed on the host when the call runs
    return x * 2, repr(x.shape), repr(n), repr(x.dtype), str(n)


# -- a parameter rebound, then masked ----------------------------------------------------------------
def rebound_then_masked(x, t):
    x = x * 2
    x[x > t] = 0
    return x


def rebound_keeps_caller(x, t):
    y = x.copy()
    x = x - x.mean()
    x[np.abs(x) > t] = t
    return x, y


def clipped_in_place(x, t):
    x = np.asarray(x, dtype=float)  # x itself for a float64 x (the caller's array is written), a copy otherwise
    x[x < 0] = 0.0
    x[x > t] = t
    return x


def reinterpreted(x):
    y = x.view(np.int64)
    y[0] = 1
    return x


# -- where a refusal met when traced points --------------------------------------------------------
def counted_total(k, w):
    total = (w.sum() +
             np.bincount(k).sum())
    return total


# -- ufunc outputs given by position, where= --------------------------------------------------------
def positional_outs(a, b, m):
    c = np.zeros(a.shape, dtype=bool)
    np.greater(a, b, c, where=m)
    d = np.zeros_like(a)
    np.add(a, b, d)
    np.sqrt(np.abs(d), d)
    np.multiply(a, 2.0, a, where=m)  # the caller's a
    return c, d


def keyword_out_where(a, b, m, c):
    np.greater(a, b, out=c, where=m)
    return c


def where_without_out(a, b, m):
    return np.greater(a, b, where=m)


def positional_out_flipped(a, b, c):
    np.add(a, b, np.flip(c))
    return c


def positional_out_in_a_loop_with_jumps(a, b, n):
    for i in range(n):
        if i == 2:
            break
        np.add(a, b, a)
        if a[0] > 5:
            continue
        a[1] += 1
    return a


def rebound_in_a_branch_then_masked(x, t):
    if t > 0:
        x = x * 2
    x[x > t] = 0
    return x


# -- a list of arrays of different shapes passed in --------------------------------------------
def sum_of_parts(x, parts):
    total = 0.0
    for p in parts:
        total += p.sum()
    return x * total + parts[1].mean()


# -- gradients through masked reads that would meet a pole ----------------------------------
def lj_energy(d, rc2):
    r2 = (d ** 2).sum(axis=1)
    inside = (r2 < rc2) & (r2 > 0)  # the self-pair (r2 == 0) left out
    inv = np.zeros_like(r2)
    inv[inside] = 1.0 / r2[inside]
    sr6 = (1.0 / r2[inside]) ** 3
    return (inv ** 6).sum() - np.sum(sr6) + np.sum(np.where(inside, np.log(np.where(inside, r2, 1.0)), 0.0))
