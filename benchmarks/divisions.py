"""What fencing divisions costs (docs/semantics.md, "Divisions that decide are NumPy's"): kernels
that divide by a scalar, through np2ref.compile with the fence on (the default: a quotient that
reaches a decision is NumPy's division) and off (XLA's `x * (1 / c)` everywhere), in one
process, alternating, called with NumPy arrays. Only the particle cells decide on a quotient.

    python benchmarks/divisions.py [--repeats N]

Prints the median time a call of each, their ratio, and the fraction of elements bit-identical
to NumPy. A measurement, not a test. The float32 kernels widened into float64 decide nothing but
the widening (a widening cast decides since session 14: `--only float32`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import np2ref  # noqa: E402
from np2ref.rt import divisions  # noqa: E402


def box_blur(u):
    return (u[:-2, :-2] + u[:-2, 1:-1] + u[:-2, 2:] + u[1:-1, :-2] + u[1:-1, 1:-1]
            + u[1:-1, 2:] + u[2:, :-2] + u[2:, 1:-1] + u[2:, 2:]) / 9.0


def diffusion(u, dx, steps):
    for _ in range(steps):
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.1 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:]
                                               + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1]) / (dx * dx)
    return u


def softmax_rows(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def particle_cells(x, dx, ncell):
    cell = (x / dx).astype(np.int64)
    return np.bincount(cell, minlength=ncell)


def normalise(v):
    return v / np.sqrt(np.sum(v * v))


def widened_quotient(x, w):
    w[...] = x / np.float32(3.0)  # float32 quotient stored into float64: fenced since session 14
    return w


def widened_product(x, w):
    w[...] = x * np.float32(0.1) + x  # a float32 multiply-add widened: fenced against the FMA
    return w


def cases():
    rng = np.random.default_rng(0)
    x32 = rng.standard_normal(4_000_000).astype(np.float32)
    return [("box blur / 9.0, 2048x2048", box_blur, (rng.random((2048, 2048)),)),
            ("diffusion / (dx*dx), 512x512, 20 steps", diffusion, (rng.random((512, 512)), 0.7, 20)),
            ("softmax rows / sum, 1000x1000", softmax_rows, (rng.standard_normal((1000, 1000)),)),
            ("particle cells (x / dx), 4M", particle_cells, (rng.random(4_000_000) * 0.999, 0.001, 1000)),
            ("v / norm(v), 4M", normalise, (rng.standard_normal(4_000_000),)),
            ("float32 x / 3 into float64, 4M", widened_quotient, (x32, np.zeros(x32.size))),
            ("float32 x * 0.1 + x into float64, 4M", widened_product, (x32, np.zeros(x32.size)))]


def identical(expected, got) -> float:
    e, g = np.asarray(expected).ravel(), np.asarray(got).ravel()
    if e.dtype.kind != "f":
        return float(np.mean(e == g))
    return float(np.mean((e.view(np.uint64) == g.view(np.uint64)) | (np.isnan(e) & np.isnan(g))))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python benchmarks/divisions.py")
    p.add_argument("--repeats", type=int, default=15)
    p.add_argument("--only", default="", help="kernels whose name holds this text")
    args = p.parse_args(argv)
    print(f"jax {jax.__version__}, {jax.devices()[0].device_kind}")
    print("| kernel | fence on | fence off | on / off | identical to NumPy, on | identical, off |")
    print("|---|---|---|---|---|---|")
    with jax.enable_x64(True):
        for name, fn, inputs in [c for c in cases() if args.only in c[0]]:
            expected = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in inputs])
            runs, same = {}, {}
            for fence in (True, False):
                divisions._npr_FENCE["divisions"] = fence
                f = np2ref.compile(fn, host_below=0)  # traced (and fenced or not) at its first call
                same[fence] = identical(expected, f(*[a.copy() if isinstance(a, np.ndarray) else a
                                                      for a in inputs]))
                runs[fence] = (f, [])
            divisions._npr_FENCE["divisions"] = True
            for _ in range(args.repeats):  # alternating: the machine's load falls on both
                for fence, (f, times) in runs.items():
                    t = time.perf_counter()
                    jax.block_until_ready(f(*inputs))
                    times.append(time.perf_counter() - t)
            on, off = (statistics.median(runs[k][1]) for k in (True, False))
            print(f"| {name} | {on * 1e3:.2f} ms | {off * 1e3:.2f} ms | {on / off:.2f} | "
                  f"{same[True]:.1%} | {same[False]:.1%} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
