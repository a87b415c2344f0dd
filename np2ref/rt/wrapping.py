"""Signed integer products, powers and absolute values that wrap around, as NumPy's do.

XLA's algebraic simplifier takes a signed integer square (`x * x`, `x ** 2`, `np.square(x)`,
two loads of one Ref multiplied) and `abs(x)` to be non-negative: signed overflow is undefined
behaviour to it, as in C (openxla/xla#41784, declined). It then folds what follows: `x * x < 0`
to False, `>= 0` to True, `abs(x * x)` to `x * x`, `(x * x) // 8` to a shift and `abs(x) % 8` to
a mask. NumPy's squares wrap (50000 * 50000 is -1794967296 in int32) and `abs(INT_MIN)` is
INT_MIN, so each of those answers differs from NumPy's once a square has wrapped
(`python benchmarks/int_overflow_folds.py` lists the folds on the installed JAX: sums,
`x + 1 > x`, `(x * c) // c`, `-x < 0` are not folded). The same product computed on the
unsigned type of the same width has the same bits (two's complement: the low bits of a product
do not depend on the sign), and XLA reasons about no sign there: `lax.bitcast_convert_type` to
it and back costs nothing at run time (benchmarks/int_overflow_folds.py measures it).

Only where a fold can apply: a product of two traced arrays (a square needs the same value on
both sides; a Python or NumPy constant is never one), a power, `np.square` and `abs` of a
signed integer array, and the products np_linalg.py computes (`np.einsum("i,i->i", x, x)` is a
multiply to XLA). Floats, unsigned integers, booleans and Python ints traced weakly (their own
rules: rt/pyscalars.py) take the plain operation. The doors: the operator tables below (the
traced variant's operators, the masks' and ops' `op=`), the variant's `abs()`, the ufunc shims,
the `op=` stores, npr_pow, the dot-like shims, `@` and the slices of run-time length (masked.py).
"""

import operator as _npr_operator

import jax
import jax.numpy as jnp
import numpy as np

_NPR_UNSIGNED = {np.dtype(s): np.dtype(u) for s, u in
                 ((np.int8, np.uint8), (np.int16, np.uint16), (np.int32, np.uint32), (np.int64, np.uint64))}


def _npr_strong_array(v) -> bool:
    """A traced or concrete jax.Array that is not a weakly typed Python scalar."""
    return isinstance(v, jax.Array) and not jax.typeof(v).weak_type


def _npr_signed_result(*vs):
    """The signed integer dtype jax.numpy gives the operation on `vs`, else None."""
    try:
        dt = np.dtype(jnp.result_type(*vs))
    except TypeError:  # a string, a list: not an array operation
        return None
    return dt if dt in _NPR_UNSIGNED else None


def _npr_unsigned_of(dt):
    """The unsigned dtype of signed integer dtype `dt`'s width, else None."""
    return _NPR_UNSIGNED.get(np.dtype(dt))


def _npr_to_unsigned(v, dt):
    """v as `dt`, its bits as the unsigned type of the width it has (without x64 an int64
    request is an int32: its own width, never a bitcast between two)."""
    v = jnp.asarray(v).astype(dt)
    return jax.lax.bitcast_convert_type(v, _NPR_UNSIGNED[np.dtype(v.dtype)])


def _npr_to_signed(u, dt):
    """u's bits as the signed type of its width (`dt` without x64: the 32-bit one)."""
    return jax.lax.bitcast_convert_type(u, next(s for s, t in _NPR_UNSIGNED.items() if t == np.dtype(u.dtype)))


def _npr_wrap_mul(a, b):
    """`a * b`; between two arrays of a signed integer result, the product of their unsigned
    bits (NumPy's wrapped product, which XLA cannot take for a non-negative square)."""
    if isinstance(a, jax.Array) and isinstance(b, jax.Array) and \
            (_npr_strong_array(a) or _npr_strong_array(b)):
        dt = _npr_signed_result(a, b)
        if dt is not None:
            return _npr_to_signed(jnp.multiply(_npr_to_unsigned(a, dt), _npr_to_unsigned(b, dt)), dt)
    return a * b


def _npr_wrap_imul(a, b):
    """`a *= b` (Python's in-place operator: a list or a NumPy array is updated in place)."""
    if isinstance(a, jax.Array):
        return _npr_wrap_mul(a, b)
    return _npr_operator.imul(a, b)


def _npr_wrap_square(x):
    """np.square(x) (x already of its loop dtype)."""
    if _npr_strong_array(x) and np.dtype(x.dtype) in _NPR_UNSIGNED:
        return _npr_wrap_mul(x, x)
    return jnp.square(x)


def _npr_wrap_abs(x, plain=abs):
    """abs(x): INT_MIN stays INT_MIN, as in NumPy, and nothing XLA takes to be non-negative."""
    if _npr_strong_array(x) and np.dtype(x.dtype) in _NPR_UNSIGNED:
        dt = np.dtype(x.dtype)
        u = _npr_to_unsigned(x, dt)
        return _npr_to_signed(jnp.where(x < 0, jnp.negative(u), u), dt)
    return plain(x)


def _npr_wrap_pow(a, b, plain=_npr_operator.pow):
    """`a ** b` (`plain`: the operation otherwise, jnp.power for the ufunc) of a signed integer
    array: the power of the unsigned bits. The exponent's bits are kept too (jax.numpy reads a
    traced integer exponent's bits as unsigned already), so the result is jax.numpy's, bit for
    bit, wherever XLA folds nothing; a Python int exponent stays one (integer_pow)."""
    if (_npr_strong_array(a) or _npr_strong_array(b)) and not isinstance(b, bool):
        dt = _npr_signed_result(a, b)
        if dt is not None:
            e = b if type(b) is int else _npr_to_unsigned(b, dt)
            return _npr_to_signed(jnp.power(_npr_to_unsigned(a, dt), e), dt)
    return plain(a, b)


def _npr_wrap_matmul(a, b):
    """`a @ b` of two arrays of a signed integer result, on the unsigned bits (a stack of 1x1
    matrices times itself is a multiply to XLA)."""
    if isinstance(a, jax.Array) and isinstance(b, jax.Array):
        dt = _npr_signed_result(a, b)
        if dt is not None:
            ua, ub = _npr_to_unsigned(a, dt), _npr_to_unsigned(b, dt)
            return _npr_to_signed(jnp.matmul(ua, ub, preferred_element_type=ua.dtype), dt)
    return a @ b


def _npr_wrap_imatmul(a, b):
    if isinstance(a, jax.Array):
        return _npr_wrap_matmul(a, b)
    return _npr_operator.imatmul(a, b)


def _npr_wrap_ipow(a, b):
    if isinstance(a, jax.Array):
        return _npr_wrap_pow(a, b)
    return _npr_operator.ipow(a, b)


# ---------------------------------------------------- the Python operators as the traced program applies them
# (promotion.py's variants apply them once the operands are cast; the masks' and ops' `op=` read them)
_NPR_OPERATOR_NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "//": "floordiv", "%": "mod",
                       "**": "pow", "&": "and_", "|": "or_", "^": "xor", "<<": "lshift", ">>": "rshift",
                       "@": "matmul"}
_NPR_BINOPS = {op: getattr(_npr_operator, name) for op, name in _NPR_OPERATOR_NAMES.items()}
_NPR_BINOPS.update({"*": _npr_wrap_mul, "**": _npr_wrap_pow, "@": _npr_wrap_matmul})
_NPR_IOPS = {op: getattr(_npr_operator, "i" + name.rstrip("_")) for op, name in _NPR_OPERATOR_NAMES.items()}
_NPR_IOPS.update({"*": _npr_wrap_imul, "**": _npr_wrap_ipow, "@": _npr_wrap_imatmul})


_NPR_CMPS = {
    "==": _npr_operator.eq, "!=": _npr_operator.ne, "<": _npr_operator.lt,
    "<=": _npr_operator.le, ">": _npr_operator.gt, ">=": _npr_operator.ge,
}


_NPR_OPERATORS = {**_NPR_BINOPS, **_NPR_CMPS}


def _npr_plain_binop(op, a, b):
    """`a op b` as jax.numpy promotes, signed products wrapping: the operators of the variant
    traced under dtype_policy="float32" (promotion.py's NumPy promotion is "preserve"'s)."""
    return _NPR_OPERATORS[op](a, b)


def _npr_plain_ibinop(op, a, b):
    return _NPR_IOPS[op](a, b)


def _npr_int_divmod(x, y):
    """NumPy's `x // y` and `x % y` of integers (a zero divisor gives 0 for both): the truncating
    quotient and remainder, moved one step toward -inf where the remainder and the divisor differ
    in sign. jax.numpy's floor_divide decides that step by `sign(x) != sign(y)`, and a TPU's int16
    `sign` of a square that wrapped (the unsigned route above) read +1 for negative values: the step
    was dropped, `(x * x) // 8` came back truncated there (benchmarks/tpu_int16_floor.py).
    Comparisons with zero are right there, and they are what decides the step here."""
    x, y = jnp.broadcast_arrays(*(jnp.asarray(v, jnp.result_type(x, y)) for v in (x, y)))
    zero = y == 0
    safe = jnp.where(zero, jnp.ones_like(y), y)
    q, r = jax.lax.div(x, safe), jax.lax.rem(x, safe)
    step = (r != 0) & ((r < 0) != (safe < 0))
    q, r = jnp.where(step, q - 1, q), jnp.where(step, r + safe, r)
    return jnp.where(zero, jnp.zeros_like(q), q), jnp.where(zero, jnp.zeros_like(r), r)
