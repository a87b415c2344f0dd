"""Python's truth and its builtins on values that may be traced: `and`, `or`, `not`, `in` over a
display, max/min/any/all; a concrete value answers as Python does, a traced one of one element
as NumPy's truth of it, a bigger one with NumPy's ValueError ("truth value ... is ambiguous").
The forms that evaluate an operand only when needed (npr_andv, npr_and_then) are branches (they
become lax.cond)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .casts import _npr_weak
from .compat import _npr_Tracer
from .core import _npr_traced_any, npr_load, NprError, NprUnsupported
from .promotion import _npr_binop
from .views import NprView


def _npr_concrete_bool(x):
    if isinstance(x, _npr_Tracer):
        return None
    if isinstance(x, (jax.Ref, NprView)):
        x = npr_load(x)
    if isinstance(x, _npr_Tracer):
        return None
    return bool(x)


def npr_and(a, b):
    """Python's `a and b`: b or a by a's truth when it is known; on traced data, logical and."""
    ca = _npr_concrete_bool(a)
    if ca is not None:
        return b if ca else a
    cb = _npr_concrete_bool(b)
    if cb is not None:
        return a if cb else b
    return jnp.logical_and(a, b)


def npr_or(a, b):
    """Python's `a or b`: a or b by a's truth when it is known; on traced data, logical or."""
    ca = _npr_concrete_bool(a)
    if ca is not None:
        return a if ca else b
    cb = _npr_concrete_bool(b)
    if cb is not None:
        return b if cb else a
    return jnp.logical_or(a, b)


def npr_not(a):
    """Python's `not a`; on traced data, logical not of its one element (NumPy's ValueError for
    an array of more than one)."""
    ca = _npr_concrete_bool(a)
    if ca is not None:
        return not ca
    x = jnp.asarray(npr_load(a))
    if x.size != 1:
        raise ValueError(_NPR_AMBIGUOUS)
    return jnp.logical_not(x).reshape(())


def npr_in(x, items):
    """Python's `x in (a, b, ...)` over a tuple or list display: each item's `is`, then `==`,
    in order, the first true one deciding; on traced data, the logical or of the equalities of
    x's one element (NumPy's ValueError for an array of more than one)."""
    out = False
    for item in items:
        if item is x:
            return True
        eq = npr_load(x) == npr_load(item)
        c = _npr_concrete_bool(eq)  # (NumPy's ValueError for a concrete array of several)
        if c:
            return True
        if c is None:
            eq = jnp.asarray(eq)
            if eq.size != 1:
                raise ValueError(_NPR_AMBIGUOUS)
            out = jnp.logical_or(out, eq.reshape(()))
    return out


def _npr_truth(v):
    """bool(v) as a traced 0-d bool (NumPy's ValueError for an array of more than one element)."""
    concrete = _npr_concrete_bool(v)
    if concrete is not None:
        return jnp.asarray(concrete)
    x = jnp.asarray(npr_load(v))
    if x.size != 1:
        raise ValueError(_NPR_AMBIGUOUS)
    return (x if x.dtype == bool else x != 0).reshape(())


# ---- builtins on array values -------------------------------------------------------------
_NPR_AMBIGUOUS = ("The truth value of an array with more than one element is ambiguous. "
                  "Use a.any() or a.all()")


def _npr_scalar_operand(v):
    """A traced operand Python would compare: 0-d, or NumPy's ValueError for a bigger array."""
    if np.size(v) > 1:
        raise ValueError(_NPR_AMBIGUOUS)
    if np.ndim(v) > 0:
        raise NprUnsupported("NPR030", "max()/min()/any()/all() of a one-element array with "
                             "traced data is not translated; index it (`x[0]`) or use np.max")
    return v


def _npr_pick(builtin, better, args):
    """Python's max/min: the first operand that no later one beats (`v > best` replaces best),
    so NaN and signed-zero ties come out as Python's; on traced data, a fold of jnp.where on that
    same comparison."""
    if len(args) == 1:
        (seq,) = args
        if isinstance(seq, _npr_Tracer) and np.ndim(seq) == 1:
            if seq.shape[0] == 0:
                raise ValueError(f"{builtin.__name__}() iterable argument is empty")
            best, _ = lax.scan(lambda b, v: (jnp.where(better(v, b), v, b), None), seq[0], seq[1:])
            return best
        if isinstance(seq, _npr_Tracer):
            args = tuple(seq)  # rows: each compared as Python would (ValueError when bigger than 1)
        else:
            args = tuple(seq)
            if not args:
                return builtin(args)
    if not _npr_traced_any(args):
        return builtin(*args) if len(args) > 1 else builtin(args)
    _npr_check_pick(builtin.__name__, args)
    best = _npr_scalar_operand(args[0])
    for v in args[1:]:
        v = _npr_scalar_operand(v)
        best = jnp.where(better(v, best), v, best)
    return best


def npr_max(*args):
    """Python's builtin `max(a, b, ...)` / `max(iterable)` on values that may be traced."""
    return _npr_pick(max, lambda v, best: _npr_binop(">", v, best), args)


def npr_min(*args):
    """Python's builtin `min(a, b, ...)` / `min(iterable)` on values that may be traced."""
    return _npr_pick(min, lambda v, best: _npr_binop("<", v, best), args)


def _npr_truths(seq):
    if isinstance(seq, _npr_Tracer) and np.ndim(seq) == 1:
        return seq != 0, True
    items = list(seq)
    if not _npr_traced_any(items):
        return items, False
    return jnp.stack([jnp.reshape(_npr_scalar_operand(v) != 0, ()) for v in items]), True


def npr_any(seq):
    """Python's `any(iterable)`: bool() of each item (NaN is true); on traced items, jnp.any."""
    items, traced = _npr_truths(seq)
    return jnp.any(items) if traced else any(items)


def npr_all(seq):
    """Python's `all(iterable)`; on traced items, jnp.all."""
    items, traced = _npr_truths(seq)
    return jnp.all(items) if traced else all(items)


_NPR_ASSERT_HINT = ('a message of Python values, `assert np.all(c >= 0), "negative concentration"` (raised after the '
                    'run), and return the values the message showed to format after the call')


def _npr_assert_message(message):
    """An assert's message made when traced: one formatting array data or a loop index has no text then."""
    try:
        return message()
    except NprError as exc:
        if exc.code != "NPR031":
            raise
        raise NprUnsupported("NPR030", "an assert on array data is checked once the compiled program has run; its "
                             "message formats array data or a loop index, which has no value when traced",
                             hint=_NPR_ASSERT_HINT) from exc


# ------------------------------------------------------------- max()/min() of values of two kinds
_NPR_NARROW = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.complex64))


def _npr_check_pick(name, values):
    """Python's max()/min() return one of their operands, so between two strong values of
    different dtypes the result's dtype depends on the data: refused (NPR128) where one is
    float16, float32 or complex64 (int64 with float32: NumPy gives an int64 or a float32)."""
    strong = {np.dtype(v.dtype) for v in values if hasattr(v, "dtype") and not _npr_weak(v)}
    if len(strong) > 1 and strong & _NPR_NARROW:
        raise NprUnsupported("NPR128", f"{name}() of values of different types "
                             f"({', '.join(sorted(d.name for d in strong))}) on array data: the type "
                             f"of its result would depend on which one the data picks")
    kinds = {_npr_pick_kind(v) for v in values}
    if len(kinds) > 1:  # `max(x[0], 2.5)` on int64 data: NumPy's int64 or Python's float, by the data
        raise NprUnsupported("NPR128", f"{name}() of {' and '.join(sorted(kinds))} values on array data: "
                             f"Python returns one of them, so whether its result is an int or a float "
                             f"depends on which one the data picks",
                             hint=f"make both operands one kind: `{name}(x[i], 2)` or `{name}(float(x[i]), 2.5)`")


def _npr_pick_kind(v):
    """bool, int or float (complex) of a max()/min() operand, a Python number's or a NumPy value's."""
    kind = np.dtype(v.dtype).kind if hasattr(v, "dtype") else np.asarray(v).dtype.kind
    return {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}.get(kind, kind)
