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


def _npr_masked_axes(m, axis):
    if axis is None:
        return tuple(range(m.ndim))
    return tuple(sorted({a % m.ndim for a in (axis if isinstance(axis, tuple) else (axis,))}))


def _npr_masked_count(m, axes):
    """The number of NumPy's elements along `axes` (traced when a masked axis is among them)."""
    count = 1
    for a in axes:
        n = m.lens[a]
        count = count * (m.data.shape[a] if n is None else n)
    return count


def npr_masked_mean(m, axis=None, dtype=None, keepdims=False):
    """NumPy's mean of the slice: the masked sum in NumPy's accumulator dtype over the count."""
    if keepdims:
        m._unsupported()
    rdt, cdt = _npr_np_moment_dtypes(np.mean, m.data, dtype)
    axes = _npr_masked_axes(m, axis)
    zero = -0.0 if m.data.dtype.kind in 'fc' else 0
    total = jnp.sum(m.filled(zero).astype(cdt), axis=axes)
    mean = (total / jnp.asarray(_npr_masked_count(m, axes), cdt)).astype(rdt)
    keep = [a for a in range(m.ndim) if a not in axes]  # (where NumPy's elements start kept)
    return _npr_masked(mean, [m.lens[a] for a in keep], [m.offs[a] for a in keep])


def npr_masked_extreme(m, which, axis=None, keepdims=False):
    """NumPy's max (which='max') or min of the slice; ValueError when it is empty."""
    if keepdims:
        m._unsupported()
    axes = _npr_masked_axes(m, axis)
    dt = m.data.dtype
    if dt.kind == 'f':
        fill = -jnp.inf if which == 'max' else jnp.inf
    elif dt.kind == 'b':
        fill = which != 'max'
    else:
        info = jnp.iinfo(dt)
        fill = info.min if which == 'max' else info.max
    if any(m.lens[a] is not None for a in axes):
        count = _npr_masked_count(m, axes)
        name = 'maximum' if which == 'max' else 'minimum'
        _npr_check_run(jnp.asarray(count), lambda c: c == 0, ValueError,
                       f"zero-size array to reduction operation {name} which has no identity")
    red = jnp.max if which == 'max' else jnp.min
    out = red(m.filled(fill), axis=axes)
    keep = [a for a in range(m.ndim) if a not in axes]
    return _npr_masked(out, [m.lens[a] for a in keep], [m.offs[a] for a in keep])


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


def npr_slice_flip(m, axis=None):
    """`np.flip(r[:k])`: a 1-d slice of run-time length reversed as `r[:k][::-1]` (NprMasked)."""
    if isinstance(m, NprMasked) and m.ndim == 1 and axis in (None, 0, -1):
        return m[::-1]
    return jnp.flip(m, axis)


# The runtime's modules call one another's functions: imported once this module is complete.
from .masked import _npr_masked, NprMasked  # noqa: E402
from .windows import _npr_clip_bound  # noqa: E402
from .bounds import _npr_check_run  # noqa: E402
from .np_reductions import _npr_np_moment_dtypes  # noqa: E402


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
