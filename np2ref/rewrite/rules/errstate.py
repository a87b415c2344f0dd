"""`with np.errstate(divide="ignore", ...):` -> `with npr_errstate(divide="ignore", ...):`.

NumPy's error state decides which floating-point warnings its operations issue inside the block
(and in what it calls). The translation issues NumPy's warnings from the host: at trace time for
concrete values, after the run for traced ones (rt/casts.py, rt/masks.py). npr_errstate enters
np.errstate itself while the block is traced and notes the state, and each warning traced inside
the block is issued under that state, so the block's warnings are NumPy's. 'ignore' and 'warn'
only: 'raise', 'call', 'print' and 'log' ask for a test of every operation's floating-point
flags, which np2ref does not make (NPR015); so does any other `with`.
"""

from __future__ import annotations

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits_special, plans

ERRSTATE = "numpy.errstate"
KEYS = frozenset({"all", "divide", "over", "under", "invalid"})
MODES = frozenset({"ignore", "warn"})


def _refusal(call: cst.Call) -> str | None:
    for arg in call.args:
        key = arg.keyword.value if arg.keyword is not None else None
        value = arg.value.evaluated_value if isinstance(arg.value, cst.SimpleString) else None
        if key not in KEYS or value not in MODES:
            shown = f"{key}=..." if key is not None else "a positional argument"
            return (f"np.errstate({shown}) is not translated: np2ref keeps 'ignore' and 'warn' given as "
                    "string literals; 'raise', 'call', 'print' and 'log' need a test of every operation's "
                    "floating-point flags, which np2ref does not make")
    return None


@plans(cst.With)
def plan_errstate(node: cst.With, ctx) -> bool:
    for item in node.items:
        call = item.item
        if not (isinstance(call, cst.Call) and ctx.numpy_name(call.func) == ERRSTATE):
            ctx.sink.report("NPR015", "`with` blocks are not translated (only `with np.errstate(...)`)",
                            ctx.span(node), hint="move the block out of the function")
            return True
        ctx.m.skip_numpy.add(call.func)
        why = _refusal(call)
        if why is not None:
            ctx.sink.report("NPR015", why, ctx.span(call), hint="run the block outside the compiled function, "
                            "or test the values it computes (np.isfinite) instead")
            return True
        ctx.m.special_calls[call] = ("errstate", None)
    return False  # the block's statements are planned as any others


@emits_special("errstate")
def emit_errstate(original, updated, detail, ctx):
    return updated.with_changes(func=J.name(J.ERRSTATE))
