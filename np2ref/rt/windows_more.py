"""Reductions of slices whose length is known only at run time (NprMasked, windows.py) beyond
the sum: mean, max and min, exact for NumPy.

The masked-out elements are replaced by the reduction's identity (-0.0 for a sum: x + -0.0 is
x, signed zeros included; the lowest or highest value of the dtype for max and min), so the
result combines exactly NumPy's elements. A mean divides by the traced count. max/min of an
empty slice raise NumPy's ValueError from the compiled call (a run-time check; under `.pure`
nothing is checked and the identity comes back, as for out-of-range indices).
"""

import jax.numpy as jnp
import numpy as np

from .compat import _npr_weak_astype
from .core import npr_load, NprUnsupported
from .masked import _npr_guard_where, _npr_masked, _npr_masked_axes, _npr_operands, NprMasked


def _npr_slice_reduction(jf, method):
    """`np.sum` / `np.max` / `np.min` of a slice whose bounds may be known only at run time
    (`np.max(t[i, i + 1:j] + t[i + 2:j + 1, j])` in a loop over i and j): a slice of traced
    length (NprMasked) reduces through its own method, anything else through jax.numpy's."""
    def f(a, axis=None, *args, **kwargs):
        if not isinstance(a, NprMasked):
            return jf(a, axis, *args, **kwargs)
        if args or set(kwargs) - {"keepdims"}:
            a._unsupported()
        return getattr(a, method)(axis, **kwargs)

    f.__name__ = f.__qualname__ = f"npr_slice_{method}"
    f.__doc__ = f"`np.{method}` of a slice whose length may be known only at run time."
    return f


npr_slice_sum = _npr_slice_reduction(jnp.sum, "sum")
npr_slice_max = _npr_slice_reduction(jnp.max, "max")
npr_slice_min = _npr_slice_reduction(jnp.min, "min")
npr_slice_any = _npr_slice_reduction(jnp.any, "any")
npr_slice_all = _npr_slice_reduction(jnp.all, "all")


def npr_slice_flip(m, axis=None):
    """`np.flip(r[:k])`: a 1-d slice of run-time length reversed as `r[:k][::-1]` (NprMasked)."""
    if isinstance(m, NprMasked) and m.ndim == 1 and axis in (None, 0, -1):
        return m[::-1]
    return jnp.flip(m, axis)


# -- boolean-mask selections (`r2[inside]`, rt/masks.py) where the array or the mask is such a slice --

def _npr_shape_of(x):
    return x.data.shape if isinstance(x, NprMasked) else np.shape(x)


def _npr_mask_fits(mask, x, axis=0):
    """NumPy's check of a boolean mask against x's axes from `axis` on, where either is a slice
    of run-time length (NprMasked). A masked axis (a traced length) pairs with a masked axis:
    their lengths are checked where the two are combined (_npr_operands: NPR110 when they
    differ at run time); a static axis with a static axis of its size (NumPy's IndexError
    otherwise). A masked axis against a static one, whose lengths NumPy compares and np2ref
    does not know, is not translated (NPR111: a loop with static bounds then runs as Python)."""
    mshape, xshape = _npr_shape_of(mask), _npr_shape_of(x)
    if not mshape or axis + len(mshape) > len(xshape):
        raise NprUnsupported("NPR111", "a boolean mask of more axes than the slice of run-time "
                             "length it selects from (or of none) is not translated")
    for k, m in enumerate(mshape):
        n = xshape[axis + k]
        lm = mask.lens[k] if isinstance(mask, NprMasked) else None
        lx = x.lens[axis + k] if isinstance(x, NprMasked) else None
        if (lm is None) != (lx is None) or lm is None and m != n and 0 in (m, n):
            raise NprUnsupported("NPR111", "a boolean mask selects from an axis whose length is "
                                 "known only at run time for one of the two and static for the other")
        if lm is None and m != n:
            raise IndexError(f"boolean index did not match indexed array along axis {k}; size of axis "
                             f"is {n} but size of corresponding boolean axis is {m}")


def _npr_trailing_ones(x, extra):
    """x with `extra` axes of length 1 appended (a mask over x's leading axes, paired with x)."""
    if isinstance(x, NprMasked):
        data = jnp.reshape(x.data, x.data.shape + (1,) * extra)
        return NprMasked(data, x.lens + (None,) * extra, x.offs + (None,) * extra)
    x = jnp.asarray(x)
    return jnp.reshape(x, x.shape + (1,) * extra)


def _npr_selected(x, mask):
    """NumPy's `x[mask]` (a boolean mask over x's leading axes) where x or the mask is a slice of
    run-time length, as (data, selected, lens, offs): x's data and the mask's paired as
    _npr_operands pairs operands (one start, one buffer width per masked axis; both shifted to
    the front where their starts differ), and `selected`, a boolean array of the data's shape
    that is the mask where both slices hold NumPy's elements and False elsewhere (the padding,
    the elements outside the slices). NumPy's selection is data[selected], in C order."""
    mask = npr_load(mask)
    _npr_mask_fits(mask, x)
    mask = _npr_trailing_ones(mask, len(_npr_shape_of(x)) - len(_npr_shape_of(mask)))
    (data, m), lens, offs = _npr_operands(x, mask)
    inside = NprMasked(data, lens, offs)._mask()
    return data, jnp.broadcast_to(m & inside, data.shape), lens, offs


def _npr_selected_guard(x, mask):
    """npr_mask_guard where x or the mask is a slice of run-time length: x's data with the
    elements NumPy's x[mask] leaves out guarded (_npr_guard_where), an NprMasked of the pair's
    lengths and starts, so that the expression it enters stays aligned with the mask."""
    data, selected, lens, offs = _npr_selected(x, mask)
    return _npr_masked(_npr_guard_where(data, selected), lens, offs)


def _npr_selected_count(x, mask, what):
    """len(x[mask]) ('len': the mask's count) or x[mask].size ('size'), a slice among them."""
    _, selected, _, _ = _npr_selected(x, mask)
    if what == "len":
        mask = npr_load(mask)
        selected = mask.filled(False) if isinstance(mask, NprMasked) else jnp.asarray(mask)
    return _npr_weak_astype(jnp.sum(selected, dtype=np.int64), np.dtype(np.int64))


def npr_slice_count_nonzero(a, axis=None, *, keepdims=False):
    """`np.count_nonzero(inside)` of a mask whose length may be known only at run time: the
    nonzero elements among NumPy's (jax.numpy's count of anything else)."""
    if not isinstance(a, NprMasked):
        return jnp.count_nonzero(a, axis=axis, keepdims=keepdims)
    if keepdims:
        a._unsupported()
    axes = _npr_masked_axes(a, axis)
    out = jnp.count_nonzero(a.filled(0), axis=axes)
    keep = [k for k in range(a.ndim) if k not in axes]
    return _npr_masked(out, [a.lens[k] for k in keep], [a.offs[k] for k in keep])


def _npr_clip_bound(b, n, default):
    """NumPy's clipping of one slice bound (step 1) into an axis of n."""
    if b is None:
        return default
    return jnp.where(b < 0, jnp.maximum(b + n, 0), jnp.minimum(b, n))


# -- slices with a step whose bounds are known only at run time (`x[i::2]`, `x[i:i + 2 * w:2]`)
def _npr_step_dyn(dyn, start, stop, step, n):
    """Fill in the windows._npr_Dyn `dyn` for `start:stop:step` (a static step other than 1) on
    an axis of n: NumPy's first element `lo`, the count `length`, a buffer as long as the most
    elements such a slice can have (ceil(n / |step|))."""
    dyn.step, dyn.full = step, False
    dyn.width = -(-n // abs(step))
    if step > 0:
        lo = _npr_clip_bound(start, n, 0)
        hi = _npr_clip_bound(stop, n, n)
        dyn.length = jnp.maximum((hi - lo + step - 1) // step, 0)
    else:  # NumPy's clipping for a negative step: -1 stands for "before the first element"
        lo = n - 1 if start is None else jnp.where(start < 0, jnp.maximum(start + n, -1), jnp.minimum(start, n - 1))
        hi = -1 if stop is None else jnp.where(stop < 0, jnp.maximum(stop + n, -1), jnp.minimum(stop, n - 1))
        dyn.length = jnp.maximum((lo - hi - step - 1) // -step, 0)
    dyn.lo = lo


def _npr_step_gather(x, dyn):
    """x's axis dyn.axis (n long) read at lo, lo + step, ...: NumPy's elements first."""
    n = x.shape[dyn.axis]
    p = jnp.arange(dyn.width)
    idx = jnp.clip(dyn.lo + p * dyn.step, 0, max(n - 1, 0))  # past the length: masked, any index
    return jnp.take(x, idx, axis=dyn.axis) if n else x


def _npr_step_scatter(v, dyn):
    """v (NumPy's elements first on axis dyn.axis) placed at lo, lo + step, ... of the whole
    axis; what lies outside the slice is masked by the caller (_npr_step_mask)."""
    p = (jnp.arange(dyn.n) - dyn.lo) // dyn.step  # the slice element position j holds, if any
    s = v.shape[dyn.axis]
    return jnp.take(v, jnp.clip(p, 0, max(s - 1, 0)), axis=dyn.axis)


def _npr_step_mask(iota, dyn):
    """Where on the whole axis the slice's elements are (iota: that axis' positions)."""
    off = iota - dyn.lo
    p = off // dyn.step
    return (off % abs(dyn.step) == 0) & (p >= 0) & (p < dyn.length)
