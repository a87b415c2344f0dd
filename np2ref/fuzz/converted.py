"""A host function's program through `convert` (api_families.host_step): `f` reads the clock, so
np2ref.compile refuses it (NPR021, host work), and what np2ref does with it is the converted
module's: the loop stays a host loop and its array work between the host calls runs as compiled
steps (frontend/host_steps.py, NPR036). The converted module runs `f(*make_args())`; its result,
every argument and what it prints must be NumPy's run's (the runner's comparisons).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import random
import sys
from pathlib import Path

import numpy as np

from ..pipeline import convert_source
from ..rt.core import NprError

NEEDS_CONVERT = "NPR021"  # compile's refusal of a function that does host work
# a comment on a statement of f (made_families.py: a `try`, an object of a module class): f is host
# code to np2ref.compile, and what np2ref does with it is convert's
CONVERT_MARK = "# np2ref-fuzz: convert"


def wants_convert(source: str, code: str) -> bool:
    return code == NEEDS_CONVERT and ("import time" in source or CONVERT_MARK in source)


def run_converted(path: Path, seed: int, make_args=None):
    """(None, result, the arguments after the call, what it printed), or (an Outcome-like
    (kind, code, detail, the exception or None), ...) when conversion refuses the module or the run raises: a
    coded gap (NprTraceGap: a compiled function of the module met NPR107, NPR030, ... when traced)
    is a refusal, any other exception a failure. `make_args`: the program's own (the converted
    module's is np2ref's translation of it, whose arrays lose a strided layout: `c.ravel()` of a
    `[..., ::2]` argument is then a view, not NumPy's copy)."""
    result = convert_source(path.read_text(), str(path))
    if not result.ok:
        codes = [d.code for d in result.diagnostics if d.severity == "error"] or ["NPR???"]
        return ("refused", codes[0], "convert refused the module", None), None, None, ""
    out = path.with_name(path.stem + "_converted.py")
    out.write_text(result.code)
    name = out.stem
    try:
        spec = importlib.util.spec_from_file_location(name, out)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        args = (make_args or module.make_args)()
        np.random.seed(seed)
        random.seed(seed)  # Python's too (habit_families.py_draws)
        with contextlib.redirect_stdout(io.StringIO()) as printed:
            got = module.f(*args)
    except NprError as exc:  # a coded gap met when a converted function was traced (NprTraceGap, NPR021):
        return ("refused", exc.code, exc.message, None), None, None, ""  # np2ref.compile refuses it alike
    except Exception as exc:  # noqa: BLE001
        return ("failed", type(exc).__name__, str(exc).splitlines()[0] if str(exc) else "", exc), None, None, ""
    finally:
        sys.modules.pop(name, None)
        out.unlink(missing_ok=True)
    return None, got, args, printed.getvalue()
