"""How often a jitted float result is bit-identical to NumPy's, with XLA's default options and
with `np2ref.compile(..., bitwise=True)`'s (np2ref.BITWISE_OPTIONS).

    python benchmarks/bitwise.py [--n N] [--corpus]

Kernels: each elementwise kernel on N standard-normal inputs (float64 and float32), jitted
as written with jax.numpy (XLA's defaults), through np2ref.compile (the NumPy expression; its
divisions fenced, docs/semantics.md) and with the bitwise options, compared bit for bit with
the same NumPy expression; the fraction of identical elements and the median time a call. `--corpus`: every
corpus/ program through np2ref.compile with and without bitwise=True on make_inputs("small"):
the fraction of float output elements (result and array arguments after the call) identical
to NumPy's, and how many programs are identical in every element. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
import np2ref  # noqa: E402

BITWISE = np2ref.BITWISE_OPTIONS

# name -> the expression, of a, b, c and xp (numpy or jax.numpy)
KERNELS = {
    "a*b+c (FMA)": "a * b + c",
    "c-a*b (FMA)": "c - a * b",
    "a/9.0 (reciprocal)": "a / 9.0",
    "a/b": "a / b",
    "a/b/c": "a / b / c",
    "a/sqrt(|b|) (rsqrt)": "a / xp.sqrt(xp.abs(b))",
    "a*a, |a|**0.5": "a * a + xp.abs(a) ** 0.5",
    "exp(a)": "xp.exp(a)",
    "log(|a|)": "xp.log(xp.abs(a))",
    "sin(a)": "xp.sin(a)",
    "tanh(a)": "xp.tanh(a)",
    "power(|a|, b)": "xp.power(xp.abs(a), b)",
    "row sums (100 each)": "a.reshape(-1, 100).sum(axis=1)",
    "sum(a) (one value)": "a.sum()",
    "cumsum(a)": "xp.cumsum(a)",
}


def kernel(expr: str, xp):
    return eval(f"lambda a, b, c: {expr}", {"xp": xp})  # noqa: S307 (our own expressions)


def np2ref_kernels(directory: Path):
    """KERNELS as NumPy functions in a module np2ref.compile can read: name -> function."""
    path = directory / "np2ref_bitwise_kernels.py"
    path.write_text("import numpy as xp\n\n" + "".join(
        f"\ndef k{i}(a, b, c):\n    return {expr}\n\n" for i, expr in enumerate(KERNELS.values())))
    module = _load(path)
    return {name: getattr(module, f"k{i}") for i, name in enumerate(KERNELS)}


def identical(expected, got) -> tuple[int, int]:
    """(elements with the same bits, or both NaN; elements) of two float arrays."""
    e, g = np.asarray(expected), np.asarray(got)
    if e.shape != g.shape or e.dtype != g.dtype:
        return 0, max(e.size, 1)
    if e.dtype.kind not in "fc":
        return int(np.sum(e == g)), e.size
    e, g = e.reshape(-1), g.reshape(-1)
    same = e.view(np.uint8).reshape(e.size, -1) == g.view(np.uint8).reshape(g.size, -1)
    same = same.all(axis=1) | (np.isnan(e) & np.isnan(g))
    return int(same.sum()), e.size


def median_call(fn, args, repeats=15):
    jax.block_until_ready(fn(*args))
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def kernel_table(n: int) -> list[str]:
    rows = ["| kernel | dtype | identical, jax.jit | identical, np2ref.compile | identical, bitwise | "
            "time jax.jit | time np2ref | time bitwise |", "|---|---|---|---|---|---|---|---|"]
    print("\n".join(rows), flush=True)
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp, jax.enable_x64(True):
        compiled = np2ref_kernels(Path(tmp))
        for dtype in (np.float64, np.float32):
            a, b, c = (rng.standard_normal(n).astype(dtype) for _ in range(3))
            for name, expr in KERNELS.items():
                expected = kernel(expr, np)(a, b, c)
                k = kernel(expr, jnp)
                fns = [jax.jit(k), np2ref.compile(compiled[name], host_below=0),
                       jax.jit(k, compiler_options=BITWISE)]
                cells, times = [], []
                for f in fns:
                    same, total = identical(expected, f(a, b, c))
                    cells.append(f"{same / total:.1%}")
                    times.append(f"{median_call(f, (a, b, c)) * 1e6:.0f} µs")
                rows.append(f"| {name} | {np.dtype(dtype).name} | " + " | ".join(cells + times) + " |")
                print(rows[-1], flush=True)
    return rows


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"np2ref_bitwise_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _outputs(result, arguments):
    leaves = [x for x in jax.tree_util.tree_leaves(result)
              if isinstance(x, (np.ndarray, np.generic, int, float, complex))]
    leaves += [v for v in arguments.values() if isinstance(v, np.ndarray)]
    return [np.asarray(x) for x in leaves]


def corpus_table() -> list[str]:
    rows = ["| program | float elements | identical, default | identical, bitwise |", "|---|---|---|---|"]
    totals = {False: [0, 0, 0], True: [0, 0, 0]}  # same elements, elements, identical programs
    programs = 0  # with float outputs
    for path in sorted((ROOT / "corpus").glob("*.py")):
        if "expect-refused" in path.read_text():
            continue
        module = _load(path)
        fn = getattr(module, module.ENTRY)
        inputs = module.make_inputs("small")
        args = copy.deepcopy(inputs)
        expected = _outputs(fn(**args), args)
        cells, size = [], 0
        for bitwise in (False, True):
            args = copy.deepcopy(inputs)
            got = _outputs(np2ref.compile(fn, bitwise=bitwise)(**args), args)
            counts = [identical(e, g) for e, g in zip(expected, got)
                      if np.asarray(e).dtype.kind in "fc"]
            same, size = sum(s for s, _ in counts), sum(t for _, t in counts)
            totals[bitwise][0] += same
            totals[bitwise][1] += size
            totals[bitwise][2] += bool(size) and same == size and len(got) == len(expected)
            cells.append(f"{same / size:.1%}" if size else "-")
        programs += bool(size)
        rows.append(f"| {path.stem} | {size} | " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    for bitwise in (False, True):
        same, size, whole = totals[bitwise]
        rows.append(f"{'bitwise' if bitwise else 'default'}: {same / size:.2%} of {size} float output "
                    f"elements identical; {whole} of the {programs} programs with float outputs identical in "
                    "every element")
        print(rows[-1], flush=True)
    return rows


def stencil_cost(n=512, steps=50) -> list[str]:
    """The cost of the options on a memory-bound stencil: benchmarks/kernels.py's 2-D heat
    step through np2ref.compile, n x n float64, `steps` steps in one call."""
    import kernels

    u0 = np.random.default_rng(0).random((n, n))
    expected = u0.copy()
    kernels.heat(expected, 0.1, steps)
    rows = []
    for bitwise in (False, True):
        f = np2ref.compile(kernels.heat, bitwise=bitwise)
        u = u0.copy()
        f(u, 0.1, steps)
        same, total = identical(expected, u)
        t = median_call(lambda: f(u0.copy(), 0.1, steps), (), repeats=7)
        rows.append(f"heat {n}x{n}, {steps} steps, bitwise={bitwise}: {t * 1e3:.1f} ms a call, "
                    f"{same / total:.1%} identical to NumPy")
        print(rows[-1], flush=True)
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python benchmarks/bitwise.py")
    p.add_argument("--n", type=int, default=100_000, help="elements per kernel input")
    p.add_argument("--corpus", action="store_true", help="also the corpus programs through np2ref.compile")
    args = p.parse_args(argv)
    print(f"jax {jax.__version__}, {jax.devices()[0].device_kind}; bitwise options {BITWISE}")
    kernel_table(args.n)
    stencil_cost()
    if args.corpus:
        corpus_table()
    return 0


if __name__ == "__main__":
    sys.exit(main())
