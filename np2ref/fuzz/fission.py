"""The runner's loop fission check (whole_families.py's fission_loop, its header marked
FISSION_MARK): the program compiled with rt/fission.py forced on must give NumPy's answers (the
runner's usual checks, run under `fission_forced`) and the very bits of the program compiled with
it off: results and written arguments, compared with `array_equal` (NaN equal to NaN) and by dtype.
The outcome says whether any work moved ("fission") or the loops stayed as they were ("rolled")."""

from __future__ import annotations

import contextlib
import dataclasses

import numpy as np

import np2ref
from np2ref.rt import compile_api as rt


@contextlib.contextmanager
def fission_forced(on: bool):
    """rt/fission.py forced on (on a CPU it is off by default) while the block runs."""
    with (rt.npr_fission(True) if on else contextlib.nullcontext()):
        yield


def _run(module, on: bool):
    """(result, arguments after the call, the scans split) of a fresh compile with fission on or off."""
    before = rt.npr_fission_splits()
    args = module.make_args()
    with rt.npr_fission(on):
        out = np2ref.compile(module.f, host_below=0)(*args)
    return out, args, rt.npr_fission_splits() - before


def _bits(a, b, where: str) -> str | None:
    if isinstance(a, (tuple, list)):
        return next((d for k, (x, y) in enumerate(zip(a, b)) if (d := _bits(x, y, f"{where}[{k}]"))), None)
    if not isinstance(a, (np.ndarray, np.generic, int, float, complex)):
        return None  # (a Generator, an object: the runner's own checks compared them)
    x, y = np.asarray(a), np.asarray(b)
    if x.dtype != y.dtype or x.shape != y.shape or type(a) is not type(b):
        return f"{where}: {type(a).__name__} {x.dtype}{x.shape} with fission, {type(b).__name__} {y.dtype}{y.shape} without"
    if x.dtype.kind in "fc":
        same = np.array_equal(x.view(np.uint8 if x.dtype.itemsize == 1 else f"u{x.dtype.itemsize}"),
                              y.view(np.uint8 if y.dtype.itemsize == 1 else f"u{y.dtype.itemsize}")) \
            if x.dtype.kind == "f" else np.array_equal(x, y, equal_nan=True)
        if not same and not (np.isnan(x).any() and np.array_equal(x, y, equal_nan=True)):
            return f"{where}: {x!r} with fission, {y!r} without (not the same bits)"
    elif not np.array_equal(x, y):
        return f"{where}: {x!r} with fission, {y!r} without"
    return None


def fission_bits(module, outcome):
    """`outcome` (exact) with what fission did, or a failure where its bits differ."""
    from .runner import Outcome  # (the runner imports this module)
    try:
        on, args_on, split = _run(module, True)
        off, args_off, _ = _run(module, False)
    except np2ref.Np2RefError:
        return outcome  # (a refusal of either: the runner's own checks answered)
    diff = _bits(on, off, "result") or _bits(list(args_on), list(args_off), "arguments")
    if diff:
        return Outcome("failed", "mismatch", "fission", diff)
    return dataclasses.replace(outcome, kernel="fission" if split else "rolled")
