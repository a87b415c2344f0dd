"""Stores: npr_at (a[idx] = v, a[idx] op= v) and npr_ufunc_at, with NumPy's casting."""

from jax import lax
import jax
import jax.numpy as jnp
import numpy as np
import operator as _npr_operator

from .bounds import _npr_check_run
from .casts import _npr_check_weak_int, _npr_conv, _npr_store_cast
from .compat import _npr_trace_of, _npr_traced
from .core import (
    _npr_above, _npr_CastError, _npr_dt, _npr_dummy, _npr_fit, _npr_operand, _npr_state, npr_load,
    NprError, NprUnsupported)
from .index import _npr_Idx
from .lowering import _npr_LOWERING, _npr_remember
from .store_order import _npr_after_other
from .views import _npr_step, NprView
from .wrapping import _npr_int_divmod, _npr_wrap_mul, _npr_wrap_pow, _npr_wrap_square


# ---- stores: a[idx] = v and a[idx] op= v --------------------------------------------------

class _npr_Aug:
    __slots__ = ('name', 'v')

    def __init__(self, name, v):
        self.name, self.v = name, v


class _npr_Pending:
    """What npr_at(t)[idx] gives: only `op=` on it means something."""
    __slots__ = ()


_npr_INPLACE = dict(add='iadd', subtract='isub', multiply='imul', divide='itruediv', floor_divide='ifloordiv',
                    remainder='imod', power='ipow', bitwise_and='iand', bitwise_or='ior', bitwise_xor='ixor',
                    left_shift='ilshift', right_shift='irshift')  # ufunc -> Python's in-place operator
for _npr_k, _npr_n in _npr_INPLACE.items():
    setattr(_npr_Pending, f"__{_npr_n}__", (lambda n: lambda self, v: _npr_Aug(n, v))(_npr_k))


class _npr_At:
    __slots__ = ('t',)

    def __init__(self, t):
        self.t = t

    def __getitem__(self, idx):
        return _npr_Pending()

    def __setitem__(self, idx, v):
        t = self.t
        if isinstance(t, _npr_above.NprWinView):  # a window that moves with the loop variable (win_views.py)
            return _npr_above.win_store(t, idx, v)
        if isinstance(t, (tuple, list, dict)):  # a container argument of a converted function
            raise NprError("NPR207", f"a {type(t).__name__} is written into; containers of "
                           "written arrays are not translated (pass each array as its own argument)")
        if t is None:  # npr_own kept a helper's None: Python's error for writing into it
            raise TypeError("'NoneType' object does not support item assignment")
        if not isinstance(t, (jax.Ref, NprView)):
            raise TypeError(f"np2ref: npr_at needs a jax.Ref or NprView, not a {type(t).__name__}")
        dyn = _npr_above.dyn_store(tuple(t.shape), idx, v)  # slices with traced bounds (windows.py)
        if dyn is not None:
            idx, v, masked = dyn
        ix, dt = _npr_Idx(t.shape, idx), np.dtype(t.dtype)
        if isinstance(v, (jax.Ref, NprView)) and _npr_base(v) is _npr_base(t):
            moved = _npr_self_copy(t, ix, v)
            if moved is not None:  # NumPy's element-order result: a gather of the whole buffer
                base = _npr_base(t)
                base[...] = jnp.reshape(jnp.ravel(base[...])[moved.ravel()], base.shape)
                return
        at = _npr_compose(t, ix)  # into the base directly where the view's index composes
        where = at if dyn is None else masked(ix if at is None else at)
        f = _npr_aug(ix, dt, v.name, v.v, where) if isinstance(v, _npr_Aug) else _npr_set(ix, dt, v, where)
        _npr_update(t if at is None else t.base, f)


def _npr_compose(t, ix):
    """The index on t's base that selects what t[ix] selects, when t is a view reached by basic
    indices (ints, traced ints, slices with any step) and transposes, and ix is basic: a store
    through it then updates the touched elements of the base in place, instead of rewriting the
    view and putting it back (a copy of the view and of the base per store). None otherwise (a
    Ref, reshaped views, None axes, advanced indices, masks). Traced ints are clipped into their
    dim first, as the dynamic-update-slice through the view clamps them."""
    if not isinstance(t, NprView) or any(kind not in 'st' for kind, _ in t.steps):
        return None
    ents = [range(n) for n in t.base.shape]
    live = list(range(len(ents)))  # positions in ents of the view's dims, in order
    for kind, step in [*t.steps, ('s', ix)]:
        if kind == 't':
            live = [live[a] for a in step]
            continue
        if step.adv or step.mask is not None:
            return None
        keep = []
        for e in step.ents:
            if e is Ellipsis or (e is None and step is ix):
                continue
            if e is None:
                return None
            p = live.pop(0)
            r = ents[p]
            if isinstance(e, range):
                s = r.start + r.step * e.start
                ents[p] = range(s, s + r.step * e.step * len(e), r.step * e.step) if len(e) else range(s, s)
                keep.append(p)
            elif _npr_traced(e):
                if not len(r):
                    return None
                k = jnp.clip(e, 0, len(r) - 1)
                ents[p] = k if (r.start, r.step) == (0, 1) else r.start + r.step * k
            else:
                ents[p] = r[e]
        live = keep
    at = object.__new__(_npr_Idx)
    at.shape, at.ents, at.sel, at.mask, at.adv, at.gathers = tuple(t.base.shape), ents, ix.sel, None, False, False
    at.scalar, at.probe, at._lin, at._lin_last = ix.scalar, None, None, None
    at.traced = any(_npr_traced(e) for e in ents)
    if live != sorted(live):
        at.vorder = live
    return at


def _npr_base(x):
    return x.base if isinstance(x, NprView) else x


def _npr_np_view(arr, x):
    """The view x (a Ref or NprView) takes of its base, taken of the NumPy array arr."""
    for kind, arg in (x.steps if isinstance(x, NprView) else ()):
        arr = arr[_npr_view_probe(arg)] if kind == 's' else arr.transpose(arg) if kind == 't' else arr.reshape(arg)
    return arr


def _npr_view_probe(ix):
    """ix's probe with a traced int's stand-in as a Python int (a 0-d array would index as a copy)."""
    return tuple(int(p) if isinstance(p, np.ndarray) and p.ndim == 0 and p.dtype.kind in 'iu' else p
                 for p in ix.probe)


def _npr_self_copy(t, ix, v):
    """`t[idx] = v` with v a view of t's own buffer. NumPy buffers such a copy except in one
    layout: a 1-d copy whose strides differ but have the same sign (a row into a column), done
    element by element, so later elements read earlier writes. There NumPy itself runs the same
    copy on the buffer's element numbers: the numbers it leaves are the gather that gives its
    result (None when the copy is order-free). With a traced index the offsets are unknown and
    such a copy is refused."""
    numbers = np.arange(_npr_base(t).size).reshape(_npr_base(t).shape)
    dst, src = _npr_np_view(numbers, t)[_npr_view_probe(ix)], _npr_np_view(numbers, v)
    src = np.broadcast_to(src, dst.shape) if src.ndim <= dst.ndim else src
    if dst.ndim != 1 or dst.size <= 1 or src.shape != dst.shape:
        return None
    (d,), (r,) = dst.strides, src.strides
    if d == r or d * r <= 0:  # memmove order, a buffered copy (opposite signs), one source element
        return None
    if ix.traced or any(k == 's' and a.traced for x in (t, v) if isinstance(x, NprView) for k, a in x.steps):
        raise NprUnsupported("NPR125", "a store of a view of the same array, at an index "
                                  "known only at run time, whose copy order NumPy may leave visible")
    moved = numbers.copy()
    _npr_np_view(moved, t)[ix.probe] = _npr_np_view(moved, v)
    buffered = numbers.copy()
    _npr_np_view(buffered, t)[ix.probe] = _npr_np_view(numbers, v)
    return None if np.array_equal(moved, buffered) else moved


def npr_at(target):
    """Store proxy for a Ref or NprView. `npr_at(t)[idx] = v` is NumPy's t[idx] = v for any
    index (negative steps, None, lists, int and bool arrays, mixed), v broadcast and converted
    as NumPy converts it, duplicates: the last wins. `npr_at(t)[idx] += v` (+ - * / // % ** &
    | ^ << >>) is NumPy's buffered op= with its same_kind output casting."""
    return _npr_At(target)


def _npr_set(ix, dt, v, at=None):
    """The update of `t[ix] = v` (checked and converted as NumPy does); `at`, where given, is
    ix composed onto the base of the view t (_npr_compose) and is where it stores."""
    at = ix if at is None else at
    v = npr_load(v)
    if ix.scalar and isinstance(v, jax.Array):  # one element: NumPy takes only 0-d values
        _npr_dummy(ix.shape, dt)[ix.probe] = _npr_dummy(v.shape, v.dtype)
    val = _npr_conv(v, dt, 'item' if ix.scalar else 'adv' if ix.adv or ix.mask is not None else 'set', len(ix.shape))
    if ix.mask is not None:
        if np.size(val) != 1:
            raise NprUnsupported("NPR104", "a[mask] = v with a traced mask needs a single value")
        val = jnp.reshape(val, ())
    else:
        val = _npr_fit(val, ix.sel, lambda: _npr_dummy(ix.shape).__setitem__(ix.probe, _npr_dummy(np.shape(v))))
    return lambda cur: at.put(cur, val)


def _npr_divmod(div):
    def f(x, y):
        if jnp.issubdtype(jnp.result_type(x, y), jnp.integer):
            return _npr_int_divmod(x, y)[0 if div else 1]  # NumPy: x // 0 == x % 0 == 0
        r = jnp.floor_divide(x, y) if div else jnp.remainder(x, y)
        # NumPy's npy_divmod (signed zeros; the quotient snapped, not rounded as jax.numpy's:
        # `1e16 // 3.0` is 3333333333333333.0): rt/pyscalars.py
        return _npr_float_divmod(jnp.asarray(x, r.dtype), jnp.asarray(y, r.dtype))[0 if div else 1]
    return f


_npr_JNP = dict(add=jnp.add, subtract=jnp.subtract, multiply=_npr_wrap_mul, divide=jnp.true_divide,
                floor_divide=_npr_divmod(True), remainder=_npr_divmod(False),
                power=lambda x, y: _npr_wrap_pow(x, y, jnp.power), bitwise_and=jnp.bitwise_and,
                bitwise_or=jnp.bitwise_or, bitwise_xor=jnp.bitwise_xor, left_shift=jnp.left_shift,
                right_shift=jnp.right_shift)


def _npr_rtype(name, dt, probe, scalar=False):
    """NumPy's result dtype of ufunc `name` on an array of dt and probe, or of Python's `op=` on a
    NumPy scalar; NumPy raises here for missing loops and out-of-range Python ints."""
    with np.errstate(all='ignore'):
        try:
            if scalar:
                return np.dtype(getattr(_npr_operator, _npr_INPLACE[name])(dt.type(0), probe).dtype)
            return np.dtype(getattr(np, name)(np.zeros((1,) * np.ndim(probe), dt), probe).dtype)
        except ValueError:  # "Integers to negative integer powers": NumPy checks the cast first
            if not (name == 'power' and type(probe) is int and probe < 0):
                raise
            return _npr_rtype(name, dt, -(probe + 1), scalar)


def _npr_aug(ix, dt, name, v, at=None):
    at = ix if at is None else at  # as in _npr_set
    v, probe = _npr_operand(v)
    fast = None  # NumPy's fast_scalar_power: a **= 2 is np.square, a **= -1 / 0.5 (inexact a) too
    if name == 'power' and not ix.scalar and type(v) in (int, float):
        fast = {(int, 2): 'square', (int, -1): 'reciprocal', (float, 0.5): 'sqrt'}.get((type(v), v))
        fast = fast if fast == 'square' or dt.kind in 'fc' else None
    uf, vshape = getattr(np, fast or name), np.shape(v)
    with np.errstate(all='ignore'):
        rt = np.dtype(uf(np.zeros(1, dt)).dtype) if fast else _npr_rtype(name, dt, probe, ix.scalar)
    if ix.mask is not None and np.size(v) != 1:
        raise NprUnsupported("NPR104", "a[mask] op= v with a traced mask needs a single value")
    if ix.scalar:  # NumPy: (a NumPy scalar) op v, then a one-element store with an unsafe cast
        if vshape != ():
            _npr_dummy(ix.shape, dt)[ix.probe] = _npr_dummy(vshape, rt)
    else:  # NumPy: ufunc(tmp, v, out=tmp) with casting='same_kind'
        if not np.can_cast(rt, dt, 'same_kind'):
            raise _npr_CastError(uf, 'same_kind', rt, dt, 0)
        _npr_fit(np.zeros(vshape, bool), ix.sel, strip=False, fail=lambda: uf(
            _npr_dummy(ix.sel, dt), _npr_dummy(vshape, _npr_dt(v)), out=_npr_dummy(ix.sel, dt)))
    if name == 'power':
        _npr_check_int_power(rt, v)
    if name not in ('divide', 'true_divide'):
        _npr_check_weak_int(v, dt)  # `u8 += i`, i a loop's Python int beyond 255: NumPy's OverflowError

    def f(cur):
        x = (cur if ix.mask is not None else at.get(cur, update=True)).astype(rt)
        if fast:
            res = _npr_wrap_square(x) if fast == 'square' else getattr(jnp, fast)(x)  # (wrapping.py)
        else:
            y = v.astype(rt) if isinstance(v, jax.Array) else np.asarray(v, dtype=rt)
            y = jnp.reshape(y, ()) if ix.mask is not None else y
            if name == 'divide':  # else XLA rewrites x / scalar as x * (1 / scalar): not IEEE
                y = lax.optimization_barrier(jnp.broadcast_to(y, np.broadcast_shapes(x.shape, np.shape(y))))
            res = _npr_JNP[name](x, y)
        # one element: NumPy stores the NumPy scalar `t[idx] op v` with an unsafe cast (a float into
        # an integer array as x86-64 converts it, uint8 wrapping; NaN into a signed one raises), as
        # `t[idx] = v` does; else the same_kind cast of ufunc(tmp, v, out=tmp)
        res = _npr_store_cast(res, dt, 'item') if ix.scalar and rt != dt else res.astype(dt)
        return at.put(cur, res)  # res has shape sel (or cur's shape, for a mask)
    return f


def _npr_update(t, f):
    """Replace all of t by f(current value of t); a view writes through to its base."""
    at = _npr_compose(t, _npr_Idx(t.shape, Ellipsis)) if isinstance(t, NprView) else None
    if at is not None:  # a view of a region of the base: read and store that region of it
        _npr_update(t.base, lambda cur: at.put(cur, f(at.get(cur, update=True))))
    elif isinstance(t, NprView):
        vals = [t.base[...]]
        for s in t.steps:
            vals.append(_npr_step(s, vals[-1]))
        new = f(vals[-1])
        for (kind, arg), parent in zip(reversed(t.steps), reversed(vals[:-1])):
            new = (arg.put(parent, new) if kind == 's' else new.reshape(parent.shape) if kind == 'r'
                   else jnp.transpose(new, np.argsort(arg)))
        if 0 not in t.base.shape:  # an empty array stays as it is (a store would be a constant
            t.base[...] = new       # one, whose gradient jax 0.10.2 cannot transpose: #33987)
    elif isinstance(t, jax.Ref):
        _npr_state.pop("put", None)
        cur = t[...]
        _npr_state["after"] = _npr_after_other(t, cur)
        new = f(cur)
        _npr_state.pop("after", None)
        put = _npr_state.pop("put", None)
        if 0 not in t.shape:
            t[...] = new
            _npr_state["stored"] = (t, new) if _npr_LOWERING['peepholes'] else None
            seen = _npr_state.get("stored_refs")
            tr = _npr_trace_of(new)
            if seen is None or seen[0] is not tr:
                seen = _npr_state["stored_refs"] = (tr, {})
            seen[1][id(t)] = t
            if (put is not None and put[0] is cur and put[1] is new and put[2] is not None
                    and _npr_LOWERING['peepholes']):
                _npr_remember(new, *put[2:])
    else:
        raise TypeError(f"np2ref: cannot store into a {type(t).__name__}; expected a jax.Ref or NprView")


def _npr_signed_zero(v, like):
    """copysign(0.0, v) for a v that is not NaN, broadcast as `like`, by comparisons: jnp.copysign
    reads the sign bit through an int64 bitcast and shift, which XLA's TPU compiler rejected
    (`shift-right-arithmetic with different element types: s32[] and u32[]`, issue 38; `pos %=
    box` in three corpus programs). -0.0 is the zero whose reciprocal is negative."""
    negative = (v < 0) | ((v == 0) & (1.0 / jnp.where(v == 0, v, 1.0) < 0))
    return jnp.broadcast_to(jnp.where(negative, -0.0, 0.0).astype(like.dtype), jnp.shape(like))


def _npr_float_divmod(a, b):
    """(a // b, a % b) on floats as CPython's float_divmod and NumPy's npy_divmod compute them
    (identical for b != 0): fmod, the quotient (a - mod) / b snapped to the nearest integer,
    signed zeros. For b == 0 NumPy's: a / b and fmod (nan). jax.numpy rounds the quotient
    instead (`1e16 // 3.0` is 3333333333333334.0 there, 3333333333333333.0 in both)."""
    # C's fmod (lax.rem), broadcast; fmod(x, inf) is x, which a TPU's float64 rem made NaN
    # (`1.0 // np.inf` NaN there for NumPy's 0.0: the pair computes a - trunc(a / b) * b)
    mod = jnp.fmod(a, b)
    mod = jnp.where(jnp.isinf(b) & jnp.isfinite(a), jnp.broadcast_to(a, jnp.shape(mod)), mod)
    div = (a - mod) / b
    fix = (mod != 0) & ((b < 0) != (mod < 0))
    mod = jnp.where(fix, mod + b, jnp.where(mod == 0, _npr_signed_zero(b, mod), mod))
    div = jnp.where(fix, div - 1, div)
    floor = jnp.floor(div)
    floor = jnp.where(div - floor > 0.5, floor + 1, floor)
    q = jnp.where(div != 0, floor, _npr_signed_zero(a / b, div))
    zero = b == 0
    return jnp.where(zero, a / b, q), mod


def _npr_check_int_power(dtype, b):
    """NumPy's ValueError where an integer power (of result `dtype`) has a negative integer
    exponent `b`: now if `b` is concrete, when the call runs if it is traced."""
    if np.dtype(dtype).kind not in "iu" or np.dtype(np.result_type(b)).kind not in "iu":
        return
    if not _npr_traced(b):
        if np.any(np.asarray(b) < 0):
            raise ValueError(_NPR_NEGATIVE_POWER)
        return
    _npr_check_run(jnp.asarray(b), lambda v: v < 0, ValueError, (_NPR_NEGATIVE_POWER,))


_NPR_NEGATIVE_POWER = "Integers to negative integer powers are not allowed."


