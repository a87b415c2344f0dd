"""NumPy shims: creation and elementwise helpers."""

import jax
import jax.numpy as jnp
import numpy as np

from .carried_kinds import _npr_kinds_listed
from .casts import _npr_check_list_store, npr_cast
from .compat import _npr_Tracer
from .core import _npr_above, _npr_has_jax, _npr_state, NprNotConcrete, NprUnsupported
from .fence_kinds import _npr_fence_array, _npr_fence_own
from .np_dtypes import (
    _npr_np_array0_made, _npr_np_asarray, _npr_np_check_out, _npr_np_dtype_of, _npr_np_is_py, _npr_np_probe,
    _npr_np_python_bool, _npr_np_result_dtype)
from .np_reductions import npr_np_sum
from .np_shape import npr_np_diff
from .np_ufuncs import npr_np_add, npr_np_divide, npr_np_equal, npr_np_multiply, npr_np_power


# ---------------------------------------------------------------- creation
def npr_np_array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, like=None):
    return _npr_np_array0(_npr_np_array(object, dtype, ndmin), object)


def _npr_np_array(object, dtype, ndmin):
    stacked = _npr_above.stacked_array(object, dtype, ndmin)  # an append loop's list: its buffer (appends.py)
    if stacked is not None:
        return stacked
    if isinstance(object, (list, tuple, range)) and not _npr_has_jax(object):
        # a sequence known at trace time (`range(4)`, `[[1, 2], [3, 4]]`): NumPy's own array of it
        return jnp.asarray(np.array(object, dtype=dtype, ndmin=ndmin))
    if dtype is None and isinstance(object, (list, tuple)):
        _npr_kinds_listed(object)  # (a Python number or a NumPy scalar by the data: NPR128)
    dt = _npr_np_dtype_of(object) if dtype is None else np.dtype(dtype)
    if dt.kind in "iu" and _npr_has_jax(object) and _npr_np_dtype_of(object).kind == "f":
        _npr_check_list_store(object, dt)
        return npr_cast(jnp.array(object, dtype=_npr_np_dtype_of(object), ndmin=ndmin), dt)  # NumPy's cast
    return jnp.array(object, dtype=dt, copy=True, ndmin=ndmin)


def _npr_np_array0(v, given):
    """np.array's 0-d result is a 0-d array (host code writes into it: `c[...] = 1`), where a
    reduction's or an operator's 0-d result is a NumPy scalar: noted for the trace, or for the
    set-up call running eagerly (jit.py's run_as_written), as pyscalars.py notes Python numbers;
    the call then returns `np.array(scalar)` for it (result_shape._NprResultShape, arguments._npr_host_values).
    Only a new object: an operand handed back as it is keeps what it was."""
    if isinstance(v, jax.Array) and v.ndim == 0 and v is not given and \
            (isinstance(v, _npr_Tracer) or _npr_state.get("setup") or _npr_state.get("depth")):
        _npr_state.setdefault("pyreturn", {})[id(v)] = (v, np.array)
        _npr_state["array0_made"] = _npr_state.get("array0_made", 0) + 1  # (np_dtypes._npr_np_kinds0_settled)
    return v


def npr_np_asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    stacked = _npr_above.stacked_array(a, dtype, 0)  # an append loop's list (a lazy one has no rows yet)
    if stacked is not None:
        return stacked
    dt = _npr_np_dtype_of(a) if dtype is None else np.dtype(dtype)
    return _npr_np_array0_made(_npr_np_asarray(a, dt), a)


def _npr_np_fill(fill_value, dt):
    """A fill value as NumPy's full/full_like store it (copyto, casting='unsafe'): floats to
    integers by NumPy's cast (npr_cast), static ones by NumPy itself; a Python int out of the
    range raises NumPy's OverflowError (jax.numpy wraps it around)."""
    if dt is None or dt.kind not in "iu":
        return fill_value
    if type(fill_value) is int:
        return np.full((), fill_value, dt)
    if isinstance(fill_value, jax.Array):
        return npr_cast(fill_value, dt) if fill_value.dtype.kind == "f" else fill_value
    if not _npr_has_jax(fill_value) and np.asarray(fill_value).dtype.kind == "f":
        return np.full(np.shape(fill_value), fill_value, dt)
    return fill_value


def npr_np_full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    dt = None if dtype is None else np.dtype(dtype)
    out = jnp.full(shape, _npr_np_fill(fill_value, dt), dtype=dt)
    if dt is None:  # NumPy's dtype of the fill value, never weak (jnp.full of 2.0 is: `+ F32` was float32)
        out = jax.lax.convert_element_type(out, _npr_np_dtype_of(fill_value))
    return _npr_np_array0_made(out)


def npr_np_full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    dt = np.dtype(_npr_np_dtype_of(a) if dtype is None else dtype)
    return _npr_np_array0_made(jnp.full_like(a, _npr_np_fill(fill_value, dt), dtype=dtype, shape=shape), a)


def npr_np_tri(N, M=None, k=0, dtype=float, *, like=None):
    return jnp.tri(N, M, k, dtype=np.dtype(dtype))


def _npr_np_concrete(v):
    if isinstance(v, _npr_Tracer):
        raise NprNotConcrete("np2ref: this argument must be a concrete (static) value")
    if hasattr(v, "dtype") and not isinstance(v, (np.ndarray, np.generic)):
        return np.asarray(v)
    return v


def npr_np_arange(*args, start=None, stop=None, step=None, dtype=None, device=None, like=None):
    # Length and dtype from NumPy (all arguments are static); values as
    # NumPy fills them: first, first + delta, ..., delta = (start+step)-start.
    vals = [_npr_np_concrete(v) for v in args]
    kw = {}
    for name, v in (("start", start), ("stop", stop), ("step", step)):
        if v is not None:
            kw[name] = _npr_np_concrete(v)
    ref = np.arange(*vals, **kw, dtype=dtype)
    n = ref.shape[0]
    rdt = ref.dtype
    if n == 0:
        return jnp.zeros((0,), rdt)
    if rdt.kind in "biu" or n == 1:
        return jnp.asarray(ref[0], rdt) + jnp.arange(n, dtype=rdt) * (
            jnp.asarray(ref[1] - ref[0], rdt) if n > 1 else 0
        )
    # NumPy's fill: buffer[0] = start and buffer[1] = start + step as given, then start + i * delta
    # from i = 2 (`-0.0 + 0 * delta` is 0.0: np.arange(-0.0, 1.0, 0.25)[0] is -0.0)
    first = ref[0]
    delta = ref[1] - ref[0]
    rest = jnp.asarray(first, rdt) + jnp.arange(2, n, dtype=rdt) * jnp.asarray(delta, rdt)
    return jnp.concatenate([jnp.asarray(ref[:2], rdt), rest])


def npr_np_linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    num = int(num)
    if not _npr_has_jax((start, stop)):  # NumPy's own values: XLA contracted `i * step + start`
        out = np.linspace(start, stop, num, endpoint=endpoint, retstep=retstep, dtype=dtype, axis=axis)
        return (jnp.asarray(out[0]), out[1]) if retstep else jnp.asarray(out)
    dt = _npr_np_result_dtype(start, stop, float(num))
    if dt.kind not in "fc":
        dt = np.dtype(np.float64)
    rdt = dt if dtype is None else np.dtype(dtype)
    start_a = _npr_np_asarray(start, dt)
    stop_a = _npr_np_asarray(stop, dt)
    div = (num - 1) if endpoint else num
    delta = stop_a - start_a
    y = jnp.arange(0, num, dtype=dt).reshape((-1,) + (1,) * delta.ndim)
    if div > 0:
        # a true division: XLA turns a division by the constant div into a multiplication by
        # its rounded reciprocal (0.333333343 for 3), unless the divisor is opaque
        step = delta / jax.lax.optimization_barrier(jnp.asarray(div, dt))
        any_zero = bool(np.any(np.asarray(step) == 0)) if not isinstance(step, _npr_Tracer) else False
        if any_zero:
            y = y / div * delta
        else:
            y = y * step
    else:
        step = jnp.full_like(delta, np.nan)
        y = y * delta
    # NumPy rounds the product, then adds: the fence keeps LLVM from contracting both into one
    # fused multiply-add under jit (float32 edges 1 ulp off NumPy's, which moves histogram counts;
    # XLA:CPU drops an optimization_barrier before fusion, so that one did not)
    y = _npr_fence_own(y) + start_a
    if endpoint and num > 1:
        y = y.at[-1, ...].set(stop_a)
    if axis != 0:
        y = jnp.moveaxis(y, 0, axis)
    if rdt.kind in "iu":
        y = npr_cast(jnp.floor(y), rdt)  # NumPy's cast: INT_MIN for what is out of range
    y = y.astype(rdt)
    if retstep:
        return y, step
    return y


def npr_np_logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    y = npr_np_linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    r = npr_np_power(base, y)
    if dtype is None:
        return r
    return npr_cast(r, dtype)  # an integer dtype: NumPy's cast


def npr_np_geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    dt = _npr_np_result_dtype(start, stop, float(num))
    if dt.kind not in "fc":
        dt = np.dtype(np.float64)
    s = _npr_np_asarray(start, dt)
    e = _npr_np_asarray(stop, dt)
    sign = jnp.where((s.real < 0) & (e.real < 0), -1.0, 1.0).astype(dt)
    s = s * sign
    e = e * sign
    y = npr_np_logspace(jnp.log10(s), jnp.log10(e), num=num, endpoint=endpoint, base=10.0, axis=0)
    y = y.astype(dt)
    if num > 0:
        y = y.at[0].set(s)
        if num > 1 and endpoint:
            y = y.at[-1].set(e)
    y = y * sign
    if axis != 0:
        y = jnp.moveaxis(y, 0, axis)
    return y if dtype is None else npr_cast(y, dtype)  # an integer dtype: NumPy's cast


def npr_np_triu(m, k=0):
    m = _npr_np_asarray(m)
    if m.ndim < 2:
        m = jnp.broadcast_to(m, (m.shape[0], m.shape[0]))
    return jnp.triu(m, k)


def npr_np_tril(m, k=0):
    m = _npr_np_asarray(m)
    if m.ndim < 2:
        m = jnp.broadcast_to(m, (m.shape[0], m.shape[0]))
    return jnp.tril(m, k)


def npr_np_vander(x, N=None, increasing=False):
    # NumPy allocates promote_types(x.dtype, int): float32 -> float64.
    x = _npr_np_asarray(x)
    x = x.astype(np.promote_types(x.dtype, np.int64))
    return jnp.vander(x, N, increasing=increasing)


# ---------------------------------------------------------------- elementwise helpers


def npr_np_where(condition, *xy):
    if not xy:
        raise NprUnsupported("NPR004", "np.where(cond) with one argument is np.nonzero(cond): its output shape "
                             "depends on the data", call="np.where")
    x, y = xy
    if any(isinstance(v, _npr_above.NprMasked) for v in (condition, x, y)):  # a slice of run-time length
        return _npr_above.masked_where(npr_np_where, condition, x, y)
    dt = _npr_np_result_dtype(x, y)
    c = _npr_np_asarray(condition, np.bool_)
    if dt.kind in "iu":  # a Python int out of the range wraps around in NumPy's where (C's cast)
        x, y = [np.asarray(v).astype(dt) if type(v) is int else v for v in (x, y)]
    return jnp.where(c, _npr_np_asarray(x, dt), _npr_np_asarray(y, dt))


def _npr_np_round(a, decimals=0, out=None):
    _npr_np_check_out(out)
    x = _npr_np_asarray(a)
    rdt = np.round(np.ones((1,), x.dtype), decimals).dtype  # bool -> float16
    if rdt != x.dtype:
        x = x.astype(rdt)
    if x.dtype.kind in "biu":
        if decimals >= 0:
            return x
        # NumPy rounds integers in float64: rint(x / 10**-decimals) * 10**-decimals, cast back
        # as it casts floats (np.round(int8(-126), -1) is 126, int8(64) at -2 is 100; int64
        # beyond 2**53 loses its low digits)
        f = 10.0 ** (-decimals)
        return npr_cast(jnp.round(x.astype(np.float64) / f) * f, x.dtype)
    if decimals == 0:
        return jnp.round(x)
    if decimals > 0:
        f = np.array(10.0 ** decimals, x.dtype)
        y = jnp.round(x * f)
        # a true division, as NumPy's: XLA turns `y / 100.0` into `y * 0.01` (0.7 came back
        # 0.7000000000000001, 0.1 in float32 one ulp low), and the fence of divisions that
        # decide does not reach a quotient that is the result (it decides nothing)
        return (y / _npr_fence_array(f, y)).astype(x.dtype)
    f = np.array(10.0 ** (-decimals), x.dtype)
    return (jnp.round(x / f) * f).astype(x.dtype)


def npr_np_round(a, decimals=0, out=None):
    if type(a) is _npr_above.NprMasked and out is None:  # a slice of run-time length: elementwise, no pole
        return a._same(_npr_np_round(a.data, decimals))
    return _npr_np_round(a, decimals, out)


npr_np_around = npr_np_round


def npr_np_fix(x, out=None):
    _npr_np_check_out(out)
    x = _npr_np_asarray(x)
    if x.dtype.kind in "biu":
        return x
    return jnp.trunc(x)


def npr_np_isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    dt = _npr_np_result_dtype(a, b, 1.0)
    x = _npr_np_asarray(a, dt)
    y = _npr_np_asarray(b, dt)
    return jnp.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)


def npr_np_allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _npr_np_python_bool(jnp.all(npr_np_isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def npr_np_array_equal(a1, a2, equal_nan=False):
    # Shapes are static; elements compared with NumPy's equal (float64 for
    # int64 vs float32).
    x = _npr_np_asarray(a1)
    y = _npr_np_asarray(a2)
    if x.shape != y.shape:
        return _npr_np_python_bool(False)
    eq = npr_np_equal(x, y)
    if equal_nan and x.dtype.kind in "fc" and y.dtype.kind in "fc":
        eq = eq | (jnp.isnan(x) & jnp.isnan(y))
    return _npr_np_python_bool(jnp.all(eq))


def npr_np_array_equiv(a1, a2):
    x = _npr_np_asarray(a1)
    y = _npr_np_asarray(a2)
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return _npr_np_python_bool(False)
    return _npr_np_python_bool(jnp.all(npr_np_equal(x, y)))


def _npr_np_probe_cast(npf, jf, name):
    # Result dtype from NumPy on stand-ins; array arguments cast to it when
    # it is a float/complex type (a real argument of a complex result to its
    # real counterpart: interp's x and xp; a complex argument of a real result
    # kept: angle's); jnp does the work.
    def f(*args, **kwargs):
        rdt = np.dtype(_npr_np_probe(npf, *args, **kwargs).dtype)
        conv = []
        for a in args:
            if a is None or isinstance(a, str) or _npr_np_is_py(a):
                conv.append(a)
            else:
                conv.append(_npr_np_asarray(a, _npr_np_probe_target(_npr_np_asarray(a).dtype, rdt)))
        # keyword arguments (weights, options) keep their own dtypes
        kw = {k: (_npr_np_asarray(v) if isinstance(v, (list, tuple)) else v) for k, v in kwargs.items()}
        return jnp.asarray(jf(*conv, **kw)).astype(rdt)

    f.__name__ = f.__qualname__ = "npr_np_" + name
    return f


def _npr_np_probe_target(dt, rdt):
    """The dtype _npr_np_probe_cast casts an argument of dtype `dt` to (None: its own)."""
    complex_arg = np.dtype(dt).kind == "c"
    if rdt.kind == "f":
        return None if complex_arg else rdt
    if rdt.kind == "c":
        return rdt if complex_arg else np.dtype(rdt.char.lower())
    return None


npr_np_sinc = _npr_np_probe_cast(np.sinc, jnp.sinc, "sinc")
npr_np_i0 = _npr_np_probe_cast(np.i0, jnp.i0, "i0")
npr_np_angle = _npr_np_probe_cast(np.angle, jnp.angle, "angle")
npr_np_interp = _npr_np_probe_cast(np.interp, jnp.interp, "interp")


def npr_np_trapezoid(y, x=None, dx=1.0, axis=-1):
    # NumPy's formula with NumPy's ufunc dtypes (bool y adds as logical or).
    y = _npr_np_asarray(y)
    ax = axis % y.ndim
    n = y.shape[ax]
    if x is None:
        d = dx
    else:
        xa = _npr_np_asarray(x)
        if xa.ndim == 1:
            d = npr_np_diff(xa)
            shape = [1] * y.ndim
            shape[ax] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = npr_np_diff(xa, axis=ax)
    hi = jax.lax.slice_in_dim(y, 1, n, axis=ax)
    lo = jax.lax.slice_in_dim(y, 0, n - 1, axis=ax)
    return npr_np_sum(npr_np_divide(npr_np_multiply(d, npr_np_add(hi, lo)), 2.0), axis=ax)


npr_np_polyval = _npr_np_probe_cast(np.polyval, jnp.polyval, "polyval")
npr_np_cov = _npr_np_probe_cast(np.cov, jnp.cov, "cov")
npr_np_corrcoef = _npr_np_probe_cast(np.corrcoef, jnp.corrcoef, "corrcoef")


