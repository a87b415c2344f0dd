"""NprMasked: NumPy's value of a slice whose length is known only at run time (`A[k + 1:, k]`,
`A[i, :i]`), as a buffer of a static shape, the length per masked axis and where NumPy's
elements start in it; the arithmetic, sums and products that are exact on it (windows.py
reads and stores such slices; masked_products.py, the products of such slices).

A masked axis holds NumPy's L elements either first (positions 0 .. L - 1) or, when the slice
was read from the whole axis, where they were (lo .. lo + L - 1, `offs`): then an expression of
slices that start at the same place (`A[k + 1:, k]`, `A[k, k + 1:]`, stored into
`A[k + 1:, k + 1:]`) is computed and stored in place, without shifting each slice to the front
and back (two passes over the block per iteration). Slices of different starts are shifted to
the front first (`aligned`). Starts are the same when they are the same traced value: windows.py
makes a slice bound computed twice in one trace (`k + 1` in two slices) one value (_npr_Dyn).
"""

from jax import lax
import jax.numpy as jnp
import numpy as np
import operator as _npr_operator

from .bounds import _npr_check_run
from .compat import _npr_traced
from .core import _npr_above, _npr_refusal, npr_load, NprUnsupported
from .np_linalg import npr_np_dot
from .np_reductions import _npr_np_moment_dtypes
from .wrapping import _npr_wrap_abs, _npr_wrap_mul, _npr_wrap_pow


def _npr_same_off(a, b):
    """Whether two element starts (None: 0) are the same for sure."""
    if a is b:
        return True
    a = 0 if a is None else a
    b = 0 if b is None else b
    return not _npr_traced(a) and not _npr_traced(b) and int(a) == int(b)


def _npr_lengths_equal(a, b):
    """Whether two slice lengths are the same: proved (the same value, equal ints) or checked
    when the program runs (NPR110: NumPy would broadcast a length 1 or raise)."""
    if a is b or (not _npr_traced(a) and not _npr_traced(b)):
        if not _npr_traced(a) and int(a) != int(b):
            raise NprUnsupported("NPR111", f"slices of lengths {int(a)} and {int(b)} combined")
        return
    _npr_check_run(jnp.asarray(a), lambda x: x != b, _npr_refusal("NPR110"),
                   "two slices whose lengths are known only at run time differ "
                   "(one has {} elements): NumPy would broadcast or raise")


class NprMasked:
    """NumPy's value of a slice whose length is known only at run time: `data` of a static
    shape, and per axis None (all of it) or the traced length L (NumPy's elements are the
    L elements of the axis from offs[axis], 0 when None; the rest is not part of the value)."""
    __slots__ = ('data', 'lens', 'offs', 'fill')
    __hash__ = None

    def __init__(self, data, lens, offs=None, fill=None):
        self.data, self.lens, self.fill = data, tuple(lens), fill  # fill: what lies outside, if known
        offs = (None,) * len(self.lens) if offs is None else tuple(offs)
        self.offs = tuple(None if o is None or not _npr_traced(o) and int(o) == 0 else o for o in offs)

    def _mask(self):
        m = True
        for a, (length, off) in enumerate(zip(self.lens, self.offs)):
            if length is not None:
                shape = [1] * self.data.ndim
                shape[a] = self.data.shape[a]
                iota = lax.broadcasted_iota(jnp.int32, tuple(shape), a)
                m = m & (iota < length if off is None else (iota >= off) & (iota < off + length))
        return m

    def aligned(self):
        """The same value with NumPy's elements first on every axis."""
        if all(o is None for o in self.offs):
            return self
        data = self.data
        for a, off in enumerate(self.offs):
            if off is not None:  # lo + L <= the axis: what rolls in lies past the length
                data = jnp.roll(data, -off, a)
        return NprMasked(data, self.lens)

    def guarded(self):
        """The same value, every element outside the slice replaced by the first inside it: an
        elementwise function of the data then meets no pole NumPy never evaluates (sqrt or log of
        a discarded 0, whose infinite derivative times its zero cotangent made jax.grad NaN)."""
        if all(n is None for n in self.lens):
            return self
        return self._same(_npr_guard_where(self.data, jnp.broadcast_to(self._mask(), self.data.shape)))

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
        raise NprUnsupported("NPR111", f"`.{name}` of a slice whose length is known only at run "
                             f"time is not translated")

    def _unsupported(self, *args, **kwargs):
        raise NprUnsupported("NPR111", "this use of a slice whose length is known only at run "
                             "time is not translated (its shape is not static)")

    __len__ = __iter__ = __array__ = __bool__ = __float__ = __int__ = __index__ = _unsupported

    def __getitem__(self, key):
        """`s[::-1]` (durbin's `y[:k][::-1]`): NumPy's L elements reversed, first on axis 0."""
        if not (isinstance(key, slice) and key == slice(None, None, -1)):
            self._unsupported()
        m = self.aligned()
        data, length = jnp.flip(m.data, 0), m.lens[0]
        if length is not None:  # element p is old L - 1 - p, flipped at B - L + p: rolled back by B - L
            data = jnp.roll(data, length - data.shape[0], 0)
        return NprMasked(data, m.lens)

    def _same(self, data):
        return NprMasked(data, self.lens, self.offs)

    def astype(self, dtype):
        return self._same(self.data.astype(dtype))

    def copy(self):
        return self

    def sum(self, axis=None, dtype=None, keepdims=False):
        if keepdims:
            self._unsupported()
        zero = -0.0 if self.data.dtype.kind in 'fc' else 0  # x + -0.0 is x, also for x = -0.0
        data = self.data if self.fill is not None and self.data.dtype.kind in 'fiu' else self.filled(zero)
        total = jnp.sum(data, axis=axis, dtype=dtype)  # (a fill is -0.0 for floats, 0 for ints)
        if axis is None:
            return total
        axes = {a % self.ndim for a in (axis if isinstance(axis, tuple) else (axis,))}
        keep = [a for a in range(self.ndim) if a not in axes]
        return _npr_masked(total, [self.lens[a] for a in keep], [self.offs[a] for a in keep])

    def mean(self, axis=None, dtype=None, keepdims=False):
        return npr_masked_mean(self, axis, dtype, keepdims)  # (windows_more.py)

    def max(self, axis=None, keepdims=False):
        return npr_masked_extreme(self, 'max', axis, keepdims)

    def min(self, axis=None, keepdims=False):
        return npr_masked_extreme(self, 'min', axis, keepdims)

    def any(self, axis=None, keepdims=False):
        return npr_masked_truth(self, 'any', axis, keepdims)

    def all(self, axis=None, keepdims=False):
        return npr_masked_truth(self, 'all', axis, keepdims)

    def dot(self, other):
        return npr_np_dot(self, other)

    # `@` (__matmul__, __rmatmul__): masked_products.py, beside the products it runs

    def __neg__(self):
        return self._same(-self.data)

    def __pos__(self):
        return self

    def __abs__(self):
        return self._same(_npr_wrap_abs(self.data))  # (a signed INT_MIN stays one: wrapping.py)

    def __invert__(self):
        return self._same(~self.data)


def _npr_masked(data, lens, offs=None):
    return NprMasked(data, lens, offs) if any(n is not None for n in lens) else data


def _npr_masked_binop(op):
    def f(self, other):
        return _npr_masked_elementwise(op, self, other)

    def r(self, other):
        return _npr_masked_elementwise(op, other, self)
    return f, r


for _npr_name in ('add', 'sub', 'mul', 'truediv', 'floordiv', 'mod', 'pow', 'and', 'or', 'xor',
                  'lshift', 'rshift'):
    _npr_f, _npr_r = _npr_masked_binop({'mul': _npr_wrap_mul, 'pow': _npr_wrap_pow}.get(_npr_name) or  # (wrapping.py)
                                       getattr(_npr_operator, _npr_name if _npr_name not in ('and', 'or') else _npr_name + '_'))
    setattr(NprMasked, f"__{_npr_name}__", _npr_f)
    setattr(NprMasked, f"__r{_npr_name}__", _npr_r)
for _npr_name in ('lt', 'le', 'gt', 'ge', 'eq', 'ne'):
    setattr(NprMasked, f"__{_npr_name}__", _npr_masked_binop(getattr(_npr_operator, _npr_name))[0])


def _npr_common_offs(xs, axes_of):
    """The operands with the masked axes that meet (axes_of(x): x's axis -> the shared axis)
    starting at the same place: offsets per shared axis, and the operands (aligned where
    their starts differ or are not known to be the same)."""
    offs = {}
    for x in xs:
        if isinstance(x, NprMasked):
            for a, (n, o) in enumerate(zip(x.lens, x.offs)):
                if n is not None and axes_of(x, a) is not None:
                    offs.setdefault(axes_of(x, a), []).append(o)
    if all(all(_npr_same_off(v[0], o) for o in v) for v in offs.values()):
        return {k: v[0] for k, v in offs.items()}, xs
    return {}, [x.aligned() if isinstance(x, NprMasked) else x for x in xs]


def _npr_operands(*xs):
    """The operands' data, broadcast against one another NumPy's way, the result's lengths and
    offsets. A masked axis pairs with a masked axis of the same length (padded to one buffer:
    at the end, which moves no element), or with a length-1 or missing axis; an array axis
    longer than 1 against a masked one needs NumPy's length to be that one, which is not
    known: NPR111."""
    xs = [x if isinstance(x, NprMasked) else npr_load(x) for x in xs]
    nd = max(np.ndim(x.data if isinstance(x, NprMasked) else x) for x in xs)
    common, xs = _npr_common_offs(xs, lambda x, a: nd - x.ndim + a)
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
                raise NprUnsupported("NPR111", "a slice whose length is known only at run time "
                                     f"combined with an axis of length {s}")
            pad.append((0, width[off + a] - s if masked else 0))
        out.append(jnp.pad(data, pad) if any(p[1] for p in pad) else data)
    return out, lens, [common.get(a) for a in range(nd)]


def _npr_masked_elementwise(op, a, b):
    (x, y), lens, offs = _npr_operands(a, b)
    return _npr_masked(op(x, y), lens, offs)


def _npr_masked_ufunc(f, args, dtype=None, casting="same_kind"):
    """A NumPy ufunc (np_ufuncs.py: `np.sqrt(r2)`, `np.exp(-r2)`, `np.maximum(r2, c)`) with a
    slice of run-time length among its operands: f of their data, broadcast as _npr_operands
    pairs them, each slice guarded first (NprMasked.guarded); a value of that length."""
    xs, lens, offs = _npr_operands(*[a.guarded() if isinstance(a, NprMasked) else a for a in args])
    r = f(*xs, dtype=dtype, casting=casting)
    if isinstance(r, tuple):
        return tuple(_npr_masked(o, lens, offs) for o in r)
    return _npr_masked(r, lens, offs)


def _npr_masked_where(where, condition, x, y):
    """np.where(condition, x, y) with a slice of run-time length among them (a pair loop's
    `np.where(r2 < rc2, 1.0 / r2, 0.0)` over `pos[i + 1:]`): NumPy's where of the operands
    broadcast as _npr_operands pairs them, a value of that length."""
    (c, a, b), lens, offs = _npr_operands(condition, x, y)
    return _npr_masked(where(c, a, b), lens, offs)


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


def npr_masked_truth(m, which, axis=None, keepdims=False):
    """NumPy's any (which='any') or all of the slice: False (True) outside it."""
    if keepdims:
        m._unsupported()
    axes = _npr_masked_axes(m, axis)
    out = (jnp.any if which == 'any' else jnp.all)(m.filled(which == 'all'), axis=axes)
    keep = [a for a in range(m.ndim) if a not in axes]
    return _npr_masked(out, [m.lens[a] for a in keep], [m.offs[a] for a in keep])


def _npr_guard_where(data, keep):
    """data with every element where `keep` is False replaced by the first where it is True (1
    where none is): an elementwise function of it then meets no pole at an element NumPy never
    evaluates (an excluded self-pair's r2 == 0, whose infinite derivative times its zero
    cotangent made jax.grad NaN); every kept element is data's own."""
    if data.size == 0:
        return data
    flat = jnp.reshape(keep, -1)
    first = jnp.argmax(flat)
    inside = jnp.reshape(data, -1)[first]
    return jnp.where(keep, data, jnp.where(flat[first], inside, jnp.ones_like(inside)))


# the NumPy functions, a floor below, take slices of run-time length through these
_npr_above.NprMasked, _npr_above.masked_ufunc = NprMasked, _npr_masked_ufunc
_npr_above.masked_where = _npr_masked_where  # (masked_call: masked_products.py)
