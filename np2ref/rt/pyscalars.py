"""Python's arithmetic on Python scalars (npr_pyop): `float(x[0]) / float(x[1])`, `n * n` after
`n = int(x[0])`, `math.sqrt(s) ** 0.5`. Both operands are Python floats or ints (float(), int(),
len(), round(), math.*, literals, names only ever bound to those: rewrite/rules/pyscalars.py);
traced, they are weakly typed float64 / int64 scalars, and jax.numpy's operators would give
NumPy's answers (inf, 0, nan, wraparound) where Python's raise or hold more.

What Python does that a float64/int64 does not, kept here:
- ZeroDivisionError for `/`, `//`, `%`, divmod() and `0.0 ** -y` (Python's own message, taken
  from Python), raised by the compiled call when it runs (bounds.py's run-time record);
- float `//`, `%` and divmod() by Python's rules (CPython's float_divmod: the quotient snapped to
  the nearest integer, signed zeros); int // int floors, exact;
- results Python's types hold but np2ref's traced ones cannot raise NprError NPR031 when the
  call runs: an int beyond int64 (`*`, `+`, `-`, `**`, `<<`, `//`), a negative float to a
  non-integer power (Python's result is a complex), int / int of ints beyond 2**53 (Python
  divides the exact ints), an int to a negative int power from array data (a float in Python);
- `10.0 ** 400` raises Python's OverflowError; `x << -1` Python's ValueError.
Concrete operands (a call run eagerly, Python values) go through Python's operator itself.
"""

import operator

import jax
import jax.numpy as jnp
import numpy as np

from .compat import _npr_traced, _npr_weak_astype
from .core import _npr_dt, _npr_py_like, _npr_state, npr_load, npr_pyreturn, NprError
from .ops import npr_divmod
from .promotion import _npr_binop
from .wrapping import _NPR_BINOPS, _npr_int_divmod
from .pymath import _npr_math_check
from .stores import _npr_float_divmod


_NPR_PY_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
               "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "<<": operator.lshift,
               ">>": operator.rshift, "divmod": divmod}

_NPR_INT_RANGE = "{} of Python ints beyond the int64 range (Python's int would hold it; " \
                 "np2ref's traced int is an int64)"


def npr_pyop(a, op, b, passed=False):
    """`a op b` (op one of + - * / // % ** << >> divmod) between Python scalars, by Python's
    rules (see the module docstring). Concrete operands: Python's own operator. `passed`: an
    operand is a parameter, which the caller may have given as an array or a NumPy scalar
    (strongly typed when traced): then NumPy's operator."""
    a, b = npr_load(a), npr_load(b)
    if not (isinstance(a, jax.Array) or isinstance(b, jax.Array)):
        return _NPR_PY_OPS[op](a, b)
    if passed and not (_npr_py_like(a) and _npr_py_like(b)):
        return npr_divmod(a, b) if op == "divmod" else _npr_binop(op, a, b) if op == "/" else _NPR_BINOPS[op](a, b)
    if np.ndim(a) or np.ndim(b) or _npr_dt(a).kind not in "biuf" or _npr_dt(b).kind not in "biuf":
        # not the Python scalars the analysis expected: NumPy's operator, as before
        return npr_divmod(a, b) if op == "divmod" else _NPR_BINOPS[op](a, b)
    a, b = _npr_py_number(a), _npr_py_number(b)
    ints = a.dtype.kind == "i" and b.dtype.kind == "i"
    if op in ("+", "-", "*", "<<", ">>"):
        return _npr_py_int_op(a, op, b) if ints else _NPR_BINOPS[op](a, b)
    if op == "**":
        return _npr_py_int_pow(a, b) if ints and not _npr_negative(b) else _npr_py_float_pow(a, b)
    if op == "/":
        _npr_py_zero(a, op, b)
        if ints:
            big = lambda v: (v > 2 ** 53) | (v < -2 ** 53)  # noqa: E731  (exact as float64 up to 2**53)
            _npr_math_check(big(a) | big(b), NprError, (
                "NPR031", "int / int of Python ints beyond 2**53 (Python divides the exact ints; "
                "np2ref's traced ints are converted to float64 first)",))
            a, b = _npr_py_float(a), _npr_py_float(b)
        return a / b
    _npr_py_zero(a, op, b)  # //, %, divmod
    if ints:
        q, r = _npr_int_divmod(a, b)
        if op != "%":  # -2**63 // -1 is 2**63
            _npr_math_check((a == jnp.iinfo(jnp.int64).min) & (b == -1), NprError,
                            ("NPR031", _NPR_INT_RANGE.format(f"`{op}`"),))
    else:
        q, r = _npr_float_divmod(_npr_py_float(a), _npr_py_float(b))
    if op == "divmod":  # Python's ints or floats, returned as they are (npr_pyreturn)
        kind = "int" if ints else "float"
        return npr_pyreturn(q, kind), npr_pyreturn(r, kind)
    return q if op == "//" else r


def _npr_python_leaves(leaves):
    """((leaf index, int or float), ...) for the leaves npr_pyreturn noted in this trace; a leaf a
    branch on data made a Python number or NumPy's scalar (promotion._npr_mark_either's
    `chosen`): (leaf index, (int or float, the branch's predicate, whether true gives Python's))."""
    noted, either = _npr_state.get("pyreturn", {}), _npr_state.get("either", {})
    found = []
    for i, v in enumerate(leaves):
        if id(v) in noted and noted[id(v)][0] is v:
            found.append((i, noted[id(v)][1]))
        elif len(either.get(id(v), ())) >= 4 and either[id(v)][0] is v:  # (5: and NumPy's dtype else)
            found.append((i, either[id(v)][1:]))
    return tuple(found)


def _npr_list_items(leaves, call, lists):
    """((leaf index, int or float), ...) for the leaves that are a list argument's own Python
    numbers, traced weakly typed (`return w`, `return w[0]` of `w = [-1.5]` that `w + [t]` kept a
    list): NumPy returns the caller's Python floats, not float64 scalars."""
    items = {id(x): x for n in lists if isinstance(call.get(n), list) for x in call[n]}
    return tuple((i, int if np.dtype(v.dtype).kind in "iu" else float) for i, v in enumerate(leaves)
                 if items.get(id(v)) is v and isinstance(v, jax.Array) and v.ndim == 0 and jax.typeof(v).weak_type
                 and np.dtype(v.dtype).kind in "iuf")


def _npr_plain_numbers(leaves, found):
    """For a function with no array work (convert's `python_scalars=True`) traced because an array
    was passed (`def f(i64, dt): return dt * 2`): ((leaf index, int or float), ...) for each weakly
    typed 0-d leaf not in `found`, a Python number in NumPy's program (it has no NumPy call to make a
    NumPy scalar weakly typed: np.float64 before round 14)."""
    seen = {i for i, _ in found}
    return tuple((i, int if np.dtype(v.dtype).kind in "iu" else float) for i, v in enumerate(leaves)
                 if i not in seen and isinstance(v, jax.Array) and v.ndim == 0 and jax.typeof(v).weak_type
                 and np.dtype(v.dtype).kind in "iuf")


def _npr_py_number(x):
    """A Python scalar as a weakly typed int64 or float64 (a bool is an int in Python's arithmetic)."""
    x = jnp.asarray(x)
    if x.dtype.kind in "bu" or x.dtype.kind == "i" and x.dtype != jnp.int64:
        return _npr_weak_astype(x, np.dtype(np.int64))
    if x.dtype.kind == "f" and x.dtype != jnp.float64:
        return _npr_weak_astype(x, np.dtype(np.float64))
    return x


def _npr_py_float(x):
    return x if x.dtype.kind == "f" else _npr_weak_astype(x, np.dtype(np.float64))


def _npr_negative(b):
    """A concrete negative exponent (an int to it is a float in Python); a traced one is checked."""
    return not _npr_traced(b) and bool(b < 0)


def _npr_py_zero(a, op, b):
    """Python's ZeroDivisionError, with Python's own message for these operand types."""
    probe = (1 if a.dtype.kind == "i" else 1.0, 0 if b.dtype.kind == "i" else 0.0)
    try:
        _NPR_PY_OPS[op](*probe)
    except ZeroDivisionError as e:
        _npr_math_check(b == 0, ZeroDivisionError, e.args)


def _npr_py_int_op(a, op, b):
    """+ - * << >> on int64s, where Python's int would leave the int64 range: NPR031."""
    r = _NPR_BINOPS[op](a, b)
    if op == "+":
        out = ((a ^ r) & (b ^ r)) < 0
    elif op == "-":
        out = ((a ^ b) & (a ^ r)) < 0
    elif op == "*":
        out = _npr_py_exceeds(r, _npr_py_float(a) * _npr_py_float(b))
    else:
        _npr_math_check(b < 0, ValueError, ("negative shift count",))
        if op == ">>":  # Python shifts past the width to 0 or -1 (its sign)
            return jnp.where(b >= 64, jnp.where(a < 0, -1, 0), r)
        out = (a != 0) & ((b >= 64) | (jnp.right_shift(r, jnp.clip(b, 0, 63)) != a))
    _npr_math_check(out, NprError, ("NPR031", _NPR_INT_RANGE.format(f"`{op}`"),))
    return r


def _npr_py_exceeds(r, f):
    """Whether the int64 result r wrapped around: f is the same value computed in float64 (within
    a few ulps of the exact one); a wrapped r differs from it by a multiple of 2**64, at least 2/3
    of its magnitude."""
    return jnp.isinf(f) | (jnp.abs(f - _npr_py_float(r)) > 2.0 ** -20 * jnp.abs(f))


def _npr_py_int_pow(a, b):
    """int ** int (b >= 0, or traced): Python's int, refused beyond int64 or for a negative b."""
    if _npr_traced(b):
        _npr_math_check(b < 0, NprError, (
            "NPR031", "a Python int to a negative int power from array data (Python's result is a "
            "float; np2ref's traced result is an int)",))
        r = jnp.power(a, jnp.maximum(b, 0))
    else:
        r = jax.lax.integer_pow(a, int(b)) if int(b) else jnp.ones_like(a)
    f = jnp.power(_npr_py_float(a), _npr_py_float(b))
    grows = (a > 1) | (a < -1)  # (-1) ** b alternates: float(b) may have lost b's parity
    _npr_math_check(_npr_py_exceeds(r, f) & grows & (b >= 0), NprError, ("NPR031", _NPR_INT_RANGE.format("`**`"),))
    return r


def _npr_py_float_pow(a, b):
    """float ** float by CPython's float_pow: C's pow (XLA's is bit for bit), with
    ZeroDivisionError for 0.0 to a negative finite power, OverflowError for an infinite result
    of finite operands, and NPR031 for a negative finite base to a finite non-integer power
    (Python's result is a complex)."""
    x, y = _npr_py_float(a), _npr_py_float(b)
    r = jnp.power(x, y)
    finite = jnp.isfinite(x) & jnp.isfinite(y)
    _npr_math_check((x == 0) & (y < 0) & jnp.isfinite(y), ZeroDivisionError, _npr_py_message(0.0, -1.0))
    _npr_math_check(finite & (x < 0) & (y != jnp.floor(y)), NprError, (
        "NPR031", "a negative Python float to a non-integer power (Python's result is a complex "
        "number; np2ref's traced float is a float64)",))
    _npr_math_check(finite & jnp.isinf(r) & (x != 0), OverflowError, _npr_py_message(10.0, 400.0))
    return r


def _npr_py_message(x, y):
    try:
        x ** y
    except (ZeroDivisionError, OverflowError) as e:
        return e.args
    return ("math range error",)  # pragma: no cover


