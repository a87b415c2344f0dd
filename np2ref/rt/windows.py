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
import operator as _npr_operator


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


def _npr_clip_bound(b, n, default):
    """NumPy's clipping of one slice bound (step 1) into an axis of n."""
    if b is None:
        return default
    return jnp.where(b < 0, jnp.maximum(b + n, 0), jnp.minimum(b, n))


class _npr_Dyn:
    """One slice with a traced bound, on axis `axis` (of the read's result) of size n:
    NumPy's elements start at `lo` and there are `length` of them; `width` is the buffer's
    (static) length; `full` says length == width is proved; `step`: a static step other than
    1 (windows_more.py)."""
    step = 1

    def __init__(self, e, n, axis):
        self.n, self.axis = n, axis
        if isinstance(e, NprWin):
            w, s = e.width, e.base + e.off
            self.width = min(w, n)
            known = _npr_known_range(e.base)
            if known is not None and w <= n and 0 <= known[0] + e.off and known[1] + e.off + w <= n:
                self.lo, self.length, self.full = s, w, True
                return
            if known is not None and w <= n and -n <= known[0] + e.off and known[1] + e.off + w <= -1:
                self.lo, self.length, self.full = s + n, w, True
                return
            start, stop = s, s + w
        else:
            step = npr_load(e.step)
            if not _npr_traced(step) and step not in (None, 1, 0):
                _npr_step_dyn(self, npr_load(e.start), npr_load(e.stop), int(step), n)  # `x[i::2]`
                return
            if _npr_traced(step) or step not in (None, 1):
                raise NprUnsupported("np2ref NPR111: a slice with a step and bounds known only at run "
                                     "time is not translated")
            start, stop = npr_load(e.start), npr_load(e.stop)
            self.width = n
        lo = _npr_clip_bound(start, n, 0)
        hi = _npr_clip_bound(stop, n, n)
        self.lo, self.length, self.full = lo, jnp.maximum(hi - lo, 0), False


def _npr_dyn_index(shape, idx):
    """(idx with each slice whose bounds are traced made whole, [_npr_Dyn per such slice]) or
    None when idx has none."""
    items = list(idx) if isinstance(idx, tuple) else [idx]
    if not any(_npr_is_dyn(e) for e in items):
        return None
    if any(isinstance(e, NprMasked) or np.ndim(npr_load(e)) > 0 and not isinstance(e, (slice, NprWin))
           or e is Ellipsis and items.count(Ellipsis) > 1 for e in items):
        raise NprUnsupported("np2ref NPR111: a slice with bounds known only at run time next to an "
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


def _npr_shift_left(x, dyn):
    """x with axis dyn.axis (the whole axis, n) cut to dyn.width, NumPy's elements first."""
    a, n, w = dyn.axis, dyn.n, dyn.width
    if dyn.step != 1:
        return _npr_step_gather(x, dyn)
    if dyn.full:
        return lax.dynamic_slice_in_dim(x, dyn.lo, w, a)  # proved in range: no clamping
    if w == n:
        return jnp.roll(x, -dyn.lo, a)  # lo in [0, n]; rolled-in elements lie past the length
    s = jnp.minimum(dyn.lo, n - w)
    return jnp.roll(lax.dynamic_slice_in_dim(x, s, w, a), s - dyn.lo, a)


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


def _npr_lengths_equal(a, b):
    """Whether two slice lengths are the same: proved (the same value, equal ints) or checked
    when the program runs (NPR110: NumPy would broadcast a length 1 or raise)."""
    if a is b or (not _npr_traced(a) and not _npr_traced(b)):
        if not _npr_traced(a) and int(a) != int(b):
            raise NprUnsupported(f"np2ref NPR111: slices of lengths {int(a)} and {int(b)} combined")
        return
    _npr_check_run(jnp.asarray(a), lambda x: x != b, NprUnsupported,
                   "np2ref NPR110: two slices whose lengths are known only at run time differ "
                   "(one has {} elements): NumPy would broadcast or raise")


class NprMasked:
    """NumPy's value of a slice whose length is known only at run time: `data` of a static
    shape, and per axis None (all of it) or the traced length L (NumPy's elements are the
    first L of the axis; the rest is not part of the value)."""
    __slots__ = ('data', 'lens')
    __hash__ = None

    def __init__(self, data, lens):
        self.data, self.lens = data, tuple(lens)

    def _mask(self):
        m = True
        for a, length in enumerate(self.lens):
            if length is not None:
                shape = [1] * self.data.ndim
                shape[a] = self.data.shape[a]
                m = m & (lax.broadcasted_iota(jnp.int32, tuple(shape), a) < length)
        return m

    def filled(self, fill):
        """The data with every element outside the slice replaced by fill."""
        return jnp.where(self._mask(), self.data, jnp.asarray(fill, self.data.dtype))

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def ndim(self):
        return self.data.ndim

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):  # a protocol probe (jax's `x * m` looks
            raise AttributeError(name)  # for __jax_array__): not there, so __rmul__ runs
        raise NprUnsupported(f"np2ref NPR111: `.{name}` of a slice whose length is known only at run "
                             f"time is not translated")

    def _unsupported(self, *args, **kwargs):
        raise NprUnsupported("np2ref NPR111: this use of a slice whose length is known only at run "
                             "time is not translated (its shape is not static)")

    __len__ = __iter__ = __array__ = __getitem__ = __bool__ = __float__ = __int__ = __index__ = _unsupported

    def astype(self, dtype):
        return NprMasked(self.data.astype(dtype), self.lens)

    def copy(self):
        return self

    def sum(self, axis=None, dtype=None, keepdims=False):
        if keepdims:
            self._unsupported()
        zero = -0.0 if self.data.dtype.kind in 'fc' else 0  # x + -0.0 is x, also for x = -0.0
        total = jnp.sum(self.filled(zero), axis=axis, dtype=dtype)
        if axis is None:
            return total
        axes = {a % self.ndim for a in (axis if isinstance(axis, tuple) else (axis,))}
        return _npr_masked(total, [n for a, n in enumerate(self.lens) if a not in axes])

    def mean(self, axis=None, dtype=None, keepdims=False):
        return npr_masked_mean(self, axis, dtype, keepdims)  # (windows_more.py)

    def max(self, axis=None, keepdims=False):
        return npr_masked_extreme(self, 'max', axis, keepdims)

    def min(self, axis=None, keepdims=False):
        return npr_masked_extreme(self, 'min', axis, keepdims)

    def dot(self, other):
        return npr_np_dot(self, other)

    def __matmul__(self, other):
        return _npr_masked_product(npr_np_matmul, self, other)

    def __rmatmul__(self, other):
        return _npr_masked_product(npr_np_matmul, other, self)

    def __neg__(self):
        return NprMasked(-self.data, self.lens)

    def __pos__(self):
        return self

    def __abs__(self):
        return NprMasked(abs(self.data), self.lens)

    def __invert__(self):
        return NprMasked(~self.data, self.lens)


def _npr_masked(data, lens):
    return NprMasked(data, lens) if any(n is not None for n in lens) else data


def _npr_binop(op):
    def f(self, other):
        return _npr_masked_elementwise(op, self, other)

    def r(self, other):
        return _npr_masked_elementwise(op, other, self)
    return f, r


for _npr_name in ('add', 'sub', 'mul', 'truediv', 'floordiv', 'mod', 'pow', 'and', 'or', 'xor',
                  'lshift', 'rshift'):
    _npr_f, _npr_r = _npr_binop(getattr(_npr_operator, _npr_name if _npr_name not in ('and', 'or') else _npr_name + '_'))
    setattr(NprMasked, f"__{_npr_name}__", _npr_f)
    setattr(NprMasked, f"__r{_npr_name}__", _npr_r)
for _npr_name in ('lt', 'le', 'gt', 'ge', 'eq', 'ne'):
    setattr(NprMasked, f"__{_npr_name}__", _npr_binop(getattr(_npr_operator, _npr_name))[0])


def _npr_operands(*xs):
    """The operands' data, broadcast against one another NumPy's way, and the result's lengths.
    A masked axis pairs with a masked axis of the same length (padded to one buffer), or with
    a length-1 or missing axis; an array axis longer than 1 against a masked one needs
    NumPy's length to be that one, which is not known: NPR111."""
    xs = [x if isinstance(x, NprMasked) else npr_load(x) for x in xs]
    nd = max(np.ndim(x.data if isinstance(x, NprMasked) else x) for x in xs)
    lens, width = [None] * nd, [1] * nd
    for x in xs:
        if not isinstance(x, NprMasked):
            continue
        off = nd - x.ndim
        for a, n in enumerate(x.lens):
            if n is None:
                continue
            if lens[off + a] is not None:
                _npr_lengths_equal(lens[off + a], n)
            else:
                lens[off + a] = n
            width[off + a] = max(width[off + a], x.data.shape[a])
    out = []
    for x in xs:
        data = x.data if isinstance(x, NprMasked) else x
        shape = np.shape(data)
        off = nd - len(shape)
        pad = []
        for a, s in enumerate(shape):
            masked = isinstance(x, NprMasked) and x.lens[a] is not None
            if lens[off + a] is not None and not masked and s != 1:
                raise NprUnsupported("np2ref NPR111: a slice whose length is known only at run time "
                                     f"combined with an axis of length {s}")
            pad.append((0, width[off + a] - s if masked else 0))
        out.append(jnp.pad(data, pad) if any(p[1] for p in pad) else data)
    return out, lens


def _npr_masked_elementwise(op, a, b):
    (x, y), lens = _npr_operands(a, b)
    return _npr_masked(op(x, y), lens)


def _npr_masked_product(fn, a, b):
    """matmul, dot, inner: the contracted axes zero-filled outside the slices, so that every
    product that NumPy does not form is 0 * 0 (the data there may be inf or nan)."""
    if isinstance(a, NprMasked) and isinstance(b, NprMasked) and a.ndim == 1 and b.ndim == 1:
        _npr_lengths_equal(a.lens[0], b.lens[0])
    if any(isinstance(x, NprMasked) and x.ndim > 2 for x in (a, b)):
        raise NprUnsupported("np2ref NPR111: a product of slices whose lengths are known only at "
                             "run time, of more than 2 dimensions, is not translated")
    ka = -1
    kb = 0 if np.ndim(b.data if isinstance(b, NprMasked) else b) == 1 else -2
    la = a.lens[ka] if isinstance(a, NprMasked) else None
    lb = b.lens[kb] if isinstance(b, NprMasked) else None
    if (la is None) != (lb is None):
        raise NprUnsupported("np2ref NPR111: a product of a slice whose length is known only at run "
                             "time with an array axis of a static length")
    if la is not None and not (isinstance(a, NprMasked) and isinstance(b, NprMasked) and a.ndim == 1 and b.ndim == 1):
        _npr_lengths_equal(la, lb)
    xa = a.filled(0) if isinstance(a, NprMasked) else a
    xb = b.filled(0) if isinstance(b, NprMasked) else b
    if la is not None and xa.shape[ka] != xb.shape[kb]:
        w = max(xa.shape[ka], xb.shape[kb])
        xa = jnp.pad(xa, [(0, 0)] * (xa.ndim - 1) + [(0, w - xa.shape[ka])])
        padb = [(0, 0)] * xb.ndim
        padb[kb] = (0, w - xb.shape[kb])
        xb = jnp.pad(xb, padb)
    out = fn(xa, xb)
    rest = (list(a.lens[:-1]) if isinstance(a, NprMasked) else [None] * (np.ndim(xa) - 1)) + \
        ([] if np.ndim(xb) == 1 else [b.lens[-1] if isinstance(b, NprMasked) else None])
    return _npr_masked(out, rest)


def _npr_masked_outer(fn, a, b):
    """np.outer of slices: the flattened operands' lengths are the result's."""
    if any(isinstance(x, NprMasked) and x.ndim != 1 for x in (a, b)):
        raise NprUnsupported("np2ref NPR111: np.outer of a 2-d slice whose length is known only at "
                             "run time is not translated")
    la = a.lens[0] if isinstance(a, NprMasked) else None
    lb = b.lens[0] if isinstance(b, NprMasked) else None
    out = fn(a.data if isinstance(a, NprMasked) else a, b.data if isinstance(b, NprMasked) else b)
    return _npr_masked(out, [la, lb])


def _npr_masked_call(name, fn, args):
    """npr_np_dot/inner/outer/vdot with an NprMasked operand."""
    if len(args) != 2:
        raise NprUnsupported(f"np2ref NPR111: np.{name} of a slice whose length is known only at run "
                             "time with these arguments is not translated")
    if name == "outer":
        return _npr_masked_outer(fn, *args)
    if name in ("dot", "matmul", "inner", "vdot") and all(np.ndim(x.data if isinstance(x, NprMasked) else x) <= 2
                                                          for x in args):
        if name in ("inner", "vdot") and any(np.ndim(x.data if isinstance(x, NprMasked) else x) != 1 for x in args):
            raise NprUnsupported(f"np2ref NPR111: np.{name} of a 2-d slice whose length is known only "
                                 "at run time is not translated")
        return _npr_masked_product(fn, *args)
    raise NprUnsupported(f"np2ref NPR111: np.{name} of a slice whose length is known only at run "
                         "time is not translated")


def _npr_dyn_read(x, idx):
    """NumPy's x[idx] for an index with slices whose bounds are traced; None when it has none."""
    found = _npr_dyn_index(tuple(x.shape), idx)
    if found is None:
        return _npr_masked_gather(x, idx)
    static, dyns = found
    val = npr_get(x)[static]
    lens = [None] * val.ndim
    for dyn in dyns:
        val = _npr_shift_left(val, dyn)
        lens[dyn.axis] = None if dyn.full else dyn.length
    return _npr_masked(val, lens)


def _npr_masked_gather(x, idx):
    """x[m] with m an NprMasked integer array (`v[cols[p[i]:p[i + 1]]]`); None for other indices."""
    if not (isinstance(idx, NprMasked) or isinstance(idx, tuple) and len(idx) == 1 and isinstance(idx[0], NprMasked)):
        raise NprUnsupported("np2ref NPR111: a slice whose length is known only at run time, as an "
                             "index next to other indices, is not translated")
    m = idx[0] if isinstance(idx, tuple) else idx
    if m.dtype.kind not in 'iu':
        raise NprUnsupported("np2ref NPR111: a boolean slice whose length is known only at run time, "
                             "as an index, is not translated")
    safe = m.filled(0)
    val = npr_get(x)[safe]  # NumPy's IndexError for the elements in the slice (the rest are 0)
    return NprMasked(val, m.lens + (None,) * (val.ndim - m.ndim))


class _npr_MaskedAt:
    """A store's index (`inner`, an _npr_Idx with the dynamic slices made whole) that writes
    only inside the slices: get() reads the whole region, put() keeps what lies outside."""

    def __init__(self, inner, mask):
        self.inner, self.mask = inner, mask
        self.scalar, self.sel, self.shape, self.probe = inner.scalar, inner.sel, inner.shape, inner.probe
        self.adv, self.traced = inner.adv, inner.traced

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
        raise NprUnsupported("np2ref NPR111: a store at the indices of a slice whose length is known "
                             "only at run time is not translated")
    found = _npr_dyn_index(shape, idx)
    if found is None:
        if isinstance(v.v if isinstance(v, _npr_Aug) else v, NprMasked):
            raise NprUnsupported("np2ref NPR111: a slice whose length is known only at run time "
                                 "stored into a region of a static shape")
        return None
    static, dyns = found
    aug = v.name if isinstance(v, _npr_Aug) else None
    val = v.v if aug is not None else v
    region = np.shape(_npr_dummy(shape)[tuple(0 if _npr_traced(npr_load(e)) else e for e in static)])
    nd = len(region)
    if isinstance(val, NprMasked):
        data, lens = val.data, (None,) * (nd - val.ndim) + val.lens
        if len(lens) > nd:
            raise NprUnsupported("np2ref NPR111: a slice of more dimensions than the region it is stored in")
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
            raise NprUnsupported(f"np2ref NPR111: {s} values stored into a slice whose length is known "
                                 "only at run time")
        if s != 1 or lens[a] is not None:
            data = jnp.reshape(data, (1,) * (nd - np.ndim(data)) + np.shape(data))
            data = _npr_shift_right(data, dyn)
        ax = [1] * nd
        ax[a] = dyn.n
        iota = lax.broadcasted_iota(jnp.int32, tuple(ax), a)
        mask = mask & ((iota >= dyn.lo) & (iota < dyn.lo + dyn.length) if dyn.step == 1 else _npr_step_mask(iota, dyn))
    for a, n in enumerate(lens):
        if n is not None and not any(d.axis == a for d in dyns):
            raise NprUnsupported("np2ref NPR111: a slice whose length is known only at run time stored "
                                 "into an axis of a static length")
    if not isinstance(data, jax.Array) and not _npr_traced(data):
        data = val  # a Python scalar keeps NumPy's casting of it
    data = type(v)(aug, data) if aug is not None else data
    return static, data, lambda ix: _npr_MaskedAt(ix, mask)


# The runtime's modules call one another's functions (they were one file): imported once this
# module is complete, so that any import order works.
from .core import _npr_dummy, NprUnsupported  # noqa: E402
from .bounds import _npr_check_run, _npr_known_range, npr_get  # noqa: E402
from .views import npr_load  # noqa: E402
from .stores import _npr_Aug  # noqa: E402
from .np_linalg import npr_np_dot, npr_np_matmul  # noqa: E402
from .compat import _npr_traced  # noqa: E402
from .windows_more import (  # noqa: E402
    npr_masked_mean, npr_masked_extreme, _npr_step_dyn, _npr_step_gather, _npr_step_mask, _npr_step_scatter)
