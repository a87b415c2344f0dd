"""Python's truth and its builtins on values that may be traced: `and`, `or`, `not`, `in` over a
display, any/all (max/min: picks.py); a concrete value answers as Python does, a traced one of one element
as NumPy's truth of it, a bigger one with NumPy's ValueError ("truth value ... is ambiguous").
The forms that evaluate an operand only when needed (npr_andv, npr_and_then) are branches (they
become lax.cond)."""

import types

import jax
import jax.numpy as jnp
import numpy as np

from .compat import _npr_Tracer
from .core import _npr_traced_any, npr_load, npr_pyreturn, NprError, NprUnsupported
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
    return npr_pyreturn(jnp.logical_not(x).reshape(()), "bool")  # (Python's bool, returned)


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


def _npr_truths(seq):
    if isinstance(seq, _npr_Tracer) and np.ndim(seq) == 1:
        return seq != 0, True
    items = list(seq)
    if not _npr_traced_any(items):
        return items, False
    return jnp.stack([jnp.reshape(_npr_scalar_operand(v) != 0, ()) for v in items]), True


def npr_any(seq):
    """Python's `any(iterable)`: bool() of each item (NaN is true); on traced items, jnp.any,
    noted a Python bool (returned, the call gives `True`, not np.True_)."""
    items, traced = _npr_truths(seq)
    return npr_pyreturn(jnp.any(items), "bool") if traced else any(items)


def npr_all(seq):
    """Python's `all(iterable)`; on traced items, jnp.all (a Python bool, as npr_any's)."""
    items, traced = _npr_truths(seq)
    return npr_pyreturn(jnp.all(items), "bool") if traced else all(items)


_NPR_ASSERT_HINT = ('a message of Python values, `assert np.all(c >= 0), "negative concentration"` (raised after the '
                    'run), or one loop index formatted alone, `f"NaN at step {step}"` (bind `n = step + 1` '
                    'outside the message to show another int); return the values the message showed to format after the call')


def _npr_assert_message(message):
    """An assert's message made when traced: its text, or (template, value) where it formats one
    traced integer (`f"NaN at step {step}"` in a lax loop: `template.format(int(value))` after the
    run is NumPy's text). Any other traced value formatted has no text then (NPR030)."""
    try:
        return message()
    except NprError as exc:
        if exc.code != "NPR031":
            raise
        found = _npr_message_template(message)
        if found is not None:
            return _NprStepMessage(*found)
        raise NprUnsupported("NPR030", "an assert on array data is checked once the compiled program has run; its "
                             "message formats array data or a loop index, which has no value when traced",
                             hint=_NPR_ASSERT_HINT) from exc


class _NprStepMessage(tuple):
    """(template, traced int) from _npr_assert_message: a type of its own, so that a message that
    is a tuple of Python values (`assert ok, ("bad", 3)`) is never taken for one."""

    def __new__(cls, template, value):
        return super().__new__(cls, (template, value))


class _NprFormatted:
    """Stands for a traced integer in an assert's message: only `format(v, spec)` (an f-string's
    `{v}`, `{v:5d}`) gives text, a marker the template turns into `{0:spec}`; any other use
    (arithmetic, `!r`, `!s`, `%d`) raises, and the message is refused as before."""

    def __init__(self, marker):
        self.marker = marker

    def __format__(self, spec):
        return f"{self.marker}{spec}{self.marker}"


def _npr_message_template(message, text_of=None):
    """(template, traced value) for an assert message (a lambda) that formats exactly one traced 0-d
    integer of its closure, by format() alone; else None. Python's int and NumPy's integer scalars
    format alike for every integer spec, so the text made after the run is NumPy's. `text_of(f)`:
    the text `message` with its closure swapped gives (default: its value; rt/raises.py: the
    message of the exception it raises)."""
    cells = message.__closure__ or ()
    traced = [i for i, c in enumerate(cells) if isinstance(_npr_cell(c), _npr_Tracer)]
    value = _npr_cell(cells[traced[0]]) if len(traced) == 1 else None
    if value is None or value.ndim != 0 or not jnp.issubdtype(value.dtype, jnp.integer) or value.dtype == jnp.uint64:
        return None
    marker = "\x00npr\x00"
    swapped = tuple(types.CellType(_NprFormatted(marker)) if i == traced[0] else c for i, c in enumerate(cells))
    try:
        text = (text_of or (lambda f: f()))(
            types.FunctionType(message.__code__, message.__globals__, None, message.__defaults__, swapped))
    except Exception:  # the value used otherwise than formatted, or another traced value formatted
        return None
    pieces = text.split(marker) if isinstance(text, str) else []
    if len(pieces) != 3:
        return None
    escape = lambda t: t.replace("{", "{{").replace("}", "}}")
    return escape(pieces[0]) + "{0:" + escape(pieces[1]) + "}" + escape(pieces[2]), value


def _npr_cell(cell):
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell: a name not bound yet
        return None
