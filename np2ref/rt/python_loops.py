"""When a loop runs as a Python loop, and saying so (NPR033, PythonLoopWarning)."""

import jax
import numpy as np
import os as _npr_os
import linecache as _npr_linecache
import re as _npr_re
import sys as _npr_sys
import types as _npr_types
import warnings as _npr_warnings

from .budget import npr_budget_watch
from .compat_messages import _npr_jax_error
from .core import NprIndexCarried, NprNotConcrete, NprUnsupported
from .refs import _NPR_INDEX_CARRIED


class PythonLoopWarning(UserWarning):
    """A compiled loop runs as a Python loop (NPR033): exact, but tracing takes one copy of
    its body per iteration, so compile time grows with the trip count."""


# np2ref's own class (np2ref.PythonLoopWarning) when np2ref is imported, so filters on it apply
PythonLoopWarning = getattr(_npr_sys.modules.get("np2ref.diagnostics"), "PythonLoopWarning", PythonLoopWarning)
_npr_warned = {}  # the warnings registry: each loop (line and message) warns once


def _npr_python_loop_reason(exc):
    """Why a body could not be traced with a traced loop variable, for the errors that mean it
    needs the variable's value (then a Python loop, with static bounds, is exact); None for any
    other error, which must surface."""
    errors = getattr(jax, "errors", None)
    if isinstance(exc, getattr(errors, "TracerBoolConversionError", ())):
        return "a Python `if` tests the loop variable"
    if isinstance(exc, getattr(errors, "TracerIntegerConversionError", ())):
        return "the body uses the loop variable as a Python int (it indexes a tuple or list with it)"
    if isinstance(exc, (getattr(errors, "ConcretizationTypeError", ()), NprNotConcrete)) \
            or _npr_jax_error(exc, "traced_shape"):
        # (the last: np.arange and its kin given a traced size, np_creation.py; such a loop was a
        # Python loop at conversion until a written array rebound in it made it npr_for)
        return "a size or shape in the body depends on the loop variable"
    if _npr_jax_error(exc, "traced_slice") or (isinstance(exc, NprUnsupported) and exc.code == "NPR111") \
            or _npr_jax_error(exc, "npr_lazy_as_array"):
        # (the last: a slice of traced length, or a window written through, used as an array
        # (windows.py, win_views.py): jax.numpy names its type)
        return "a slice's bounds depend on the loop variable"
    if isinstance(exc, NprIndexCarried):
        return _NPR_INDEX_CARRIED
    if isinstance(exc, NprUnsupported) and exc.code == "NPR130":
        # (a carried value whose shape or kind an iteration changes: `img = img[:, 1:]`, a seam
        # carved per trip; with static bounds each trip is traced with the shapes NumPy has)
        return "a value it carries changes shape from one iteration to the next"
    if isinstance(exc, NprUnsupported) and exc.code == "NPR124":
        return "an inner loop's bounds depend on the loop variable, under reverse-mode differentiation"
    return None


_NPR_PYTHON_LOOP_ERRORS = (TypeError, IndexError, NotImplementedError)  # what _npr_python_loop_reason may accept


NPR_UNROLL_LIMIT = 1000  # iterations a loop may be traced one by one without an opt-in (NPR035)


def npr_unroll_limit():
    """The unroll limit: NP2REF_UNROLL_LIMIT from the environment (a number, or `none`), else
    NPR_UNROLL_LIMIT; None means no limit."""
    text = _npr_os.environ.get("NP2REF_UNROLL_LIMIT", "").strip().lower()
    if text in ("none", "off", "inf"):
        return None
    return int(text) if text else NPR_UNROLL_LIMIT


def _npr_python_for(rng, body, carry, has, reason, stop=None, unroll=False):
    """The loop as the plain Python loop it was, then PythonLoopWarning with the user's line and
    the trip count (after the loop: a loop that fails reports its error, not this). More
    iterations than the unroll limit are refused (NPR035) unless the loop opts in (`unroll`,
    from a `# np2ref: unroll` comment). `stop`: the position of the break flag among the
    carried values (frontend/jumps.py): the loop ends once it is a concrete True."""
    trips = range(int(rng.start), int(rng.stop), int(rng.step))
    limit = npr_unroll_limit()
    if not unroll and limit is not None and len(trips) > limit:
        raise NprUnsupported(
            "NPR035", f"this loop must run as a Python loop ({reason}) and has {len(trips)} "
            f"iterations, more than the unroll limit of {limit}: tracing would take one copy of the "
            f"body per iteration. Opt in with a `# np2ref: unroll` comment on the loop line, or "
            f"NP2REF_UNROLL_LIMIT=none")
    c = carry
    for i in trips:
        npr_budget_watch()  # the trace budget (budget.py) counts this body's equations too
        c = body(i, c) if has else body(i)
        if _npr_stopped(c, stop):
            break
    filename, line = _npr_user_line()
    _npr_warnings.warn_explicit(f"NPR033 this loop runs as a Python loop ({len(trips)} iterations, traced one "
                                f"by one: compile time grows with the trip count): {reason}",
                                PythonLoopWarning, filename, line, registry=_npr_warned)
    return c


def _npr_python_items(seq, body, carry, has, stop=None):
    """`for x in seq:` over a Python iterable (a list, a dict): the Python loop as written."""
    c = carry
    for item in seq:
        npr_budget_watch()
        c = body(item, c) if has else body(item)
        if _npr_stopped(c, stop):
            break
    return c


def _npr_stopped(carry, stop):
    """Whether the break flag at position `stop` of the carried values is a concrete True."""
    if stop is None:
        return False
    flag = carry[stop] if isinstance(carry, tuple) else carry
    return isinstance(flag, (bool, np.bool_)) and bool(flag)


def _npr_user_line():
    """(file, line) of the converted code that called into the runtime: the original line where
    np2ref.compile marked it (`# @L<n>`), else the converted file's own."""
    frame = _npr_sys._getframe(1)
    while frame is not None and (frame.f_code.co_name.startswith(("npr_", "_npr_"))
                                 or frame.f_code.co_filename == "<np2ref runtime>"):
        frame = frame.f_back
    if frame is None:
        return "<unknown>", 0
    filename, line = frame.f_code.co_filename, frame.f_lineno
    mark = _npr_re.search(r"# @L(\d+)\s*$", _npr_linecache.getline(filename, line))
    if mark:
        line = int(mark.group(1))
        filename = _npr_re.sub(r"^<np2ref: (.*)>$", r"\1", filename)
    return filename, line


def _npr_containers(objs):
    """(container, copy) for the lists, dicts and sets among objs, in tuples and in the closures
    of the functions among them: what a traced body could change as a Python side effect."""
    found, seen = [], set()

    def visit(obj):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if isinstance(obj, (list, dict, set)):
            found.append((obj, obj.copy()))
        elif isinstance(obj, tuple):
            for o in obj:
                visit(o)
        elif isinstance(obj, _npr_types.BuiltinMethodType):  # `add = hist.append`
            visit(obj.__self__)
        elif isinstance(obj, _npr_types.FunctionType) and not getattr(obj, "_npr_lifted", False):
            for cell in obj.__closure__ or ():
                try:
                    visit(cell.cell_contents)
                except ValueError:  # a name not bound yet
                    pass

    for obj in objs:
        visit(obj)
    return found


def _npr_changed(kept):
    """The first container in `kept` (from _npr_containers) that no longer holds what it did,
    each put back as it was (a trace that changed it left tracers in it); None if none changed."""
    changed = None
    for obj, copy in kept:
        same = len(obj) == len(copy) and (
            all(a is b for a, b in zip(obj, copy)) if isinstance(obj, list) else
            all(obj.get(k, obj) is v for k, v in copy.items()) if isinstance(obj, dict) else obj == copy)
        if not same:
            changed = changed if changed is not None else obj
            obj.clear()
            obj.extend(copy) if isinstance(obj, list) else obj.update(copy)
    return changed


# What to write instead of a list changed a data-dependent number of times (NPR034): an array of
# the most items there can be and a count, both returned (a slice of run-time length cannot leave
# the compiled function, so the caller takes hist[:n]).
_NPR_COUNTED_HINT = ("store into an array made before the loop, with a count, instead of a list: `hist = "
                     "np.zeros(maxit); n = 0`, then `hist[n] = x; n += 1` in the loop, with `n < maxit` in its "
                     "condition; return `hist, n` and take `hist[:n]` after the call")


class _npr_python_effects:
    """Around tracing control flow whose runs depend on data (a traced `if` or `while`): a Python
    container it changed would hold one change made at trace time instead of as many as the data
    ask for, so it is put back and the construct refused (NPR034)."""

    def __init__(self, objs, what):
        self.kept, self.what = _npr_containers(objs), what

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        changed = _npr_changed(self.kept)
        if changed is not None and kind is None:
            raise NprUnsupported("NPR034", f"{self.what} changes a {_npr_container_kind(changed)}: how many "
                                      f"times it does is known only at run time", hint=_NPR_COUNTED_HINT)
        return False


def _npr_container_kind(container):
    return f"Python {type(container).__name__}"


