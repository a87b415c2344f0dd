"""NumPy shims: counting, binning and index helpers."""

import builtins as _npr_np_builtins
import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_wide, _npr_wide_dtype
from .core import _npr_refusal, NprUnsupported
from .np_creation import _npr_np_concrete, npr_np_linspace
from .np_dtypes import _npr_np_asarray, _npr_np_dtype_of, _npr_np_weak
from .np_reductions import npr_np_sum
from .np_shape import _npr_np_run_check, _npr_np_traced_ints
from .np_ufuncs import (
    npr_np_divide, npr_np_greater_equal, npr_np_less_equal, npr_np_multiply, npr_np_subtract)


# ---------------------------------------------------------------- counting and binning
def _npr_np_stand_in(a):
    # A zero-memory NumPy array of a's shape and dtype, for NumPy's own argument checks.
    shape = np.shape(a)
    return np.lib.stride_tricks.as_strided(np.zeros(1, _npr_np_dtype_of(a)), shape, (0,) * len(shape))


def _npr_np_bincount_checks(traced, n, what):
    # NumPy's ValueError for a negative value, then (no NumPy counterpart) np2ref's refusal of a
    # value at or past the static length: NumPy would return a longer array, whose length jit
    # cannot know. Both are checked when the program runs.
    if traced.dtype.kind != "u":
        _npr_np_run_check(traced, lambda v: v < 0, ValueError, "'list' argument must have no negative elements")
    wide = jax.dtypes.canonicalize_dtype(np.uint64 if traced.dtype.kind == "u" else np.int64)  # 300 is not 44 in uint8
    _npr_np_run_check(traced, lambda v: v.astype(wide) >= n, _npr_refusal("NPR109"),
                      f"{what} met the value {{}}, past its static length {n}: NumPy "
                      f"returns a longer array there, whose length depends on the data")


def npr_np_bincount(x, /, weights=None, minlength=0):
    minlength = _npr_np_concrete(minlength)
    traced = _npr_np_traced_ints(x)
    probe_w = None if weights is None else _npr_np_stand_in(weights)
    if traced is None:  # known values: NumPy's own length, dtype and errors
        xs = np.asarray(x)
        ref = np.bincount(x if isinstance(x, (list, tuple)) else xs, probe_w, minlength)
        if weights is None or xs.size == 0:
            return jnp.asarray(ref)
        idx = jnp.asarray(xs)
    else:
        ref = np.bincount(_npr_np_stand_in(traced), probe_w, minlength)  # NumPy's dtype and errors
        if traced.size == 0:
            return jnp.asarray(ref)  # int64 zeros, with weights too (as NumPy)
        if not minlength:
            raise NprUnsupported(
                "NPR109", "np.bincount(x) of array data has max(x) + 1 elements, which jit cannot "
                "know: pass minlength= at least max(x) + 1 (a value past it is refused at run time)",
                call="np.bincount")
        _npr_np_bincount_checks(traced, minlength, f"np.bincount(x, minlength={minlength})")
        idx = traced
    idx = idx.astype(np.int64)
    if weights is None:
        return jnp.zeros(ref.size, ref.dtype).at[idx].add(1, mode="drop")
    return jnp.zeros(ref.size, ref.dtype).at[idx].add(_npr_np_asarray(weights, ref.dtype), mode="drop")


def _npr_np_unsigned_subtract(a, b):
    # numpy/lib/_histograms_impl.py: _unsigned_subtract (b <= a; signed ints in their unsigned type)
    dt = np.result_type(a, b)
    unsigned = {np.byte: np.ubyte, np.short: np.ushort, np.intc: np.uintc, np.int_: np.uint,
                np.longlong: np.ulonglong}.get(dt.type)
    if unsigned is None:
        return np.subtract(a, b, dtype=dt)
    return np.subtract(np.asarray(a, dtype=dt), np.asarray(b, dtype=dt), casting="unsafe", dtype=unsigned)


def _npr_np_compare(cmp, x, v):
    # cmp(x, v) for a Python int v outside x's integer type too (NumPy 2 compares those exactly)
    if type(v) is int and x.dtype.kind in "iu":
        info = np.iinfo(x.dtype)
        if not info.min <= v <= info.max:
            bound = info.min if v > info.max else info.max  # every x compares as this one
            return jnp.full(x.shape, bound >= v if cmp is npr_np_greater_equal else bound <= v)
    return cmp(x, v)


def npr_np_histogram(a, bins=10, range=None, density=None, weights=None):
    if _npr_np_traced_ints(a) is None and _npr_np_traced_ints(weights) is None and _npr_np_traced_ints(bins) is None:
        h, e = np.histogram(np.asarray(a), bins, range, density, None if weights is None else np.asarray(weights))
        return jnp.asarray(h), jnp.asarray(e)
    edges_given = np.ndim(bins) > 0 if not isinstance(bins, str) else False
    if not edges_given and (not isinstance(bins, (int, np.integer)) or isinstance(bins, (bool, np.bool_))):
        raise NprUnsupported("NPR109", "np.histogram of array data is translated with an integer "
                             "bins= (NumPy's uniform bins, with range=) or an array of edges only")
    if _npr_np_dtype_of(a).kind == "c" or (weights is not None and _npr_np_dtype_of(weights).kind == "c"):
        raise NprUnsupported("NPR109", "np.histogram of complex data or weights")
    if edges_given:
        return _npr_np_histogram_edges(a, bins, density, weights)
    # NumPy's checks (range order and finiteness, bins >= 1, weights' shape) and edges, which
    # depend only on bins, range and a's dtype: NumPy on an empty stand-in
    stand_w = None if weights is None else np.zeros(0, _npr_np_dtype_of(weights))
    if weights is not None and np.shape(weights) != np.shape(a):
        raise ValueError("weights should have the same shape as a.")
    x = jnp.ravel(_npr_np_asarray(a))
    if x.dtype == np.bool_:  # NumPy counts bools as uint8 (with a RuntimeWarning)
        x = x.astype(np.uint8)
    if range is not None or x.size == 0:
        range = None if range is None else tuple(_npr_np_concrete(v) for v in range)
        _, edges_np = np.histogram(np.zeros(0, x.dtype), bins, range, None, stand_w)
        first, last = (0, 1) if range is None else range
        if first == last:
            first, last = first - 0.5, last + 0.5
        denom = _npr_np_unsigned_subtract(last, first)
        edges = jnp.asarray(edges_np)
    else:  # NumPy's edges from the data's min and max (0-d arrays of a's dtype, as its scalars)
        np.histogram(np.zeros(0, x.dtype), bins, None, None, stand_w)  # NumPy's checks of bins
        first, last = jnp.min(x), jnp.max(x)
        if x.dtype.kind == "f":
            _npr_np_run_check(jnp.stack([first, last]), lambda v: ~jnp.isfinite(v), ValueError,
                              "autodetected range of [min, max] is not finite")
        same = first == last
        if x.dtype.kind in "iu":
            # NumPy's _unsigned_subtract of the int edges (in the unsigned type), divided as a float64
            unsigned = np.dtype(x.dtype.str.replace("i", "u"))
            spread = (last.astype(unsigned) - first.astype(unsigned)).astype(np.float64)
            first, last = first.astype(np.float64), last.astype(np.float64)  # int - 0.5: a float64
        first, last = jnp.where(same, first - 0.5, first), jnp.where(same, last + 0.5, last)
        denom = last - first if x.dtype.kind not in "iu" else jnp.where(same, last - first, spread)
        bin_type = np.result_type(x.dtype, float) if x.dtype.kind in "iu" else x.dtype
        edges = npr_np_linspace(first, last, bins + 1, endpoint=True, dtype=bin_type)
    w = None if weights is None else jnp.ravel(_npr_np_asarray(weights))
    ntype = np.dtype(np.intp) if w is None else w.dtype
    n = jnp.zeros(bins, ntype)
    # opaque to XLA, which would divide by a constant as a multiplication by its reciprocal
    denom = jax.lax.optimization_barrier(_npr_np_asarray(denom))
    block = 65536  # NumPy's block: weights are summed in float64 per block, then cast and added
    for i in _npr_np_builtins.range(0, x.size, block):
        xa = x[i:i + block]
        keep = _npr_np_compare(npr_np_greater_equal, xa, first) & _npr_np_compare(npr_np_less_equal, xa, last)
        t = xa.astype(edges.dtype)
        diff = npr_np_subtract(t, first, dtype=np.result_type(np.zeros(0, t.dtype), _npr_np_weak(first)),
                               casting="unsafe")
        idx = npr_np_multiply(npr_np_divide(diff, denom), bins).astype(np.intp)
        idx = jnp.where(idx == bins, idx - 1, idx)
        wrap = lambda k: jnp.where(k < 0, k + edges.size, k)  # noqa: E731  NumPy's negative indices
        idx = jnp.where(t < edges[wrap(idx)], idx - 1, idx)
        idx = jnp.where((t >= edges[wrap(idx + 1)]) & (idx != bins - 1), idx + 1, idx)
        _npr_np_run_check(jnp.where(keep, idx, 0), lambda v: v < 0, ValueError,
                          "'list' argument must have no negative elements")
        idx = jnp.where(keep, idx, bins)  # outside the range: dropped
        if w is None:
            n = n + jnp.zeros(bins, ntype).at[idx].add(1, mode="drop")
        else:
            part = jnp.zeros(bins, np.float64).at[idx].add(w[i:i + block].astype(np.float64), mode="drop")
            n = n + part.astype(ntype)  # bool weights: logical or, as NumPy's +=
    if density:
        db = npr_np_subtract(edges[1:], edges[:-1])
        return npr_np_divide(npr_np_divide(n, db), npr_np_sum(n)), edges
    return n, edges


def npr_np_histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    # numpy/lib/_twodim_base_impl.py histogram2d -> histogramdd([x, y]): per axis the edges
    # (np.linspace over range=, or over the data's min and max, or the edges given), each sample
    # placed by searchsorted(edges, v, side='right'), one on the last edge moved into the last
    # bin (closed on the right), outliers and NaN (which sorts last) dropped; the counts (or
    # weights) summed per bin in float64, over the bins' areas and the total with density=.
    if np.shape(x) != np.shape(y) or np.ndim(x) != 1:
        raise ValueError("x and y must be 1-d arrays of the same length")  # (NumPy: from np.array([x, y]))
    dt = np.result_type(_npr_np_dtype_of(x), _npr_np_dtype_of(y))
    if dt.kind not in "biuf" or weights is not None and _npr_np_dtype_of(weights).kind == "c":
        raise NprUnsupported("NPR109", f"np.histogram2d of {dt} data or complex weights is not translated")
    sample = [_npr_np_asarray(v, dt) for v in (x, y)]
    try:
        n_bins = _npr_np_builtins.len(bins)
    except TypeError:
        n_bins = 1
    per_axis = list(bins) if n_bins == 2 else [bins, bins]  # (NumPy: two items are one per axis)
    traced_edges = [_npr_np_traced_ints(b) for b in per_axis]
    if any(t is not None and t.ndim != 1 for t in traced_edges):
        raise NprUnsupported("NPR109", "np.histogram2d's bins= are counts known when the program is "
                             "traced, or arrays of edges")
    stand = [np.zeros(t.shape, t.dtype) if t is not None else _npr_np_concrete(b) for b, t in zip(per_axis, traced_edges)]
    range = None if range is None else [None if r is None else tuple(_npr_np_concrete(v) for v in r) for r in range]
    size = np.shape(x)[0]
    stand_w = None if weights is None else np.zeros(0, _npr_np_dtype_of(weights))
    if weights is not None and np.shape(weights) != (size,):
        raise ValueError(f"shape mismatch: weights {np.shape(weights)} and sample ({size},)")  # (NumPy: a broadcast error)
    with np.errstate(all="ignore"):  # NumPy's checks and edges where they do not depend on the data
        _, *edges_np = np.histogram2d(np.zeros(0, dt), np.zeros(0, dt), stand, range, density, stand_w)
    edges = []
    for i in (0, 1):
        if traced_edges[i] is not None:
            e = traced_edges[i]
            _npr_np_run_check(e[:-1] > e[1:], lambda v: v, ValueError,
                              f"`bins[{i}]` must be monotonically increasing, when an array")
        elif np.ndim(stand[i]) or (range is not None and range[i] is not None) or size == 0:
            e = jnp.asarray(edges_np[i])
        else:
            e = _npr_np_data_edges(sample[i], int(stand[i]))
        edges.append(e)
    return (_npr_np_histogram2d_counts(sample, edges, density, weights), *edges)


def _npr_np_data_edges(v, n):
    # histogramdd's _get_outer_edges over the data: its min and max (a ValueError when either is
    # not finite, as NumPy's), widened by 0.5 either way when equal, then np.linspace(., ., n + 1)
    first, last = jnp.min(v), jnp.max(v)
    if v.dtype.kind == "f":
        _npr_np_run_check(jnp.stack([first, last]), lambda e: ~jnp.isfinite(e), ValueError,
                          "autodetected range of [min, max] is not finite")
    bin_type = np.result_type(v.dtype, float) if v.dtype.kind in "biu" else v.dtype
    first, last = first.astype(bin_type), last.astype(bin_type)
    same = first == last
    first, last = jnp.where(same, first - 0.5, first), jnp.where(same, last + 0.5, last)
    return npr_np_linspace(first, last, n + 1)


def _npr_np_histogram2d_counts(sample, edges, density, weights):
    nbin = [e.shape[0] + 1 for e in edges]  # outliers on either side, dropped at the end
    flat = jnp.zeros(sample[0].shape, np.int64)
    for v, e, nb in zip(sample, edges, nbin):
        k = jnp.searchsorted(e, v, side="right").astype(np.int64)
        k = jnp.where(jnp.isnan(v) if v.dtype.kind == "f" else False, e.shape[0], k)  # NaN sorts last
        k = jnp.where(v == e[-1], k - 1, k)  # the last bin is closed on the right
        flat = flat * nb + k
    total = nbin[0] * nbin[1]
    if weights is None:
        hist = jnp.zeros(total, np.float64).at[flat].add(1.0, mode="drop")
    else:
        hist = jnp.zeros(total, np.float64).at[flat].add(_npr_np_asarray(weights, np.float64), mode="drop")
    hist = hist.reshape(nbin)[1:-1, 1:-1]
    if density:
        s = npr_np_sum(hist)
        hist = npr_np_divide(hist, npr_np_subtract(edges[0][1:], edges[0][:-1]).reshape(-1, 1))
        hist = npr_np_divide(hist, npr_np_subtract(edges[1][1:], edges[1][:-1]).reshape(1, -1))
        hist = npr_np_divide(hist, s)
    return hist


def _npr_np_histogram_edges(a, bins, density, weights):
    # NumPy's path for an array of edges (numpy/lib/_histograms_impl.py): per block of 65536, the
    # block sorted and searched for each edge (the last edge closed on the right, so values past
    # it and NaN, which sorts last, are not counted), giving counts or the cumulative sum of the
    # block's weights in sorted order read at those positions; n is their difference.
    x = jnp.ravel(_npr_np_asarray(a))
    if x.dtype == np.bool_:  # NumPy counts bools as uint8 (with a RuntimeWarning)
        x = x.astype(np.uint8)
    w = None if weights is None else jnp.ravel(_npr_np_asarray(weights))
    if weights is not None and np.shape(weights) != np.shape(a):
        raise ValueError("weights should have the same shape as a.")
    traced = _npr_np_traced_ints(bins)
    # NumPy's own checks (1-d, monotonic for known edges, bool weights) and dtypes: on stand-ins
    k = min(x.size, 1)
    stand_edges = np.asarray(bins) if traced is None else np.zeros(traced.shape, traced.dtype)
    with np.errstate(all="ignore"):  # (density of the stand-in divides zero by zero)
        n_np, _ = np.histogram(np.zeros(k, x.dtype), stand_edges, None, density,
                               None if w is None else np.zeros(k, w.dtype))
    edges = jnp.asarray(stand_edges) if traced is None else traced
    if traced is not None:
        _npr_np_run_check(edges[:-1] > edges[1:], lambda v: v, ValueError,
                          "`bins` must increase monotonically, when an array")
    ntype = np.dtype(np.intp) if w is None else w.dtype
    cum = jnp.zeros(edges.shape, ntype)
    common = np.promote_types(x.dtype, edges.dtype)  # ndarray.searchsorted compares in it
    e = edges.astype(common)
    for i in _npr_np_builtins.range(0, x.size, 65536):
        xa = x[i:i + 65536].astype(common)
        order = jnp.argsort(xa, stable=True)
        sa = xa[order]
        at = jnp.concatenate([jnp.searchsorted(sa, e[:-1], side="left"),
                              jnp.searchsorted(sa, e[-1:], side="right")])
        if w is None:
            cum = cum + at.astype(ntype)
        else:
            sw = w[i:i + 65536][order]
            cs = jnp.cumsum(sw, dtype=np.cumsum(np.zeros(0, sw.dtype)).dtype)
            cw = jnp.concatenate([jnp.zeros(1, np.result_type(ntype, cs.dtype)), cs.astype(np.result_type(ntype, cs.dtype))])
            cum = cum + cw[at].astype(ntype)  # NumPy's `cum_n += cw[...]`: same_kind into ntype
    n = cum[1:] - cum[:-1]
    if density:
        db = npr_np_subtract(edges[1:], edges[:-1]).astype(np.float64)
        n = npr_np_divide(npr_np_divide(n, db), npr_np_sum(n))
    return n.astype(n_np.dtype), edges


# ---------------------------------------------------------------- index helpers
# Their results depend only on Python values and shapes, which are static under jit: NumPy makes
# them when the program is traced (exact), and they stay NumPy constants.
def _npr_np_static(npf):
    def f(*args, **kwargs):
        return npf(*[_npr_np_concrete(a) for a in args], **{k: _npr_np_concrete(v) for k, v in kwargs.items()})

    f.__name__ = f.__qualname__ = "npr_np_" + npf.__name__
    return f


npr_np_triu_indices = _npr_np_static(np.triu_indices)
npr_np_tril_indices = _npr_np_static(np.tril_indices)
npr_np_diag_indices = _npr_np_static(np.diag_indices)
npr_np_ndindex = _npr_np_static(np.ndindex)


def npr_np_diag_indices_from(arr):
    return np.diag_indices_from(_npr_np_stand_in(arr))


def npr_np_triu_indices_from(arr, k=0):
    return np.triu_indices_from(_npr_np_stand_in(arr), _npr_np_concrete(k))


def npr_np_tril_indices_from(arr, k=0):
    return np.tril_indices_from(_npr_np_stand_in(arr), _npr_np_concrete(k))


def npr_np_ix_(*args):
    traced = [_npr_np_traced_ints(a) for a in args]
    if any(t is not None and t.dtype == np.bool_ for t in traced):
        raise NprUnsupported("NPR004", "np.ix_ of a boolean array known only at run time: "
                                  "its output shape depends on the data")
    # NumPy's own result (and checks: 1-d, integer or boolean), on stand-ins for traced arrays
    res = np.ix_(*[np.asarray(a) if t is None else _npr_np_stand_in(t) for a, t in zip(args, traced)])
    return tuple(r if t is None else jnp.reshape(t, r.shape).astype(r.dtype) for r, t in zip(res, traced))


class _npr_np_Grid:
    # np.mgrid / np.ogrid with static slices: NumPy's own arrays, made when the program is traced.
    def __init__(self, grid):
        self.grid = grid

    def __getitem__(self, key):
        parts = key if isinstance(key, tuple) else (key,)
        for s in parts:
            for v in (s.start, s.stop, s.step) if isinstance(s, slice) else (s,):
                _npr_np_concrete(v)
        return self.grid[key]


npr_np_mgrid = _npr_np_Grid(np.mgrid)
npr_np_ogrid = _npr_np_Grid(np.ogrid)


def npr_np_isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """np.isin: each element compared with every test element in the dtype NumPy compares the
    two in (np.result_type: int64 against float32 is float64, where jnp.isin compares in
    float32); NaN is in nothing. `kind` picks NumPy's algorithm only, never the answer."""
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    x, t = _npr_np_asarray(element), _npr_np_asarray(test_elements)
    if kind == "table" and not (x.dtype.kind in "biu" and t.dtype.kind in "biu"):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. "
                         "Please select 'sort' or None for kind.")
    dt = np.result_type(x.dtype, t.dtype)
    return jnp.isin(x.astype(dt), t.astype(dt).ravel(), invert=invert)


def npr_np_unravel_index(indices, shape, order="C"):
    """np.unravel_index: NumPy's own answer for indices known when the program is traced; for
    traced ones, the coordinates by division in int64 (np.intp), and NumPy's ValueError for an
    index outside the array when the program runs (jnp.unravel_index clamps it)."""
    traced = _npr_np_traced_ints(indices)
    shape, order = _npr_np_concrete(shape), _npr_np_concrete(order)
    if traced is None:
        return np.unravel_index(indices, shape, order)
    np.unravel_index(np.zeros(0, traced.dtype), shape, order)  # NumPy's own TypeError and ValueError
    dims = tuple(int(d) for d in np.atleast_1d(shape))
    size = int(np.prod(dims))
    index = _npr_wide(traced.astype(np.int64) if traced.dtype == np.bool_ else traced)
    _npr_np_run_check(index, lambda x: (x < 0) | (x >= size), ValueError,
                      f"index {{}} is out of bounds for array with size {size}")
    index = index.astype(_npr_wide_dtype(np.int64))
    coords = {}
    for axis in (reversed(range(len(dims))) if order == "C" else range(len(dims))):
        coords[axis] = index % max(dims[axis], 1)
        index = index // max(dims[axis], 1)
    return tuple(coords[axis] for axis in range(len(dims)))


def npr_np_ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """np.ravel_multi_index: NumPy's own answer for coordinates known when the program is
    traced; for traced ones, the flat index in int64 with each axis's mode (`raise`: NumPy's
    ValueError when the program runs, `wrap`, `clip`)."""
    dims, mode, order = _npr_np_concrete(dims), _npr_np_concrete(mode), _npr_np_concrete(order)
    traced = [_npr_np_traced_ints(c) for c in multi_index]
    if all(t is None for t in traced):
        return np.ravel_multi_index(multi_index, dims, mode, order)
    coords = [jnp.asarray(c) if t is None else t for c, t in zip(multi_index, traced)]
    # NumPy's own checks (one coordinate per axis, integer dtypes, the modes, the order)
    np.ravel_multi_index(tuple(np.zeros(0, c.dtype) for c in coords), dims, mode, order)
    dims = tuple(int(d) for d in np.atleast_1d(dims))
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    it = _npr_wide_dtype(np.int64)
    flat = None
    for axis in (range(len(dims)) if order == "C" else reversed(range(len(dims)))):
        c, d = _npr_wide(coords[axis]), dims[axis]
        if modes[axis] == "raise":
            _npr_np_run_check(c, lambda x, d=d: (x < 0) | (x >= d), ValueError, "invalid entry in coordinates array")
        elif modes[axis] == "wrap":
            c = c % max(d, 1)
        else:
            c = jnp.clip(c, 0, max(d - 1, 0))
        c = c.astype(it)
        flat = c if flat is None else flat * d + c
    return flat


