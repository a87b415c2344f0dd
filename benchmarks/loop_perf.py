"""Steady state of np2ref's loops with moving slices against hand JAX ports (issue 18).

    python benchmarks/loop_perf.py [--quick] [--only NAME,...] [--hlo NAME]

Steady state: `jax.jit(np2ref.compile(fn).pure)` on device-resident inputs against the hand
port (benchmarks/hand/loops.py) jitted the same way, timed next to each other in interleaved
rounds (a round's sample: the mean of the calls that fill 10 ms); the ratio column is the
median of the rounds' ratios.
First call: trace + compile + run of a fresh `np2ref.compile(fn)` on NumPy inputs. Timing, not
a test: the numbers go in docs/loops.md, never in assertions. `--hlo NAME` prints the count of
while loops, copies and whole-array selects in XLA's optimised HLO of both versions.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import issue18_kernels as K18  # noqa: E402
import loop_kernels as K  # noqa: E402
from hand import loops as H  # noqa: E402
from loops import median_time  # noqa: E402

import np2ref  # noqa: E402


def conv2d(x, w):
    N, Hh, W = x.shape
    k = w.shape[0]
    out = np.zeros((N, Hh - k + 1, W - k + 1))
    for i in range(Hh - k + 1):
        for j in range(W - k + 1):
            out[:, i, j] = (x[:, i:i + k, j:j + k] * w).sum(axis=(1, 2))
    return out


def gram_schmidt(A):
    """Modified Gram-Schmidt QR (PolyBench's gramschmidt): column norms, `A[:, j] -= ...`."""
    m, n = A.shape
    Q = np.zeros((m, n))
    R = np.zeros((n, n))
    for k in range(n):
        R[k, k] = np.sqrt((A[:, k] * A[:, k]).sum())
        Q[:, k] = A[:, k] / R[k, k]
        for j in range(k + 1, n):
            R[k, j] = Q[:, k] @ A[:, j]
            A[:, j] -= Q[:, k] * R[k, j]
    return Q, R


def element_swap(u, tmp):
    n, m = u.shape
    for i in range(n):
        for j in range(m):
            u[i, j] = tmp[i, j]
            tmp[i, j] = 0.0


def inputs(name, n, rng):
    """(NumPy args, static args for the hand port)."""
    if name == "windowed_sum":
        return (rng.standard_normal(n), 7), (7,)
    if name == "correlation":
        return (rng.standard_normal((50, n)),), ()
    if name == "conv2d":
        return (rng.standard_normal((4, n, n)), rng.standard_normal((3, 3))), ()
    if name == "element_swap":
        return (rng.standard_normal((n, n)), rng.standard_normal((n, n))), ()
    if name == "durbin":
        return (0.5 * 0.9 ** np.arange(1, n + 1),), ()
    if name == "forward_subst":
        return (np.tril(rng.standard_normal((n, n))) + n * np.eye(n), rng.standard_normal(n)), ()
    if name == "gram_schmidt":
        return (rng.standard_normal((n + n // 2, n)),), ()
    s = rng.standard_normal((n, n))
    return (s @ s.T + n * np.eye(n),), ()


KERNELS = dict(windowed_sum=K.windowed_sum, lu=K.lu, cholesky=K.cholesky, correlation=K.correlation,
               conv2d=conv2d, durbin=K18.durbin, forward_subst=K18.forward_subst, gram_schmidt=gram_schmidt,
               element_swap=element_swap)
SIZES = dict(windowed_sum=(400, 4000), lu=(64, 640), cholesky=(32, 320), correlation=(32, 320),
             conv2d=(16, 160), durbin=(64, 640), forward_subst=(64, 640), gram_schmidt=(32, 320),
             element_swap=(32, 320))


def jitted(name, args, static):
    """(jitted np2ref .pure, its device args; jitted hand port, its device args)."""
    comp = np2ref.compile(KERNELS[name])
    dev = [jax.device_put(a) if isinstance(a, np.ndarray) else a for a in args]
    arrays = [a for a in dev if not isinstance(a, int)]
    nstatic = tuple(k for k, a in enumerate(args) if isinstance(a, int))
    ref = jax.jit(comp.pure, static_argnums=nstatic)
    hand = jax.jit(lambda *a: getattr(H, name)(*a, *static))
    return (ref, dev), (hand, arrays)


def batch(fn, budget=0.01, most=500):
    """Seconds a call: the mean of as many calls as fill `budget` (measured on one call)."""
    t = time.perf_counter()
    jax.block_until_ready(fn())
    calls = max(1, min(most, int(budget / max(time.perf_counter() - t, 1e-7))))
    t = time.perf_counter()
    for _ in range(calls):
        jax.block_until_ready(fn())
    return (time.perf_counter() - t) / calls


def interleaved(ref, hand, rounds):
    """(median seconds of ref, of hand, median of the rounds' ref/hand ratios): the two timed
    next to each other in each round, in alternating order (this VM's load drifts)."""
    r, h = [], []
    for k in range(rounds):
        for fn, acc in ((ref, r), (hand, h)) if k % 2 else ((hand, h), (ref, r)):
            acc.append(batch(fn))
    return statistics.median(r), statistics.median(h), statistics.median(a / b for a, b in zip(r, h))


def hlo_counts(fn, args):
    text = fn.lower(*args).compile().as_text()
    return dict(whiles=len(re.findall(r"\) while\(|\] while\(", text)), copies=len(re.findall(r" copy\(", text)),
                selects=len(re.findall(r" select\(", text)), dus=len(re.findall(r"dynamic-update-slice\(", text)))


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true", help="sizes / 4, fewer repeats")
    p.add_argument("--only", default="")
    p.add_argument("--rounds", type=int, default=15, help="interleaved rounds of np2ref and the hand port")
    p.add_argument("--hlo", default="", help="print HLO op counts for this kernel (at n) and stop")
    p.add_argument("--element-writes", default="", help="sizes (32,128,512): µs per iteration of "
                   "element_swap, np2ref / hand / hand with one stacked buffer, and stop")
    a = p.parse_args(argv)
    jax.config.update("jax_enable_x64", True)  # the hand ports' dtypes are NumPy's
    rng = np.random.default_rng(0)
    if a.element_writes:
        print("| n | np2ref | hand (two buffers) | hand (one stacked buffer) |\n|---|---|---|---|")
        for n in map(int, a.element_writes.split(",")):
            args, static = inputs("element_swap", n, rng)
            (ref, dev), (hand, arr) = jitted("element_swap", args, static)
            stacked = jax.jit(H.element_swap_stacked)
            cells = []
            for fn, xs in ((ref, dev), (hand, arr), (stacked, arr)):
                jax.block_until_ready(fn(*xs))
                cells.append(f"{median_time(lambda: fn(*xs), 1 if n > 200 else 3) / n / n * 1e6:.3f} µs")
            print(f"| {n} | " + " | ".join(cells) + " |", flush=True)
        return 0
    names = [k for k in KERNELS if k != "element_swap" and not a.only or k in a.only.split(",")]
    if a.hlo:
        args, static = inputs(a.hlo, SIZES[a.hlo][0], rng)
        (ref, dev), (hand, arr) = jitted(a.hlo, args, static)
        print("np2ref", hlo_counts(ref, dev), "\nhand  ", hlo_counts(hand, arr))
        return 0
    rounds = 5 if a.quick else a.rounds
    print("| kernel | n | NumPy | np2ref (.pure, jit) | hand JAX | np2ref/hand (paired) | first call |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        for n in SIZES[name]:
            n = n // 4 if a.quick else n
            args, static = inputs(name, n, rng)
            fresh = lambda: tuple(x.copy() if isinstance(x, np.ndarray) else x for x in args)  # noqa: E731
            t_np = median_time(lambda: KERNELS[name](*fresh()), 1)
            comp = np2ref.compile(KERNELS[name])
            t0 = time.perf_counter()
            jax.block_until_ready(comp(*fresh()))
            first = time.perf_counter() - t0
            (ref, dev), (hand, arr) = jitted(name, args, static)
            jax.block_until_ready(ref(*dev))
            jax.block_until_ready(hand(*arr))
            t_ref, t_hand, paired = interleaved(lambda: ref(*dev), lambda: hand(*arr), rounds)
            print(f"| {name} | {n} | {t_np * 1e3:.2f} ms | {t_ref * 1e3:.3f} ms | {t_hand * 1e3:.3f} ms | "
                  f"{paired:.2f} | {first:.2f} s |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
