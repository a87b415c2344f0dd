"""The trace budget (NPR037): a first call never traces for minutes or without bound in memory.

A loop that runs as a Python loop, or a list comprehension, is traced one iteration at a time:
each trip adds its body's equations to the program, so a comprehension of 120,000 reductions or
a recursive FFT built from comprehensions traces for minutes (then XLA compiles for minutes
more) or runs out of memory. While a converted function is traced, each equation recorded into
the trace is counted (compat.py's hook on the trace's equation list), and the time since the
trace began is checked; past the budget the trace stops with NPR037, naming the innermost loop
or comprehension being traced (file:line, from the stack) and its trip count. (The clock stops
only a trace that is then unrolling one: a slow trace of lax loops is not refused for its time.)

The budget: `trace_budget=` of np2ref.compile / @npr_jit (equations; None lifts it), else
NP2REF_TRACE_BUDGET (a number or `none`), else NPR_TRACE_EQUATIONS; seconds from
NP2REF_TRACE_SECONDS, else NPR_TRACE_SECONDS.
"""

import linecache as _npr_linecache
import os as _npr_os
import re as _npr_re
import sys as _npr_sys
import threading as _npr_threading
import time as _npr_time

from .compat import _npr_count_equations, _npr_eager
from .core import NprUnsupported

NPR_TRACE_EQUATIONS = 20_000  # equations one trace may record (XLA compiles that many in about a minute)
NPR_TRACE_SECONDS = 60.0      # seconds one trace may spend unrolling
_npr_budget = _npr_threading.local()  # .left (equations), .deadline, .start: the trace under way


def _npr_env_limit(name, default, kind):
    text = _npr_os.environ.get(name, "").strip().lower()
    if text in ("none", "off", "inf"):
        return None
    return kind(text) if text else default


def npr_trace_limits(equations="default"):
    """(equations, seconds) for a trace: the function's own `trace_budget` unless "default",
    then the environment, then the defaults; None means no limit."""
    if equations == "default":
        equations = _npr_env_limit("NP2REF_TRACE_BUDGET", NPR_TRACE_EQUATIONS, int)
    return equations, _npr_env_limit("NP2REF_TRACE_SECONDS", NPR_TRACE_SECONDS, float)


class npr_trace_budget:
    """Around a top-level trace: counts the equations recorded (compat's hook) and the time; an
    inner one (a converted function called from another) shares the outer's budget."""

    def __init__(self, equations="default"):
        self.limits = npr_trace_limits(equations)

    def __enter__(self):
        # (an eager run, `pure` outside any jit, is the program itself running: no budget)
        self.outer = getattr(_npr_budget, "deadline", False) is not False or _npr_eager()
        if not self.outer:
            equations, seconds = self.limits
            _npr_budget.left = equations
            _npr_budget.start = _npr_time.monotonic()
            _npr_budget.deadline = None if seconds is None else _npr_budget.start + seconds
            _npr_budget.look = _npr_budget.deadline  # when an equation next looks for an unrolled loop
            _npr_budget.limits = self.limits
            _npr_budget.spent = None
            _npr_count_equations(_npr_spend)
        return self

    def __exit__(self, *exc):
        if not self.outer:
            _npr_budget.deadline = False
            _npr_budget.spent = None
        return False


def npr_budget_watch():
    """Count the equations the current trace records (a loop body's trace has its own list:
    the Python loops call this on each trip, so their bodies count too)."""
    if getattr(_npr_budget, "deadline", False) is not False:
        _npr_count_equations(_npr_spend)
        _npr_spend(0)  # the clock, also where this JAX gives no equation count


def _npr_spend(n=1):
    """One equation recorded (or a trip begun, n=0): stop the trace past the budget. The clock
    stops only a trace that is unrolling a loop or comprehension: a long straight trace (a
    loaded machine, a big program of lax loops) traces once, whatever the time."""
    if getattr(_npr_budget, "deadline", False) is False:
        return
    spent = getattr(_npr_budget, "spent", None)
    if spent is not None:  # a fallback that caught the refusal and traced on meets it again
        raise NprUnsupported("NPR037", spent)
    left = _npr_budget.left
    if left is not None:
        left = _npr_budget.left = left - n
        if left < 0:
            raise _npr_over_budget(f"{_npr_budget.limits[0]:,} traced equations")
    deadline = _npr_budget.deadline
    if deadline is not None and _npr_time.monotonic() > (deadline if n == 0 else _npr_budget.look):
        site = _npr_unrolling_site(_npr_sys._getframe(1))
        if site[2]:
            raise _npr_over_budget(f"{_npr_budget.limits[1]:g} seconds of tracing", site)
        _npr_budget.look = max(deadline, _npr_time.monotonic() + 1.0)  # nothing unrolled: look again in a second


def _npr_over_budget(what, site=None):
    where, trips, _ = site or _npr_unrolling_site(_npr_sys._getframe(2))
    count = f"{trips:,} iterations" if trips is not None else "a trip count known only as it runs"
    _npr_budget.spent = (
        f"tracing this function passed its budget of {what}: {where} is traced one "
        f"iteration at a time ({count}), each adding its body to the program. Write it as array "
        f"operations or a `for i in range(n)` loop over arrays (a compiled loop), or raise the budget: "
        f"trace_budget=None (np2ref.compile), NP2REF_TRACE_BUDGET=none, NP2REF_TRACE_SECONDS")
    return NprUnsupported("NPR037", _npr_budget.spent)


_NPR_COMPREHENSIONS = {"<listcomp>": "the list comprehension", "<genexpr>": "the generator expression",
                       "<setcomp>": "the set comprehension", "<dictcomp>": "the dict comprehension"}


def _npr_unrolling_site(frame):
    """(description with file:line, trip count or None, whether it is a construct unrolled) of
    the innermost construct unrolled at `frame`: a Python loop np2ref runs (python_loops.py), a
    comprehension of the user's code, else the user's line being traced."""
    user = None
    while frame is not None:
        code = frame.f_code
        if code.co_name in ("_npr_python_for", "_npr_python_items"):
            trips = frame.f_locals.get("trips", frame.f_locals.get("seq"))
            return f"the loop at {_npr_where(frame.f_back)}", _npr_len(trips), True
        if not _npr_runtime_frame(code):
            if code.co_name in _NPR_COMPREHENSIONS:
                return (f"{_NPR_COMPREHENSIONS[code.co_name]} at {_npr_where(frame)}",
                        _npr_trip_count(frame.f_locals.get(".0")), True)
            user = user or frame
        frame = frame.f_back
    return (f"the code at {_npr_where(user)}" if user is not None else "the function"), None, False


# np2ref's own files (the package this runtime is part of; the one file of a standalone runtime)
_NPR_OWN = _npr_os.path.dirname(_npr_os.path.dirname(_npr_os.path.abspath(__file__))) + _npr_os.sep \
    if __name__.endswith(".rt.budget") else _npr_os.path.abspath(__file__)


def _npr_runtime_frame(code):
    name = code.co_filename
    return code.co_name.startswith(("npr_", "_npr_")) or name == "<np2ref runtime>" \
        or name.startswith(_NPR_OWN) or "/jax/" in name.replace("\\", "/")


def _npr_where(frame):
    """file:line of a frame of converted code: the original line where a `# @L<n>` mark says it."""
    while frame is not None and _npr_runtime_frame(frame.f_code):
        frame = frame.f_back
    if frame is None:
        return "<unknown>"
    filename, line = frame.f_code.co_filename, frame.f_lineno
    mark = _npr_re.search(r"# @L(\d+)\s*$", _npr_linecache.getline(filename, line))
    if mark:
        line = int(mark.group(1))
        filename = _npr_re.sub(r"^<np2ref: (.*)>$", r"\1", filename)
    return f"{filename}:{line}"


def _npr_trip_count(iterator, depth=0):
    """How many items `iterator` gives in all: a generator (JAX iterates an array's rows with
    one over a range) is followed to what it iterates."""
    frame = getattr(iterator, "gi_frame", None)
    if frame is not None and depth < 4:
        return _npr_trip_count(frame.f_locals.get(".0"), depth + 1)
    return _npr_len(_npr_iterated(iterator))


def _npr_iterated(iterator):
    """What a built-in iterator iterates (a list's, a tuple's, a range's: from its pickling
    recipe, which names the sequence), else None."""
    try:
        recipe = iterator.__reduce__()
        return recipe[1][0]
    except Exception:
        return None


def _npr_len(seq):
    try:
        return len(seq)
    except Exception:
        return None


