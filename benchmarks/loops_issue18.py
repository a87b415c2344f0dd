"""Issue 18's loop patterns through np2ref at a size and at about 10x its trip count: first
call (trace + compile + run) and steady state against the NumPy loop.

    python benchmarks/loops_issue18.py [--quick] [--only NAME,...] [--search]

`--search`: where the early-exit search's time goes (n=10^5, break at 10), in interleaved rounds.

Timing, not a test: the numbers go in docs/loops.md, never in assertions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import issue18_kernels as K  # noqa: E402

import np2ref  # noqa: E402


def _spd(n, rng):
    s = rng.standard_normal((n, n))
    return s @ s.T + n * np.eye(n)


def cases(quick):
    """name -> (kernel, [(label, args) at a size and at ~10x the trip count])."""
    rng = np.random.default_rng(0)
    r = lambda *s: rng.standard_normal(s)  # noqa: E731
    tri = lambda n: np.tril(r(n, n)) + n * np.eye(n)  # noqa: E731
    fdtd = lambda nx, ny, t: (r(nx, ny), r(nx, ny), r(nx, ny), r(t))  # noqa: E731
    x5 = np.zeros(10 ** 5)
    x5[10] = 5.0
    return {
        "windowed sum w=7": (K.windowed_sum, [(f"n={n}", (r(n), 7)) for n in (25, 100, 400, 4000, 40000)]),
        "correlation 50xM": (K.correlation, [(f"M={m}", (r(50, m),)) for m in (32, 100)]),
        "conv2d 3xHxW, K=3": (K.conv2d, [(f"H=W={h}", (r(3, h, h), r(3, 3))) for h in (16, 46)]),
        "LU": (K.lu, [(f"{n}x{n}", (_spd(n, rng),)) for n in (64, 640)]),
        "Cholesky": (K.cholesky, [(f"{n}x{n}", (_spd(n, rng),)) for n in (64, 200)]),
        "Durbin": (K.durbin, [(f"n={n}", (0.5 * 0.9 ** np.arange(1, n + 1),)) for n in (64, 640)]),
        "forward substitution": (K.forward_subst, [(f"n={n}", (tri(n), r(n))) for n in (64, 640)]),
        "5x5 stencil, element loops": (K.stencil5, [(f"{n}x{n}", (r(n, n),)) for n in (32, 91)]),
        "FDTD-2D 20x30": (K.fdtd, [(f"T={t}", fdtd(20, 30, t)) for t in (10, 100)]),
        "continue": (K.skip_negative, [(f"n={n}", (r(n),)) for n in (1000, 10000)]),
        "np.ndindex": (K.ndindex_map, [(f"{n}x{n}", (r(n, n),)) for n in (32, 100)]),
        "clamp stencil": (K.clamp_stencil, [(f"{n}x{n}", (r(n, n),)) for n in (4, 8, 16, 50)]),
        "early-exit search (break at 10)": (K.search, [("n=1e5", (x5, 1.0))]),
        "running mean (np.mean of a slice)": (K.running_mean, [(f"n={n}", (r(n), 5)) for n in (100, 1000)]),
    }


def timed(fn, args, repeats):
    times = []
    for _ in range(repeats):
        fresh = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
        t = time.perf_counter()
        jax.block_until_ready(fn(*fresh))
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def search_breakdown(rounds=31):
    """The early-exit search's call, taken apart: NumPy's loop, np2ref's NumPy-facing call with
    the array at NumPy's alignment (staged: copied into np2ref's aligned buffer) and aligned
    (np2ref.aligned: read in place), the jitted `.pure` on a jax.Array (the program alone), and
    the staging copy alone (np.copyto into an aligned buffer)."""
    x = np.zeros(10 ** 5)
    x[10] = 5.0
    raw = np.empty(x.nbytes + 80, np.uint8)
    start = (16 - raw.ctypes.data) % 64
    x16 = raw[start:start + x.nbytes].view(np.float64)  # 16 bytes past 64, as NumPy places it
    x16[...] = x
    comp = np2ref.compile(K.search)
    aligned = np2ref.aligned(x)
    with jax.enable_x64(True):
        pure, dev = jax.jit(comp.pure), jax.device_put(x)
    buf = np2ref.aligned_empty(x.shape)

    def pure_call():
        with jax.enable_x64(True):
            return pure(dev, 1.0)
    cases = {"NumPy loop": lambda: K.search(x16, 1.0), "np2ref, NumPy array": lambda: comp(x16, 1.0),
             "np2ref, aligned array": lambda: comp(aligned, 1.0), "jit(.pure), jax.Array": pure_call,
             "staging copy alone": lambda: np.copyto(buf, x16)}
    assert comp(x16, 1.0) == comp(aligned, 1.0) == K.search(x16, 1.0) == 10
    samples = {k: [] for k in cases}
    for fn in cases.values():
        jax.block_until_ready(fn())
    for r in range(rounds):
        for k in (list(cases) if r % 2 else list(cases)[::-1]):
            t = time.perf_counter()
            for _ in range(200):
                jax.block_until_ready(cases[k]())
            samples[k].append((time.perf_counter() - t) / 200)
    print("| early-exit search, n=10^5, break at 10 | median µs a call |\n|---|---|")
    for k, v in samples.items():
        print(f"| {k} | {statistics.median(v) * 1e6:.1f} |")


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--only", default="")
    p.add_argument("--search", action="store_true", help="the early-exit search's time, taken apart")
    opts = p.parse_args(argv)
    if opts.search:
        search_breakdown()
        return 0
    only = [s for s in opts.only.split(",") if s]
    repeats = 3 if opts.quick else 5
    print("| pattern | size | NumPy loop | np2ref steady | np2ref/NumPy | first call | Python loop? |")
    print("|---|---|---|---|---|---|---|")
    for name, (fn, sizes) in cases(opts.quick).items():
        if only and not any(o in name for o in only):
            continue
        for label, args in sizes:
            t_np = timed(fn, args, 1 if opts.quick else 3)
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always", np2ref.PythonLoopWarning)
                comp = np2ref.compile(fn)
                try:
                    first = timed(comp, args, 1)
                except np2ref.Np2RefError as e:
                    print(f"| {name} | {label} | {t_np * 1e3:.2f} ms | refused: {str(e).splitlines()[1][:80]} | | | |")
                    continue
            python = "yes" if any(issubclass(x.category, np2ref.PythonLoopWarning) for x in w) else "no"
            steady = timed(comp, args, repeats)
            print(f"| {name} | {label} | {t_np * 1e3:.2f} ms | {steady * 1e3:.3f} ms | {steady / t_np:.3f} | "
                  f"{first:.2f} s | {python} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
