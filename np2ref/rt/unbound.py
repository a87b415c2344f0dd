"""Names a data-dependent branch or loop may leave unbound: Python's UnboundLocalError.

    if x[0] > 0:          # traced: lax.cond
        y = x * 2
    return y + 1          # NumPy: UnboundLocalError when x[0] <= 0

The rewrite's analysis (rewrite/rules/unbound.py) finds the reads that may see such a name
unbound and the branches and loops the unbound state passes through. Only there the name starts
as `npr_unbound` (not `npr_unset`, whose unbound path is zeros nothing reads): an NprMaybe, the
value with a bool `flag` saying whether it is bound. A traced `if`, `while` or lax `for` carries
the flag beside the value (_npr_box, _npr_boxed_fn: the flags are extra carried values, the
branch or body sees the NprMaybe); a concrete one runs in Python and passes the object on. The
read is `npr_defined(y, "y")`: the value, with Python's UnboundLocalError raised now when the
flag is a concrete False, or checked when the program runs when it is traced (the run-time check
record of bounds.py: the call raises the first failed check's error after the program ran,
before anything is written back; in a loop body that is the first iteration whose read failed).
"""

import sys as _npr_sys

import jax.numpy as jnp
import numpy as np

from .bounds import _npr_record_check
from .compat import _npr_current_trace, _npr_traced
from .core import _npr_state, npr_load, NprUnsupported


class NprMaybe:
    """A value that may be unbound: `value` (zeros of its type where it is not bound, or
    npr_unset before anything typed it) and `flag` (a bool, concrete or traced: bound)."""
    __slots__ = ("value", "flag")

    def __init__(self, value, flag):
        self.value, self.flag = value, flag

    def __repr__(self):
        return f"NprMaybe({self.value!r}, bound={self.flag!r})"


class _NprUntyped:
    """The value of npr_unbound: nothing typed it yet (npr_unset to the branches and loops)."""

    def __repr__(self):
        return "untyped"


npr_unbound = NprMaybe(_NprUntyped(), False)


def _npr_unbound_message(name):
    if _npr_sys.version_info >= (3, 11):
        return f"cannot access local variable '{name}' where it is not associated with a value"
    return f"local variable '{name}' referenced before assignment"


def npr_trip_value(v):
    """A name each trip of a lax loop binds anew (LoopPlan.fresh) as the trip leaves it: the
    value of its Ref or view; one a branch may have left unbound (a `continue` before the
    binding, frontend/jumps.py) keeps its flag, its value loaded."""
    if isinstance(v, NprMaybe):
        return NprMaybe(npr_load(v.value), v.flag)
    return npr_load(v)


def npr_defined(v, name):
    """A read of `name` that may see it unbound: its value; Python's UnboundLocalError now when
    it is unbound for certain, when the program runs (bounds.py's check record) when that
    depends on traced data. Without a check record (`.pure`, bounds='unchecked') the zeros of
    the unbound path are read, as an unchecked index is clamped."""
    if not isinstance(v, NprMaybe):
        return v
    flag = v.flag
    bounds = _npr_state.get("bounds")
    if isinstance(flag, (bool, np.bool_)) or not _npr_traced(flag):
        if bool(flag) and not isinstance(v.value, _NprUntyped) and v.value is not npr_unset:
            return v.value
        trace = _npr_current_trace()
        if bounds is not None and trace is not None and trace is not bounds.trace:
            # unbound for certain, read in a branch or loop body that may not run: Python
            # raises only if it does, and nothing types the value the trace would go on with
            raise NprUnsupported("NPR129", f"`{name}` is unbound here (a branch or loop "
                                 f"before did not bind it) and read in a branch or loop body "
                                 f"on array data, which NumPy runs only for some data")
        raise UnboundLocalError(_npr_unbound_message(name))
    if bounds is not None:
        _npr_record_check(bounds, jnp.logical_not(jnp.asarray(flag, bool).reshape(())),
                          None, UnboundLocalError, (_npr_unbound_message(name),))
    return v.value


class _NprBoundBy:
    """Which tracked values every traced run of a branch or body bound (`every[j]`): an object,
    not a list, so the Python-effects checks (python_loops.py) do not take it for user state."""
    __slots__ = ("every",)

    def __init__(self, count):
        self.every = [True] * count

    def always(self, runs=True):
        return {j for j, b in enumerate(self.every) if b and runs}


def _npr_any_maybe(values):
    return any(isinstance(v, NprMaybe) for v in values)


def _npr_box(values):
    """(the positions of the NprMaybe among `values`, the values expanded: each plain value, then
    the flags of those positions, in order; positions stay where they were)."""
    tracked = [k for k, v in enumerate(values) if isinstance(v, NprMaybe)]
    plain = [(npr_unset if isinstance(v.value, _NprUntyped) else v.value) if isinstance(v, NprMaybe) else v
             for v in values]
    return tracked, tuple(plain) + tuple(values[k].flag for k in tracked)


def _npr_boxed_fn(fn, n, tracked, bound, lead=0, returns=True):
    """fn (taking `lead` plain arguments, then the n values) as a function of the expanded values
    (_npr_box): it gets NprMaybe objects at the tracked positions and returns each one's value
    and flag (True where it bound the name). `bound.every[j]` becomes False once a trace of fn leaves
    tracked value j as it was (or gives an NprMaybe)."""
    def boxed(*args):
        head, flags = args[lead:lead + n], args[lead + n:]
        given = list(head)
        for j, k in enumerate(tracked):
            given[k] = NprMaybe(head[k], flags[j])
        out = fn(*args[:lead], *given)
        if not returns:
            return out
        out = (out,) if n == 1 else tuple(out)
        values, new_flags = list(out), []
        for j, k in enumerate(tracked):
            o = out[k]
            if o is given[k]:  # not rebound: the same objects (npr_if types a value by that)
                values[k], f = head[k], flags[j]
                bound.every[j] = False
            elif isinstance(o, NprMaybe):
                values[k], f = o.value, o.flag
                bound.every[j] = False
            else:
                f = jnp.asarray(True)
            new_flags.append(f)
        return tuple(values) + tuple(new_flags)
    return boxed


def _npr_unbox(out, n, tracked, always=()):
    """The n values of a run on expanded values: NprMaybe again at the tracked positions, except
    those whose flag index is in `always` (bound on every path: plain)."""
    out = tuple(out)
    values = list(out[:n])
    for j, k in enumerate(tracked):
        if j not in always:
            values[k] = NprMaybe(values[k], out[n + j])
    return values


def _npr_if_boxed(pred, then_fn, else_fn, values, npr_if):
    """npr_if on traced `pred` where some values are NprMaybe: the flags go through the cond; a
    value both branches bind comes out plain. (npr_if is passed in: branches.py, the floor above,
    calls this.)"""
    n = len(values)
    tracked, expanded = _npr_box(values)
    bound = _NprBoundBy(len(tracked))
    keep = else_fn or (lambda *v: v[0] if len(v) == 1 else v)
    fns = [_npr_boxed_fn(f, n, tracked, bound) for f in (then_fn, keep)]
    out = npr_if(pred, *fns, *expanded)
    values = _npr_unbox(out, n, tracked, bound.always())
    return values[0] if n == 1 else tuple(values)


def _npr_while_boxed(test, body, state, pred, _npr_traced_while):
    """The traced `while` (branches._npr_traced_while, passed in by its caller there) where some
    state is NprMaybe: the flags are loop state too."""
    n = len(state)
    tracked, expanded = _npr_box(state)
    bound = _NprBoundBy(len(tracked))
    out = _npr_traced_while(_npr_boxed_fn(test, n, tracked, bound, returns=False),
                            _npr_boxed_fn(body, n, tracked, bound), expanded, pred, False,
                            lambda r: tuple(r))
    values = _npr_unbox(out, n, tracked)
    return values[0] if n == 1 else tuple(values)


def _npr_for_boxed(run, body, carry, runs):
    """A lax `for` (`run(body', carry')`, loops._npr_lax_for) whose carried values hold an
    NprMaybe: the flags are carried too. `runs`: the loop runs at least once (a static trip
    count): a value the body binds on every path is then bound after it (plain)."""
    single = not isinstance(carry, tuple)
    items = (carry,) if single else carry
    n = len(items)
    tracked, expanded = _npr_box(items)
    bound = _NprBoundBy(len(tracked))
    inner = (lambda i, *v: body(i, v[0])) if single else (lambda i, *v: body(i, v))
    boxed = _npr_boxed_fn(inner, n, tracked, bound, lead=1)
    out = run(lambda i, c: boxed(i, *c), expanded)
    values = _npr_unbox(out, n, tracked, bound.always(runs))
    return values[0] if single else tuple(values)


# ---- branches ----------------------------------------------------------------------------
class _NprUnset:
    """A name a branch may define that had no value before the `if`."""

    def __repr__(self):
        return "npr_unset"


npr_unset = _NprUnset()


