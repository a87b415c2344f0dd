"""`raise` in a branch on array data: `if not np.isfinite(u).all(): raise RuntimeError(...)`.

NumPy raises when the branch is taken. A traced branch (lax.cond) is traced whether it is taken
or not, so the branch's `raise` ran at trace time and every call raised, taken or not (a wrong
answer on main). Here a branch whose tracing raises an exception of the program's own (raised
by a `raise` statement of the program, or by Python code of it that raises whatever the data:
nothing jax, NumPy or np2ref raises while tracing) becomes a run-time check, as an `assert` on
array data is (rt/branches.npr_assert): where the branch is taken, the call raises that
exception after the program ran and before anything is written back (the first such trip of a
loop: NumPy's). The message may format one traced integer alone (`f"blew up at step {step}"`,
rt/truth._npr_message_template) when the branch's code does nothing but build and raise the
exception. `.pure` and bounds='unchecked' skip the check, as they skip asserts.
"""

import dis
import os

import jax.numpy as jnp

from .bounds import _npr_record_check
from .core import _npr_state, NprError
from .promotion import _npr_either_kind, _npr_mark_either
from .truth import _npr_message_template

_NPR_NOT_PROGRAM = tuple(os.path.dirname(m.__file__) + os.sep for m in (jnp, __import__("jax"), __import__("numpy")))
_NPR_RT = os.path.dirname(__file__) + os.sep


def _npr_raising(fn, values=()):
    """The branch function `fn` (None: the default) with a raise of the program's made a check.
    A branch _npr_lift_refs made (`_npr_lifted`: a jax.jit of the wrapped branch) is left as it is:
    hiding its mark would lift it again (a vectorised nest's lanes ran as a lax loop). Of the
    `if`'s `values`, those noted as a NumPy scalar or a Python number (promotion._npr_mark_either:
    a max()/min() of both) are noted again as the branch's own traced values (`v -= 1` in it)."""
    if fn is None or getattr(fn, "_npr_lifted", False):  # (a lifted branch: its own fn was wrapped)
        return fn
    noted = [bool(_npr_either_kind(v)) for v in values]

    def branch(*v):
        for x, k in zip(v, noted):
            if k and not _npr_either_kind(x):  # (noted with its flag already: carried_kinds.py)
                _npr_mark_either(x)
        try:
            return fn(*v)
        except NprError as exc:
            found = exc.code == "NPR031" and _npr_raise_template(fn, v)
            if not found:
                raise
            kind, template, value = found
            _npr_check_raised(kind, template, value)
        except Exception as exc:
            if not _npr_raised_by_program(exc) or not _npr_rebuildable(exc):
                raise
            _npr_check_raised(type(exc), exc.args, None)
        return v[0] if len(v) == 1 else (v if v else None)  # the values as they came (as no branch)

    branch._npr_raising = fn
    return branch


def _npr_check_raised(kind, message, value):
    bounds = _npr_state.get("bounds")
    if bounds is not None:  # (inside the branch: recorded only on the trips that take it)
        _npr_record_check(bounds, jnp.asarray(True), value, kind, message)


def _npr_raised_by_program(exc) -> bool:
    """Whether the innermost frame `exc` came from is the program's (no jax, NumPy or np2ref
    frame): a `raise` statement, or a builtin the program called, on values known when traced."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    name = tb.tb_frame.f_code.co_filename
    return not name.startswith(_NPR_NOT_PROGRAM + (_NPR_RT,))


def _npr_rebuildable(exc) -> bool:
    """type(exc)(*exc.args) is the same exception: a builtin one, or a class without its own __init__."""
    kind = type(exc)
    return kind.__module__ == "builtins" or all(
        "__init__" not in c.__dict__ and "__new__" not in c.__dict__ for c in kind.__mro__[:-2] if c.__module__ != "builtins")


_NPR_RAISE_ONLY = {"RESUME", "NOP", "CACHE", "COPY_FREE_VARS", "MAKE_CELL", "LOAD_GLOBAL", "LOAD_DEREF", "LOAD_FAST",
                   "LOAD_CONST", "LOAD_ATTR", "LOAD_NAME", "PUSH_NULL", "PRECALL", "CALL", "KW_NAMES", "CALL_KW",
                   "FORMAT_VALUE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC", "CONVERT_VALUE", "BUILD_STRING",
                   "RAISE_VARARGS", "LOAD_FAST_LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_SMALL_INT"}


def _npr_raise_template(fn, v):
    """(exception type, template, traced int) when `fn` only builds and raises an exception whose
    one argument is a message formatting one traced integer alone; else None."""
    ops = {i.opname for i in dis.get_instructions(fn.__code__)}
    if not ops <= _NPR_RAISE_ONLY or "RAISE_VARARGS" not in ops:
        return None
    made = []

    def text_of(stand_in):
        try:
            stand_in(*v)
        except Exception as exc:  # the exception, its message made with the stand-in
            if _npr_raised_by_program(exc) and len(exc.args) == 1 and isinstance(exc.args[0], str) \
                    and _npr_rebuildable(exc):
                made.append(type(exc))
                return exc.args[0]
        return None

    found = _npr_message_template(fn, text_of)
    return None if found is None else (made[-1], *found)
