"""Operators on values that may be Refs: npr_iop, npr_seq_op, npr_asarray, npr_floordiv,
npr_mod, npr_pow, npr_divmod."""

import jax
import jax.numpy as jnp
import numpy as np
import operator as _npr_operator


_NPR_IOPS = {
    "+": _npr_operator.iadd, "-": _npr_operator.isub, "*": _npr_operator.imul,
    "/": _npr_operator.itruediv, "//": _npr_operator.ifloordiv, "%": _npr_operator.imod,
    "**": _npr_operator.ipow, "&": _npr_operator.iand, "|": _npr_operator.ior,
    "^": _npr_operator.ixor, "<<": _npr_operator.ilshift, ">>": _npr_operator.irshift,
    "@": _npr_operator.imatmul,
}
_NPR_BINOPS = {
    "+": _npr_operator.add, "-": _npr_operator.sub, "*": _npr_operator.mul,
    "/": _npr_operator.truediv, "//": _npr_operator.floordiv, "%": _npr_operator.mod,
    "**": _npr_operator.pow, "&": _npr_operator.and_, "|": _npr_operator.or_,
    "^": _npr_operator.xor, "<<": _npr_operator.lshift, ">>": _npr_operator.rshift,
    "@": _npr_operator.matmul,
}


def npr_floordiv(a, b):
    """`a // b` with NumPy's results where jax.numpy's differ: an integer divided by zero is 0
    (JAX gives -1, or the largest unsigned value), and a zero quotient keeps the sign of a / b
    (`-0.0 // 2` and `-1.0 // -2` are -0.0 and 0.0; jax.numpy gives 0.0 and -0.0). Between
    Python or NumPy values it is their own operator."""
    a, b = _npr_numpy_operands(npr_load(a), npr_load(b))
    if not (isinstance(a, jax.Array) or isinstance(b, jax.Array)):
        return a // b
    _npr_check_int_range("//", a, b)
    return _npr_divmod(True)(a, b)


def npr_divmod(a, b):
    """The builtin `divmod(a, b)`: on arrays NumPy's np.divmod (see npr_floordiv)."""
    a, b = _npr_numpy_operands(npr_load(a), npr_load(b))
    if not (isinstance(a, jax.Array) or isinstance(b, jax.Array)):
        return divmod(a, b)
    _npr_check_int_range("//", a, b)
    return _npr_divmod(True)(a, b), _npr_divmod(False)(a, b)


def npr_pow(a, b):
    """`a ** b` with an exponent that is not a literal: NumPy raises ValueError for an integer
    to a negative integer power (jax.numpy returns garbage: `3 ** -1` is -3237885987332494933),
    when the call runs if the exponent is traced. Between Python or NumPy values it is their
    own operator (Python's `2 ** -1` is 0.5)."""
    a, b = _npr_numpy_operands(npr_load(a), npr_load(b))
    if not (isinstance(a, jax.Array) or isinstance(b, jax.Array)):
        return a ** b
    _npr_check_int_range("**", a, b)
    if not _npr_traced(b):  # before jax.numpy's own TypeError for a negative literal power
        _npr_check_int_power(jnp.result_type(a, b), b)
    r = _npr_half_power(a, b, a ** b)
    _npr_check_int_power(r.dtype, b)
    return r


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


def _npr_check_int_range(op, a, b):
    """NumPy's OverflowError for a Python int outside an integer array's range (`u8 // 300`,
    `i8 % -129`, `u8 // -1`): jax.numpy wraps the int around."""
    _npr_int_out_of_range(op, a, b, lambda arr: isinstance(arr, jax.Array))


def _npr_half_power(a, b, r, ufunc=False):
    """`r`, the power `a ** b`, or NumPy's own where they differ: a float32 / float64 power
    of an array to an exponent of one element that is 0.5 is the square root (`-inf ** 0.5`
    is nan, `-0.0 ** 0.5` is -0.0; pow gives inf and 0.0), for the operator and np.power
    alike (the operator on a NumPy scalar base, `x[0] ** p`, is C's pow; np.power's is not:
    `ufunc`). A traced exponent picks per call."""
    if not (isinstance(a, jax.Array) and (a.ndim or ufunc) and np.dtype(r.dtype) in _NPR_SQRT_DTYPES
            and np.dtype(a.dtype).kind == "f") or type(b) in (bool, int, complex) or np.size(b) != 1 or \
            np.dtype(getattr(b, "dtype", float)).kind != "f":
        return r
    if not _npr_traced(b):
        return jnp.sqrt(a.astype(r.dtype)) if float(np.ravel(np.asarray(b))[0]) == 0.5 else r
    return jnp.where(jnp.reshape(b, ()) == 0.5, jnp.sqrt(a.astype(r.dtype)), r)


_NPR_SQRT_DTYPES = frozenset((np.dtype(np.float32), np.dtype(np.float64)))
_NPR_NEGATIVE_POWER = "Integers to negative integer powers are not allowed."


def npr_mod(a, b):
    """`a % b` with NumPy's results where jax.numpy's differ: a zero remainder takes the sign of
    the divisor (`-4.0 % 2` is 0.0, jax.numpy gives -0.0), an integer modulo zero is 0. Between
    Python or NumPy values (string formatting included) it is their own operator."""
    a, b = _npr_numpy_operands(npr_load(a), npr_load(b))
    if not (isinstance(a, jax.Array) or isinstance(b, jax.Array)):
        return a % b
    _npr_check_int_range("%", a, b)
    return _npr_divmod(False)(a, b)


_NPR_CMPS = {
    "==": _npr_operator.eq, "!=": _npr_operator.ne, "<": _npr_operator.lt,
    "<=": _npr_operator.le, ">": _npr_operator.gt, ">=": _npr_operator.ge,
}
# the operators themselves (promotion.py's variants apply them once the operands are cast)
_NPR_OPERATORS = {**_NPR_BINOPS, **_NPR_CMPS}
# `//` and `%` on arrays against sequences and in `x op= v` on a scalar name (a Ref's `op=` goes
# through the stores' own floor_divide/remainder): NumPy's zero divisors and signed zeros
_NPR_BINOPS.update({"//": npr_floordiv, "%": npr_mod, "**": npr_pow})


def npr_seq_op(a, op, b):
    """`a op b` where one side is a list or tuple written in the source. Against an array,
    NumPy makes the sequence an array (np.asarray's dtype: Python numbers in it are not weak)
    and computes in the operands' NumPy result type; JAX's operators refuse sequences. Between
    Python values it is Python's own operator (`[0] * n`, `(1, 2) == t`)."""
    f = _NPR_BINOPS.get(op) or _NPR_CMPS[op]
    return f(*_npr_seq_operands(a, b))


def _npr_seq_operands(a, b):
    """The operands of an operator between a Python list or tuple and an array as NumPy takes
    them: the sequence made an array (np.asarray's dtype: its Python numbers are not weak) and
    both in their NumPy result type. Anything else: (a, b) themselves."""
    if isinstance(a, (list, tuple)) != isinstance(b, (list, tuple)) and \
            isinstance(a if isinstance(b, (list, tuple)) else b, jax.Array):
        a = _npr_np_asarray(a) if isinstance(a, (list, tuple)) else a
        b = _npr_np_asarray(b) if isinstance(b, (list, tuple)) else b
        dt = _npr_np_result_dtype(a, b)
        return _npr_np_asarray(a, dt), _npr_np_asarray(b, dt)
    return a, b


def _npr_is_ref(x):
    return isinstance(x, (jax.Ref, NprView))


def npr_asarray(x, dtype=None, order=None, *, copy=None, device=None, like=None):
    """`np.asarray(a)`: the same buffer for a Ref or view, else an array. With a `dtype` other
    than a's (or copy=True), NumPy's copy: a new array cast as NumPy casts (which a write does
    not reach the caller through: rules/views.py may_copy makes it a Ref of its own)."""
    if dtype is None or np.dtype(dtype) == np.dtype(npr_load(x).dtype if _npr_is_ref(x) else _npr_np_asarray(x).dtype):
        if copy:
            return jnp.array(npr_load(x))
        return x if _npr_is_ref(x) else jnp.asarray(x)
    if copy is False:
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    return npr_cast(_npr_np_asarray(npr_load(x)), np.dtype(dtype))


def npr_view(x, dtype=None, type=None):
    """`a.view()`: the same buffer. `a.view(dtype)` of another dtype reinterprets the bytes, which
    np2ref does not model: refused (NPR205) rather than cast."""
    if type is not None or dtype is not None and np.dtype(dtype) != np.dtype(npr_load(x).dtype):
        what = getattr(type, "__name__", type) if type is not None else np.dtype(dtype)
        raise NprUnsupported("NPR205", f"`.view({what})` of a {np.dtype(npr_load(x).dtype)} array "
                             "reinterprets its memory as another type, which is not translated")
    return x if _npr_is_ref(x) else jnp.asarray(x)


def npr_iop(x, op, value, maybe_scalar=False):
    """`x op= value` on a name: in place (NumPy's same_kind casting, shape kept) when `x` is an
    array, a plain rebinding when it is a Python or NumPy scalar (`maybe_scalar`: a 0-d value
    may be a NumPy scalar, the analysis could not tell)."""
    if _npr_is_ref(x) and _npr_np_weak_kind(npr_load(x)) is not None:
        # a Python number (`t = 0.0` ... `t += a[i]`) rebinds; a Ref again, for the writes after
        return npr_own(npr_iop(npr_load(x), op, value))
    if _npr_is_ref(x):
        proxy = npr_at(x)
        proxy[...] = _NPR_IOPS[op](proxy[...], value)
        return x
    if isinstance(x, (jax.Array, np.ndarray)) and not isinstance(x, np.generic) \
            and not (maybe_scalar and np.ndim(x) == 0) and _npr_np_weak_kind(x) is None:
        ref = jax.new_ref(jnp.asarray(x))
        proxy = npr_at(ref)
        proxy[...] = _NPR_IOPS[op](proxy[...], value)
        return ref[...]
    a, b = _npr_numpy_operands(x, npr_load(value))  # NumPy's result dtype
    out = None if op in ("//", "%", "**") else _npr_numpy_special(op, a, b)  # (those check themselves)
    return _NPR_BINOPS[op](a, b) if out is None else out  # `s += 300`, s a uint8 scalar: OverflowError


# The runtime's modules call one another's functions (they were one file): imported once this
# module is complete, so that any import order works.
from .np_dtypes import _npr_np_asarray, _npr_np_result_dtype, _npr_np_weak_kind  # noqa: E402
from .views import npr_load, npr_own, NprView  # noqa: E402
from .stores import npr_at, _npr_divmod  # noqa: E402
from .bounds import _npr_check_run, _npr_traced  # noqa: E402
from .promotion import _npr_int_out_of_range, _npr_numpy_operands, _npr_numpy_special  # noqa: E402
from .casts import npr_cast  # noqa: E402
from .core import NprUnsupported  # noqa: E402
