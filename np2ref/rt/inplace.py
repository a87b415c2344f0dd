"""out= and the in-place functions and methods (fill, sort, copyto, put, place...)."""

from jax import lax
import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_check_bounds, _npr_wide
from .casts import _npr_conv, _npr_store_cast, _npr_x86_cast, npr_cast
from .compat import _npr_has_tracer, _npr_made_from_constant, _npr_TANGENT_TRACERS, _npr_traced
from .core import (
    _npr_above, _npr_CastError, _npr_dt, _npr_dummy, _npr_fit, _npr_has_jax, _npr_isbool, _npr_operand,
    _npr_state, _npr_whole, npr_load, NprUnsupported)
from .index import _npr_Idx
from .scatter import _npr_scatter, _npr_unflat
from .np_ufuncs import npr_np_divide, npr_np_floor_divide, npr_np_fmod, npr_np_mod, npr_np_power
from .stores import _npr_base, _npr_rtype, _npr_update
from .views import NprView


# ---- out= and in-place functions ----------------------------------------------------------

def npr_out(target, value, ufunc=None, casting='same_kind'):
    """out=: value stored into all of target (broadcast). With `ufunc` (a ufunc's name) NumPy's
    same_kind output check applies unless casting='unsafe', else the cast is unsafe. Returns target."""
    if isinstance(target, _npr_above.NprWinView):  # `out=u[:m]`, m moving with the loop (win_views.py)
        return _npr_out_window(target, value, ufunc, casting)
    value, probe = _npr_operand(value)
    dt, tshape, vshape = np.dtype(target.dtype), tuple(target.shape), np.shape(value)
    vdt = np.asarray(probe).dtype
    if ufunc is not None and casting != 'unsafe' and not np.can_cast(vdt, dt, 'same_kind'):
        raise _npr_CastError(getattr(np, ufunc), 'same_kind', vdt, dt, 0)
    fmt = lambda s: f"({','.join(map(str, s))}{',' if len(s) == 1 else ''})"  # noqa: E731 - NumPy's format
    try:
        bshape = np.broadcast_shapes(vshape, tshape)
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with shapes {fmt(vshape)} {fmt(tshape)} ") from None
    if bshape != tshape:
        raise ValueError(f"non-broadcastable output operand with shape {fmt(tshape)} doesn't match the "
                         f"broadcast shape {fmt(bshape)}")
    if ufunc is not None and isinstance(value, jax.Array):  # NumPy's warning names the ufunc
        val = jnp.broadcast_to(npr_cast(value, dt, ufunc), tshape)
    else:
        val = jnp.broadcast_to(_npr_conv(value, dt), tshape)
    _npr_update(target, lambda cur: _npr_whole(cur, val))
    return target


def _npr_out_window(target, value, ufunc, casting):
    """out= into a slice whose bounds move with the loop variable: NumPy's same_kind check,
    then the window's own store (win_views.py), which writes only NumPy's elements and checks
    a value of run-time length against the window's (NPR110); a value that cannot fit every
    length raises NPR111 while tracing (the loop then runs as Python, exactly)."""
    dt = np.dtype(target.dtype)
    vdt = np.dtype(getattr(npr_load(value), 'dtype', None) or np.asarray(_npr_operand(value)[1]).dtype)
    if ufunc is not None and casting != 'unsafe' and not np.can_cast(vdt, dt, 'same_kind'):
        raise _npr_CastError(getattr(np, ufunc), 'same_kind', vdt, dt, 0)
    _npr_above.win_store(target, Ellipsis, value)
    return target


def npr_fill(a, v):
    """NumPy's a.fill(v): one scalar, converted as NumPy converts it, everywhere."""
    v, dt = npr_load(v), np.dtype(a.dtype)
    if isinstance(v, jax.Array):
        np.empty((), dt).fill(_npr_dummy(v.shape, v.dtype))  # NumPy's error for a non-scalar
        val = _npr_store_cast(jnp.reshape(v, ()), dt, 'item')  # a.fill(x) stores x as a[0] = x does
    else:
        val = np.empty((), dt)
        val.fill(v)
    _npr_update(a, lambda cur: _npr_whole(cur, jnp.broadcast_to(val, cur.shape)))


def npr_sort(a, axis=-1, kind=None):
    """NumPy's a.sort(axis) (NaNs last; `kind` cannot change the values)."""
    np.zeros((1,) * a.ndim, bool).sort(axis)  # NumPy's AxisError / TypeError
    _npr_update(a, lambda cur: jnp.sort(cur, axis=axis))


def npr_copyto(dst, src, casting='same_kind', where=True):
    """NumPy's np.copyto: casting checked by NumPy, src broadcast (leading 1-dims dropped),
    where broadcast strictly. An array copied onto itself is left alone, as NumPy does before
    any check."""
    if src is dst:
        return
    if isinstance(where, (jax.Ref, NprView)) and where is not dst and _npr_base(where) is _npr_base(dst):
        raise NprUnsupported("NPR126", "np.copyto's where= is a view of the array it writes; "
                                  "NumPy reads that mask while writing, element by element")
    src, sprobe = _npr_operand(np.asarray(src) if isinstance(src, (list, tuple)) and not _npr_has_jax(src) else src)
    where, wprobe = _npr_operand(where)
    dt, shape = np.dtype(dst.dtype), tuple(dst.shape)
    np.copyto(np.zeros((1,) * max(np.ndim(src), np.ndim(where)), dt), sprobe, casting=casting, where=wprobe)
    fail = lambda: np.copyto(_npr_dummy(shape, dt), _npr_dummy(np.shape(src), _npr_dt(src)),  # noqa: E731
                             casting=casting, where=_npr_dummy(np.shape(where), _npr_dt(where)))
    val = _npr_fit(_npr_conv(src, dt, lambda t, s: np.copyto(t, s, casting='unsafe')), shape, fail)
    m = True if where is True else _npr_fit(jnp.asarray(where).astype(bool), shape, fail, strip=False)
    _npr_update(dst, lambda cur: _npr_whole(cur, val) if m is True else jnp.where(m, val, cur))


def _npr_cycle(val, n):
    """The flat values of val repeated cyclically (or cut) to n."""
    flat = jnp.asarray(val).reshape(-1)
    return flat if flat.size == n else flat[np.arange(n) % flat.size]


def npr_putmask(a, mask, values):
    """NumPy's np.putmask: a.flat[n] = values.flat[n % values.size] where mask.flat[n]."""
    (mask, _), (values, vprobe), dt = _npr_operand(mask), _npr_operand(values), np.dtype(a.dtype)
    if np.size(mask) != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    if np.ndim(vprobe) == 0 and isinstance(vprobe, np.ndarray):
        vprobe = vprobe[()]  # a 0-d value stands for the NumPy scalar it nearly always is (a[i], a.sum())
    np.putmask(np.zeros(1, dt), np.ones(1, _npr_dt(mask)), vprobe)
    if np.size(values) == 0:
        return
    vals = _npr_conv(values, dt, lambda t, v: np.putmask(t, np.ones(t.shape, bool), v))
    vals, m = _npr_cycle(vals, a.size).reshape(a.shape), jnp.reshape(jnp.asarray(mask), a.shape).astype(bool)
    _npr_update(a, lambda cur: jnp.where(m, vals, cur))


def npr_put(a, ind, v, mode='raise'):
    """NumPy's np.put: a.flat[ind] = v, v repeated to len(ind), the last duplicate winning;
    mode 'raise' (negative ints count from the end), 'wrap' or 'clip'."""
    (ind, _), (v, _), dt, n = _npr_operand(ind), _npr_operand(v), np.dtype(a.dtype), a.size
    np.put(np.zeros(n, dt), np.zeros(ind.shape, ind.dtype) if _npr_traced(ind) else ind,  # NumPy's errors
           _npr_dummy(v.shape, v.dtype) if isinstance(v, jax.Array) else v, mode=mode)
    if np.size(ind) == 0 or np.size(v) == 0:
        return
    xp = jnp if isinstance(ind, jax.Array) else np
    i = xp.reshape(_npr_wide(xp.asarray(ind)), -1)
    if mode == 'raise':
        _npr_check_bounds(i, 0, n)  # NumPy raises; the call does, after the run
    i = xp.where(i < 0, i + n, i) if mode == 'raise' else xp.mod(i, n) if mode == 'wrap' else xp.clip(i, 0, n - 1)
    if xp is jnp and mode == 'raise':
        i = jnp.where((i >= 0) & (i < n), i, n)
    vals = _npr_cycle(_npr_conv(v, dt, lambda t, w: np.put(t, np.arange(t.size), w)), i.size)
    _npr_update(a, lambda cur: _npr_scatter(cur, i, vals))


def npr_place(a, mask, vals):
    """NumPy's np.place: the k-th True position of mask takes vals.flat[k % vals.size]."""
    (mask, _), (vals, vprobe), dt = _npr_operand(mask), _npr_operand(vals), np.dtype(a.dtype)
    if np.size(mask) != a.size:
        raise ValueError("place: mask and data must be the same size")
    xp = jnp if isinstance(mask, jax.Array) else np
    m = xp.reshape(xp.asarray(mask), -1).astype(bool)
    if np.size(vals) == 0:
        if xp is jnp:
            raise NprUnsupported("NPR108", "np.place with empty vals raises only if the "
                                      "traced mask has a True")
        if m.any():
            raise ValueError("Cannot insert from an empty array!")
        return
    np.place(np.zeros(1, dt), np.ones(1, _npr_dt(mask)), vprobe)
    flat = jnp.asarray(_npr_conv(vals, dt, lambda t, w: np.place(t, np.ones(t.shape, bool), w))).reshape(-1)
    g = flat[xp.mod(xp.cumsum(m) - 1, flat.size)]
    _npr_update(a, lambda cur: jnp.where(m, g, jnp.reshape(cur, -1)).reshape(cur.shape))


def npr_fill_diagonal(a, val, wrap=False):
    """NumPy's np.fill_diagonal: a.flat[:end:step] = val, val repeated cyclically; a tall
    2-D matrix wraps only with wrap=True."""
    shape, dt = tuple(a.shape), np.dtype(a.dtype)
    if len(shape) < 2:
        raise ValueError("array must be at least 2-d")
    if len(shape) == 2:
        step, end = shape[1] + 1, (a.size if wrap else min(a.size, shape[1] * shape[1]))
    elif any(n != shape[0] for n in shape):
        raise ValueError("All dimensions of input must be of equal length")
    else:
        step, end = 1 + int(np.cumprod(shape[:-1]).sum()), a.size
    val = _npr_conv(npr_load(val), dt, lambda t, w: t.flat.__setitem__(slice(None), w))
    pos = np.arange(0, end, step)
    if pos.size and np.size(val):
        vals = _npr_cycle(val, pos.size)
        _npr_update(a, lambda cur: _npr_unflat(jnp.reshape(cur, -1).at[pos].set(
            vals, unique_indices=True, indices_are_sorted=True), shape))


def npr_where_store(a, mask, value):
    """NumPy's a[mask] = value[mask] (or a value that broadcasts to a) for a boolean mask over
    a's leading dims, as jnp.where; value converted as NumPy's setitem converts it."""
    mask, value, shape = npr_load(mask), npr_load(value), tuple(a.shape)
    if not _npr_isbool(np.asarray(mask) if isinstance(mask, list) else mask):
        raise TypeError("np2ref: npr_where_store needs a boolean mask")
    _npr_dummy(shape)[np.ones(np.shape(mask), bool)]  # NumPy's mask-shape IndexError
    m = jnp.reshape(jnp.asarray(mask), np.shape(mask) + (1,) * (len(shape) - np.ndim(mask)))
    val = _npr_fit(_npr_conv(value, np.dtype(a.dtype), 'adv'), shape, lambda: None)
    _npr_update(a, lambda cur: jnp.where(m, val, cur))


# `.at` of the ufuncs with no XLA scatter combiner: always applied one element at a time, in
# NumPy's order (`np.divide.at(a, [0, 0], [v1, v2])` is a[0] / v1 / v2, not a[0] / (v1 * v2)).
_NPR_AT_IN_ORDER = frozenset({
    'divide', 'true_divide', 'floor_divide', 'remainder', 'mod', 'fmod', 'power', 'logical_and',
    'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor'})


def npr_ufunc_at(name, a, idx, b=None):
    """NumPy's unbuffered np.<name>.at(a, idx, b) for add, subtract, multiply, maximum and
    minimum (and the _NPR_AT_IN_ORDER ufuncs, always one element at a time): every occurrence
    of a duplicate index applies, in NumPy's order; b is broadcast strictly. NumPy
    computes in result_type(a, b) (Python scalars count as arrays here) and casts back after
    every element; that equals one scatter in a's dtype for wrapping ints, and for b's values
    that a's dtype holds exactly (double rounding is innocuous). Otherwise (floats into an int
    array, float64 values into float32) the elements are applied one at a time, in NumPy's
    order, each computed in that type and cast back: a sequential loop, exact but slow."""
    if name not in ('add', 'subtract', 'multiply', 'maximum', 'minimum') and name not in _NPR_AT_IN_ORDER:
        raise NprUnsupported("NPR101", f"np.{name}.at is not translated")
    if b is None:
        raise ValueError("second operand needed for ufunc")
    ix, dt, uf = _npr_Idx(a.shape, idx), np.dtype(a.dtype), getattr(np, name)
    if ix.mask is not None:
        raise NprUnsupported("NPR104", f"np.{name}.at with a traced boolean mask")
    b = npr_load(b)
    b = jnp.asarray(b) if isinstance(b, (list, tuple)) and _npr_has_jax(b) else b
    rt = _npr_rtype(name, dt, np.zeros((1,) * np.ndim(b), _npr_dt(b)))
    ints = rt.kind in 'iu' and dt.kind in 'iu'
    held = not isinstance(b, jax.Array) and dt.kind != 'b' and np.array_equal(
        np.asarray(b).astype(dt).astype(rt), np.asarray(b).astype(rt), equal_nan=rt.kind in 'fc')
    scatter = name not in _NPR_AT_IN_ORDER and (rt == dt or (ints and (held or name not in ('maximum', 'minimum'))) or (
        held and dt.kind in 'fc' and rt.kind in 'fc' and not (name == 'multiply' and rt.kind == 'c')))
    vals = _npr_fit(_npr_conv(b, dt if scatter else rt), ix.sel, strip=False, fail=lambda: uf.at(  # ints wrap
        _npr_dummy(a.shape, dt), ix.probe, _npr_dummy(np.shape(b), _npr_dt(b))))
    vals = -vals if name == 'subtract' else vals  # x - v is x + (-v), exactly, in every type
    if 0 in ix.sel:
        return
    if not scatter:
        _npr_ufunc_at_in_order(dict(subtract='add').get(name, name), a, ix, vals, rt, dt)
        return
    # (not into integer refs under differentiation: JAX 0.10 scatters their float0 tangents)
    if (isinstance(a, jax.Ref) and name in ('add', 'subtract') and dt != bool
            and not any(e is None or isinstance(e, range) and e.step < 0 for e in ix.ents)
            and (dt.kind in 'fc' or not (_npr_state.get("differentiating") or any(
                _npr_has_tracer(v, _npr_TANGENT_TRACERS) for v in (a, vals))))):
        if ix.adv:  # one coordinate array per dim, so the Ref's layout is NumPy's
            lin = ix.lin()
            xp = np if isinstance(lin, np.ndarray) else jnp
            coords = [jnp.asarray(xp.where(lin < a.size, c, n)) for c, n in zip(xp.unravel_index(lin, a.shape), a.shape)]
            if _npr_made_from_constant(a):  # (np.array([...]), np.linspace of constants)
                # the scatter-add JAX's addupdate discharges to, written out: its discharge
                # calls `.at` on the constant's NumPy value (AttributeError, jax 0.10)
                a[...] = a[...].at[tuple(coords)].add(vals, mode='drop')
            else:
                jax.ref.addupdate(a, tuple(coords), vals)
        else:
            jax.ref.addupdate(a, ix.basic(), vals)
        return
    op = dict(add='add', subtract='add', multiply='multiply', maximum='max', minimum='min')[name]
    op = dict(add='max', multiply='min').get(op, op) if dt == bool else op
    lin = ix.lin().reshape(-1)
    vals = jnp.reshape(vals, -1)

    def one(k, flat):
        return flat.at[jnp.asarray(lin)[k]].multiply(vals[k], mode='drop', unique_indices=True)

    def update(cur):
        if op == 'multiply' and dt.kind in 'fc' and (_npr_state.get("differentiating") or any(
                _npr_has_tracer(v, _npr_TANGENT_TRACERS) for v in (cur, vals))):
            # JAX differentiates scatter_mul only with unique indices: one element at a time, as
            # NumPy itself applies them (a scan, which reverse mode goes through)
            return _npr_unflat(lax.fori_loop(0, lin.size, one, jnp.reshape(cur, -1)), cur.shape)
        return _npr_unflat(getattr(jnp.reshape(cur, -1).at[lin], op)(vals, mode='drop'), cur.shape)
    _npr_update(a, update)


def _npr_ufunc_at_in_order(name, a, ix, vals, rt, dt):
    """np.<name>.at one element at a time, as NumPy applies it: a[i] = dt(name(rt(a[i]), v))
    for each index in order (a fori_loop; duplicates see each other's casts). The ufuncs with no
    jnp namesake of NumPy's semantics go through their npr_np_* shims (floor_divide by 0, ...)."""
    lin, vals = ix.lin().reshape(-1), jnp.reshape(vals, -1)
    fn = _npr_at_ufunc(name)

    def one(k, flat):
        i = jnp.asarray(lin)[k]
        # the barrier keeps XLA from folding bool -> float then `* nan` into a select (0, not nan),
        # and a division by a constant into a product with its reciprocal (not IEEE)
        x, v = lax.optimization_barrier((flat[i].astype(rt), vals[k]))
        r = fn(x, v)  # cast back as NumPy casts (x86-64 wraparound, not JAX's saturation)
        r = _npr_x86_cast(r, dt)[0] if r.dtype.kind == 'f' and dt.kind in 'iu' else r.astype(dt)
        return flat.at[i].set(r, mode='drop')
    _npr_update(a, lambda cur: _npr_unflat(lax.fori_loop(0, lin.size, one, jnp.reshape(cur, -1)), cur.shape))


def _npr_at_ufunc(name):
    """The elementwise function np.<name>.at applies to one element and one value of rt."""
    shims = dict(divide=npr_np_divide, true_divide=npr_np_divide, floor_divide=npr_np_floor_divide,
                 remainder=npr_np_mod, mod=npr_np_mod, fmod=npr_np_fmod, power=npr_np_power)
    return shims.get(name) or getattr(jnp, name)
