"""Slices whose bounds are known only at run time: windows (`x[i:i + w]`) and masked slices
(`A[k + 1:, k]`, `A[i, :i]`, `data[p[i]:p[i + 1]]`), read, reduced and stored exactly.

NumPy's `x[a:b]` has b - a elements (clipped into the axis, negative bounds counted from the
end); jit needs static shapes. A slice with a traced bound is read as a buffer of static
length B (the window's width, or the axis) holding NumPy's elements at positions 0 .. L - 1,
L its traced length: a plain array when L == B is proved (the loop variable's range keeps the
window inside the axis), else an NprMasked (buffer + L per axis). NprMasked supports what is
exact on a masked buffer: elementwise arithmetic with scalars, with arrays broadcast along its
masked axes, and with other NprMasked of the same lengths; sums, dot, matmul, outer; stores into
a slice of the same length. Anything else raises NPR111 while tracing (a loop with static
bounds then runs as Python, exactly: python_loops.py). Lengths that two slices must share but
that are only known at run time are checked when the program runs (NPR110).
"""

from jax import lax
import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_affine_range
from .compat import _npr_affine, _npr_current_trace, _npr_traced, _npr_unbatched
from .lane_reads import _npr_lane_window
from .core import _npr_above, _npr_dummy, _npr_state, npr_load, NprUnsupported
from .masked import _npr_lengths_equal, _npr_masked, _npr_same_off, NprMasked
from .stores import _npr_Aug
from .views import npr_get, NprView
from .windows_more import (
    _npr_clip_bound, _npr_step_dyn, _npr_step_gather, _npr_step_mask, _npr_step_scatter)


class NprWin:
    """`x[start:start + width]` with a static width and a start known only at run time
    (npr_win): `base + off` is the start, `base` often the loop variable, whose range proves
    the window in range."""
    __slots__ = ('base', 'width', 'off')

    def __init__(self, base, width, off):
        self.base, self.width, self.off = base, width, off


def npr_win(base, width, off=0):
    """The slice `base + off : base + off + width` (the rewrite writes `x[i:i + w]` as
    `x[npr_win(i, w)]`, `u[i - 1:i + 2]` as `u[npr_win(i, 3, -1)]`). A plain slice when the
    start is known; NprWin (static width) when it is traced."""
    base, width = npr_load(base), npr_load(width)
    if not _npr_traced(base) and not _npr_traced(width):
        base = int(base) + off
        return slice(base, base + int(width))
    if _npr_traced(width):
        return slice(base + off, base + off + width)
    return NprWin(base, int(width), off)


def _npr_is_dyn(e):
    return isinstance(e, NprWin) or (isinstance(e, slice) and any(
        _npr_traced(npr_load(s)) for s in (e.start, e.stop, e.step)))


def _npr_has_dyn(idx):
    """Whether an index has a slice with traced bounds or an NprMasked entry (cheap)."""
    return any(isinstance(e, (NprWin, NprMasked)) or isinstance(e, slice) and _npr_is_dyn(e)
               for e in (idx if isinstance(idx, tuple) else (idx,)))


class _npr_Dyn:
    """One slice with a traced bound, on axis `axis` (of the read's result) of size n:
    NumPy's elements start at `lo` and there are `length` of them; `width` is the buffer's
    (static) length; `full` says length == width is proved; `step`: a static step other than
    1 (windows_more.py)."""
    step = 1

    def __init__(self, e, n, axis):
        self.n, self.axis, self.ends = n, axis, False
        if isinstance(e, NprWin):
            w, s = e.width, e.base + e.off
            self.width = min(w, n)
            known = _npr_affine_range(e.base)
            if known is not None and w <= n and 0 <= known[0] + e.off and known[1] + e.off + w <= n:
                self.lo, self.length, self.full = s, w, True
                return
            if known is not None and w <= n and -n <= known[0] + e.off and known[1] + e.off + w <= -1:
                self.lo, self.length, self.full = s + n, w, True
                return
            start, stop = s, s + w
            keys = _npr_bound_key(e.base, e.off), _npr_bound_key(e.base, e.off + w)
            # a start never negative: NumPy's elements are the window's first min(lo + w, n) - lo
            self.ends = known is not None and known[0] + e.off >= 0
        else:
            step = npr_load(e.step)
            if not _npr_traced(step) and step not in (None, 1, 0):
                _npr_step_dyn(self, npr_load(e.start), npr_load(e.stop), int(step), n)  # `x[i::2]`
                return
            if _npr_traced(step) or step not in (None, 1):
                raise NprUnsupported("NPR111", "a slice with a step and bounds known only at run "
                                     "time is not translated")
            start, stop = npr_load(e.start), npr_load(e.stop)
            self.width = n
            keys = _npr_bound_key(start), _npr_bound_key(stop)
        self.lo, self.length = _npr_dyn_bounds(start, stop, n, keys)
        self.full = False


def _npr_bound_key(b, plus=0):
    """A slice bound b + plus as (the traced value it is computed from, or None; a hashable
    rest): bounds with the same key have the same value (`k + 1` computed twice)."""
    b = npr_load(b)
    if b is None:
        return None, None
    if not _npr_traced(b):
        if isinstance(b, (int, np.integer)) and not isinstance(b, bool):
            return None, int(b) + plus
        return b, ('value', plus)  # (NumPy refuses it; the same object at most)
    lanes = _npr_unbatched(b)
    if lanes is not None:  # `i + 1` in lanes: a vmapped value, the same when computed from the
        base, c = _npr_affine(lanes[0])  # same lane values (correlation's read `d[:, i + 1:M]` and
        return base, ('lanes', lanes[1], c + plus)  # store `corr[i, i + 1:M]`: no roll between)
    base, c = _npr_affine(b)
    return base, c + plus


def _npr_dyn_bounds(start, stop, n, keys):
    """(lo, length) of NumPy's slice start:stop (step 1) of an axis of n. Within one trace the
    same bounds give the same two values (one computation): so windows.py and masked.py see
    that `A[k + 1:, k]` and `A[k, k + 1:]` start at the same place, and that their lengths
    are equal without a check when the program runs."""
    trace = _npr_current_trace()
    (b0, r0), (b1, r1) = keys
    memo = _npr_state.setdefault("dyn_bounds", {})
    key = (id(trace), id(b0), r0, id(b1), r1, n)
    hit = memo.get(key)
    if trace is not None and hit is not None and hit[0] is trace and hit[1] is b0 and hit[2] is b1:
        return hit[3], hit[4]
    lo = _npr_clip_bound(start, n, 0)
    hi = _npr_clip_bound(stop, n, n)
    out = lo, jnp.maximum(hi - lo, 0)
    if trace is not None:
        while len(memo) >= 64:
            memo.pop(next(iter(memo)))
        memo[key] = (trace, b0, b1) + out
    return out


def _npr_dyn_index(shape, idx):
    """(idx with each slice whose bounds are traced made whole, [_npr_Dyn per such slice]) or
    None when idx has none."""
    items = list(idx) if isinstance(idx, tuple) else [idx]
    if not any(_npr_is_dyn(e) for e in items):
        return None
    if any(isinstance(e, NprMasked) or np.ndim(npr_load(e)) > 0 and not isinstance(e, (slice, NprWin))
           or e is Ellipsis and items.count(Ellipsis) > 1 for e in items):
        raise NprUnsupported("NPR111", "a slice with bounds known only at run time next to an "
                             "array index is not translated")
    used = sum(e is not None and e is not Ellipsis for e in items)
    if Ellipsis in items:
        k = items.index(Ellipsis)
        items[k:k + 1] = [slice(None)] * (len(shape) - used)
    static, dyns, d, axis = [], [], 0, 0
    for e in items:
        if e is None:
            static.append(None)
            axis += 1
            continue
        if d >= len(shape):
            raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, "
                             f"but {used} were indexed")
        if _npr_is_dyn(e):
            dyns.append(_npr_Dyn(e, shape[d], axis))
            static.append(slice(None))
            axis += 1
        else:
            static.append(e)
            axis += 0 if not isinstance(e, slice) else 1
        d += 1
    return tuple(static), dyns


def _npr_cut(x, dyn, fixed=False):
    """(x with axis dyn.axis (the whole axis, n) cut to dyn.width, where NumPy's elements
    start in it): a window proved in range is itself (start 0); the whole axis keeps them
    where they are (start lo); a window that may run off the end is the window clamped into
    the axis, with NumPy's elements from lo - s (lo + L <= s + w: they fit)."""
    a, n, w = dyn.axis, dyn.n, dyn.width
    if dyn.step != 1:
        return _npr_step_gather(x, dyn), None  # (windows_more.py): NumPy's elements first
    if dyn.full:
        return _npr_lane_window(x, dyn.lo, w, a), None  # proved in range: no clamping (in lanes: slices)
    if w == n:
        return x, dyn.lo
    if fixed:  # x padded by w (XLA pads once, outside the loop): the window from lo, and
        pad = [(0, 0)] * x.ndim  # past NumPy's elements the padding, the sum's identity (-0.0)
        pad[a] = (0, w)
        return lax.dynamic_slice_in_dim(jnp.pad(x, pad, constant_values=_npr_sum_fill(x.dtype)), dyn.lo, w, a), None
    s = jnp.minimum(dyn.lo, n - w)
    return lax.dynamic_slice_in_dim(x, s, w, a), dyn.lo - s


def _npr_shift_right(v, dyn):
    """v (dyn.width long on axis dyn.axis, NumPy's elements first) placed at dyn.lo of the
    whole axis (n long); what lies outside the slice is masked by the caller."""
    a, n, w = dyn.axis, dyn.n, v.shape[dyn.axis]
    if dyn.step != 1:
        return _npr_step_scatter(v, dyn)
    if dyn.full and w <= n:
        z = jnp.zeros(v.shape[:a] + (n,) + v.shape[a + 1:], v.dtype)
        return lax.dynamic_update_slice_in_dim(z, v, dyn.lo, a)
    pad = [(0, 0)] * v.ndim
    pad[a] = (n, n)
    return lax.dynamic_slice_in_dim(jnp.pad(v, pad), n - dyn.lo, n, a)


def _npr_sum_fill(dtype):
    return -0.0 if np.dtype(dtype).kind == 'f' else 0


def _npr_dyn_read(x, idx):
    """NumPy's x[idx] for an index with slices whose bounds are traced; None when it has none."""
    found = _npr_dyn_index(tuple(x.shape), idx)
    if found is None:
        return _npr_masked_gather(x, idx)
    static, dyns = found
    val = npr_get(x)[static]
    lens, offs = [None] * val.ndim, [None] * val.ndim
    fixed = not isinstance(x, (jax.Ref, NprView))  # a value: the loop does not change it
    padded = fixed and np.dtype(val.dtype).kind in 'fiu'
    for dyn in dyns:
        val, offs[dyn.axis] = _npr_cut(val, dyn, fixed)
        lens[dyn.axis] = None if dyn.full else dyn.length
        padded = padded and (dyn.full or dyn.width < dyn.n and dyn.ends)
    out = _npr_masked(val, lens, offs)
    if padded and isinstance(out, NprMasked):
        out.fill = _npr_sum_fill(val.dtype)
    return out


def _npr_masked_gather(x, idx):
    """x[m] with m an NprMasked integer array (`v[cols[p[i]:p[i + 1]]]`); None for other indices."""
    if not (isinstance(idx, NprMasked) or isinstance(idx, tuple) and len(idx) == 1 and isinstance(idx[0], NprMasked)):
        raise NprUnsupported("NPR111", "a slice whose length is known only at run time, as an "
                             "index next to other indices, is not translated")
    m = idx[0] if isinstance(idx, tuple) else idx
    if m.dtype.kind not in 'iu':
        raise NprUnsupported("NPR111", "a boolean slice whose length is known only at run time, "
                             "as an index, is not translated")
    safe = m.filled(0)
    val = npr_get(x)[safe]  # NumPy's IndexError for the elements in the slice (the rest are 0)
    return NprMasked(val, m.lens + (None,) * (val.ndim - m.ndim), m.offs + (None,) * (val.ndim - m.ndim))


class _npr_MaskedAt:
    """A store's index (`inner`, an _npr_Idx with the dynamic slices made whole) that writes
    only inside the slices: get() reads the whole region, put() keeps what lies outside."""

    def __init__(self, inner, mask):
        self.inner, self.mask = inner, mask
        self.scalar, self.sel, self.shape, self.probe = inner.scalar, inner.sel, inner.shape, inner.probe
        self.adv, self.gathers, self.traced = inner.adv, inner.gathers, inner.traced

    def get(self, cur, update=False):
        return self.inner.get(cur)

    def put(self, cur, val):
        old = self.inner.get(cur)
        return self.inner.put(cur, jnp.where(self.mask, jnp.broadcast_to(val, old.shape), old))


def _npr_dyn_store(shape, idx, v):
    """For `t[idx] = v` / `t[idx] op= v` with slices whose bounds are traced: (the index with
    those slices whole, the value placed where NumPy's elements go in that region, a function
    that wraps the region's index so that only NumPy's elements are written); None without."""
    if any(isinstance(e, NprMasked) for e in (idx if isinstance(idx, tuple) else (idx,))):
        raise NprUnsupported("NPR111", "a store at the indices of a slice whose length is known "
                             "only at run time is not translated")
    found = _npr_dyn_index(shape, idx)
    if found is None:
        if isinstance(v.v if isinstance(v, _npr_Aug) else v, NprMasked):
            raise NprUnsupported("NPR111", "a slice whose length is known only at run time "
                                 "stored into a region of a static shape")
        return None
    static, dyns = found
    aug = v.name if isinstance(v, _npr_Aug) else None
    val = v.v if aug is not None else v
    region = np.shape(_npr_dummy(shape)[tuple(0 if _npr_traced(npr_load(e)) else e for e in static)])
    nd = len(region)
    offs = (None,) * nd
    if isinstance(val, NprMasked):
        data, lens = val.data, (None,) * (nd - val.ndim) + val.lens
        offs = (None,) * (nd - val.ndim) + val.offs
        if len(lens) > nd:
            raise NprUnsupported("NPR111", "a slice of more dimensions than the region it is stored in")
        data = jnp.reshape(data, (1,) * (nd - val.ndim) + data.shape)
    else:
        data = npr_load(val)
        lens = (None,) * nd
        if np.ndim(data) > nd:
            data = jnp.reshape(data, np.shape(data)[np.ndim(data) - nd:])  # NumPy drops leading 1s
    mask = True
    for dyn in dyns:
        a = dyn.axis
        s = np.shape(data)[a - (nd - np.ndim(data))] if a >= nd - np.ndim(data) else 1
        if lens[a] is not None:
            _npr_lengths_equal(dyn.length, lens[a])
        elif s != 1 and not (dyn.full and s == dyn.width):
            raise NprUnsupported("NPR111", f"{s} values stored into a slice whose length is known "
                                 "only at run time")
        if offs[a] is not None and _npr_same_off(offs[a], dyn.lo) and np.shape(data)[a] == dyn.n:
            pass  # read from the whole axis at the same start: already in place
        elif s != 1 or lens[a] is not None:
            data = jnp.reshape(data, (1,) * (nd - np.ndim(data)) + np.shape(data))
            if offs[a] is not None:  # NumPy's elements first, then where they go
                data = jnp.roll(data, -offs[a], a)
            data = _npr_shift_right(data, dyn)
        ax = [1] * nd
        ax[a] = dyn.n
        iota = lax.broadcasted_iota(jnp.int32, tuple(ax), a)
        mask = mask & ((iota >= dyn.lo) & (iota < dyn.lo + dyn.length) if dyn.step == 1 else _npr_step_mask(iota, dyn))
    for a, n in enumerate(lens):
        if n is not None and not any(d.axis == a for d in dyns):
            raise NprUnsupported("NPR111", "a slice whose length is known only at run time stored "
                                 "into an axis of a static length")
    if not isinstance(data, jax.Array) and not _npr_traced(data):
        data = val  # a Python scalar keeps NumPy's casting of it
    data = type(v)(aug, data) if aug is not None else data
    return static, data, lambda ix: _npr_MaskedAt(ix, mask)


# views.py and stores.py, floors below, read and store slices with traced bounds through these
_npr_above.has_dyn, _npr_above.dyn_read, _npr_above.dyn_store = _npr_has_dyn, _npr_dyn_read, _npr_dyn_store
