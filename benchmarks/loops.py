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
from hand import loops as H  # noqa: E402

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


# the hand ports of the loops with moving slices live in hand/loops.py (benchmarks/loop_perf.py)
hand_windowed_sum, hand_lu, hand_cholesky, hand_correlation = H.windowed_sum, H.lu, H.cholesky, H.correlation


def slices(repeats, quick):
    """Loops whose slices move with the loop variable (issue 18): first call and steady state
    at n and 10n."""
    rng = np.random.default_rng(0)
    print("| kernel | n | NumPy loop | np2ref | hand JAX | np2ref/NumPy | np2ref/hand | np2ref first call |")
    print("|---|---|---|---|---|---|---|---|")
    sizes = dict(windowed_sum=(400, 4000), lu=(64, 640), cholesky=(32, 320), correlation=(32, 320))
    if quick:
        sizes = {k: (a // 4, a * 10 // 4) for k, (a, _) in sizes.items()}
    for name, (n1, n2) in sizes.items():
        fn = getattr(K, name)
        for n in (n1, n2):
            if name == "windowed_sum":
                x = rng.standard_normal(n)
                args, hand = (x, 7), (lambda x=x: hand_windowed_sum(jnp.asarray(x), 7))
            elif name == "correlation":
                x = rng.standard_normal((50, n))
                args, hand = (x,), (lambda x=x: hand_correlation(jnp.asarray(x)))
            else:
                s = rng.standard_normal((n, n))
                x = s @ s.T + n * np.eye(n)
                args = (x,)
                hand = {"lu": lambda x=x: hand_lu(jnp.asarray(x)),
                        "cholesky": lambda x=x: hand_cholesky(jnp.asarray(x))}[name]
            comp = np2ref.compile(fn)
            copies = lambda: tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)  # noqa: E731
            t_np = median_time(lambda: fn(*copies()), 1)
            t0 = time.perf_counter()
            jax.block_until_ready(comp(*copies()))
            first = time.perf_counter() - t0
            t_ref = median_time(lambda: comp(*copies()), repeats)
            with jax.enable_x64(True):
                jitted = jax.jit(hand)
                jax.block_until_ready(jitted())
                t_hand = median_time(jitted, repeats)
            print(f"| {name} | {n} | {t_np * 1e3:.1f} ms | {t_ref * 1e3:.2f} ms | {t_hand * 1e3:.2f} ms | "
                  f"{t_ref / t_np:.3f} | {t_ref / t_hand:.2f} | {first:.2f} s |", flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--slices", action="store_true", help="only the loops with moving slices")
    args = p.parse_args(argv)
    if args.slices:
        slices(3 if args.quick else 5, args.quick)
        return 0
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
    print()
    slices(repeats, args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
