"""The verdict of np2ref.compile on every corpus/ program and tests/third_party script that calls
the builtin max()/min(): `same` (NumPy's values, dtypes and arguments), an NPR code (refused),
`DIFF` (a wrong answer) or an exception's name. Prints a table, one row a program's check.

    PYTHONPATH=. python benchmarks/pick_verdicts.py > after.txt
    PYTHONPATH=/path/to/other/checkout python benchmarks/pick_verdicts.py > before.txt

(the np2ref imported decides which translator is measured; the programs are this checkout's)."""

from __future__ import annotations

import contextlib
import copy
import importlib.util
import io
import os
import re
import sys
import warnings
from pathlib import Path

import numpy as np

os.environ.setdefault("NP2REF_HOST_BELOW", "0")
os.environ.setdefault("NP2REF_NO_CACHE", "1")
import np2ref  # noqa: E402
from np2ref.verify.compare import first_difference  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PICK = re.compile(r"(^|[^.\w])(max|min)\(")


def _import(path: Path):
    spec = importlib.util.spec_from_file_location(f"pick_{path.parent.name}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    with contextlib.redirect_stdout(io.StringIO()):
        spec.loader.exec_module(module)
    return module


def verdict(fn, args: tuple, kwargs: dict) -> str:
    a0, a1 = copy.deepcopy((args, kwargs)), copy.deepcopy((args, kwargs))
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.random.seed(0)
        want = fn(*a0[0], **a0[1])
        np.random.seed(0)
        try:
            got = np2ref.compile(fn, host_below=0)(*a1[0], **a1[1])
        except np2ref.Np2RefError as exc:
            codes = sorted({d.code for d in getattr(exc, "diagnostics", ())} or {getattr(exc, "code", "?")})
            return "/".join(codes)
        except Exception as exc:
            code = getattr(exc, "code", None)
            return code or type(exc).__name__
    diffs = [first_difference(want, got)] + [first_difference(x, y, "argument") for x, y in zip(a0[0], a1[0])
                                              if isinstance(x, np.ndarray)]
    diffs += [first_difference(x, a1[1][k], k) for k, x in a0[1].items() if isinstance(x, np.ndarray)]
    return "same" if not any(diffs) else "DIFF"


def checks():
    """(row name, function, args, kwargs) of each program's check (NumPy's result compared by
    np2ref.verify.compare.first_difference, as the tests compare)."""
    for path in sorted((ROOT / "corpus").glob("*.py")):
        if PICK.search(path.read_text()):
            module = _import(path)
            yield f"corpus/{path.stem}", getattr(module, module.ENTRY), (), module.make_inputs("small")
    for path in sorted((ROOT / "tests" / "third_party").glob("scripts*/*.py")):
        if not PICK.search(path.read_text()):
            continue
        module = _import(path)
        for key, make in sorted(getattr(module, "CHECKS", {}).items()):
            inputs = make()
            args, kwargs = (inputs, {}) if isinstance(inputs, tuple) else ((), inputs)
            yield f"{path.parent.name}/{path.stem}:{key}", getattr(module, key.split("#")[0]), args, kwargs


def main():
    for name, fn, args, kwargs in checks():
        print(f"{name:60s} {verdict(fn, args, kwargs)}", flush=True)


if __name__ == "__main__":
    main()
