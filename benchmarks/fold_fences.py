"""What syrk's and syr2k's ordered folds spend their time on (issue 39, twelfth session): the fold
as np2ref compiles it against the same program with its product fences off (NOT NumPy's bits: it
shows what the fences cost), compiled for 512-bit vectors, with XLA:CPU's older fusion emitters,
without the fusion's split across threads, and the hand port, in one process:

    python benchmarks/fold_fences.py [--only syrk,syr2k] [--rounds 20]

Per variant: the fastest call (rounds alternate the variants, 20 calls each), its ratio to the
hand port, and whether C is NumPy's bits (npbench_style.py's inputs, float64). The compile
options are XLA's own, for that compile only. Timing, not a test.
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

import np2ref  # noqa: E402
from np2ref.rt import divisions  # noqa: E402

VARIANTS = {  # name: (product fences on, XLA compile options)
    "fold": (True, None),
    "no fences (not exact)": (False, None),
    "512-bit vectors": (True, {"xla_cpu_prefer_vector_width": 512}),
    "older emitters": (True, {"xla_cpu_use_fusion_emitters": False}),
    "one thread": (True, {"xla_cpu_parallel_codegen_split_count": 1}),
}


def compiled(name, fences, options, dev):
    """np2ref's `.pure` of kernel `name` traced with the product fences on or off, compiled."""
    divisions._npr_FENCE["products"] = fences
    try:
        return jax.jit(np2ref.compile(getattr(NB, name)).pure).lower(*dev).compile(options)
    finally:
        divisions._npr_FENCE["products"] = True


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--only", default="syrk,syr2k")
    p.add_argument("--rounds", type=int, default=20)
    a = p.parse_args(argv)
    jax.config.update("jax_enable_x64", True)
    print("| kernel | variant | fastest µs | / hand | NumPy's bits |\n|---|---|---|---|---|")
    for name in a.only.split(","):
        args = NB.inputs(name, np.random.default_rng(0))
        want = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
        getattr(NB, name)(*want)
        dev = [jax.device_put(x) for x in args]
        calls, bits = {}, {}
        for variant, (fences, options) in VARIANTS.items():
            c = compiled(name, fences, options, dev)
            bits[variant] = np.array_equal(np.asarray(c(*dev)[1]["C"]), want[2])
            calls[variant] = (lambda c=c: c(*dev))
        hand = jax.jit(getattr(NB, "hand_" + name)).lower(*dev).compile()
        calls["hand port"], bits["hand port"] = (lambda: hand(*dev)), False
        best = {k: math.inf for k in calls}
        for r in range(a.rounds):
            for k in (list(calls) if r % 2 else list(calls)[::-1]):
                for _ in range(20):
                    t = time.perf_counter()
                    jax.block_until_ready(calls[k]())
                    best[k] = min(best[k], time.perf_counter() - t)
        for k, t in best.items():
            print(f"| {name} | {k} | {t * 1e6:.1f} | {t / best['hand port']:.2f} | {'yes' if bits[k] else 'no'} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
