"""What one step of a sequential element loop costs on this device (issue 38 item 5, issue 39).

    python benchmarks/seq_loops.py [--sizes 16,48,128] [--calls 200] [--only NAME,...]

For each kernel of benchmarks/seq_kernels.py (float64, `preserve`): NumPy's time, the jitted
`np2ref.compile(fn).pure` on device arrays (the fastest of --calls calls: what a call costs when
nothing interrupted it), its time per innermost step, and what the compiled program does per
step: HLO instructions in the while-loop bodies, whole-array copies among them (`copy` of an
array of the loop's largest shape: what reading an element through an earlier store cost), and
whether the results equal NumPy's bit for bit (a dot's sum is XLA's order; XLA:CPU contracts
multiply-adds: see docs/semantics.md) and a checksum of their bytes, which a change to the emitted
loop that claims to keep its bits must leave as it was.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
import zlib
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import seq_kernels as K  # noqa: E402
from loop_shapes import hlo_loops  # noqa: E402

import np2ref  # noqa: E402


def fastest(f, calls):
    best = math.inf
    for _ in range(calls):
        t = time.perf_counter()
        jax.block_until_ready(f())
        best = min(best, time.perf_counter() - t)
    return best


def copies(hlo, shape):
    """Copies of an array of `shape` (e.g. "f64[48,48]") inside while-loop bodies."""
    bodies = set(re.findall(r"body=%?([\w.\-]+)", hlo))
    count, name = 0, None
    for line in hlo.splitlines():
        head = re.match(r"^%?([\w.\-]+) .*\{$", line)
        if head:
            name = head.group(1)
        elif name in bodies and re.search(rf"= {re.escape(shape)}\{{[\d,]*\}} copy\(", line):
            count += 1
    return count


def numpy_time(fn, args, repeats=3):
    best = math.inf
    for _ in range(repeats):
        fresh = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        t = time.perf_counter()
        fn(*fresh)
        best = min(best, time.perf_counter() - t)
    return best


def row(name, n, calls):
    fn = getattr(K, name)
    args = K.inputs(name, n)
    comp = np2ref.compile(fn, host_below=0)
    ref = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    fn(*ref)
    got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    comp(*got)
    exact = all(np.array_equal(a, b) for a, b in zip(ref, got) if isinstance(a, np.ndarray))
    crc = zlib.crc32(b"".join(np.ascontiguousarray(g).tobytes() for g in got if isinstance(g, np.ndarray)))
    dev = [jax.device_put(a) if isinstance(a, np.ndarray) else a for a in args]
    pure = jax.jit(comp.pure)
    jax.block_until_ready(pure(*dev))
    t = fastest(lambda: pure(*dev), calls)
    hlo = pure.lower(*dev).compile().as_text()
    _, ops, _ = hlo_loops(hlo)
    big = f"f64[{n},{n}]"
    steps = K.steps(name, n)
    return (f"| {name} | {n} | {numpy_time(fn, args) * 1e3:.3f} | {t * 1e3:.3f} | {t / steps * 1e9:.0f} | "
            f"{ops} | {copies(hlo, big)} | {'yes' if exact else 'no'} | {crc:08x} |")


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="16,48,128")
    p.add_argument("--calls", type=int, default=200)
    p.add_argument("--only", default="")
    a = p.parse_args(argv)
    jax.config.update("jax_enable_x64", True)
    names = [k for k in K.NAMES if not a.only or k in a.only.split(",")]
    print(f"jax {jax.__version__}, {jax.devices()[0].device_kind}")
    print("| kernel | n | NumPy ms | np2ref ms | ns / step | HLO ops in loop bodies | n x n copies in loop bodies | "
          "bits equal NumPy's | crc32 of the results |\n|---|---|---|---|---|---|---|---|---|")
    for name in names:
        for n in map(int, a.sizes.split(",")):
            print(row(name, n, a.calls), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
