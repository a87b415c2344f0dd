"""NumPy shims: joining and shape operations."""

import operator as _npr_np_operator

import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_check_run, _npr_out_of_range, _npr_wide
from .casts import npr_cast
from .compat import _npr_Tracer
from .core import NprUnsupported
from .np_dtypes import (
    _npr_np_asarray, _npr_np_check_out, _npr_np_dtype_of, _npr_np_is_py, _npr_np_ndim,
    _npr_np_result_dtype)
from .pymath import _npr_math_check


# ---------------------------------------------------------------- joining
def _npr_np_join_dtype(arrays, dtype):
    if dtype is not None:
        return np.dtype(dtype)
    return np.result_type(*[_npr_np_dtype_of(a) for a in arrays])


def npr_np_concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    _npr_np_check_out(out)
    dt = _npr_np_join_dtype(arrays, dtype)
    xs = [_npr_np_asarray(a, dt) for a in arrays]
    if axis is None:
        xs = [x.ravel() for x in xs]
        axis = 0
    return jnp.concatenate(xs, axis=axis)


npr_np_concat = npr_np_concatenate


def npr_np_stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    _npr_np_check_out(out)
    dt = _npr_np_join_dtype(arrays, dtype)
    return jnp.stack([_npr_np_asarray(a, dt) for a in arrays], axis=axis)


def _npr_np_joiner(jf, name):
    def f(tup, *, dtype=None, casting="same_kind"):
        dt = _npr_np_join_dtype(tup, dtype)
        return jf([_npr_np_asarray(a, dt) for a in tup])

    f.__name__ = f.__qualname__ = "npr_np_" + name
    return f


npr_np_vstack = _npr_np_joiner(jnp.vstack, "vstack")
npr_np_row_stack = npr_np_vstack
npr_np_hstack = _npr_np_joiner(jnp.hstack, "hstack")
npr_np_dstack = _npr_np_joiner(jnp.dstack, "dstack")
npr_np_column_stack = _npr_np_joiner(jnp.column_stack, "column_stack")


def npr_np_append(arr, values, axis=None):
    dt = np.result_type(_npr_np_dtype_of(arr), _npr_np_dtype_of(values))
    return jnp.append(_npr_np_asarray(arr, dt), _npr_np_asarray(values, dt), axis=axis)


def npr_np_insert(arr, obj, values, axis=None):
    """np.insert with an int index known when traced (NumPy's scalar-index branch: `values`
    cast to arr's dtype with ndmin=arr.ndim, its first axis moved to `axis`, inserted before
    `obj`)."""
    if isinstance(obj, (bool, np.bool_)) or not isinstance(obj, (int, np.integer)):
        raise NprUnsupported("NPR004", "np.insert(arr, obj, values) is translated for an int "
                             "`obj` known when the program is traced (a literal, a Python int "
                             "argument, len(x)); a list, a slice or an index from array data is not", call="np.insert")
    a = _npr_np_asarray(arr)
    if axis is None:
        a, axis = a.ravel(), 0
    if not -a.ndim <= axis < a.ndim:
        raise np.exceptions.AxisError(axis, a.ndim)
    axis, n = axis % a.ndim, a.shape[axis]
    if not -n <= obj <= n:
        raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
    index = int(obj) + n if obj < 0 else int(obj)
    if isinstance(values, (jax.Array, _npr_Tracer)):
        v = jnp.asarray(values)
        v = npr_cast(v.reshape((1,) * (a.ndim - v.ndim) + v.shape), a.dtype)  # NaN -> int as NumPy
    else:  # NumPy's own cast of Python or NumPy values
        v = jnp.asarray(np.array(values, copy=None, ndmin=a.ndim, dtype=a.dtype))
    v = jnp.moveaxis(v, 0, axis)  # NumPy: values fill a[:, k:k + 1] as a[:, [k]] = values would
    v = jnp.broadcast_to(v, a.shape[:axis] + (v.shape[axis],) + a.shape[axis + 1:])
    return jnp.concatenate([jax.lax.slice_in_dim(a, 0, index, axis=axis), v,
                            jax.lax.slice_in_dim(a, index, n, axis=axis)], axis=axis)


def npr_np_select(condlist, choicelist, default=0):
    dt = _npr_np_result_dtype(*choicelist, default)
    return jnp.select(
        [_npr_np_asarray(c, np.bool_) for c in condlist],
        [_npr_np_asarray(c, dt) for c in choicelist],
        _npr_np_asarray(default, dt),
    )


def _npr_np_run_check(e, out, kind, message):
    # The runtime's check when the program runs (bounds.py: _npr_check_run); absent when this
    # file is imported alone (its own tests), where nothing is checked.
    try:
        check = _npr_check_run
    except NameError:
        return
    check(e, out, kind, message)


def _npr_np_traced_ints(v):
    # v as a traced array when it holds traced values (a list of them too), else None.
    if any(isinstance(x, _npr_Tracer) for x in jax.tree_util.tree_leaves(v)):
        return jnp.asarray(v)
    return None


def _npr_np_check_take(shape, indices, axis, numpy_fn):
    # NumPy's IndexError for out-of-range indices of take/take_along_axis (jnp fills them with
    # NaN): NumPy's own check on a zero-memory stand-in when they are known, else at run time.
    traced = _npr_np_traced_ints(indices)
    if traced is None:
        stand_in = np.lib.stride_tricks.as_strided(np.zeros(1, bool), tuple(shape), (0,) * len(shape))
        numpy_fn(stand_in, np.asarray(indices), axis)
        return
    size = int(np.prod(shape)) if axis is None else shape[axis]
    axis = 0 if axis is None else axis % max(len(shape), 1)
    _npr_np_run_check(traced, _npr_out_of_range(size), IndexError,
                      f"index {{}} is out of bounds for axis {axis} with size {size}")


def npr_np_choose(a, choices, out=None, mode="raise"):
    _npr_np_check_out(out)
    dt = np.result_type(*[_npr_np_dtype_of(c) for c in choices])
    if mode == "raise":  # NumPy's ValueError for an entry with no choice (jnp would clip it)
        traced = _npr_np_traced_ints(a)
        if traced is None:
            np.choose(np.asarray(a), [np.zeros(1, bool)] * len(choices))
        else:
            _npr_np_run_check(traced, lambda x: (x < 0) | (x >= len(choices)), ValueError,
                              "invalid entry in choice array")
    return jnp.choose(_npr_np_asarray(a), [_npr_np_asarray(c, dt) for c in choices], mode="clip" if mode == "raise" else mode)


# ---------------------------------------------------------------- shape ops
def npr_np_take(a, indices, axis=None, out=None, mode=None):
    _npr_np_check_out(out)
    if mode in (None, "raise"):
        _npr_np_check_take(np.shape(a), indices, axis, lambda x, i, ax: np.take(x, i, axis=ax))
    return jnp.take(_npr_np_asarray(a), _npr_wide(_npr_np_asarray(indices)), axis=axis, mode=mode)


def npr_np_take_along_axis(arr, indices, axis=-1):
    _npr_np_check_take(np.shape(arr), indices, axis, np.take_along_axis)
    return jnp.take_along_axis(_npr_np_asarray(arr), _npr_wide(_npr_np_asarray(indices)), axis=axis)


def npr_np_repeat(a, repeats, axis=None):
    r = repeats
    if isinstance(r, (list, tuple)):
        r = np.asarray(r)
    total = None
    if isinstance(r, np.ndarray):
        total = int(r.sum()) if axis is not None or r.size > 1 else None
    return jnp.repeat(_npr_np_asarray(a), r, axis=axis, total_repeat_length=total)


def npr_np_diff(a, n=1, axis=-1, prepend=None, append=None):
    x = _npr_np_asarray(a)
    if n == 0:
        return x
    parts = []
    if prepend is not None:
        p = _npr_np_asarray(prepend)
        if p.ndim == 0:
            shp = list(x.shape)
            shp[axis] = 1
            p = jnp.broadcast_to(p, shp)
        parts.append(p)
    parts.append(x)
    if append is not None:
        p = _npr_np_asarray(append)
        if p.ndim == 0:
            shp = list(x.shape)
            shp[axis] = 1
            p = jnp.broadcast_to(p, shp)
        parts.append(p)
    if len(parts) > 1:
        x = npr_np_concatenate(parts, axis=axis)
    ax = axis % x.ndim
    for _ in range(n):
        hi = jax.lax.slice_in_dim(x, 1, x.shape[ax], axis=ax)
        lo = jax.lax.slice_in_dim(x, 0, x.shape[ax] - 1, axis=ax)
        x = (hi != lo) if x.dtype == np.bool_ else hi - lo
    return x


def npr_np_ediff1d(ary, to_end=None, to_begin=None):
    x = _npr_np_asarray(ary).ravel()
    d = x[1:] - x[:-1] if x.dtype != np.bool_ else x[1:] != x[:-1]
    parts = []
    if to_begin is not None:
        parts.append(_npr_np_asarray(to_begin, d.dtype).ravel())
    parts.append(d)
    if to_end is not None:
        parts.append(_npr_np_asarray(to_end, d.dtype).ravel())
    return jnp.concatenate(parts) if len(parts) > 1 else d


def npr_np_gradient(f, *varargs, axis=None, edge_order=1):
    # NumPy's second-order central differences, with first- or second-order
    # one-sided differences at the edges, for uniform or coordinate spacing.
    x = _npr_np_asarray(f)
    otype = x.dtype if x.dtype.kind in "fc" else np.dtype(np.float64)
    x = x.astype(otype)
    n = x.ndim
    axes = list(range(n)) if axis is None else [a % n for a in np.atleast_1d(axis).tolist()]
    if len(varargs) == 0:
        dxs = [1.0] * len(axes)
    elif len(varargs) == 1 and (len(axes) > 1) and _npr_np_ndim(varargs[0]) == 0:
        dxs = [varargs[0]] * len(axes)
    else:
        dxs = list(varargs)
    outs = []
    for ax, dx in zip(axes, dxs):
        m = x.shape[ax]

        def sl(a, b):
            return jax.lax.slice_in_dim(x, a, b, axis=ax)

        if _npr_np_ndim(dx) == 0:
            h = dx if _npr_np_is_py(dx) else _npr_np_asarray(dx).astype(otype)
            mid = (sl(2, m) - sl(0, m - 2)) / (2.0 * h)
            if edge_order == 1:
                first = (sl(1, 2) - sl(0, 1)) / h
                last = (sl(m - 1, m) - sl(m - 2, m - 1)) / h
            else:
                first = (-1.5 * sl(0, 1) + 2.0 * sl(1, 2) - 0.5 * sl(2, 3)) / h
                last = (0.5 * sl(m - 3, m - 2) - 2.0 * sl(m - 2, m - 1) + 1.5 * sl(m - 1, m)) / h
        else:
            c = _npr_np_asarray(dx)
            c = c.astype(otype) if c.dtype.kind in "biu" else c
            d = jnp.diff(c)
            shape = [1] * n
            shape[ax] = m - 2
            d1 = d[:-1].reshape(shape)
            d2 = d[1:].reshape(shape)
            a_ = -d2 / (d1 * (d1 + d2))
            b_ = (d2 - d1) / (d1 * d2)
            c_ = d1 / (d2 * (d1 + d2))
            mid = a_ * sl(0, m - 2) + b_ * sl(1, m - 1) + c_ * sl(2, m)
            if edge_order == 1:
                first = (sl(1, 2) - sl(0, 1)) / d[0]
                last = (sl(m - 1, m) - sl(m - 2, m - 1)) / d[-1]
            else:
                e1, e2 = d[0], d[1]
                a0 = -(2.0 * e1 + e2) / (e1 * (e1 + e2))
                b0 = (e1 + e2) / (e1 * e2)
                c0 = -e1 / (e2 * (e1 + e2))
                first = a0 * sl(0, 1) + b0 * sl(1, 2) + c0 * sl(2, 3)
                e1, e2 = d[-2], d[-1]
                a0 = e2 / (e1 * (e1 + e2))
                b0 = -(e2 + e1) / (e1 * e2)
                c0 = (2.0 * e2 + e1) / (e2 * (e1 + e2))
                last = a0 * sl(m - 3, m - 2) + b0 * sl(m - 2, m - 1) + c0 * sl(m - 1, m)
        outs.append(jnp.concatenate([first, mid, last], axis=ax).astype(otype))
    if len(outs) == 1:
        return outs[0]
    return tuple(outs)


def npr_np_argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    if order is not None:
        raise NotImplementedError("np2ref: order= (structured arrays)")
    x = _npr_np_asarray(a)
    if axis is None:
        x, axis = x.ravel(), 0
    return jnp.argsort(x, axis=axis, stable=True).astype(np.intp)


def npr_np_sort(a, axis=-1, kind=None, order=None, *, stable=None):
    if order is not None:
        raise NotImplementedError("np2ref: order= (structured arrays)")
    x = _npr_np_asarray(a)
    if axis is None:
        x, axis = x.ravel(), 0
    return jnp.sort(x, axis=axis)


def npr_np_searchsorted(a, v, side="left", sorter=None):
    dt = _npr_np_result_dtype(a, v)
    x = _npr_np_asarray(a, dt)
    if sorter is not None:
        x = x[_npr_np_asarray(sorter)]
    return jnp.searchsorted(x, _npr_np_asarray(v, dt), side=side).astype(np.intp)


def npr_np_digitize(x, bins, right=False):
    """NumPy's ValueError for bins neither increasing nor decreasing, checked when the call runs
    where the bins are data, as NumPy's check_array_monotonic tests them: past the leading run
    equal to bins[0], the first step decides the direction (increasing when bins[0] < the next,
    else decreasing, NaN included) and a later step against it fails."""
    bins = _npr_np_asarray(bins)
    if bins.ndim == 1 and bins.shape[0] > 2:
        n, prev, nxt = bins.shape[0], bins[:-1], bins[1:]
        k = jnp.sum(jnp.cumprod((nxt == bins[0]).astype(np.int32))) + 1  # first index unlike bins[0]
        after = jnp.arange(1, n) > k
        up = bins[0] < bins[jnp.minimum(k, n - 1)]
        bad = (k < n) & jnp.where(up, jnp.any(after & (prev > nxt)), jnp.any(after & (prev < nxt)))
        _npr_math_check(bad, ValueError, ("bins must be monotonically increasing or decreasing",))
    return jnp.digitize(_npr_np_asarray(x), bins, right=right).astype(np.intp)


def npr_np_sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    # numpy/lib/_stride_tricks_impl.py: out[..., i, ..., j] = x[..., i + j, ...] for each windowed
    # axis (an axis may be windowed twice), the window axes appended in order. NumPy returns a
    # read-only view; here the windows are gathered (a copy: np2ref refuses writes through it
    # and reads of it after x is written, NPR205, as for its other unmodelled views).
    x = _npr_np_asarray(x)
    window = tuple(window_shape) if np.iterable(window_shape) else (window_shape,)
    window = tuple(_npr_np_operator.index(w) for w in window)
    if any(w < 0 for w in window):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window) != len(axis):
            raise ValueError(f"Since axis is `None`, must provide window_shape for all dimensions of `x`; "
                             f"got {len(window)} window_shape elements and `x.ndim` is {x.ndim}.")
    else:
        axis = np.lib.array_utils.normalize_axis_tuple(axis, x.ndim, allow_duplicate=True)
        if len(window) != len(axis):
            raise ValueError(f"Must provide matching length window_shape and axis; got {len(window)} "
                             f"window_shape elements and {len(axis)} axes elements.")
    out = x
    for ax, w in zip(axis, window):
        n = out.shape[ax]
        if n < w:
            raise ValueError("window shape cannot be larger than input array shape")
        index = np.arange(n - w + 1)[:, None] + np.arange(w)[None, :]  # (start, offset), in range
        out = jnp.moveaxis(jnp.take(out, index, axis=ax, mode="clip"), ax + 1, -1)
    return out


def npr_np_permute_dims(a, axes=None):
    return jnp.transpose(_npr_np_asarray(a), axes)


