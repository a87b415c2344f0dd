"""Which forms XLA's algebraic simplifier (or LLVM after it) computes differently from NumPy:
each candidate form jitted with jax.numpy (XLA's defaults), through np2ref.compile (host_below=0),
jitted with np2ref.BITWISE_OPTIONS and through np2ref.compile(bitwise=True), against the same NumPy expression; the number of elements
that differ in any bit (NaN equals NaN) of N values, for float64 and float32, on three inputs:
standard normal, a grid a tenth apart (values on decimal edges), and special values (-0.0, inf,
nan, huge, tiny). The "decides" column: np2ref.compile of `(form).astype(int64)` on the grid,
the cells that differ from NumPy's (a value that reaches a decision, docs/semantics.md).

    python benchmarks/xla_folds.py [--n N] [--only SUBSTRING]

A measurement, not a test: differences are the table's numbers, not failures.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import np2ref  # noqa: E402

# name -> expression of x, y (y > 0 where the form needs it: `py`), s (a traced 0-d scalar) and xp
FORMS = {
    "x + 0.0": "x + 0.0",
    "x - 0.0": "x - 0.0",
    "0.0 - x": "0.0 - x",
    "x - x": "x - x",
    "x * 0.0": "x * 0.0",
    "x * 1.0": "x * 1.0",
    "x / 1.0": "x / 1.0",
    "a*c + b*c": "x * 0.3 + y * 0.3",
    "a*s + b*s (traced s)": "x * s + y * s",
    "exp(a) * exp(b)": "xp.exp(x) * xp.exp(y)",
    "log(exp(x))": "xp.log(xp.exp(x))",
    "exp(log(y))": "xp.exp(xp.log(py))",
    "y ** 0.5": "py ** 0.5",
    "x ** 2": "x ** 2",
    "x ** 2.0": "x ** 2.0",
    "x ** -1": "x ** -1.0",
    "x ** 3": "x ** 3",
    "x ** 3.0": "x ** 3.0",
    "y ** 1.5": "py ** 1.5",
    "sqrt(y) * sqrt(y)": "xp.sqrt(py) * xp.sqrt(py)",
    "y / sqrt(y)": "py / xp.sqrt(py)",
    "-(a - b)": "-(x - y)",
    "(a - b) + b": "(x - y) + y",
    "a * (1 / b)": "x * (1.0 / y)",
    "(a / b) * b": "(x / y) * y",
    "x * 2.0 / 2.0": "x * 2.0 / 2.0",
    "x * 3.0 / 3.0": "x * 3.0 / 3.0",
    "max(x, x)": "xp.maximum(x, x)",
    "x / 3.0 / 7.0": "x / 3.0 / 7.0",
    "(x * 3.0) / 7.0": "(x * 3.0) / 7.0",
    "3.0 / (7.0 * y)": "3.0 / (7.0 * py)",
    "(x + 0.1) * 3.0": "(x + 0.1) * 3.0",
    "x * 0.1 + 0.7": "x * 0.1 + 0.7",
    "x + 0.1 - 0.1": "x + 0.1 - 0.1",
    "x - 0.1 + 0.1": "x - 0.1 + 0.1",
    "x + 1.1 + 1.3": "x + 1.1 + 1.3",
    "x * 1.1 * 1.3": "x * 1.1 * 1.3",
    "x + s + 1.3 (traced s)": "x + s + 1.3",
    "x + 1.0 > 2.0": "x + 1.0 > 2.0",
    "x * 0.1 > 0.3": "x * 0.1 > 0.3",
    "abs(x) >= 0": "xp.abs(x) >= 0",
    "x == x": "x == x",
    "x != x": "x != x",
    "floor(x + 0.5)": "xp.floor(x + 0.5)",
    "round(x)": "xp.round(x)",
    "sum(x * 0.1)": "xp.sum(x * 0.1)",
    "sum(x) * 0.1": "xp.sum(x) * 0.1",
    "sum(x * s) (traced s)": "xp.sum(x * s)",
    "dot(x * 0.1, y)": "xp.dot(x * 0.1, y)",
    "dot(x, y * 0.1)": "xp.dot(x, y * 0.1)",
    "concat slice": "xp.concatenate([x, y])[3:x.shape[0] + 3] * 0.1",
    "x[::-1][::-1] / 3.0": "x[::-1][::-1] / 3.0",
    "mean(x * 10)": "xp.mean(x * 10.0)",
    "x * 10 / 10": "x * 10.0 / 10.0",
    "x / 10 * 10": "x / 10.0 * 10.0",
    "(x + y) - y": "(x + y) - y",
    "x * y / y": "x * y / y",
    "y * y / y": "py * py / py",
    "exp(x) / exp(y)": "xp.exp(x) / xp.exp(y)",
    "log(y * y)": "xp.log(py * py)",
    "log(y) + log(y)": "xp.log(py) + xp.log(py)",
    "sqrt(y * y)": "xp.sqrt(py * py)",
    "abs(-x)": "xp.abs(-x)",
    "-(-x) * 3": "-(-x) * 3.0",
    "x * -1.0": "x * -1.0",
    "clip(x, -1, 1)": "xp.clip(x, -1.0, 1.0)",
    "minimum(maximum(x, 0), 1)": "xp.minimum(xp.maximum(x, 0.0), 1.0)",
    "where(x > 0, x, 0) * 3": "xp.where(x > 0, x, 0.0) * 3.0",
    "x ** 4": "x ** 4",
    "x ** 0.25": "py ** 0.25",
    "1 / sqrt(y)": "1.0 / xp.sqrt(py)",
    "sqrt(1 / y)": "xp.sqrt(1.0 / py)",
    "hypot-ish sqrt(x*x+y*y)": "xp.sqrt(x * x + y * y)",
}


def module_source() -> str:
    body = ["import numpy as xp\n"]
    for i, expr in enumerate(FORMS.values()):
        body.append(f"\ndef f{i}(x, y, py, s):\n    return {expr}\n")
        body.append(f"\ndef d{i}(x, y, py, s):\n    return xp.asarray({expr}).astype(xp.int64)\n")
    return "".join(body)


def load(path: Path):
    spec = importlib.util.spec_from_file_location("np2ref_xla_folds", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def differing(expected, got) -> int:
    e, g = np.asarray(expected), np.asarray(got)
    if e.shape != g.shape:
        return -1
    if e.dtype != g.dtype:
        g = g.astype(e.dtype)
    if e.dtype.kind not in "fc":
        return int(np.sum(e != g))
    e, g = e.reshape(-1), g.reshape(-1)
    same = e.view(np.uint8).reshape(e.size, -1) == g.view(np.uint8).reshape(g.size, -1)
    same = same.all(axis=1) | (np.isnan(e) & np.isnan(g))
    return int((~same).sum())


def inputs(kind: str, n: int, dtype, rng):
    if kind == "normal":
        x, y = rng.standard_normal(n), rng.standard_normal(n)
    elif kind == "grid":
        x = np.arange(n) / 10.0 - n / 20.0
        y = rng.permutation(x)
    else:
        big = np.finfo(dtype).max
        tiny = np.finfo(dtype).tiny
        specials = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, big, -big, tiny, -tiny, tiny / 4, 1.0, -1.0])
        x = np.repeat(specials, len(specials))
        y = np.tile(specials, len(specials))
    x, y = x.astype(dtype), y.astype(dtype)
    with np.errstate(all="ignore"):
        py = np.abs(y) + dtype(0.5) if kind != "special" else np.abs(y)
    return x, y, py, dtype(0.3)


def run(fn, args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 (a form np2ref refuses: the table says so)
            return exc


def cell(expected, got) -> str:
    if isinstance(got, Exception):
        return type(got).__name__
    return str(differing(expected, got))


def table(n: int, only: str) -> None:
    print(f"jax {jax.__version__}, {jax.devices()[0].device_kind}; N = {n}")
    print("| form | dtype | input | jax.jit | np2ref | jax.jit bitwise | np2ref bitwise | decides (np2ref, grid cells) |")
    print("|---|---|---|---|---|---|---|---|")
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp, jax.enable_x64(True):
        path = Path(tmp) / "np2ref_xla_folds.py"
        path.write_text(module_source())
        module = load(path)
        for dtype in (np.float64, np.float32):
            data = {k: inputs(k, n, dtype, rng) for k in ("normal", "grid", "special")}
            for i, (name, expr) in enumerate(FORMS.items()):
                if only and only not in name:
                    continue
                k = eval(f"lambda x, y, py, s: {expr}", {"xp": jnp})  # noqa: S307 (our own forms)
                fns = [jax.jit(k), np2ref.compile(getattr(module, f"f{i}"), host_below=0),
                       jax.jit(k, compiler_options=np2ref.BITWISE_OPTIONS),
                       np2ref.compile(getattr(module, f"f{i}"), host_below=0, bitwise=True)]
                decide = np2ref.compile(getattr(module, f"d{i}"), host_below=0)
                for kind, args in data.items():
                    expected = run(getattr(module, f"f{i}"), args)
                    cells = [cell(expected, run(f, args)) for f in fns]
                    decided = "-"
                    if kind == "grid":
                        decided = cell(run(getattr(module, f"d{i}"), args), run(decide, args))
                    if any(c != "0" for c in cells + [decided]) or kind == "normal":
                        print(f"| {name} | {np.dtype(dtype).name} | {kind} | " + " | ".join(cells) +
                              f" | {decided} |", flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python benchmarks/xla_folds.py")
    p.add_argument("--n", type=int, default=100_000)
    p.add_argument("--only", default="", help="only the forms whose name holds this")
    args = p.parse_args(argv)
    table(args.n, args.only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
