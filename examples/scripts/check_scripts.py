"""Run whole simulation scripts three ways through np2ref and compare with NumPy (docs/scripts.md).

For each `examples/scripts/<name>.py` (or the names given):

- **convert**: `np2ref convert` writes `<tmp>/<name>_ref.py`; both files run with Python and
  their printed output (numbers printed with `repr`) is compared: equal text, or the largest
  relative difference of the numbers when the text differs;
- **compile**: every function the script's `CHECKS` names (default: `ENTRY` on
  `make_inputs("small")`) through `np2ref.compile(fn, host_below=0)` against the original on
  deep copies of the same inputs: the result and every array argument, dtypes and shapes,
  "bitwise" when equal bit for bit, else NumPy's tolerance as `np2ref verify` defines it;
- **verify**: `np2ref verify <name>.py::ENTRY` (jit, vmap, grad) with a few examples.

`python examples/scripts/check_scripts.py [names] [--no-verify] [--examples N]` prints one block
per script. NP2REF_HOST_BELOW=0: every call runs the translation, never the host route.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import importlib.util
import inspect
import os
import re
import subprocess
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

import numpy as np

os.environ["NP2REF_HOST_BELOW"] = "0"
os.environ["NP2REF_NO_CACHE"] = "1"
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf")


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = f"{ROOT}{os.pathsep}{env.get('PYTHONPATH', '')}"
    return env


def _run(args, timeout=900):
    p = subprocess.run(args, capture_output=True, text=True, env=_env(), timeout=timeout, cwd=ROOT)
    return p.returncode, p.stdout, p.stderr


def _text_distance(a: str, b: str) -> str:
    """'same text', or the largest relative difference of the printed numbers."""
    if a == b:
        return "same text"
    na, nb = NUMBER.findall(a), NUMBER.findall(b)
    if len(na) != len(nb) or NUMBER.sub("#", a) != NUMBER.sub("#", b):
        return "DIFFERENT TEXT"
    worst = 0.0
    for x, y in zip(na, nb):
        fx, fy = float(x), float(y)
        if fx != fy and not (np.isnan(fx) and np.isnan(fy)):
            worst = max(worst, abs(fx - fy) / max(abs(fx), abs(fy), 1e-300))
    return f"numbers differ, worst relative {worst:.2e}"


def convert(path: Path, tmp: Path) -> str:
    out = tmp / f"{path.stem}_ref.py"
    rc, so, se = _run([sys.executable, "-m", "np2ref.cli", "convert", str(path), "-o", str(out)])
    notes = "".join(line + "\n" for line in (so + se).splitlines() if "NPR" in line)
    if not out.exists():
        return f"convert failed rc={rc}\n{so}{se}"
    rc0, o0, e0 = _run([sys.executable, str(path)])
    rc1, o1, e1 = _run([sys.executable, str(out)])
    if rc0:
        return f"ORIGINAL FAILED rc={rc0}\n{e0[-2000:]}"
    if rc1:
        return f"{notes}CONVERTED SCRIPT FAILED rc={rc1}\n{e1[-3000:]}"
    return f"{notes}{_text_distance(o0, o1)}"


def _load(path: Path):
    name = f"np2ref_script_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _bitwise(e, g) -> bool:
    if isinstance(e, (tuple, list)):
        return isinstance(g, (tuple, list)) and len(e) == len(g) and all(map(_bitwise, e, g))
    if isinstance(e, dict):
        return all(_bitwise(e[k], g.get(k)) for k in e)
    if e is None or isinstance(e, str):
        return e == g
    ea, ga = np.asarray(e), np.asarray(g)
    return (ea.shape == ga.shape and ea.dtype == ga.dtype
            and ea.tobytes() == ga.tobytes()) or bool(np.array_equal(ea, ga, equal_nan=ea.dtype.kind in "fc"))


def _types(v):
    if isinstance(v, (tuple, list)):
        return [type(v).__name__, *map(_types, v)]
    return type(v).__name__ if not isinstance(v, np.ndarray) else f"ndarray {v.dtype}"


def compile_one(module, name: str, make) -> str:
    import jax

    import np2ref
    from np2ref.verify.compare import first_difference

    fn = getattr(module, name.split("#")[0])   # "f#case": f on another set of inputs
    inputs = make()
    args, kwargs = (inputs, {}) if isinstance(inputs, tuple) else ((), inputs)
    a0, k0 = copy.deepcopy((args, kwargs))
    a1, k1 = copy.deepcopy((args, kwargs))
    try:
        compiled = np2ref.compile(fn, host_below=0)
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()) as printed1:
            warnings.simplefilter("ignore")
            got = compiled(*a1, **k1)
            jax.effects_barrier()
    except Exception as exc:  # errors are data: report the code
        code = getattr(exc, "code", None) or "/".join(d.code for d in getattr(exc, "diagnostics", ()))
        return f"{name}: {'refused ' + code if code else 'CRASH'} {type(exc).__name__}: {str(exc)[:400]}"
    with contextlib.redirect_stdout(io.StringIO()) as printed0:
        expected = fn(*a0, **k0)
    sig = inspect.signature(fn)
    before, after = sig.bind(*a0, **k0).arguments, sig.bind(*a1, **k1).arguments
    pairs = [("result", expected, got)] + [(f"arg {k}", v, after[k]) for k, v in before.items()
                                            if isinstance(v, np.ndarray)]
    diffs = [d for w, e, g in pairs if (d := first_difference(e, g, w))]
    if _types(expected) != _types(got):
        diffs.append(f"result types {_types(got)} vs {_types(expected)}")
    if diffs:
        return f"{name}: WRONG {diffs}"
    exact = all(_bitwise(e, g) for _, e, g in pairs)
    prints = _text_distance(printed0.getvalue(), printed1.getvalue())
    return f"{name}: {'bitwise' if exact else 'to tolerance'} ({len(pairs)} compared; prints: {prints})"


def compile_all(path: Path) -> list[str]:
    module = _load(path)
    checks = getattr(module, "CHECKS", None) or {module.ENTRY: lambda: module.make_inputs("small")}
    lines = []
    for name, make in checks.items():
        try:
            lines.append(compile_one(module, name, make))
        except Exception:
            lines.append(f"{name}: HARNESS/ORIGINAL ERROR\n{traceback.format_exc()[-1500:]}")
    return lines


def verify(path: Path, examples: int) -> str:
    module_text = path.read_text()
    entry = re.search(r'^ENTRY = "(\w+)"', module_text, re.M)
    if not entry:
        return "no ENTRY"
    rc, so, se = _run([sys.executable, "-m", "np2ref.cli", "verify", f"{path}::{entry.group(1)}",
                       "--examples", str(examples)])
    text = so + se
    start = text.find("np2ref verify ")
    return f"rc={rc}\n{text[start if start >= 0 else 0:].strip()[-2500:]}"


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--no-verify", action="store_true")
    ap.add_argument("--no-convert", action="store_true")
    ap.add_argument("--examples", type=int, default=5)
    opts = ap.parse_args(argv)
    names = opts.names or sorted(p.stem for p in HERE.glob("*.py") if p.stem != "check_scripts")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            path = HERE / f"{name}.py"
            print(f"== {name}", flush=True)
            if not opts.no_convert:
                print("convert:", convert(path, Path(tmp)), flush=True)
            for line in compile_all(path):
                print("compile:", line, flush=True)
            if not opts.no_verify:
                print("verify:", verify(path, opts.examples), flush=True)


if __name__ == "__main__":
    main()
