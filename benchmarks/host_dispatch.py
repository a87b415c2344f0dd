"""Where np2ref.compile's host route pays: NumPy against the jitted translation on loop-free
kernels of growing size (the measurement behind np2ref.compile's HOST_BELOW).

    python benchmarks/host_dispatch.py [--rounds N] [--sizes 10 100 ...]

Columns: NumPy (the original), jitted (np2ref.compile(host_below=0), NumPy arrays in and out),
host (np2ref.compile with the default host_below: the original when the program is small),
each the median of interleaved rounds (a round: the mean of a batch of calls). Timing, not a
test: no assertions on numbers.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import jax
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import suite_kernels as K  # noqa: E402

import np2ref  # noqa: E402


def shapes(name, n):
    r = np.random.default_rng(0).random
    return {"small_poly": (r(n),), "small_axpy_": (r(n), 0.5, r(n)), "small_norm": (r(n), r(n)),
            "column_stats": (r((max(1, n // 10), 10)),)}[name]


def batch(fn, budget=0.01):
    t = time.perf_counter()
    fn()
    calls = max(3, min(2000, int(budget / max(time.perf_counter() - t, 1e-7))))
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t) / calls


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000, 3000, 10_000, 30_000, 100_000])
    a = p.parse_args(argv)
    print(f"jax {jax.__version__}, numpy {np.__version__}, {jax.default_backend()}, medians of {a.rounds} rounds")
    print()
    print("| kernel | elements | NumPy | jitted | host route | jitted / NumPy | host / NumPy |")
    print("|---|---|---|---|---|---|---|")
    for name in ("small_poly", "small_axpy_", "small_norm", "column_stats"):
        fn = getattr(K, name)
        jitted, host = np2ref.compile(fn, host_below=0), np2ref.compile(fn)
        for n in a.sizes:
            args = [shapes(name, n) for _ in range(3)]
            cases = {"NumPy": lambda: fn(*args[0]), "jitted": lambda: jitted(*args[1]),
                     "host": lambda: host(*args[2])}
            for c in cases.values():
                c()
            samples = {c: [] for c in cases}
            for k in range(a.rounds):
                for c in (list(cases) if k % 2 == 0 else list(cases)[::-1]):
                    samples[c].append(batch(cases[c]))
            m = {c: statistics.median(s) for c, s in samples.items()}
            print(f"| {name} | {n:,} | {m['NumPy'] * 1e6:.1f} µs | {m['jitted'] * 1e6:.1f} µs | "
                  f"{m['host'] * 1e6:.1f} µs | {m['jitted'] / m['NumPy']:.2f} | {m['host'] / m['NumPy']:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
