"""Reductions of boolean-mask selections (`np.sum(x[m])`, `x[m].max()`, `X[labels == k].mean(axis=0)`):
the same reduction over the selected elements computed on the whole array, the data-dependent
selection never made; NumPy's errors and warnings for an empty selection."""

import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_check_run, npr_bounds_ok
from .casts import _npr_errstated
from .compat import _npr_traced, _npr_weak_astype
from .core import npr_load, NprUnsupported
from .mask_checks import (
    _npr_check_empty_mask, _npr_check_scalars, _npr_check_slices, _npr_mask_dtype, npr_check_whole,
    NprSelection)
from .host_words import _npr_note_callback
from .masked import NprMasked
from .views import npr_get
from .windows_more import _npr_selected, _npr_selected_count, _npr_shape_of


_NPR_EXTREMES = {"max": "maximum", "min": "minimum", "amax": "maximum", "amin": "minimum"}


def npr_masked_reduce(reduction, x, mask=None, scalars=(), axis=None, masked=(), slices=0):
    """`np.sum(x[mask])`, `x[mask].max()`, `np.any(x[mask])`... with a boolean mask: the same
    reduction over the selected elements, without materialising the data-dependent selection.
    max/min of an empty selection raise NumPy's ValueError (when the program runs, for a traced
    mask); mean of an empty one is nan, with NumPy's RuntimeWarnings (issued on the host when
    the compiled call runs: _npr_warn_empty_mean). `axis`: 0 where a 1-d mask selects rows
    (`X[labels == k].mean(axis=0)`: the selection's axis reduced away, a static shape).
    `slices`: full slices after the mask (`X[m, :]`, npr_select)."""
    if mask is not None:
        _npr_check_slices(npr_load(x), npr_load(mask), slices)
        _npr_check_scalars(scalars)
        if masked and _npr_mask_dtype(npr_load(mask)) == jnp.bool_:
            npr_check_whole(mask, masked)
    if mask is None:  # a selection name (npr_select), or an expression of selections already made: whole
        if isinstance(x, NprMasked):  # every element of a slice of run-time length
            x, mask = x, x._same(jnp.ones(x.data.shape, bool))
        elif not isinstance(x, NprSelection) and reduction in ("len", "size"):
            return len(npr_load(x)) if reduction == "len" else int(np.size(npr_load(x)))
        else:
            x, mask = (x.x, x.mask) if isinstance(x, NprSelection) else (x, np.ones(np.shape(x), bool))
    x, mask = npr_load(x), npr_load(mask)
    if isinstance(x, NprMasked) or isinstance(mask, NprMasked):
        return _npr_sliced_reduce(reduction, x, mask, axis)
    return _npr_reduce_selection(reduction, jnp.asarray(x), mask, axis)


def _npr_sliced_reduce(reduction, x, mask, axis):
    """npr_masked_reduce where x or the mask is a slice of run-time length (a pair loop's
    `np.sum(1.0 / r2[r2 < rc2])` over `pos[i + 1:]`): the same reduction over NumPy's selection,
    the slices' data under the mask and their own extent (_npr_selected, windows_more.py).
    Along axis 0 only where the rows it leaves have a static shape."""
    if _npr_mask_dtype(mask) != jnp.bool_:
        if axis is None and isinstance(mask, NprMasked) and not isinstance(x, NprMasked):
            # `np.sum(w[order[lo:hi]])`: the gather by the slice is itself a masked buffer of its length
            gathered = npr_get(x)[mask]
            if isinstance(gathered, NprMasked):
                return _npr_sliced_reduce(reduction, gathered, gathered._same(jnp.ones(gathered.data.shape, bool)),
                                          axis)
        raise NprUnsupported("NPR111", "a reduction of a slice whose length is known only at run "
                             "time, indexed with integers, is not translated")
    if reduction in ("len", "size"):
        return _npr_selected_count(x, mask, reduction)
    if axis is not None and (len(_npr_shape_of(mask)) != 1 or len(_npr_shape_of(x)) < 2 or axis not in (
            0, -len(_npr_shape_of(x))) or isinstance(x, NprMasked) and any(n is not None for n in x.lens[1:])):
        raise NprUnsupported("NPR111", f"a reduction along axis {axis} of a masked read of a slice "
                             "whose length is known only at run time is not translated")
    data, selected, _, _ = _npr_selected(x, mask)
    return _npr_reduce_selection(reduction, data, selected, axis, rows=True)


def _npr_reduce_selection(reduction, x, mask, axis, rows=False):
    """npr_masked_reduce's reduction of x[mask], x a whole array (`rows`: a mask of x's shape,
    made by _npr_selected, which selects whole rows where `axis` is 0)."""
    m = jnp.asarray(mask)
    if reduction in ("len", "size"):  # `len(x[m])`, `x[m].size`: the selection's length, a Python int
        if m.dtype != jnp.bool_:
            return getattr(npr_get(x)[mask], "size") if reduction == "size" else len(npr_get(x)[mask])
        if m.shape != x.shape[:m.ndim]:
            _npr_check_empty_mask(m.shape, x.shape)
            return 0
        count = jnp.sum(m, dtype=np.int64) * (int(np.prod(x.shape[m.ndim:])) if reduction == "size" else 1)
        return _npr_weak_astype(count, np.dtype(np.int64))
    extreme = _NPR_EXTREMES.get(reduction)
    if extreme is not None and x.dtype.kind == "c":
        raise NprUnsupported("NPR107", f"{reduction} of a masked read of complex values is not "
                             f"translated (NumPy orders complex numbers lexicographically)")
    name = {"amax": "max", "amin": "min"}.get(reduction, reduction)
    kw = {"dtype": getattr(np, name)(np.zeros(1, x.dtype)).dtype} if name in ("sum", "mean", "prod") else {}
    if axis is not None:
        kw["axis"] = axis
    if m.dtype != jnp.bool_:  # an integer index (or a concrete one): the read itself
        selected = jnp.asarray(npr_get(x)[mask])
        if name in ("std", "var") and axis is None:
            return _npr_masked_var(selected, jnp.ones(selected.shape, bool), name)
        return getattr(jnp, name)(selected, **kw)
    if axis is not None and m.ndim == x.ndim and axis in (0, -1) and not rows:
        axis = None  # (`x[m].sum(axis=0)` of a 1-d selection: its one axis, the whole reduction)
        kw.pop("axis")
    if axis is not None and not rows and (m.ndim != 1 or x.ndim < 2 or axis not in (0, -x.ndim) or name == "median"):
        raise NprUnsupported("NPR107", f"{name} of a masked read along axis {axis} is not translated "
                             "(only axis 0 of rows selected by a 1-d mask has a static shape)")
    if m.shape != x.shape[:m.ndim]:
        _npr_check_empty_mask(m.shape, x.shape)
        m = jnp.zeros(x.shape, bool)  # a mask with an empty axis selects nothing
    else:
        m = jnp.broadcast_to(m.reshape(m.shape + (1,) * (x.ndim - m.ndim)), x.shape)
    if name == "count_nonzero":  # (NumPy's int64, an array along an axis)
        return jnp.sum((x != 0) & m, axis=axis, dtype=np.int64)
    if name in ("std", "var"):
        return _npr_masked_var(x, m, name, axis)
    if name == "median":
        return _npr_masked_median(x, m)
    if name == "mean":  # along axis 0: NumPy's warnings from an empty array of x's other axes
        _npr_warn_empty_mean(jnp.sum(m) == 0, x.dtype, np.mean if axis is None else
                             lambda e: np.mean(e.reshape((0,) + x.shape[1:]), axis=0))
    if name in ("argmax", "argmin"):
        return _npr_masked_arg_extreme(x, m, name, axis)
    if extreme is not None:
        _npr_check_nonempty(m, f"zero-size array to reduction operation {extreme} which has no identity")
        kw["initial"] = _npr_identity(name, x.dtype)
    return getattr(jnp, name)(x, where=m, **kw)


def _npr_check_nonempty(m, message):
    """NumPy's ValueError(message) where the mask selects nothing: now for a concrete mask,
    when the call runs for a traced one."""
    count = jnp.sum(m)
    if not _npr_traced(count):
        if int(count) == 0:
            raise ValueError(message)
    else:
        _npr_check_run(count, lambda c: c == 0, ValueError, (message,))


def _npr_masked_arg_extreme(x, m, name, axis):
    """`x[m].argmax()` / argmin (no axis): the position, in the selection's C order, of its
    first extreme (its first NaN where it holds one, as NumPy's argmax), an int64; NumPy's
    ValueError for an empty selection. `m` has x's shape."""
    if axis is not None or x.dtype.kind == "c":
        raise NprUnsupported("NPR107", f"{name} of a masked read along an axis, or of complex values, "
                             "is not translated")
    _npr_check_nonempty(m, f"attempt to get {name} of an empty sequence")
    xs, ms = x.reshape(-1), m.reshape(-1)
    extreme = "max" if name == "argmax" else "min"
    value = getattr(jnp, extreme)(xs, where=ms, initial=_npr_identity(extreme, x.dtype))
    hit = ms & (xs == value)
    if x.dtype.kind == "f":
        nan = ms & jnp.isnan(xs)
        hit = jnp.where(jnp.any(nan), nan, hit)
    return jnp.cumsum(ms, dtype=np.int64)[jnp.argmax(hit)] - 1


def _npr_masked_var(x, m, name, axis=None):
    """np.var / np.std of x[m] (ddof=0) as NumPy's _var computes it: the mean (the sum over
    the count, divided in float64 and rounded to the dtype: NumPy divides by an intp count),
    the squared deviations summed, over the count again. Integers and bools in float64.
    `axis`: 0 where a 1-d mask selects rows (`Xc.var(axis=0)`, naive Bayes), m then x's shape:
    the columns' spreads, nan with NumPy's warnings for an empty selection."""
    dtype = np.dtype(np.float64) if x.dtype.kind in "biu" else np.dtype(x.dtype)
    if dtype not in (np.float32, np.float64):
        raise NprUnsupported("NPR107", f"{name} of a masked read of {x.dtype} values is not translated")
    count = jnp.sum(m, axis=axis, dtype=np.int64, keepdims=axis is not None)
    _npr_warn_empty_mean(jnp.sum(m) == 0, x.dtype, np.var if axis is None else
                         lambda e: np.var(e.reshape((0,) + x.shape[1:]), axis=0))
    x = x.astype(dtype)
    mean = (jnp.sum(x, axis=axis, where=m, dtype=dtype, keepdims=axis is not None).astype(np.float64)
            / count).astype(dtype)
    var = (jnp.sum(jnp.square(x - mean), axis=axis, where=m, dtype=dtype, keepdims=axis is not None)
           .astype(np.float64) / count).astype(dtype)
    if axis is not None:
        var = var.reshape(x.shape[1:])
    return jnp.sqrt(var) if name == "std" else var


def _npr_masked_median(x, m):
    """np.median of x[m] as NumPy's _median takes it: the middle element of the sorted
    selection, or the mean of the middle two ((a + b) / 2, in float64 for integers); nan when a
    selected value is nan, and for an empty selection (with NumPy's warnings)."""
    if x.dtype.kind not in "biuf":
        raise NprUnsupported("NPR107", f"median of a masked read of {x.dtype} values is not translated")
    dtype = np.dtype(np.float64) if x.dtype.kind in "biu" else np.dtype(x.dtype)
    count = jnp.sum(m, dtype=np.int64)
    _npr_warn_empty_mean(count == 0, x.dtype, np.median)
    x = x.astype(dtype).reshape(-1)
    m = m.reshape(-1)
    ordered = jnp.sort(jnp.where(m, x, jnp.inf))  # the selection first (nan after inf)
    lo, hi = ordered[jnp.maximum((count - 1) // 2, 0)], ordered[jnp.minimum(count // 2, x.size - 1)]
    middle = jnp.where(count % 2 == 1, lo, (lo + hi) / dtype.type(2))
    return jnp.where((count == 0) | jnp.any(jnp.isnan(x) & m), dtype.type(np.nan), middle)


def _npr_warn_empty_mean(empty, dtype, reduction=np.mean):
    """NumPy's warnings for the mean of an empty selection ('Mean of empty slice', then 'invalid
    value encountered in scalar divide'): NumPy's own, from np.mean of an empty array of the
    same dtype, issued now (a concrete mask) or by a host callback when the compiled call runs
    and the selection is empty (unless a run-time check failed before: NumPy raised there)."""
    def warn(flag, dtype=np.dtype(dtype)):
        if np.any(flag):
            reduction(np.empty(0, dtype))
    warn = _npr_errstated(warn)
    if not _npr_traced(empty):
        warn(empty)
        return
    _npr_note_callback()
    jax.debug.callback(warn, empty & npr_bounds_ok())


def _npr_identity(name, dtype):
    """The value a max (min) over where= starts from: never the result when something is selected."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return name == "min"
    if dtype.kind == "f":
        return -np.inf if name == "max" else np.inf
    info = np.iinfo(dtype)
    return dtype.type(info.min if name == "max" else info.max)
