"""Sequential element loops as lax loops and as Pallas kernels (`loops="pallas"`), float32.

    python benchmarks/pallas_loops.py [--quick] [--sizes 16,32,64] [--calls 50]

Runs on whatever device JAX sees: on a TPU the kernels are compiled by Mosaic (every array whole
in SMEM), elsewhere they run in Pallas's interpret mode (slow: it says nothing of a TPU's speed).
Per kernel of benchmarks/seq_kernels.py's scalar forms (Cholesky, LU, Gauss-Seidel, forward
substitution) and size: NumPy's time (the fastest of 3 runs of the original loop), the jitted
`np2ref.compile(fn).pure` on float32 device arrays (h2 a float32 scalar) with the lax loop and with
`loops="pallas"` (the fastest of --calls calls), the kernel's time per innermost step, what the
Pallas trace made of the nest (explain(): a kernel, or the lax loop and why), and the largest
difference from NumPy's float32 result of each. --quick: sizes 8 and 16, 5 calls (under 2
minutes on a CPU in interpret mode).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import seq_kernels as K  # noqa: E402

import np2ref  # noqa: E402


def fastest(f, calls):
    best = math.inf
    for _ in range(calls):
        t = time.perf_counter()
        jax.block_until_ready(f())
        best = min(best, time.perf_counter() - t)
    return best


def numpy_run(fn, args, repeats=3):
    best, out = math.inf, None
    for _ in range(repeats):
        fresh = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        t = time.perf_counter()
        fn(*fresh)
        best, out = min(best, time.perf_counter() - t), fresh
    return best, out


def timed(fn, args, loops, calls):
    """(seconds a call, the mutated arrays after one call, what the trace made of the nest)."""
    comp = np2ref.compile(fn, host_below=0, loops=loops)
    got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    comp(*got)
    note = "".join(re.findall(r"when traced: (.*)", comp.explain())) or "-"
    dev = [jax.device_put(a) if isinstance(a, np.ndarray) else a for a in args]
    static = tuple(k for k, a in enumerate(args) if isinstance(a, int))
    pure = jax.jit(comp.pure, static_argnums=static)
    jax.block_until_ready(pure(*dev))
    return fastest(lambda: pure(*dev), calls), got, note


def diff(got, ref):
    if got is None:
        return math.nan
    return max(float(np.max(np.abs(g.astype(np.float64) - r))) for g, r in zip(got, ref) if isinstance(r, np.ndarray))


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--sizes", default="16,32,64")
    p.add_argument("--calls", type=int, default=50)
    p.add_argument("--only", default="")
    a = p.parse_args(argv)
    jax.config.update("jax_enable_x64", True)  # as np2ref's own calls run `.pure` (the arrays stay float32)
    sizes, calls = ((8, 16), 5) if a.quick else (tuple(map(int, a.sizes.split(","))), a.calls)
    dev = jax.devices()[0]
    print(f"jax {jax.__version__}, {dev.platform} ({dev.device_kind}); "
          f"{'Mosaic' if dev.platform == 'tpu' else 'interpret mode'}; float32\n")
    print("| kernel | n | steps | NumPy ms | lax loop ms | Pallas ms | Pallas ns / step | lax / Pallas | "
          "the Pallas trace | max diff lax / Pallas vs NumPy |\n|---|---|---|---|---|---|---|---|---|---|")
    for name in K.SCALAR:
        if a.only and name not in a.only.split(","):
            continue
        fn = getattr(K, name)
        for n in sizes:
            args = K.inputs(name, n, np.float32)
            t_np, ref = numpy_run(fn, args)
            rows = []
            for loops in ("xla", "pallas"):
                try:
                    rows.append(timed(fn, args, loops, calls))
                except Exception as exc:  # a failing route says so; the table goes on
                    rows.append((math.nan, None, f"error: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}"))
            (t_lax, got_lax, why), (t_pk, got_pk, note) = rows
            note = note if got_lax is not None else f"{note}; the lax loop: {why}"
            steps = K.steps(name, n)
            print(f"| {name} | {n} | {steps} | {t_np * 1e3:.3f} | {t_lax * 1e3:.3f} | {t_pk * 1e3:.3f} | "
                  f"{t_pk / steps * 1e9:.0f} | {t_lax / t_pk:.2f} | {note} | "
                  f"{diff(got_lax, ref):.1e} / {diff(got_pk, ref):.1e} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
