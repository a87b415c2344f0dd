"""Loops through np2ref vs the NumPy Python loop and a hand-written `fori_loop` with a ref.

    python benchmarks/loops.py [--quick]

Prints one table (medians of several runs after a warm-up; first call = trace + compile + run).
Timing, not a test: the numbers go in notes, never in assertions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

sys.path.insert(0, str(Path(__file__).parent))
import loop_kernels as K  # noqa: E402

import np2ref  # noqa: E402


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        jax.block_until_ready(out)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def hand_recurrence(x, a):
    y = jax.new_ref(jnp.zeros_like(x))

    def body(i, _):
        y[i] = a * y[i - 1] + x[i]
        return _

    lax.fori_loop(1, x.shape[0], body, 0)
    return y[...]


def hand_gauss_seidel(u, f, h2):
    r = jax.new_ref(u)
    n = u.shape[0]

    def row(i, _):
        def col(j, _):
            r[i, j] = 0.25 * (r[i - 1, j] + r[i + 1, j] + r[i, j - 1] + r[i, j + 1] - h2 * f[i, j])
            return _
        return lax.fori_loop(1, n - 1, col, _)

    lax.fori_loop(1, n - 1, row, 0)
    return r[...]


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    args = p.parse_args(argv)
    n_rec = 10_000 if args.quick else 100_000
    n_gs = 64 if args.quick else 256
    repeats = 3 if args.quick else 5
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n_rec)
    u = rng.standard_normal((n_gs, n_gs))
    f = rng.standard_normal((n_gs, n_gs))
    rows = []

    def case(name, numpy_fn, np2ref_fn, hand_fn, np_repeats=1):
        t_np = median_time(numpy_fn, np_repeats)
        t0 = time.perf_counter()
        jax.block_until_ready(np2ref_fn())
        first = time.perf_counter() - t0
        t_ref = median_time(np2ref_fn, repeats)
        with jax.enable_x64(True):
            jitted = jax.jit(hand_fn)
            jax.block_until_ready(jitted())
            t_hand = median_time(jitted, repeats)
        rows.append((name, t_np, t_ref, t_hand, first))

    rec = np2ref.compile(K.recurrence)
    case(f"recurrence n={n_rec}", lambda: K.recurrence(x, 0.9), lambda: rec(x, 0.9),
         lambda: hand_recurrence(jnp.asarray(x), 0.9))
    gs = np2ref.compile(K.gauss_seidel)
    case(f"Gauss-Seidel sweep {n_gs}x{n_gs}", lambda: K.gauss_seidel(u.copy(), f, 0.01),
         lambda: gs(u.copy(), f, 0.01), lambda: hand_gauss_seidel(jnp.asarray(u), jnp.asarray(f), 0.01))
    print("| kernel | NumPy loop | np2ref | hand fori+ref | np2ref/NumPy | np2ref/hand | np2ref first call |")
    print("|---|---|---|---|---|---|---|")
    for name, t_np, t_ref, t_hand, first in rows:
        print(f"| {name} | {t_np * 1e3:.1f} ms | {t_ref * 1e3:.2f} ms | {t_hand * 1e3:.2f} ms | "
              f"{t_ref / t_np:.4f} | {t_ref / t_hand:.2f} | {first:.2f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
