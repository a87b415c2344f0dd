# np2ref shims: NumPy semantics on top of jax.numpy.
#
# This file is pasted verbatim into converted modules, so it imports only
# numpy, jax, jax.numpy and the standard library, and every top-level name
# starts with npr_np_ or _npr_np_.  Converted code runs with 64-bit types on
# (jax.enable_x64(True)).  JAX promotes dtypes differently from NumPy
# (int64 + float32 -> float32, sqrt(int32) -> float32, cumsum(int32) ->
# int32, ...); each shim works out NumPy's dtypes at trace time from the
# input dtypes (with NumPy itself, on dtypes or tiny stand-in arrays), casts
# to them and calls jnp.  Everything here is jit-traceable: only dtypes,
# shapes and Python values are inspected, never traced values.
import builtins as _npr_np_builtins
import warnings

import jax
import jax.numpy as jnp
import numpy as np

_npr_np_PY_SCALARS = (bool, int, float, complex)


# ---------------------------------------------------------------- dtypes
def _npr_np_is_py(a):
    # Python scalars are "weak" in NumPy 2 (NEP 50); NumPy scalars are not.
    return type(a) in _npr_np_PY_SCALARS


def _npr_np_dtype_of(a):
    # The dtype NumPy gives np.asarray(a) (lists by NumPy's own inference).
    if hasattr(a, "dtype"):
        return np.dtype(a.dtype)
    if isinstance(a, (list, tuple)):
        if not a:
            return np.dtype(np.float64)
        return np.result_type(*[_npr_np_dtype_of(e) for e in a])
    return np.asarray(a).dtype


def _npr_np_ndim(a):
    if hasattr(a, "ndim"):
        return a.ndim
    if isinstance(a, (list, tuple)):
        return 1 + (_npr_np_ndim(a[0]) if a else 0)
    return 0


def _npr_np_weak_kind(a):
    # A weak-typed JAX value is a Python scalar traced (an argument, or arithmetic on one):
    # the Python type it stands for, else None.
    if isinstance(a, jax.Array) and a.ndim == 0 and jax.typeof(a).weak_type:
        return {"b": bool, "i": int, "u": int, "f": float, "c": complex}[a.dtype.kind]
    return None


def _npr_np_rdt(a):
    # Operand for ufunc.resolve_dtypes: a Python int/float/complex type stays
    # weak (a Python bool is just bool, the lowest kind).
    kind = _npr_np_weak_kind(a)
    if type(a) is bool or kind is bool:
        return np.dtype(np.bool_)
    if _npr_np_is_py(a):
        return type(a)
    return kind or _npr_np_dtype_of(a)


def _npr_np_weak(a):
    # Operand for np.result_type: the Python scalar itself (weak) or a dtype.
    if _npr_np_is_py(a):
        return a
    kind = _npr_np_weak_kind(a)
    return kind(0) if kind is not None else _npr_np_dtype_of(a)


def _npr_np_result_dtype(*args):
    # np.result_type over array-likes, Python scalars weak; None ignored.
    ops = [_npr_np_weak(a) for a in args if a is not None]
    return np.result_type(*ops)


def _npr_np_proto(a, small=True):
    # A NumPy stand-in with a's dtype and ndim (each dim at most 3), so NumPy
    # itself can be asked for a result dtype at trace time.  Python scalars,
    # strings and None pass through.
    if a is None or _npr_np_is_py(a) or isinstance(a, str):
        return a
    if isinstance(a, (list, tuple)) and not any(
        hasattr(e, "dtype") or isinstance(e, (list, tuple)) for e in a
    ):
        return np.asarray(a)
    dt = _npr_np_dtype_of(a)
    if hasattr(a, "shape"):
        shape = a.shape
    else:  # a list holding arrays: only its length and depth matter here
        shape = (len(a),) + (1,) * (_npr_np_ndim(a) - 1)
    if small:
        shape = tuple(min(int(d), 3) for d in shape)
    return np.ones(shape, dt)


def _npr_np_probe(npf, *args, **kwargs):
    # NumPy's result of npf on stand-ins: used only for dtypes.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return npf(
                *[_npr_np_proto(a) for a in args],
                **{k: _npr_np_proto(v) for k, v in kwargs.items()},
            )


def _npr_np_asarray(a, dtype=None):
    # A jax array with NumPy's dtype (NumPy's inference when dtype is None).
    if dtype is None:
        dtype = _npr_np_dtype_of(a)
    dtype = np.dtype(dtype)
    if isinstance(a, jax.Array):  # NumPy's results are never weak: convert makes them strong
        return a if a.dtype == dtype and not jax.typeof(a).weak_type else jax.lax.convert_element_type(a, dtype)
    return jax.lax.convert_element_type(jnp.asarray(a, dtype=dtype), dtype)


def _npr_np_inexact(dt):
    # NumPy's "float version" of a dtype as used by linalg/statistics: ints
    # and bools compute in float64, floats and complex keep their type.
    dt = np.dtype(dt)
    if dt.kind in "fc":
        return dt
    return np.dtype(np.float64)


def _npr_np_check_out(out):
    if out is not None:
        raise NotImplementedError("np2ref: out= must be rewritten by the translator")


# ---------------------------------------------------------------- ufuncs
def _npr_np_ufunc_outer(uf):
    # NumPy converts both operands with asarray first (Python scalars are not weak here:
    # np.add.outer(int8 array, 2) is int64), then broadcasts a.shape + b.shape.
    def outer(A, B, /, **kwargs):
        a, b = _npr_np_asarray(A), _npr_np_asarray(B)
        return uf(jnp.reshape(a, a.shape + (1,) * b.ndim), b, **kwargs)

    outer.__name__ = outer.__qualname__ = uf.__name__ + "_outer"
    return outer


def _npr_np_ufunc(npf, jf, body=None):
    # A NumPy ufunc on jnp: NumPy's loop dtypes (ufunc.resolve_dtypes, NEP 50
    # weak Python scalars, dtype= as the output signature), inputs cast to
    # the loop's input dtypes, result cast to the loop's output dtype(s).
    nin, nout = npf.nin, npf.nout
    impl = body if body is not None else jf

    def f(*args, out=None, dtype=None, casting="same_kind"):
        _npr_np_check_out(out)
        if len(args) != nin:
            raise TypeError(f"{npf.__name__} takes {nin} positional arguments")
        sig = None if dtype is None else (None,) * nin + (np.dtype(dtype),) * nout
        if all(_npr_np_is_py(a) for a in args):
            ops = tuple(np.asarray(a).dtype for a in args) + (None,) * nout
        else:
            ops = tuple(_npr_np_rdt(a) for a in args) + (None,) * nout
        if sig is None:
            dts = npf.resolve_dtypes(ops, casting=casting)
        else:
            dts = npf.resolve_dtypes(ops, signature=sig, casting=casting)
        xs = [_npr_np_asarray(a, d) for a, d in zip(args, dts[:nin])]
        r = impl(*xs)
        if nout == 1:
            return _npr_np_asarray(r, dts[nin])
        return tuple(_npr_np_asarray(o, d) for o, d in zip(r, dts[nin:]))

    f.__name__ = "npr_np_" + npf.__name__
    f.__qualname__ = f.__name__
    f.__doc__ = f"numpy.{npf.__name__} with NumPy's dtype rules."
    if nin == 2 and nout == 1:
        f.outer = _npr_np_ufunc_outer(f)  # np.add.outer -> npr_np_add.outer
    return f


def _npr_np_reciprocal(x):
    if np.dtype(x.dtype).kind in "iu":
        # C integer division 1 / x: 1 for 1, -1 for -1, 0 otherwise.
        return jnp.where(jnp.abs(x) == 1, x, jnp.zeros_like(x))
    return jnp.reciprocal(x)


npr_np_add = _npr_np_ufunc(np.add, jnp.add)
npr_np_subtract = _npr_np_ufunc(np.subtract, jnp.subtract)
npr_np_multiply = _npr_np_ufunc(np.multiply, jnp.multiply)
npr_np_divide = _npr_np_ufunc(np.divide, jnp.true_divide)
npr_np_true_divide = npr_np_divide
npr_np_floor_divide = _npr_np_ufunc(np.floor_divide, jnp.floor_divide)
npr_np_mod = _npr_np_ufunc(np.remainder, jnp.remainder)
npr_np_remainder = npr_np_mod
npr_np_fmod = _npr_np_ufunc(np.fmod, jnp.fmod)
npr_np_divmod = _npr_np_ufunc(np.divmod, jnp.divmod)
npr_np_power = _npr_np_ufunc(np.power, jnp.power)
npr_np_pow = npr_np_power
npr_np_float_power = _npr_np_ufunc(np.float_power, jnp.power)
npr_np_negative = _npr_np_ufunc(np.negative, jnp.negative)
npr_np_positive = _npr_np_ufunc(np.positive, jnp.positive)
npr_np_square = _npr_np_ufunc(np.square, jnp.square)
npr_np_reciprocal = _npr_np_ufunc(np.reciprocal, None, _npr_np_reciprocal)
npr_np_absolute = _npr_np_ufunc(np.absolute, jnp.absolute)
npr_np_abs = npr_np_absolute
npr_np_fabs = _npr_np_ufunc(np.fabs, jnp.fabs)
npr_np_sign = _npr_np_ufunc(np.sign, jnp.sign)
npr_np_floor = _npr_np_ufunc(np.floor, jnp.floor)
npr_np_ceil = _npr_np_ufunc(np.ceil, jnp.ceil)
npr_np_trunc = _npr_np_ufunc(np.trunc, jnp.trunc)
npr_np_rint = _npr_np_ufunc(np.rint, jnp.rint)
npr_np_conjugate = _npr_np_ufunc(np.conjugate, jnp.conjugate)
npr_np_conj = npr_np_conjugate
npr_np_maximum = _npr_np_ufunc(np.maximum, jnp.maximum)
npr_np_minimum = _npr_np_ufunc(np.minimum, jnp.minimum)
npr_np_fmax = _npr_np_ufunc(np.fmax, jnp.fmax)
npr_np_fmin = _npr_np_ufunc(np.fmin, jnp.fmin)
npr_np_equal = _npr_np_ufunc(np.equal, jnp.equal)
npr_np_not_equal = _npr_np_ufunc(np.not_equal, jnp.not_equal)
npr_np_less = _npr_np_ufunc(np.less, jnp.less)
npr_np_less_equal = _npr_np_ufunc(np.less_equal, jnp.less_equal)
npr_np_greater = _npr_np_ufunc(np.greater, jnp.greater)
npr_np_greater_equal = _npr_np_ufunc(np.greater_equal, jnp.greater_equal)
npr_np_logical_and = _npr_np_ufunc(np.logical_and, jnp.logical_and)
npr_np_logical_or = _npr_np_ufunc(np.logical_or, jnp.logical_or)
npr_np_logical_xor = _npr_np_ufunc(np.logical_xor, jnp.logical_xor)
npr_np_logical_not = _npr_np_ufunc(np.logical_not, jnp.logical_not)
npr_np_bitwise_and = _npr_np_ufunc(np.bitwise_and, jnp.bitwise_and)
npr_np_bitwise_or = _npr_np_ufunc(np.bitwise_or, jnp.bitwise_or)
npr_np_bitwise_xor = _npr_np_ufunc(np.bitwise_xor, jnp.bitwise_xor)
npr_np_invert = _npr_np_ufunc(np.invert, jnp.invert)
npr_np_bitwise_not = npr_np_invert
npr_np_bitwise_invert = npr_np_invert
npr_np_left_shift = _npr_np_ufunc(np.left_shift, jnp.left_shift)
npr_np_bitwise_left_shift = npr_np_left_shift
npr_np_right_shift = _npr_np_ufunc(np.right_shift, jnp.right_shift)
npr_np_bitwise_right_shift = npr_np_right_shift
npr_np_bitwise_count = _npr_np_ufunc(np.bitwise_count, jnp.bitwise_count)
npr_np_gcd = _npr_np_ufunc(np.gcd, jnp.gcd)
npr_np_lcm = _npr_np_ufunc(np.lcm, jnp.lcm)
npr_np_isnan = _npr_np_ufunc(np.isnan, jnp.isnan)
npr_np_isinf = _npr_np_ufunc(np.isinf, jnp.isinf)
npr_np_isfinite = _npr_np_ufunc(np.isfinite, jnp.isfinite)
npr_np_signbit = _npr_np_ufunc(np.signbit, jnp.signbit)
npr_np_sqrt = _npr_np_ufunc(np.sqrt, jnp.sqrt)
npr_np_cbrt = _npr_np_ufunc(np.cbrt, jnp.cbrt)
npr_np_exp = _npr_np_ufunc(np.exp, jnp.exp)
npr_np_exp2 = _npr_np_ufunc(np.exp2, jnp.exp2)
npr_np_expm1 = _npr_np_ufunc(np.expm1, jnp.expm1)
npr_np_log = _npr_np_ufunc(np.log, jnp.log)
npr_np_log2 = _npr_np_ufunc(np.log2, jnp.log2)
npr_np_log10 = _npr_np_ufunc(np.log10, jnp.log10)
npr_np_log1p = _npr_np_ufunc(np.log1p, jnp.log1p)
npr_np_logaddexp = _npr_np_ufunc(np.logaddexp, jnp.logaddexp)
npr_np_logaddexp2 = _npr_np_ufunc(np.logaddexp2, jnp.logaddexp2)
npr_np_sin = _npr_np_ufunc(np.sin, jnp.sin)
npr_np_cos = _npr_np_ufunc(np.cos, jnp.cos)
npr_np_tan = _npr_np_ufunc(np.tan, jnp.tan)
npr_np_arcsin = _npr_np_ufunc(np.arcsin, jnp.arcsin)
npr_np_arccos = _npr_np_ufunc(np.arccos, jnp.arccos)
npr_np_arctan = _npr_np_ufunc(np.arctan, jnp.arctan)
npr_np_arctan2 = _npr_np_ufunc(np.arctan2, jnp.arctan2)
npr_np_sinh = _npr_np_ufunc(np.sinh, jnp.sinh)
npr_np_cosh = _npr_np_ufunc(np.cosh, jnp.cosh)
npr_np_tanh = _npr_np_ufunc(np.tanh, jnp.tanh)
npr_np_arcsinh = _npr_np_ufunc(np.arcsinh, jnp.arcsinh)
npr_np_arccosh = _npr_np_ufunc(np.arccosh, jnp.arccosh)
npr_np_arctanh = _npr_np_ufunc(np.arctanh, jnp.arctanh)
npr_np_asin = npr_np_arcsin
npr_np_acos = npr_np_arccos
npr_np_atan = npr_np_arctan
npr_np_atan2 = npr_np_arctan2
npr_np_asinh = npr_np_arcsinh
npr_np_acosh = npr_np_arccosh
npr_np_atanh = npr_np_arctanh
npr_np_hypot = _npr_np_ufunc(np.hypot, jnp.hypot)
npr_np_deg2rad = _npr_np_ufunc(np.deg2rad, jnp.deg2rad)
npr_np_radians = npr_np_deg2rad
npr_np_rad2deg = _npr_np_ufunc(np.rad2deg, jnp.rad2deg)
npr_np_degrees = npr_np_rad2deg
npr_np_copysign = _npr_np_ufunc(np.copysign, jnp.copysign)
npr_np_nextafter = _npr_np_ufunc(np.nextafter, jnp.nextafter)
npr_np_spacing = _npr_np_ufunc(np.spacing, jnp.spacing)
npr_np_ldexp = _npr_np_ufunc(np.ldexp, jnp.ldexp)
npr_np_frexp = _npr_np_ufunc(np.frexp, jnp.frexp)
npr_np_modf = _npr_np_ufunc(np.modf, jnp.modf)
npr_np_heaviside = _npr_np_ufunc(np.heaviside, jnp.heaviside)


# ---------------------------------------------------------------- reductions
def _npr_np_acc_dtype(npf, a, dtype):
    # Accumulator/result dtype NumPy uses: small ints and bools go to the
    # platform int (int64), small unsigned to uint64, or dtype= if given.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return npf(np.ones((1,), _npr_np_dtype_of(a)), dtype=dtype).dtype


def npr_np_sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    _npr_np_check_out(out)
    x = _npr_np_asarray(a)
    dt = _npr_np_acc_dtype(np.sum, x, dtype)
    return jnp.sum(x, axis=axis, dtype=dt, keepdims=keepdims, initial=initial, where=where)


def _npr_np_cumulative(npf, jf):
    def f(a, axis=None, dtype=None, out=None):
        _npr_np_check_out(out)
        x = _npr_np_asarray(a)
        return jf(x, axis=axis, dtype=_npr_np_acc_dtype(npf, x, dtype))

    f.__name__ = f.__qualname__ = "npr_np_" + npf.__name__
    return f


npr_np_cumsum = _npr_np_cumulative(np.cumsum, jnp.cumsum)
npr_np_cumprod = _npr_np_cumulative(np.cumprod, jnp.cumprod)
npr_np_nancumsum = _npr_np_cumulative(np.nancumsum, jnp.nancumsum)
npr_np_nancumprod = _npr_np_cumulative(np.nancumprod, jnp.nancumprod)


def npr_np_cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    _npr_np_check_out(out)
    x = _npr_np_asarray(x)
    dt = _npr_np_acc_dtype(np.cumprod, x, dtype)
    return jnp.cumulative_prod(x, axis=axis, dtype=dt, include_initial=include_initial)


def _npr_np_moment_dtypes(npf, x, dtype):
    # NumPy computes integer inputs in float64 (float16 in float32) and
    # returns float64 (float16), or dtype= if given.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            rdt = npf(np.ones((2,), x.dtype), dtype=dtype).dtype
    return rdt, (rdt if rdt != np.float16 else np.dtype(np.float32))


def _npr_np_moment(npf, jf, has_ddof):
    # mean/var/std family, with NumPy's signatures.
    if not has_ddof:
        def f(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
            _npr_np_check_out(out)
            x = _npr_np_asarray(a)
            rdt, cdt = _npr_np_moment_dtypes(npf, x, dtype)
            return jf(x, axis=axis, dtype=cdt, keepdims=keepdims, where=where).astype(rdt)
    else:
        def f(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None, correction=None):
            _npr_np_check_out(out)
            if mean is not None:
                raise NotImplementedError("np2ref: mean= is not supported")
            x = _npr_np_asarray(a)
            rdt, cdt = _npr_np_moment_dtypes(npf, x, dtype)
            if correction is not None:
                ddof = correction
            return jf(x, axis=axis, dtype=cdt, ddof=ddof, keepdims=keepdims, where=where).astype(rdt)

    f.__name__ = f.__qualname__ = "npr_np_" + npf.__name__
    return f


npr_np_mean = _npr_np_moment(np.mean, jnp.mean, False)
npr_np_nanmean = _npr_np_moment(np.nanmean, jnp.nanmean, False)
npr_np_var = _npr_np_moment(np.var, jnp.var, True)
npr_np_std = _npr_np_moment(np.std, jnp.std, True)
npr_np_nanvar = _npr_np_moment(np.nanvar, jnp.nanvar, True)
npr_np_nanstd = _npr_np_moment(np.nanstd, jnp.nanstd, True)


def _npr_np_order_stat(npf, jf, has_q):
    # median/percentile/quantile family: result dtype from NumPy on a
    # stand-in; float results computed in that dtype.
    def f(a, *args, out=None, overwrite_input=False, **kw):
        _npr_np_check_out(out)
        x = _npr_np_asarray(a)
        args = list(args)
        if has_q:
            q = args[0] if args else kw.pop("q")
            args = args[1:]
            qa = _npr_np_asarray(q) if not _npr_np_is_py(q) else q
            rdt = _npr_np_probe(npf, x, q, **{k: v for k, v in kw.items() if k in ("method", "weights")}).dtype
            args = [qa] + args
        else:
            rdt = _npr_np_probe(npf, x).dtype
        if rdt.kind in "fc":
            x = x.astype(rdt)
            if has_q and not _npr_np_is_py(args[0]):
                args[0] = args[0].astype(rdt)
        return jnp.asarray(jf(x, *args, **kw)).astype(rdt)

    f.__name__ = f.__qualname__ = "npr_np_" + npf.__name__
    return f


npr_np_median = _npr_np_order_stat(np.median, jnp.median, False)
npr_np_nanmedian = _npr_np_order_stat(np.nanmedian, jnp.nanmedian, False)
npr_np_percentile = _npr_np_order_stat(np.percentile, jnp.percentile, True)
npr_np_nanpercentile = _npr_np_order_stat(np.nanpercentile, jnp.nanpercentile, True)
npr_np_quantile = _npr_np_order_stat(np.quantile, jnp.quantile, True)
npr_np_nanquantile = _npr_np_order_stat(np.nanquantile, jnp.nanquantile, True)


def npr_np_average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    x = _npr_np_asarray(a)
    if weights is None:
        rdt = _npr_np_inexact(x.dtype)
        avg = jnp.mean(x.astype(rdt), axis=axis, keepdims=keepdims)
        scl = jnp.asarray(np.prod([x.shape[i] for i in range(x.ndim)]) if axis is None else
                          np.prod([x.shape[i] for i in np.atleast_1d(axis)]), dtype=rdt)
        scl = jnp.broadcast_to(scl, avg.shape)
    else:
        w = _npr_np_asarray(weights)
        rdt = np.result_type(x.dtype, w.dtype, np.float64) if x.dtype.kind in "biu" else np.result_type(x.dtype, w.dtype)
        rdt = _npr_np_inexact(rdt)
        avg, scl = jnp.average(x.astype(rdt), axis=axis, weights=w.astype(rdt), returned=True, keepdims=keepdims)
    if returned:
        return avg, scl
    return avg


# ---------------------------------------------------------------- creation
def npr_np_array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0, like=None):
    dt = _npr_np_dtype_of(object) if dtype is None else np.dtype(dtype)
    return jnp.array(object, dtype=dt, copy=True, ndmin=ndmin)


def npr_np_asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    dt = _npr_np_dtype_of(a) if dtype is None else np.dtype(dtype)
    return _npr_np_asarray(a, dt)


def npr_np_tri(N, M=None, k=0, dtype=float, *, like=None):
    return jnp.tri(N, M, k, dtype=np.dtype(dtype))


def _npr_np_concrete(v):
    if isinstance(v, jax.core.Tracer):
        raise TypeError("np2ref: this argument must be a concrete (static) value")
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
    first = ref[0]
    delta = ref[1] - ref[0]
    return jnp.asarray(first, rdt) + jnp.arange(n, dtype=rdt) * jnp.asarray(delta, rdt)


def npr_np_linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    num = int(num)
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
        any_zero = bool(np.any(np.asarray(step) == 0)) if not isinstance(step, jax.core.Tracer) else False
        if any_zero:
            y = y / div * delta
        else:
            y = y * step
    else:
        step = jnp.full_like(delta, np.nan)
        y = y * delta
    # NumPy rounds the product, then adds: the barrier keeps XLA from fusing both into one
    # fused multiply-add under jit (float32 edges 1 ulp off NumPy's, which moves histogram counts)
    y = jax.lax.optimization_barrier(y) + start_a
    if endpoint and num > 1:
        y = y.at[-1, ...].set(stop_a)
    if axis != 0:
        y = jnp.moveaxis(y, 0, axis)
    if rdt.kind in "iu":
        y = jnp.floor(y)
    y = y.astype(rdt)
    if retstep:
        return y, step
    return y


def npr_np_logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    y = npr_np_linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    r = npr_np_power(base, y)
    if dtype is None:
        return r
    return r.astype(np.dtype(dtype))


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
    return y if dtype is None else y.astype(np.dtype(dtype))


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
        raise NotImplementedError("np2ref NPR004: np.where(cond) with one argument is np.nonzero(cond): its output shape depends on the data")
    x, y = xy
    dt = _npr_np_result_dtype(x, y)
    c = _npr_np_asarray(condition, np.bool_)
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
        # NumPy rounds integers half to even at 10**-decimals.
        f = 10 ** (-decimals)
        q = jnp.floor_divide(x, f)
        r = x - q * f
        up = (2 * r > f) | ((2 * r == f) & (q % 2 == 1))
        return ((q + up.astype(x.dtype)) * f).astype(x.dtype)
    if decimals == 0:
        return jnp.round(x)
    if decimals > 0:
        f = np.array(10.0 ** decimals, x.dtype)
        return (jnp.round(x * f) / f).astype(x.dtype)
    f = np.array(10.0 ** (-decimals), x.dtype)
    return (jnp.round(x / f) * f).astype(x.dtype)


def npr_np_round(a, decimals=0, out=None):
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
    return jnp.all(npr_np_isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def npr_np_array_equal(a1, a2, equal_nan=False):
    # Shapes are static; elements compared with NumPy's equal (float64 for
    # int64 vs float32).
    x = _npr_np_asarray(a1)
    y = _npr_np_asarray(a2)
    if x.shape != y.shape:
        return jnp.asarray(False)
    eq = npr_np_equal(x, y)
    if equal_nan and x.dtype.kind in "fc" and y.dtype.kind in "fc":
        eq = eq | (jnp.isnan(x) & jnp.isnan(y))
    return jnp.all(eq)


def npr_np_array_equiv(a1, a2):
    x = _npr_np_asarray(a1)
    y = _npr_np_asarray(a2)
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return jnp.asarray(False)
    return jnp.all(npr_np_equal(x, y))


def _npr_np_probe_cast(npf, jf, name):
    # Result dtype from NumPy on stand-ins; array arguments cast to it when
    # it is a float/complex type; jnp does the work.
    def f(*args, **kwargs):
        rdt = np.dtype(_npr_np_probe(npf, *args, **kwargs).dtype)
        conv = []
        for a in args:
            if a is None or isinstance(a, str) or _npr_np_is_py(a):
                conv.append(a)
            else:
                conv.append(_npr_np_asarray(a, rdt if rdt.kind in "fc" else None))
        # keyword arguments (weights, options) keep their own dtypes
        kw = {k: (_npr_np_asarray(v) if isinstance(v, (list, tuple)) else v) for k, v in kwargs.items()}
        return jnp.asarray(jf(*conv, **kw)).astype(rdt)

    f.__name__ = f.__qualname__ = "npr_np_" + name
    return f


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


# ---------------------------------------------------------------- joining
def _npr_np_join_dtype(arrays, dtype):
    if dtype is not None:
        return np.dtype(dtype)
    return np.result_type(*[_npr_np_dtype_of(a) for a in arrays])


def npr_np_concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    _npr_np_check_out(out)
    dt = _npr_np_join_dtype(arrays, dtype)
    xs = [_npr_np_asarray(a, dt) for a in arrays]
    if axis is None:
        xs = [x.ravel() for x in xs]
        axis = 0
    return jnp.concatenate(xs, axis=axis)


npr_np_concat = npr_np_concatenate


def npr_np_stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    _npr_np_check_out(out)
    dt = _npr_np_join_dtype(arrays, dtype)
    return jnp.stack([_npr_np_asarray(a, dt) for a in arrays], axis=axis)


def _npr_np_joiner(jf, name):
    def f(tup, *, dtype=None, casting="same_kind"):
        dt = _npr_np_join_dtype(tup, dtype)
        return jf([_npr_np_asarray(a, dt) for a in tup])

    f.__name__ = f.__qualname__ = "npr_np_" + name
    return f


npr_np_vstack = _npr_np_joiner(jnp.vstack, "vstack")
npr_np_row_stack = npr_np_vstack
npr_np_hstack = _npr_np_joiner(jnp.hstack, "hstack")
npr_np_dstack = _npr_np_joiner(jnp.dstack, "dstack")
npr_np_column_stack = _npr_np_joiner(jnp.column_stack, "column_stack")


def npr_np_append(arr, values, axis=None):
    dt = np.result_type(_npr_np_dtype_of(arr), _npr_np_dtype_of(values))
    return jnp.append(_npr_np_asarray(arr, dt), _npr_np_asarray(values, dt), axis=axis)


def npr_np_select(condlist, choicelist, default=0):
    dt = _npr_np_result_dtype(*choicelist, default)
    return jnp.select(
        [_npr_np_asarray(c, np.bool_) for c in condlist],
        [_npr_np_asarray(c, dt) for c in choicelist],
        _npr_np_asarray(default, dt),
    )


def _npr_np_run_check(e, out, kind, message):
    # The runtime's check when the program runs (runtime.py: _npr_check_run); absent when this
    # file is imported alone (its own tests), where nothing is checked.
    try:
        check = _npr_check_run
    except NameError:
        return
    check(e, out, kind, message)


def _npr_np_traced_ints(v):
    # v as a traced array when it holds traced values (a list of them too), else None.
    if any(isinstance(x, jax.core.Tracer) for x in jax.tree_util.tree_leaves(v)):
        return jnp.asarray(v)
    return None


def _npr_np_check_take(shape, indices, axis, numpy_fn):
    # NumPy's IndexError for out-of-range indices of take/take_along_axis (jnp fills them with
    # NaN): NumPy's own check on a zero-memory stand-in when they are known, else at run time.
    traced = _npr_np_traced_ints(indices)
    if traced is None:
        stand_in = np.lib.stride_tricks.as_strided(np.zeros(1, bool), tuple(shape), (0,) * len(shape))
        numpy_fn(stand_in, np.asarray(indices), axis)
        return
    size = int(np.prod(shape)) if axis is None else shape[axis]
    axis = 0 if axis is None else axis % max(len(shape), 1)
    out = (lambda x: x >= size) if traced.dtype.kind == "u" else (lambda x: (x < -size) | (x >= size))
    _npr_np_run_check(traced, out, IndexError, f"index {{}} is out of bounds for axis {axis} with size {size}")


def npr_np_choose(a, choices, out=None, mode="raise"):
    _npr_np_check_out(out)
    dt = np.result_type(*[_npr_np_dtype_of(c) for c in choices])
    if mode == "raise":  # NumPy's ValueError for an entry with no choice (jnp would clip it)
        traced = _npr_np_traced_ints(a)
        if traced is None:
            np.choose(np.asarray(a), [np.zeros(1, bool)] * len(choices))
        else:
            _npr_np_run_check(traced, lambda x: (x < 0) | (x >= len(choices)), ValueError,
                              "invalid entry in choice array")
    return jnp.choose(_npr_np_asarray(a), [_npr_np_asarray(c, dt) for c in choices], mode="clip" if mode == "raise" else mode)


# ---------------------------------------------------------------- shape ops
def npr_np_take(a, indices, axis=None, out=None, mode=None):
    _npr_np_check_out(out)
    if mode in (None, "raise"):
        _npr_np_check_take(np.shape(a), indices, axis, lambda x, i, ax: np.take(x, i, axis=ax))
    return jnp.take(_npr_np_asarray(a), _npr_np_asarray(indices), axis=axis, mode=mode)


def npr_np_take_along_axis(arr, indices, axis=-1):
    _npr_np_check_take(np.shape(arr), indices, axis, np.take_along_axis)
    return jnp.take_along_axis(_npr_np_asarray(arr), _npr_np_asarray(indices), axis=axis)


def npr_np_repeat(a, repeats, axis=None):
    r = repeats
    if isinstance(r, (list, tuple)):
        r = np.asarray(r)
    total = None
    if isinstance(r, np.ndarray):
        total = int(r.sum()) if axis is not None or r.size > 1 else None
    return jnp.repeat(_npr_np_asarray(a), r, axis=axis, total_repeat_length=total)


def npr_np_diff(a, n=1, axis=-1, prepend=None, append=None):
    x = _npr_np_asarray(a)
    if n == 0:
        return x
    parts = []
    if prepend is not None:
        p = _npr_np_asarray(prepend)
        if p.ndim == 0:
            shp = list(x.shape)
            shp[axis] = 1
            p = jnp.broadcast_to(p, shp)
        parts.append(p)
    parts.append(x)
    if append is not None:
        p = _npr_np_asarray(append)
        if p.ndim == 0:
            shp = list(x.shape)
            shp[axis] = 1
            p = jnp.broadcast_to(p, shp)
        parts.append(p)
    if len(parts) > 1:
        x = npr_np_concatenate(parts, axis=axis)
    ax = axis % x.ndim
    for _ in range(n):
        hi = jax.lax.slice_in_dim(x, 1, x.shape[ax], axis=ax)
        lo = jax.lax.slice_in_dim(x, 0, x.shape[ax] - 1, axis=ax)
        x = (hi != lo) if x.dtype == np.bool_ else hi - lo
    return x


def npr_np_ediff1d(ary, to_end=None, to_begin=None):
    x = _npr_np_asarray(ary).ravel()
    d = x[1:] - x[:-1] if x.dtype != np.bool_ else x[1:] != x[:-1]
    parts = []
    if to_begin is not None:
        parts.append(_npr_np_asarray(to_begin, d.dtype).ravel())
    parts.append(d)
    if to_end is not None:
        parts.append(_npr_np_asarray(to_end, d.dtype).ravel())
    return jnp.concatenate(parts) if len(parts) > 1 else d


def npr_np_gradient(f, *varargs, axis=None, edge_order=1):
    # NumPy's second-order central differences, with first- or second-order
    # one-sided differences at the edges, for uniform or coordinate spacing.
    x = _npr_np_asarray(f)
    otype = x.dtype if x.dtype.kind in "fc" else np.dtype(np.float64)
    x = x.astype(otype)
    n = x.ndim
    axes = list(range(n)) if axis is None else [a % n for a in np.atleast_1d(axis).tolist()]
    if len(varargs) == 0:
        dxs = [1.0] * len(axes)
    elif len(varargs) == 1 and (len(axes) > 1) and _npr_np_ndim(varargs[0]) == 0:
        dxs = [varargs[0]] * len(axes)
    else:
        dxs = list(varargs)
    outs = []
    for ax, dx in zip(axes, dxs):
        m = x.shape[ax]

        def sl(a, b):
            return jax.lax.slice_in_dim(x, a, b, axis=ax)

        if _npr_np_ndim(dx) == 0:
            h = dx if _npr_np_is_py(dx) else _npr_np_asarray(dx).astype(otype)
            mid = (sl(2, m) - sl(0, m - 2)) / (2.0 * h)
            if edge_order == 1:
                first = (sl(1, 2) - sl(0, 1)) / h
                last = (sl(m - 1, m) - sl(m - 2, m - 1)) / h
            else:
                first = (-1.5 * sl(0, 1) + 2.0 * sl(1, 2) - 0.5 * sl(2, 3)) / h
                last = (0.5 * sl(m - 3, m - 2) - 2.0 * sl(m - 2, m - 1) + 1.5 * sl(m - 1, m)) / h
        else:
            c = _npr_np_asarray(dx)
            c = c.astype(otype) if c.dtype.kind in "biu" else c
            d = jnp.diff(c)
            shape = [1] * n
            shape[ax] = m - 2
            d1 = d[:-1].reshape(shape)
            d2 = d[1:].reshape(shape)
            a_ = -d2 / (d1 * (d1 + d2))
            b_ = (d2 - d1) / (d1 * d2)
            c_ = d1 / (d2 * (d1 + d2))
            mid = a_ * sl(0, m - 2) + b_ * sl(1, m - 1) + c_ * sl(2, m)
            if edge_order == 1:
                first = (sl(1, 2) - sl(0, 1)) / d[0]
                last = (sl(m - 1, m) - sl(m - 2, m - 1)) / d[-1]
            else:
                e1, e2 = d[0], d[1]
                a0 = -(2.0 * e1 + e2) / (e1 * (e1 + e2))
                b0 = (e1 + e2) / (e1 * e2)
                c0 = -e1 / (e2 * (e1 + e2))
                first = a0 * sl(0, 1) + b0 * sl(1, 2) + c0 * sl(2, 3)
                e1, e2 = d[-2], d[-1]
                a0 = e2 / (e1 * (e1 + e2))
                b0 = -(e2 + e1) / (e1 * e2)
                c0 = (2.0 * e2 + e1) / (e2 * (e1 + e2))
                last = a0 * sl(m - 3, m - 2) + b0 * sl(m - 2, m - 1) + c0 * sl(m - 1, m)
        outs.append(jnp.concatenate([first, mid, last], axis=ax).astype(otype))
    if len(outs) == 1:
        return outs[0]
    return tuple(outs)


def npr_np_argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    if order is not None:
        raise NotImplementedError("np2ref: order= (structured arrays)")
    x = _npr_np_asarray(a)
    if axis is None:
        x, axis = x.ravel(), 0
    return jnp.argsort(x, axis=axis, stable=True).astype(np.intp)


def npr_np_sort(a, axis=-1, kind=None, order=None, *, stable=None):
    if order is not None:
        raise NotImplementedError("np2ref: order= (structured arrays)")
    x = _npr_np_asarray(a)
    if axis is None:
        x, axis = x.ravel(), 0
    return jnp.sort(x, axis=axis)


def npr_np_searchsorted(a, v, side="left", sorter=None):
    dt = _npr_np_result_dtype(a, v)
    x = _npr_np_asarray(a, dt)
    if sorter is not None:
        x = x[_npr_np_asarray(sorter)]
    return jnp.searchsorted(x, _npr_np_asarray(v, dt), side=side).astype(np.intp)


def npr_np_digitize(x, bins, right=False):
    return jnp.digitize(_npr_np_asarray(x), _npr_np_asarray(bins), right=right).astype(np.intp)


def npr_np_permute_dims(a, axes=None):
    return jnp.transpose(_npr_np_asarray(a), axes)


# ---------------------------------------------------------------- linear algebra
def _npr_np_dot_like(jf, name, narr=2, weak=False, pet=True):
    # Products: NumPy converts the operands with asarray (Python scalars are
    # strong int64/float64, unless weak=True for ufunc-based ones), computes
    # in their result_type; bool products are logical (computed as ints).
    def f(*args, **kwargs):
        out = kwargs.pop("out", None)
        _npr_np_check_out(out)
        if narr is None:  # einsum: subscripts first, then operands
            head, ops, tail = list(args[:1]), list(args[1:]), []
        else:
            head, ops, tail = [], list(args[:narr]), list(args[narr:])
        pick = _npr_np_weak if weak else _npr_np_dtype_of
        dt = np.result_type(*[pick(a) for a in ops])
        cdt = np.dtype(np.int64) if dt == np.bool_ else dt
        conv = [_npr_np_asarray(a, cdt) for a in ops]
        if pet and cdt.kind in "iu":
            kwargs.setdefault("preferred_element_type", cdt)
        r = jnp.asarray(jf(*head, *conv, *tail, **kwargs))
        return (r != 0) if dt == np.bool_ else r.astype(dt)

    f.__name__ = f.__qualname__ = "npr_np_" + name
    return f


npr_np_dot = _npr_np_dot_like(jnp.dot, "dot")
npr_np_vdot = _npr_np_dot_like(jnp.vdot, "vdot")
npr_np_inner = _npr_np_dot_like(jnp.inner, "inner")
npr_np_outer = _npr_np_dot_like(jnp.outer, "outer", pet=False)
npr_np_matmul = _npr_np_dot_like(jnp.matmul, "matmul")
npr_np_vecdot = _npr_np_dot_like(jnp.vecdot, "vecdot")
npr_np_matvec = _npr_np_dot_like(jnp.matvec, "matvec", pet=False)
npr_np_vecmat = _npr_np_dot_like(jnp.vecmat, "vecmat", pet=False)
npr_np_tensordot = _npr_np_dot_like(jnp.tensordot, "tensordot")
npr_np_kron = _npr_np_dot_like(jnp.kron, "kron", pet=False)
npr_np_cross = _npr_np_dot_like(jnp.cross, "cross", pet=False)
npr_np_convolve = _npr_np_dot_like(jnp.convolve, "convolve")
npr_np_correlate = _npr_np_dot_like(jnp.correlate, "correlate")
npr_np_einsum = _npr_np_dot_like(jnp.einsum, "einsum", narr=None)
npr_np_linalg_outer = npr_np_outer
npr_np_linalg_cross = npr_np_cross
npr_np_linalg_matmul = npr_np_matmul
npr_np_linalg_vecdot = npr_np_vecdot


def npr_np_linalg_multi_dot(arrays, *, out=None):
    _npr_np_check_out(out)
    dt = _npr_np_join_dtype(arrays, None)
    cdt = np.dtype(np.int64) if dt == np.bool_ else dt
    r = jnp.linalg.multi_dot([_npr_np_asarray(a, cdt) for a in arrays])
    return (r != 0) if dt == np.bool_ else r.astype(dt)


def _npr_np_linalg(jf, name, int_out=()):
    # numpy.linalg computes integer/bool input in float64; mixed float32 and
    # float64 in float64.
    def f(*args, **kwargs):
        arrs = [a for a in args if hasattr(a, "dtype") or isinstance(a, (list, tuple))]
        dt = _npr_np_inexact(np.result_type(*[_npr_np_dtype_of(a) for a in arrs])) if arrs else None
        conv = [_npr_np_asarray(a, dt) if (hasattr(a, "dtype") or isinstance(a, (list, tuple))) else a for a in args]
        return jf(*conv, **kwargs)

    f.__name__ = f.__qualname__ = "npr_np_linalg_" + name
    return f


npr_np_linalg_solve = _npr_np_linalg(jnp.linalg.solve, "solve")
npr_np_linalg_inv = _npr_np_linalg(jnp.linalg.inv, "inv")
npr_np_linalg_det = _npr_np_linalg(jnp.linalg.det, "det")
npr_np_linalg_slogdet = _npr_np_linalg(jnp.linalg.slogdet, "slogdet")
npr_np_linalg_eigh = _npr_np_linalg(jnp.linalg.eigh, "eigh")
npr_np_linalg_eigvalsh = _npr_np_linalg(jnp.linalg.eigvalsh, "eigvalsh")
npr_np_linalg_cholesky = _npr_np_linalg(jnp.linalg.cholesky, "cholesky")
npr_np_linalg_qr = _npr_np_linalg(jnp.linalg.qr, "qr")
npr_np_linalg_svd = _npr_np_linalg(jnp.linalg.svd, "svd")
npr_np_linalg_svdvals = _npr_np_linalg(jnp.linalg.svdvals, "svdvals")
npr_np_linalg_pinv = _npr_np_linalg(jnp.linalg.pinv, "pinv")
npr_np_linalg_cond = _npr_np_linalg(jnp.linalg.cond, "cond")
npr_np_linalg_tensorsolve = _npr_np_linalg(jnp.linalg.tensorsolve, "tensorsolve")
npr_np_linalg_tensorinv = _npr_np_linalg(jnp.linalg.tensorinv, "tensorinv")
npr_np_linalg_norm = _npr_np_linalg(jnp.linalg.norm, "norm")
npr_np_linalg_vector_norm = _npr_np_linalg(jnp.linalg.vector_norm, "vector_norm")
npr_np_linalg_matrix_norm = _npr_np_linalg(jnp.linalg.matrix_norm, "matrix_norm")


def npr_np_linalg_lstsq(a, b, rcond=None):
    dt = _npr_np_inexact(_npr_np_result_dtype(a, b))
    A = _npr_np_asarray(a, dt)
    x, res, rank, sv = jnp.linalg.lstsq(A, _npr_np_asarray(b, dt), rcond=rcond)
    if A.shape[-2] <= A.shape[-1]:
        # NumPy returns empty residuals when M <= N (also when rank < N,
        # which is data-dependent and not reproduced).
        res = jnp.zeros((0,), res.dtype)
    return x, res, rank.astype(np.int32), sv


def npr_np_linalg_matrix_power(a, n):
    x = _npr_np_asarray(a)
    if n < 0:
        x = x.astype(_npr_np_inexact(x.dtype))
    elif x.dtype == np.bool_ and n > 0:
        r = x
        for _ in range(n - 1):
            r = jnp.matmul(r.astype(np.int8), x.astype(np.int8)) != 0
        return r
    return jnp.linalg.matrix_power(x, n)


# ---------------------------------------------------------------- dtypes
def npr_np_result_type(*arrays_and_dtypes):
    ops = []
    for a in arrays_and_dtypes:
        if _npr_np_is_py(a) or isinstance(a, (np.dtype, type, str)):
            ops.append(a)
        else:
            ops.append(_npr_np_dtype_of(a))
    return np.result_type(*ops)




# ---------------------------------------------------------------- ufunc methods
# np.<ufunc>.reduce / .accumulate, as attributes of the ufunc shims above (the table maps
# numpy.add.reduce to npr_np_add.reduce; .outer is made with every binary ufunc shim).
def _npr_np_ufunc_reduce(npf, jf, takes_dtype, takes_initial):
    # npf.reduce: axis=0 by default; NumPy's result dtype (small ints add in int64) from NumPy
    # itself on a stand-in, which also raises NumPy's errors (empty maximum, where= without
    # initial= on a ufunc with no identity).
    def reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True):
        _npr_np_check_out(out)
        x = _npr_np_asarray(array)
        extra = {} if initial is None else {"initial": initial}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            dt = np.asarray(npf.reduce(_npr_np_proto(x), axis=axis, dtype=dtype, keepdims=keepdims,
                                       where=_npr_np_proto(where), **extra)).dtype
        kw = {"axis": axis, "keepdims": keepdims, "where": None if where is True else _npr_np_asarray(where)}
        if takes_dtype:
            kw["dtype"] = dt
        if takes_initial and initial is not None:
            kw["initial"] = initial
        r = jf(x, **kw)
        if initial is not None and not takes_initial:
            r = getattr(jnp, npf.__name__)(r, initial)
        return _npr_np_asarray(r, dt)

    reduce.__name__ = reduce.__qualname__ = f"npr_np_{npf.__name__}_reduce"
    return reduce


npr_np_add.reduce = _npr_np_ufunc_reduce(np.add, jnp.sum, True, True)
npr_np_multiply.reduce = _npr_np_ufunc_reduce(np.multiply, jnp.prod, True, True)
npr_np_maximum.reduce = _npr_np_ufunc_reduce(np.maximum, jnp.max, False, True)
npr_np_minimum.reduce = _npr_np_ufunc_reduce(np.minimum, jnp.min, False, True)
npr_np_logical_and.reduce = _npr_np_ufunc_reduce(np.logical_and, jnp.all, False, False)
npr_np_logical_or.reduce = _npr_np_ufunc_reduce(np.logical_or, jnp.any, False, False)


def _npr_np_ufunc_accumulate(npf, jf):
    def accumulate(array, axis=0, dtype=None, out=None):
        _npr_np_check_out(out)
        x = _npr_np_asarray(array)
        dt = npf.accumulate(_npr_np_proto(x), axis=axis, dtype=dtype).dtype
        if dt == np.bool_:  # lax's cummax/cummin take numbers: bools as 0/1
            return jf(x.astype(np.uint8), axis % x.ndim).astype(dt)
        return _npr_np_asarray(jf(x.astype(dt), axis % x.ndim), dt)

    accumulate.__name__ = accumulate.__qualname__ = f"npr_np_{npf.__name__}_accumulate"
    return accumulate


npr_np_add.accumulate = _npr_np_ufunc_accumulate(np.add, jax.lax.cumsum)
npr_np_multiply.accumulate = _npr_np_ufunc_accumulate(np.multiply, jax.lax.cumprod)
npr_np_maximum.accumulate = _npr_np_ufunc_accumulate(np.maximum, jax.lax.cummax)
npr_np_minimum.accumulate = _npr_np_ufunc_accumulate(np.minimum, jax.lax.cummin)


# ---------------------------------------------------------------- counting and binning
def _npr_np_stand_in(a):
    # A zero-memory NumPy array of a's shape and dtype, for NumPy's own argument checks.
    shape = np.shape(a)
    return np.lib.stride_tricks.as_strided(np.zeros(1, _npr_np_dtype_of(a)), shape, (0,) * len(shape))


def _npr_np_bincount_checks(traced, n, what):
    # NumPy's ValueError for a negative value, then (no NumPy counterpart) np2ref's refusal of a
    # value at or past the static length: NumPy would return a longer array, whose length jit
    # cannot know. Both are checked when the program runs.
    if traced.dtype.kind != "u":
        _npr_np_run_check(traced, lambda v: v < 0, ValueError, "'list' argument must have no negative elements")
    _npr_np_run_check(traced, lambda v: v >= n, NotImplementedError,
                      f"np2ref NPR109: {what} met the value {{}}, past its static length {n}: NumPy "
                      f"returns a longer array there, whose length depends on the data")


def npr_np_bincount(x, /, weights=None, minlength=0):
    minlength = _npr_np_concrete(minlength)
    traced = _npr_np_traced_ints(x)
    probe_w = None if weights is None else _npr_np_stand_in(weights)
    if traced is None:  # known values: NumPy's own length, dtype and errors
        xs = np.asarray(x)
        ref = np.bincount(x if isinstance(x, (list, tuple)) else xs, probe_w, minlength)
        if weights is None or xs.size == 0:
            return jnp.asarray(ref)
        idx = jnp.asarray(xs)
    else:
        ref = np.bincount(_npr_np_stand_in(traced), probe_w, minlength)  # NumPy's dtype and errors
        if traced.size == 0:
            return jnp.asarray(ref)  # int64 zeros, with weights too (as NumPy)
        if not minlength:
            raise NotImplementedError(
                "np2ref NPR109: np.bincount(x) of array data has max(x) + 1 elements, which jit cannot "
                "know: pass minlength= at least max(x) + 1 (a value past it is refused at run time)")
        _npr_np_bincount_checks(traced, minlength, f"np.bincount(x, minlength={minlength})")
        idx = traced
    idx = idx.astype(np.int64)
    if weights is None:
        return jnp.zeros(ref.size, ref.dtype).at[idx].add(1, mode="drop")
    return jnp.zeros(ref.size, ref.dtype).at[idx].add(_npr_np_asarray(weights, ref.dtype), mode="drop")


def _npr_np_unsigned_subtract(a, b):
    # numpy/lib/_histograms_impl.py: _unsigned_subtract (b <= a; signed ints in their unsigned type)
    dt = np.result_type(a, b)
    unsigned = {np.byte: np.ubyte, np.short: np.ushort, np.intc: np.uintc, np.int_: np.uint,
                np.longlong: np.ulonglong}.get(dt.type)
    if unsigned is None:
        return np.subtract(a, b, dtype=dt)
    return np.subtract(np.asarray(a, dtype=dt), np.asarray(b, dtype=dt), casting="unsafe", dtype=unsigned)


def _npr_np_compare(cmp, x, v):
    # cmp(x, v) for a Python int v outside x's integer type too (NumPy 2 compares those exactly)
    if type(v) is int and x.dtype.kind in "iu":
        info = np.iinfo(x.dtype)
        if not info.min <= v <= info.max:
            bound = info.min if v > info.max else info.max  # every x compares as this one
            return jnp.full(x.shape, bound >= v if cmp is npr_np_greater_equal else bound <= v)
    return cmp(x, v)


def npr_np_histogram(a, bins=10, range=None, density=None, weights=None):
    if _npr_np_traced_ints(a) is None and _npr_np_traced_ints(weights) is None:
        h, e = np.histogram(np.asarray(a), bins, range, density, None if weights is None else np.asarray(weights))
        return jnp.asarray(h), jnp.asarray(e)
    if not isinstance(bins, (int, np.integer)) or isinstance(bins, (bool, np.bool_)):
        raise NotImplementedError("np2ref NPR109: np.histogram of array data is translated with an integer "
                                  "bins= (NumPy's uniform bins) only")
    if _npr_np_dtype_of(a).kind == "c" or (weights is not None and _npr_np_dtype_of(weights).kind == "c"):
        raise NotImplementedError("np2ref NPR109: np.histogram of complex data or weights")
    # NumPy's checks (range order and finiteness, bins >= 1, weights' shape) and edges, which
    # depend only on bins, range and a's dtype: NumPy on an empty stand-in
    stand_w = None if weights is None else np.zeros(0, _npr_np_dtype_of(weights))
    if weights is not None and np.shape(weights) != np.shape(a):
        raise ValueError("weights should have the same shape as a.")
    x = jnp.ravel(_npr_np_asarray(a))
    if x.dtype == np.bool_:  # NumPy counts bools as uint8 (with a RuntimeWarning)
        x = x.astype(np.uint8)
    if range is not None or x.size == 0:
        range = None if range is None else tuple(_npr_np_concrete(v) for v in range)
        _, edges_np = np.histogram(np.zeros(0, x.dtype), bins, range, None, stand_w)
        first, last = (0, 1) if range is None else range
        if first == last:
            first, last = first - 0.5, last + 0.5
        denom = _npr_np_unsigned_subtract(last, first)
        edges = jnp.asarray(edges_np)
    else:  # NumPy's edges from the data's min and max (0-d arrays of a's dtype, as its scalars)
        np.histogram(np.zeros(0, x.dtype), bins, None, None, stand_w)  # NumPy's checks of bins
        first, last = jnp.min(x), jnp.max(x)
        if x.dtype.kind == "f":
            _npr_np_run_check(jnp.stack([first, last]), lambda v: ~jnp.isfinite(v), ValueError,
                              "autodetected range of [min, max] is not finite")
        same = first == last
        if x.dtype.kind in "iu":
            # NumPy's _unsigned_subtract of the int edges (in the unsigned type), divided as a float64
            unsigned = np.dtype(x.dtype.str.replace("i", "u"))
            spread = (last.astype(unsigned) - first.astype(unsigned)).astype(np.float64)
            first, last = first.astype(np.float64), last.astype(np.float64)  # int - 0.5: a float64
        first, last = jnp.where(same, first - 0.5, first), jnp.where(same, last + 0.5, last)
        denom = last - first if x.dtype.kind not in "iu" else jnp.where(same, last - first, spread)
        bin_type = np.result_type(x.dtype, float) if x.dtype.kind in "iu" else x.dtype
        edges = npr_np_linspace(first, last, bins + 1, endpoint=True, dtype=bin_type)
    w = None if weights is None else jnp.ravel(_npr_np_asarray(weights))
    ntype = np.dtype(np.intp) if w is None else w.dtype
    n = jnp.zeros(bins, ntype)
    # opaque to XLA, which would divide by a constant as a multiplication by its reciprocal
    denom = jax.lax.optimization_barrier(_npr_np_asarray(denom))
    block = 65536  # NumPy's block: weights are summed in float64 per block, then cast and added
    for i in _npr_np_builtins.range(0, x.size, block):
        xa = x[i:i + block]
        keep = _npr_np_compare(npr_np_greater_equal, xa, first) & _npr_np_compare(npr_np_less_equal, xa, last)
        t = xa.astype(edges.dtype)
        diff = npr_np_subtract(t, first, dtype=np.result_type(np.zeros(0, t.dtype), _npr_np_weak(first)),
                               casting="unsafe")
        idx = npr_np_multiply(npr_np_divide(diff, denom), bins).astype(np.intp)
        idx = jnp.where(idx == bins, idx - 1, idx)
        wrap = lambda k: jnp.where(k < 0, k + edges.size, k)  # noqa: E731  NumPy's negative indices
        idx = jnp.where(t < edges[wrap(idx)], idx - 1, idx)
        idx = jnp.where((t >= edges[wrap(idx + 1)]) & (idx != bins - 1), idx + 1, idx)
        _npr_np_run_check(jnp.where(keep, idx, 0), lambda v: v < 0, ValueError,
                          "'list' argument must have no negative elements")
        idx = jnp.where(keep, idx, bins)  # outside the range: dropped
        if w is None:
            n = n + jnp.zeros(bins, ntype).at[idx].add(1, mode="drop")
        else:
            part = jnp.zeros(bins, np.float64).at[idx].add(w[i:i + block].astype(np.float64), mode="drop")
            n = n + part.astype(ntype)  # bool weights: logical or, as NumPy's +=
    if density:
        db = npr_np_subtract(edges[1:], edges[:-1])
        return npr_np_divide(npr_np_divide(n, db), npr_np_sum(n)), edges
    return n, edges


# ---------------------------------------------------------------- index helpers
# Their results depend only on Python values and shapes, which are static under jit: NumPy makes
# them when the program is traced (exact), and they stay NumPy constants.
def _npr_np_static(npf):
    def f(*args, **kwargs):
        return npf(*[_npr_np_concrete(a) for a in args], **{k: _npr_np_concrete(v) for k, v in kwargs.items()})

    f.__name__ = f.__qualname__ = "npr_np_" + npf.__name__
    return f


npr_np_triu_indices = _npr_np_static(np.triu_indices)
npr_np_tril_indices = _npr_np_static(np.tril_indices)
npr_np_diag_indices = _npr_np_static(np.diag_indices)
npr_np_ndindex = _npr_np_static(np.ndindex)


def npr_np_diag_indices_from(arr):
    return np.diag_indices_from(_npr_np_stand_in(arr))


def npr_np_triu_indices_from(arr, k=0):
    return np.triu_indices_from(_npr_np_stand_in(arr), _npr_np_concrete(k))


def npr_np_tril_indices_from(arr, k=0):
    return np.tril_indices_from(_npr_np_stand_in(arr), _npr_np_concrete(k))


def npr_np_ix_(*args):
    traced = [_npr_np_traced_ints(a) for a in args]
    if any(t is not None and t.dtype == np.bool_ for t in traced):
        raise NotImplementedError("np2ref NPR004: np.ix_ of a boolean array known only at run time: "
                                  "its output shape depends on the data")
    # NumPy's own result (and checks: 1-d, integer or boolean), on stand-ins for traced arrays
    res = np.ix_(*[np.asarray(a) if t is None else _npr_np_stand_in(t) for a, t in zip(args, traced)])
    return tuple(r if t is None else jnp.reshape(t, r.shape).astype(r.dtype) for r, t in zip(res, traced))


class _npr_np_Grid:
    # np.mgrid / np.ogrid with static slices: NumPy's own arrays, made when the program is traced.
    def __init__(self, grid):
        self.grid = grid

    def __getitem__(self, key):
        parts = key if isinstance(key, tuple) else (key,)
        for s in parts:
            for v in (s.start, s.stop, s.step) if isinstance(s, slice) else (s,):
                _npr_np_concrete(v)
        return self.grid[key]


npr_np_mgrid = _npr_np_Grid(np.mgrid)
npr_np_ogrid = _npr_np_Grid(np.ogrid)
