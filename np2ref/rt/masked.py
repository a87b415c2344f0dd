"""NprMasked: NumPy's value of a slice whose length is known only at run time (`A[k + 1:, k]`,
`A[i, :i]`), as a buffer of a static shape, the length per masked axis and where NumPy's
elements start in it; the arithmetic, sums and products that are exact on it (windows.py
reads and stores such slices).

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
from .np_linalg import npr_np_dot, npr_np_matmul
from .np_reductions import _npr_np_moment_dtypes
from .lane_dots import _npr_one_product


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

    def __matmul__(self, other):
        return _npr_masked_product(npr_np_matmul, self, other)

    def __rmatmul__(self, other):
        return _npr_masked_product(npr_np_matmul, other, self)

    def __neg__(self):
        return self._same(-self.data)

    def __pos__(self):
        return self

    def __abs__(self):
        return self._same(abs(self.data))

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
    _npr_f, _npr_r = _npr_masked_binop(getattr(_npr_operator, _npr_name if _npr_name not in ('and', 'or') else _npr_name + '_'))
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


def _npr_masked_product(fn, a, b):
    """matmul, dot, inner: the contracted axes zero-filled outside the slices, so that every
    product that NumPy does not form is 0 * 0 (the data there may be inf or nan)."""
    if isinstance(a, NprMasked) and isinstance(b, NprMasked) and a.ndim == 1 and b.ndim == 1:
        _npr_lengths_equal(a.lens[0], b.lens[0])
    if any(isinstance(x, NprMasked) and x.ndim > 2 for x in (a, b)):
        raise NprUnsupported("NPR111", "a product of slices whose lengths are known only at "
                             "run time, of more than 2 dimensions, is not translated")
    ka = -1
    kb = 0 if np.ndim(b.data if isinstance(b, NprMasked) else b) == 1 else -2
    la = a.lens[ka] if isinstance(a, NprMasked) else None
    lb = b.lens[kb] if isinstance(b, NprMasked) else None
    if (la is None) != (lb is None):
        raise NprUnsupported("NPR111", "a product of a slice whose length is known only at run "
                             "time with an array axis of a static length")
    if la is not None and not (isinstance(a, NprMasked) and isinstance(b, NprMasked) and a.ndim == 1 and b.ndim == 1):
        _npr_lengths_equal(la, lb)
    if la is not None:  # in lanes, one matrix product where that is exact (lane_dots.py)
        out = _npr_lane_product(fn, a, b, kb, lambda: _npr_filled_product(fn, a, b, la, ka, kb))
        if out is not None:
            return out
    return _npr_filled_product(fn, a, b, la, ka, kb)


def _npr_lane_product(fn, a, b, kb, filled):
    """The product of two slices whose contracted axes are masked and whose other axes are not,
    in lanes: the left one zero-filled, the right one as it is, where its data is finite and the
    two start at the same place (else `filled()`, both zero-filled); None outside lanes."""
    if not (isinstance(a, NprMasked) and isinstance(b, NprMasked)) or a.data.shape[-1] != b.data.shape[kb] \
            or any(n is not None for n in a.lens[:-1]) or any(n is not None for k, n in enumerate(b.lens) if k != kb % b.ndim):
        return None
    oa, ob = (0 if o is None else o for o in (a.offs[-1], b.offs[kb]))
    same = jnp.equal(oa, ob) if _npr_traced(oa) or _npr_traced(ob) else int(oa) == int(ob)
    if same is False:
        return None
    return _npr_one_product(fn, a.filled(0), b.data, filled, same)


def _npr_filled_product(fn, a, b, la, ka, kb):
    """The product with every contracted element outside the slices zero on both sides (the
    contracted axes must start at the same place, or both go first)."""
    a0, b0 = a, b
    nda, ndb = (np.ndim(x.data if isinstance(x, NprMasked) else x) for x in (a, b))
    _, (a, b) = _npr_common_offs([a, b], lambda x, ax: 'k' if (x is a0 and ax == nda - 1) or (
        x is b0 and ax == kb % ndb) else None)
    xa, xb = _npr_filled_on(a, ka), _npr_filled_on(b, kb)
    if la is not None and xa.shape[ka] != xb.shape[kb]:
        w = max(xa.shape[ka], xb.shape[kb])
        xa = jnp.pad(xa, [(0, 0)] * (xa.ndim - 1) + [(0, w - xa.shape[ka])])
        padb = [(0, 0)] * xb.ndim
        padb[kb] = (0, w - xb.shape[kb])
        xb = jnp.pad(xb, padb)
    return _npr_masked(fn(xa, xb), *_npr_product_axes(a, b, np.ndim(xa), np.ndim(xb)))


def _npr_filled_on(x, axis):
    """x's data, zero outside the slice on `axis` (a product's contracted axis) only: what lies
    outside its other masked axes reaches only the result's elements outside them (covariance's
    `d[:, i] @ d[:, i:M]` in lanes: d itself, one matrix product, not a filled copy per lane)."""
    if not isinstance(x, NprMasked):
        return x
    axis %= x.ndim
    if x.lens[axis] is None:
        return x.data
    return NprMasked(x.data, [n if k == axis else None for k, n in enumerate(x.lens)], x.offs).filled(0)


def _npr_product_axes(a, b, nda, ndb):
    """(lengths, starts) of the axes of a product of a and b (nda, ndb dimensions) the slices keep."""
    rest = (list(a.lens[:-1]) if isinstance(a, NprMasked) else [None] * (nda - 1)) + \
        ([] if ndb == 1 else [b.lens[-1] if isinstance(b, NprMasked) else None])
    offs = (list(a.offs[:-1]) if isinstance(a, NprMasked) else [None] * (nda - 1)) + \
        ([] if ndb == 1 else [b.offs[-1] if isinstance(b, NprMasked) else None])
    return rest, offs


def _npr_masked_outer(fn, a, b):
    """np.outer of slices: the flattened operands' lengths are the result's."""
    if any(isinstance(x, NprMasked) and x.ndim != 1 for x in (a, b)):
        raise NprUnsupported("NPR111", "np.outer of a 2-d slice whose length is known only at "
                             "run time is not translated")
    la = a.lens[0] if isinstance(a, NprMasked) else None
    lb = b.lens[0] if isinstance(b, NprMasked) else None
    oa = a.offs[0] if isinstance(a, NprMasked) else None
    ob = b.offs[0] if isinstance(b, NprMasked) else None
    out = fn(a.data if isinstance(a, NprMasked) else a, b.data if isinstance(b, NprMasked) else b)
    return _npr_masked(out, [la, lb], [oa, ob])


def _npr_masked_einsum(fn, subscripts, *ops):
    """np.einsum with explicit subscripts (`'ij,ij->i'`: a pair loop's squared distances)
    of operands among which slices of run-time length: a masked axis kept in the output is the
    result's (its length, its offset), one summed over is zero-filled outside the slices (every
    product NumPy does not form is 0 * 0). An axis masked in one operand meets the same letter
    masked, or of length 1, in the others: NPR111 otherwise (NumPy's length unknown)."""
    spec = subscripts.replace(" ", "") if isinstance(subscripts, str) else ""
    ins, arrow, out = spec.partition("->")
    letters = ins.split(",")
    if not arrow or "." in spec or len(letters) != len(ops) or \
            any(len(t) != np.ndim(x.data if isinstance(x, NprMasked) else x) for t, x in zip(letters, ops)):
        raise NprUnsupported("NPR111", "np.einsum of a slice whose length is known only at run time "
                             "is translated with explicit subscripts ('ij,ij->i') only")
    which = {id(x): t for x, t in zip(ops, letters)}
    offs, ops = _npr_common_offs(list(ops), lambda x, a: which[id(x)][a])
    lens = {}
    for x, t in zip(ops, letters):
        for a, letter in enumerate(t):
            n = x.lens[a] if isinstance(x, NprMasked) else None
            if n is not None:
                if letter in lens:
                    _npr_lengths_equal(lens[letter], n)
                lens.setdefault(letter, n)
    widths = {letter: set() for letter in lens}
    for x, t in zip(ops, letters):
        for a, letter in enumerate(t):
            if letter in lens:
                masked = isinstance(x, NprMasked) and x.lens[a] is not None
                widths[letter].add(x.data.shape[a] if masked else None)
    if any(None in w or len(w) > 1 for w in widths.values()):
        raise NprUnsupported("NPR111", "np.einsum pairs a slice whose length is known only at run "
                             "time with an axis of a static length")
    datas = [x.filled(0) if isinstance(x, NprMasked) and any(
        n is not None and letter not in out for n, letter in zip(x.lens, t)) else
        (x.data if isinstance(x, NprMasked) else x) for x, t in zip(ops, letters)]
    r = fn(subscripts, *datas)
    return _npr_masked(r, [lens.get(letter) for letter in out], [offs.get(letter) for letter in out])


def _npr_masked_call(name, fn, args):
    """npr_np_dot/inner/outer/vdot with an NprMasked operand."""
    if name == "einsum":
        return _npr_masked_einsum(fn, *args)
    if len(args) != 2:
        raise NprUnsupported("NPR111", f"np.{name} of a slice whose length is known only at run "
                             "time with these arguments is not translated")
    if name == "outer":
        return _npr_masked_outer(fn, *args)
    if name in ("dot", "matmul", "inner", "vdot") and all(np.ndim(x.data if isinstance(x, NprMasked) else x) <= 2
                                                          for x in args):
        if name in ("inner", "vdot") and any(np.ndim(x.data if isinstance(x, NprMasked) else x) != 1 for x in args):
            raise NprUnsupported("NPR111", f"np.{name} of a 2-d slice whose length is known only "
                                 "at run time is not translated")
        return _npr_masked_product(fn, *args)
    raise NprUnsupported("NPR111", f"np.{name} of a slice whose length is known only at run "
                         "time is not translated")


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
_npr_above.masked_call, _npr_above.masked_where = _npr_masked_call, _npr_masked_where
