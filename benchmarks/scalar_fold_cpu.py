"""Scalar accumulators as ordered folds on this machine (rt/fold.py's npr_fold_scalar): the chain's
form, and the fold against the loop end to end.

    python benchmarks/scalar_fold_cpu.py [--calls 150]

Table 1: `jax.jit(compiled.pure)` on device arrays (float64), the fastest of 3 x --calls calls,
the variants alternated: the hand port (jnp.sum / jnp.prod), the loop (NPR_FOLD off), the fold in
passes of 1, 8, 16, 64 and 128 trips (chains of up to NPR_FOLD_SCALAR_ONE_PASS trips are one pass
whatever the setting). Table 2: np2ref.compile called with NumPy arrays (host_below=0), loop and
fold, bitwise=True and the default, the fastest of 2 x --calls calls. The kernels are
benchmarks/tpu_acc12.py's (diag, dot, prod). The fold is forced on outside lanes here (on a CPU
it runs only inside them by default). Timing, not a test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import jax

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import tpu_acc12 as T  # noqa: E402

import np2ref  # noqa: E402
from np2ref.rt import fold  # noqa: E402

VARIANTS = {"loop": (False, 16), "passes of 1": (True, 1), "of 8": (True, 8), "of 16": (True, 16),
            "of 64": (True, 64), "of 128": (True, 128)}
ROWS = [("diag", 1000), ("diag", 4000), ("dot", 1000), ("dot", 4000), ("prod", 1000), ("dot", 100)]


def fastest(f, args, calls):
    jax.block_until_ready(f(*args))
    best = float("inf")
    for _ in range(calls):
        t = time.perf_counter()
        jax.block_until_ready(f(*args))
        best = min(best, time.perf_counter() - t)
    return best


def chain_forms(calls):
    print("| kernel | n | hand port | " + " | ".join(VARIANTS) + " |\n|---|---|" + "---|" * (len(VARIANTS) + 1))
    for name, n in ROWS:
        original, hand = T.KERNELS[name]
        with jax.enable_x64(True):
            args = [jax.device_put(v) for v in T._inputs(name, n).values()]
            fns = {"hand": jax.jit(lambda *a, _h=hand: _h(*a)[0])}
            for variant, (on, unroll) in VARIANTS.items():
                fold.NPR_FOLD, fold.NPR_FOLD_SCALAR_UNROLL = on, unroll
                fns[variant] = jax.jit(np2ref.compile(original).pure)
                jax.block_until_ready(fns[variant](*args))  # traced under this setting
            fold.NPR_FOLD, fold.NPR_FOLD_SCALAR_UNROLL = True, 16
            best = {k: float("inf") for k in fns}
            for _ in range(3):
                for k, f in fns.items():
                    best[k] = min(best[k], fastest(f, args, calls))
        print(f"| {name} | {n} | " + " | ".join(f"{best[k] * 1e6:.1f}" for k in fns) + " |", flush=True)


def end_to_end(calls):
    print("\n| kernel | n | bitwise=True: loop / fold µs | default: loop / fold µs |\n|---|---|---|---|")
    for name, n in ROWS[:5]:
        original, _ = T.KERNELS[name]
        args = list(T._inputs(name, n).values())
        got = {}
        for bitwise in (True, False):
            for on in (False, True):
                fold.NPR_FOLD = on
                call = np2ref.compile(original, host_below=0, bitwise=bitwise)
                got[bitwise, on] = min(fastest(call, args, calls) for _ in range(2))
        fold.NPR_FOLD = True
        print(f"| {name} | {n} | {got[True, False] * 1e6:.1f} / {got[True, True] * 1e6:.1f} | "
              f"{got[False, False] * 1e6:.1f} / {got[False, True] * 1e6:.1f} |", flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=150)
    a = p.parse_args(argv)
    fold._npr_FOLD["scalar"] = True
    print(f"`python benchmarks/scalar_fold_cpu.py`: jax {jax.__version__}, {jax.default_backend()}, µs\n")
    chain_forms(a.calls)
    end_to_end(a.calls)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
