"""Operators on values that may be Refs: npr_iop, npr_seq_op, npr_asarray, npr_floordiv,
npr_mod, npr_pow, npr_divmod."""

import jax
import jax.numpy as jnp
import numpy as np

from .casts import npr_cast
from .compat import _npr_traced
from .core import _npr_py_like, npr_load, npr_pyreturn, NprUnsupported
from .np_dtypes import _npr_np_array0_made, _npr_np_asarray, _npr_np_kind0, _npr_np_open0, _npr_np_weak_kind
from .promotion import (
    _npr_binop, _npr_half_power, _npr_int_out_of_range, _npr_noted, _npr_numpy_operands, _npr_numpy_special,
    _npr_seq_operands, _npr_strong)
from .stores import _npr_check_int_power, _npr_divmod, npr_at
from .views import _npr_is_ref, _npr_array0_ref, _npr_loaded_from, npr_own
from .wrapping import _NPR_BINOPS, _NPR_CMPS, _NPR_IOPS, _npr_wrap_pow


def npr_floordiv(a, b):
    """`a // b` with NumPy's results where jax.numpy's differ: an integer divided by zero is 0
    (JAX gives -1, or the largest unsigned value), and a zero quotient keeps the sign of a / b
    (`-0.0 // 2` and `-1.0 // -2` are -0.0 and 0.0; jax.numpy gives 0.0 and -0.0). Between
    Python or NumPy values it is their own operator."""
    a, b = _npr_numpy_operands(npr_load(a), npr_load(b))
    if not (isinstance(a, jax.Array) or isinstance(b, jax.Array)):
        return a // b
    _npr_check_int_range("//", a, b)
    return _npr_noted("//", a, b, _npr_divmod(True)(a, b))  # (a value noted as maybe a Python number)


def npr_divmod(a, b):
    """The builtin `divmod(a, b)`: on arrays NumPy's np.divmod (see npr_floordiv)."""
    a, b = _npr_numpy_operands(npr_load(a), npr_load(b))
    if not (isinstance(a, jax.Array) or isinstance(b, jax.Array)):
        return divmod(a, b)
    _npr_check_int_range("//", a, b)
    q, r = _npr_divmod(True)(a, b), _npr_divmod(False)(a, b)
    if _npr_py_like(a) and _npr_py_like(b) and jnp.ndim(q) == 0:  # of Python numbers: Python's
        kind = "int" if np.dtype(q.dtype).kind in "iu" else "float"  # (a traced one is weakly typed)
        return npr_pyreturn(q, kind), npr_pyreturn(r, kind)
    return _npr_noted("//", a, b, q), _npr_noted("%", a, b, r)


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
    r = _npr_half_power(a, b, _npr_wrap_pow(a, b))  # (a signed integer power: wrapping.py)
    _npr_check_int_power(r.dtype, b)
    return _npr_noted("**", a, b, r)


def _npr_check_int_range(op, a, b):
    """NumPy's OverflowError for a Python int outside an integer array's range (`u8 // 300`,
    `i8 % -129`, `u8 // -1`): jax.numpy wraps the int around."""
    _npr_int_out_of_range(op, a, b, lambda arr: isinstance(arr, jax.Array))


def npr_mod(a, b):
    """`a % b` with NumPy's results where jax.numpy's differ: a zero remainder takes the sign of
    the divisor (`-4.0 % 2` is 0.0, jax.numpy gives -0.0), an integer modulo zero is 0. Between
    Python or NumPy values (string formatting included) it is their own operator."""
    a, b = _npr_numpy_operands(npr_load(a), npr_load(b))
    if not (isinstance(a, jax.Array) or isinstance(b, jax.Array)):
        return a % b
    _npr_check_int_range("%", a, b)
    return _npr_noted("%", a, b, _npr_divmod(False)(a, b))


# `//` and `%` on arrays against sequences and in `x op= v` on a scalar name (a Ref's `op=` goes
# through the stores' own floor_divide/remainder): NumPy's zero divisors and signed zeros
_NPR_BINOPS.update({"//": npr_floordiv, "%": npr_mod, "**": npr_pow})


def npr_seq_op(a, op, b):
    """`a op b` where one side is a list or tuple written in the source. Against an array,
    NumPy makes the sequence an array (np.asarray's dtype: Python numbers in it are not weak)
    and computes in the operands' NumPy result type; JAX's operators refuse sequences. Between
    Python values it is Python's own operator (`[0] * n`, `(1, 2) == t`); `==`/`!=` between
    sequences of traced integers compare item by item (_npr_seq_equal)."""
    if op in ("==", "!=") and _npr_int_sequences(a, b):
        return _npr_seq_equal(a, b, op == "!=")
    f = _NPR_BINOPS.get(op) or _NPR_CMPS[op]
    return f(*_npr_seq_operands(a, b))


def _npr_int_sequences(a, b) -> bool:
    """Two lists or tuples of 0-d integers or bools, one at least traced: Python's comparison would
    ask a traced item's truth. (Float items are left to it: `x is y or x == y` makes a NaN equal
    to itself only as the same object, which a trace does not tell.)"""
    if not (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))):
        return False
    items = [npr_load(v) for v in (*a, *b)]
    return any(_npr_traced(v) for v in items) and all(
        type(v) in (bool, int) or isinstance(v, (jax.Array, np.generic, np.ndarray)) and np.ndim(v) == 0
        and np.dtype(v.dtype).kind in "biu" for v in items)


def _npr_seq_equal(a, b, negate):
    """Python's `a == b` (`!=`: its negation) of two sequences of integers: a Python bool, False
    for a list against a tuple or for other lengths, else every item pair equal."""
    if type(a) is not type(b) or len(a) != len(b):
        return negate
    same = jnp.all(jnp.stack([jnp.asarray(_npr_binop("==", npr_load(x), npr_load(y))) for x, y in zip(a, b)]))
    return npr_pyreturn(~same if negate else same, "bool")


def npr_asarray(x, dtype=None, order=None, *, copy=None, device=None, like=None):
    """`np.asarray(a)`: the same buffer for a Ref or view, a new 0-d Ref for a scalar (the name
    bound to it is written: `b = np.asarray(s); b[...] += 1`), else an array. With a `dtype` other
    than a's (or copy=True), NumPy's copy: a new array cast as NumPy casts (which a write does
    not reach the caller through: rules/views.py may_copy makes it a Ref of its own)."""
    if dtype is None or np.dtype(dtype) == np.dtype(npr_load(x).dtype if _npr_is_ref(x) else _npr_np_asarray(x).dtype):
        if copy:
            return jnp.array(npr_load(x))
        if _npr_is_ref(x):
            return x
        if np.ndim(x) == 0 and (not isinstance(x, jax.Array) or _npr_np_kind0(x) == "scalar"):
            # of a Python or NumPy scalar: NumPy's new 0-d array, which the writes after change
            # (this is emitted for a name that is written): a Ref of its own, never written back
            if copy is False:  # (`np.array(s, copy=False)`)
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return _npr_array0_ref(_npr_np_array0_made(_npr_np_asarray(x), x))
        return jnp.asarray(x)
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
    kind = _npr_np_kind0(x)  # a 0-d array np.zeros(()) made is one after `op=` (in place, its dtype kept)
    # NumPy's scalar (not a Ref, a 0-d value no maker made, not loaded from a Ref: a helper's parameter given
    # `np.int64(3)` or `x.sum()`) rebinds, to NumPy's result dtype (`p -= 0.5` of an int64: a float64)
    scalar = np.ndim(x) == 0 and kind == "scalar" and (maybe_scalar or _npr_loaded_from(x) is x)
    if isinstance(x, (jax.Array, np.ndarray)) and not isinstance(x, np.generic) \
            and not (scalar or maybe_scalar and np.ndim(x) == 0 and kind != "array") and _npr_np_weak_kind(x) is None:
        ref = jax.new_ref(jnp.asarray(x))
        proxy = npr_at(ref)
        proxy[...] = _NPR_IOPS[op](proxy[...], value)
        return _npr_np_array0_made(ref[...]) if kind == "array" else ref[...]
    a, b = _npr_numpy_operands(x, npr_load(value))  # NumPy's result dtype
    out = None if op in ("//", "%", "**") else _npr_numpy_special(op, a, b)  # (those check themselves)
    out = _NPR_BINOPS[op](a, b) if out is None else out  # `s += 300`, s a uint8 scalar: OverflowError
    # (`v -= 1`, v a max()/min() that may be a Python number: promotion.py; np.int64 `-= 0.5`: np.float64, not weak)
    out = _npr_noted(op, a, b, _npr_strong(out, a, b))
    return _npr_np_open0(out) if kind == "open" else out  # (an array or a scalar: still not known)


