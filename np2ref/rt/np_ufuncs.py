"""NumPy shims: ufuncs."""

import jax.numpy as jnp
import numpy as np

from .core import _npr_above
from .np_dtypes import (
    _npr_np_asarray, _npr_np_check_out, _npr_np_dtype_of, _npr_np_is_py, _npr_np_rdt)
from .promotion import _npr_half_power, _npr_int_out_of_range
from .stores import _npr_check_int_power, _npr_divmod
from .wrapping import _npr_wrap_abs, _npr_wrap_mul, _npr_wrap_pow, _npr_wrap_square


# ---------------------------------------------------------------- ufuncs
def _npr_np_ufunc_outer(uf):
    # NumPy converts both operands with asarray first (Python scalars are not weak here:
    # np.add.outer(int8 array, 2) is int64), then broadcasts a.shape + b.shape.
    def outer(A, B, /, **kwargs):
        a, b = _npr_np_asarray(A), _npr_np_asarray(B)
        return uf(jnp.reshape(a, a.shape + (1,) * b.ndim), b, **kwargs)

    outer.__name__ = outer.__qualname__ = uf.__name__ + "_outer"
    return outer


_npr_np_UFUNC_CMPS = {"equal": "==", "not_equal": "!=", "less": "<", "less_equal": "<=", "greater": ">",
                   "greater_equal": ">="}


def _npr_np_fresh(r, args):
    """A ufunc's result is a new array in NumPy: where jnp hands back an input itself (np.positive,
    np.conj of a real array, a cast to its own dtype), a copy, else the call would return the
    caller's own array as that input returned."""
    return jnp.array(r, copy=True) if any(r is a for a in args) else r


def _npr_np_ufunc(npf, jf, body=None):
    # A NumPy ufunc on jnp: NumPy's loop dtypes (ufunc.resolve_dtypes, NEP 50
    # weak Python scalars, dtype= as the output signature), inputs cast to
    # the loop's input dtypes, result cast to the loop's output dtype(s).
    nin, nout = npf.nin, npf.nout
    impl = body if body is not None else jf
    cmp = _npr_np_UFUNC_CMPS.get(npf.__name__)

    def f(*args, out=None, dtype=None, casting="same_kind"):
        _npr_np_check_out(out)
        if len(args) != nin:
            raise TypeError(f"{npf.__name__} takes {nin} positional arguments")
        if out is None and any(type(a) is _npr_above.NprMasked for a in args):  # a slice of run-time length
            return _npr_above.masked_ufunc(f, args, dtype, casting)
        if cmp is not None and dtype is None:  # `np.less(u8, 300)`: by the value, as NumPy decides it
            out = _npr_int_out_of_range(cmp, *args, lambda a: hasattr(a, "dtype") and not _npr_np_is_py(a))
            if out is not None:
                return out
        if out is None and all(_npr_np_is_py(a) or isinstance(a, np.generic) for a in args):
            # of Python or NumPy scalars only (`int(np.log2(n))`, n a size): NumPy's own value,
            # concrete, as in the original (a traced one could not size a loop or an array)
            with np.errstate(all="raise"):
                try:
                    return npf(*args, dtype=dtype, casting=casting)
                except FloatingPointError:
                    pass  # NumPy warns: the traced call below issues the warning as it runs
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
            return _npr_np_fresh(_npr_np_asarray(r, dts[nin]), args)
        return tuple(_npr_np_fresh(_npr_np_asarray(o, d), args) for o, d in zip(r, dts[nin:]))

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
npr_np_multiply = _npr_np_ufunc(np.multiply, jnp.multiply, _npr_wrap_mul)  # (signed: wrapping.py)
npr_np_divide = _npr_np_ufunc(np.divide, jnp.true_divide)
npr_np_true_divide = npr_np_divide
npr_np_floor_divide = _npr_np_ufunc(np.floor_divide, None, lambda x, y: _npr_divmod(True)(x, y))
npr_np_mod = _npr_np_ufunc(np.remainder, None, lambda x, y: _npr_divmod(False)(x, y))
npr_np_remainder = npr_np_mod
npr_np_fmod = _npr_np_ufunc(np.fmod, jnp.fmod)
npr_np_divmod = _npr_np_ufunc(np.divmod, None, lambda x, y: (_npr_divmod(True)(x, y), _npr_divmod(False)(x, y)))
def _npr_np_power(a, b):
    r = _npr_half_power(a, b, _npr_wrap_pow(a, b, jnp.power), ufunc=True)  # NumPy's square root for 0.5
    _npr_check_int_power(r.dtype, b)  # NumPy's ValueError for an integer to a negative power
    return r


npr_np_power = _npr_np_ufunc(np.power, jnp.power, _npr_np_power)
npr_np_pow = npr_np_power
npr_np_float_power = _npr_np_ufunc(np.float_power, jnp.power)
npr_np_negative = _npr_np_ufunc(np.negative, jnp.negative)
npr_np_positive = _npr_np_ufunc(np.positive, jnp.positive)
npr_np_square = _npr_np_ufunc(np.square, jnp.square, _npr_wrap_square)
npr_np_reciprocal = _npr_np_ufunc(np.reciprocal, None, _npr_np_reciprocal)
npr_np_absolute = _npr_np_ufunc(np.absolute, jnp.absolute, lambda x: _npr_wrap_abs(x, jnp.absolute))
npr_np_abs = npr_np_absolute
npr_np_fabs = _npr_np_ufunc(np.fabs, jnp.fabs)


def _npr_np_sign(x):
    """NumPy's sign: of -0.0 0.0 (jnp.sign keeps the zero's sign); of an integer by comparisons
    (a TPU's int16 sign() of a square that wrapped read +1 for negative values: rt/wrapping.py)."""
    zero = jnp.zeros_like(x)
    if jnp.issubdtype(x.dtype, jnp.integer):
        return jnp.where(x > 0, zero + 1, jnp.where(x < 0, zero - 1, zero))
    return jnp.where(x == 0, zero, jnp.sign(x))


npr_np_sign = _npr_np_ufunc(np.sign, jnp.sign, _npr_np_sign)
npr_np_floor = _npr_np_ufunc(np.floor, jnp.floor)
npr_np_ceil = _npr_np_ufunc(np.ceil, jnp.ceil)
npr_np_trunc = _npr_np_ufunc(np.trunc, jnp.trunc)
npr_np_rint = _npr_np_ufunc(np.rint, jnp.rint)
npr_np_conjugate = _npr_np_ufunc(np.conjugate, jnp.conjugate)
npr_np_conj = npr_np_conjugate
npr_np_maximum = _npr_np_ufunc(np.maximum, jnp.maximum)
npr_np_minimum = _npr_np_ufunc(np.minimum, jnp.minimum)
npr_np_fmax = _npr_np_ufunc(np.fmax, jnp.fmax)


def npr_np_clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kwargs):  # noqa: A002
    """np.clip / a.clip as NumPy's _clip computes it: a Python int bound beyond an integer
    array's range is dropped (`np.clip(u8, 0, 300)` leaves 255 alone; jax.numpy wraps 300
    to 44), then np.maximum / np.minimum with NumPy's dtypes."""
    _npr_np_check_out(out)
    lo, hi = (a_min if min is None else min), (a_max if max is None else max)
    if _npr_np_dtype_of(a).kind in "iu":
        info = np.iinfo(_npr_np_dtype_of(a))
        lo = None if type(lo) is int and lo <= info.min else lo
        hi = None if type(hi) is int and hi >= info.max else hi
    if lo is None and hi is None:
        return npr_np_positive(a, **kwargs)
    x = a if lo is None else npr_np_maximum(a, lo, **kwargs)
    return x if hi is None else npr_np_minimum(x, hi, **kwargs)

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


