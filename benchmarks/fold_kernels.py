"""The ordered fold on this CPU (rewrite/ordered_fold.py, rt/fold.py; issue 39): loops that only add
into one R[P], np2ref's jitted `.pure` with the fold off (the lax loop), in passes of 16 trips and
in one pass, against the hand port, for K trips:

    python benchmarks/fold_kernels.py [--trips 70,256,1000] [--only syrk,syr2k,gemv] [--calls 100]

- syrk and syr2k as NPBench writes them (50 x K), in the lanes over i;
- gemv_minus (`t = x[k] * 2.0; y[:] -= A[:, k] * t - b[k]`, 400 x K): outside lanes, folded here
  with `_npr_FOLD["outside lanes"] = True` (a CPU runs the loop there by default).

Per row: trace and XLA compile seconds, the fastest of --calls calls (alternated with the hand
port, two rounds), and whether the result is NumPy's bits in the default mode and with
bitwise=True's XLA options. Timing, not a test.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import npbench_style as NB  # noqa: E402
from tpu_fold11 import gemv_minus, hand_gemv_minus  # noqa: E402

import np2ref  # noqa: E402
from np2ref.compiled.bitwise import BITWISE_OPTIONS  # noqa: E402
from np2ref.rt import fold  # noqa: E402

VARIANTS = {"loop": (False, 16), "fold, passes of 16": (True, 16), "fold, one pass": (True, 1 << 20)}


def _args(name, k, rng):
    if name == "gemv":
        return [rng.random(400), rng.random((400, k)), rng.random(k), rng.random(k)]
    return [1.5, 1.2, rng.random((50, 50)), rng.random((50, k))] + ([rng.random((50, k))] if name == "syr2k" else [])


def _numpy(name, args):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    (gemv_minus if name == "gemv" else getattr(NB, name))(*args)
    return args[0] if name == "gemv" else args[2]


def _compile(fn, dev, options=None):
    t = time.perf_counter()
    lowered = jax.jit(fn).lower(*dev)
    t1 = time.perf_counter()
    compiled = lowered.compile(options)
    return compiled, t1 - t, time.perf_counter() - t1


def _fastest(fn, dev, calls):
    best = math.inf
    for _ in range(calls):
        t = time.perf_counter()
        jax.block_until_ready(fn(*dev))
        best = min(best, time.perf_counter() - t)
    return best


def rows(name, k, calls):
    args = _args(name, k, np.random.default_rng(0))
    want = _numpy(name, args)
    dev = [jax.device_put(a) for a in args]
    fn = gemv_minus if name == "gemv" else getattr(NB, name)
    hand_fn = hand_gemv_minus if name == "gemv" else (lambda *a, _h=getattr(NB, "hand_" + name): (None, {"C": _h(*a)}))
    hand = jax.jit(hand_fn).lower(*dev).compile()
    out = []
    for variant, (on, unroll) in VARIANTS.items():
        fold.NPR_FOLD, fold.NPR_FOLD_UNROLL = on, unroll
        fold.NPR_FOLD_ONE_PASS = 1 << 30 if unroll > 16 else 0
        jax.clear_caches()
        run, trace, comp = _compile(np2ref.compile(fn).pure, dev)
        bitwise, _, _ = _compile(np2ref.compile(fn).pure, dev, dict(BITWISE_OPTIONS))
        bits = [np.array_equal(np.asarray(next(iter(c(*dev)[1].values()))), want) for c in (run, bitwise)]
        out.append((variant, trace, comp, run, bits))
    t_hand = math.inf
    times = {v: math.inf for v, *_ in out}
    for _ in range(2):
        t_hand = min(t_hand, _fastest(hand, dev, calls))
        for variant, _, _, run, _ in out:
            times[variant] = min(times[variant], _fastest(run, dev, calls))
    for variant, trace, comp, _, bits in out:
        yield (f"| {name} | {k} | {variant} | {trace:.2f} | {comp:.2f} | {times[variant] * 1e3:.4f} | "
               f"{times[variant] / t_hand:.2f} | {'yes' if bits[0] else 'no'} | {'yes' if bits[1] else 'no'} |")
    yield f"| {name} | {k} | hand port | | | {t_hand * 1e3:.4f} | 1.00 | | |"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--trips", default="70,256,1000")
    p.add_argument("--only", default="syrk,syr2k,gemv")
    p.add_argument("--calls", type=int, default=100)
    a = p.parse_args(argv)
    jax.config.update("jax_enable_x64", True)
    fold._npr_FOLD["outside lanes"] = True
    print("| kernel | K | variant | trace s | compile s | ms | / hand port | NumPy's bits | bits, bitwise=True |\n"
          "|---|---|---|---|---|---|---|---|---|", flush=True)
    for name in a.only.split(","):
        for k in map(int, a.trips.split(",")):
            for line in rows(name, k, a.calls):
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
