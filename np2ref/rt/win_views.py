"""Views of a window that move with the loop variable, written through: `w = out[i:i + k]`,
then `w[w < 0] = 0.0`, `w[m] += v`, `out[i:i + k][m] op= v` (npr_sub of an index with a
window of a static width at a traced start, npr_win, in a lax loop), and of any other slice
with traced bounds (`np.maximum(V[:m], ex, out=V[:m])`, `x = R[k:, k]`): read and written as
below, and what its machinery cannot take (NPR111) makes the loop a Python loop, as before.

NumPy's view is `out`'s memory: each store through it lands in `out` at once, and each read
sees every earlier write (of earlier iterations, whose windows overlap, too). NprWinView keeps
only the base and the index: a read loads the window now (windows.py `_npr_dyn_read`: a plain
array of the window's width when the loop's range proves it inside the axis, else an
NprMasked of NumPy's traced length), and a store is NumPy's store on that buffer, written back
at once through the windowed store (`_npr_dyn_store`, which writes only NumPy's elements). So
stores are load, store, write back, in program order: exact for repeated and overlapping writes.

A window that may be shorter than its width (at the axis's end: NumPy's slice is shorter)
takes only indices and values that fit any length: `...`, `:`, a boolean mask and values
made from windows of the same length (NprMasked, their lengths checked equal: NPR110), values
of one element. Anything else (an integer index that may fall past NumPy's end, a value of the
window's width) raises NPR111 while tracing: a loop with static bounds then runs as Python,
exactly (python_loops.py).
"""

from jax import lax
import jax
import jax.numpy as jnp
import numpy as np

from .core import _npr_above, _NprLazy, npr_load, NprUnsupported
from .masked import _npr_lengths_equal, NprMasked
from .masks import npr_mask_store
from .stores import _npr_Aug, _npr_update, npr_at
from .views import npr_get
from .windows import _npr_dyn_index, _npr_dyn_read, _npr_is_dyn, NprWin


class NprWinView(_NprLazy):
    """NumPy's view `base[idx]` where idx has a window (NprWin) at a traced start. Its
    conversions and methods raise NPR111, as NprMasked's do."""
    __slots__ = ('base', 'idx')

    def __init__(self, base, idx):
        self.base, self.idx = base, idx

    dtype = property(lambda self: self.base.dtype)
    ndim = property(lambda self: jnp.ndim(_npr_win_buffer(self)[0]))

    @property
    def shape(self):
        data, lens = _npr_win_buffer(self)
        if any(n is not None for n in lens):
            raise NprUnsupported("NPR111", "the shape of a window that may run past the end of "
                                 "its axis is known only at run time")
        return data.shape

    def __getitem__(self, idx):  # `w[...]`: the window's current value
        value = npr_load(self)
        if idx is Ellipsis or isinstance(idx, tuple) and not idx:
            return value
        if isinstance(value, NprMasked):
            raise NprUnsupported("NPR111", "an index into a window whose length is known only "
                                 "at run time is not translated")
        return npr_get(value)[idx]

    def __repr__(self):
        return f"NprWinView(dtype={self.dtype})"

    def _npr_load(self):
        return _npr_win_load(self)

    def __getattr__(self, name):  # a method of the view (`.fill`, `.sort`): not translated
        if name.startswith("__") and name.endswith("__"):  # a protocol probe (`__jax_array__`)
            raise AttributeError(name)
        raise NprUnsupported("NPR111", f"`.{name}` of a window that moves with the loop variable, "
                             "written through, is not translated")

    def _unsupported(self, *args, **kwargs):  # (NPR111: a loop with static bounds runs as Python)
        raise NprUnsupported("NPR111", "this use of a window that moves with the loop variable, "
                             "written through, is not translated")

    __len__ = __iter__ = __array__ = __bool__ = __float__ = __int__ = __index__ = __complex__ = _unsupported


def _npr_windows_only(idx):
    """Whether idx has a window of a static width at a traced start (npr_win) or another slice
    with traced bounds (`V[:m]`, `R[k:, k]`), and no NprMasked entry."""
    items = idx if isinstance(idx, tuple) else (idx,)
    return any(isinstance(e, NprWin) or isinstance(e, slice) and _npr_is_dyn(e) for e in items) \
        and not any(isinstance(e, NprMasked) for e in items)


def _npr_whole_slice(e):
    return isinstance(e, slice) and e.start is None and e.stop is None and e.step is None


def _npr_win_load(view):
    """The window's current value (npr_load of an NprWinView)."""
    return _npr_dyn_read(view.base, view.idx)


def _npr_win_buffer(view):
    """(the window's data with NumPy's elements first, its lengths: None where proved whole)."""
    cur = _npr_win_load(view)
    if isinstance(cur, NprMasked):
        return cur.aligned().data, cur.lens
    return cur, (None,) * jnp.ndim(cur)


def _npr_win_unwrap(x, data, lens, leading=False):
    """x as a plain array on the window's buffer: an NprMasked of the window's lengths (checked;
    on its leading axes for a mask, its trailing ones for a value, as NumPy pairs them) gives
    its data, NumPy's elements first, cut or padded to the buffer's width; (x, whether it fits
    any length of the window: an NprMasked, one value, or any value when the window is whole)."""
    if not isinstance(x, NprMasked):
        return x, np.size(npr_load(x)) == 1 or all(n is None for n in lens)
    nd = jnp.ndim(x.data)
    if nd > len(lens):
        raise NprUnsupported("NPR111", "a slice whose length is known only at run time, of "
                             "more dimensions than the window it is stored into")
    axes = range(nd) if leading else range(len(lens) - nd, len(lens))
    out = x.aligned().data
    for k, (a, theirs) in enumerate(zip(axes, x.lens)):
        mine, width = lens[a], data.shape[a]
        if theirs is None and mine is None:
            continue
        _npr_lengths_equal(width if mine is None else mine, out.shape[k] if theirs is None else theirs)
        if out.shape[k] > width:  # NumPy's elements first, no more of them than the window holds
            out = lax.slice_in_dim(out, 0, width, axis=k)
        elif out.shape[k] < width:
            pad = [(0, 0)] * nd
            pad[k] = (0, width - out.shape[k])
            out = jnp.pad(out, pad)
    return out, True


def _npr_win_valid(data, lens, ndim):
    """Where NumPy's elements are in the buffer, on its first ndim axes (the later ones whole)."""
    if any(n is not None for n in lens[ndim:]):
        _npr_win_fits([False])
    valid = jnp.broadcast_to(NprMasked(data, lens)._mask(), data.shape)
    return valid[(Ellipsis,) + (0,) * (len(lens) - ndim)]


def _npr_win_fits(fits):
    if not all(fits):
        raise NprUnsupported("NPR111", "a store into a window that may run past the end of its "
                             "axis, with an index or value that does not fit every length of it")


def _npr_win_write(view, tmp, lens):
    """Write the buffer `tmp` back into the window (only NumPy's elements of it)."""
    data = tmp[...]
    if isinstance(view.base, jax.Ref):
        static, dyns = _npr_dyn_index(tuple(view.base.shape), view.idx)
        if all(d.step == 1 and data.shape[d.axis] == d.width for d in dyns) and all(map(_npr_whole_slice, static)):
            _npr_update(view.base, lambda cur: _npr_win_put(cur, data, dyns))
            return
    npr_at(view.base)[view.idx] = NprMasked(data, lens) if any(n is not None for n in lens) else data


def _npr_win_put(cur, data, dyns):
    """cur with data (NumPy's elements first on each window axis) written over the window: a
    window proved inside the axis at its start; else the window clamped into the axis (start
    s), NumPy's elements at lo - s in it and the rest kept (O(width), not a select over the axis)."""
    starts, keep = [0] * data.ndim, True
    for d in dyns:
        if d.full:
            starts[d.axis] = d.lo
            continue
        s = jnp.minimum(d.lo, d.n - d.width)
        off = d.lo - s  # lo + length <= n: NumPy's elements fit in the clamped window
        starts[d.axis] = s
        data = jnp.roll(data, off, d.axis)
        shape = [1] * data.ndim
        shape[d.axis] = data.shape[d.axis]
        iota = lax.broadcasted_iota(jnp.int32, tuple(shape), d.axis)
        keep = keep & (iota >= off) & (iota < off + d.length)
    data = data.astype(cur.dtype)
    if keep is not True:
        data = jnp.where(keep, data, lax.dynamic_slice(cur, starts, data.shape))
    return lax.dynamic_update_slice(cur, data, starts)


def _npr_win_store(view, idx, v):
    """`npr_at(w)[idx] = v` / `op= v` with w an NprWinView."""
    data, lens = _npr_win_buffer(view)
    items = idx if isinstance(idx, tuple) else (idx,)
    fits = []
    for k, e in enumerate(items):
        if e is Ellipsis or _npr_whole_slice(e):
            continue
        if isinstance(e, NprMasked) and k:  # (its axes would not be the window's first ones)
            _npr_win_fits([False])
        e, ok = _npr_win_unwrap(items[k], data, lens, leading=True)
        fits.append(ok and isinstance(items[k], NprMasked) and items[k].dtype == bool and k == 0)
        if any(n is not None for n in lens) and fits[-1]:  # only NumPy's elements selected
            e = e & _npr_win_valid(data, lens, jnp.ndim(e))
        items = items[:k] + (e,) + items[k + 1:]
    aug = v.name if isinstance(v, _npr_Aug) else None
    val, ok = _npr_win_unwrap(v.v if aug is not None else v, data, lens)
    _npr_win_fits(fits + [ok] if any(n is not None for n in lens) else [])
    tmp = jax.new_ref(data)
    npr_at(tmp)[items if isinstance(idx, tuple) else items[0]] = _npr_Aug(aug, val) if aug is not None else val
    _npr_win_write(view, tmp, lens)


def _npr_win_mask_store(view, mask, value, op, scalars, axis, lead, masked, selections, read_if_int):
    """npr_mask_store into an NprWinView: NumPy's masked store on the window's buffer (a Ref
    of it), then the buffer written back."""
    data, lens = _npr_win_buffer(view)
    ragged = any(n is not None for n in lens)
    if ragged and (lead or selections or isinstance(mask, tuple)):
        _npr_win_fits([False])
    fits_mask = isinstance(mask, NprMasked) and mask.dtype == bool
    mask = _npr_win_unwrap(mask, data, lens, leading=True)[0]
    value, ok_value = _npr_win_unwrap(value, data, lens)
    masked = tuple(_npr_win_unwrap(x, data, lens)[0] for x in masked)
    scalars = None if scalars is None else tuple(_npr_win_unwrap(x, data, lens)[0] for x in scalars)
    if ragged:
        _npr_win_fits([fits_mask, ok_value])
        mask = mask & _npr_win_valid(data, lens, jnp.ndim(mask))  # only NumPy's elements selected
    tmp = jax.new_ref(data)
    npr_mask_store(tmp, mask, value, op, scalars, axis, lead, masked, selections, read_if_int)
    _npr_win_write(view, tmp, lens)


# views.py, stores.py and masks.py, floors below, view and write windows at a traced start through these
_npr_above.NprWinView, _npr_above.windows_only = NprWinView, _npr_windows_only
_npr_above.win_store, _npr_above.win_mask_store = _npr_win_store, _npr_win_mask_store
