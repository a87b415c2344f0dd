"""The ordered fold on an accelerator (rewrite/ordered_fold.py, rt/fold.py; issue 39): device-resident
np2ref / hand port for loops that only add into one R[P], with the fold switched off (the lax loop:
before), in unrolled passes of 16 trips and in one pass (every trip unrolled, no loop left); the
default (now) is one pass while trips x reads <= 288 (syrk S, syr2k S), else passes of 16:

    python benchmarks/tpu_fold11.py [--budget 110] [--calls 5] [--only syrk,gemv]

- syrk and syr2k as NPBench writes them (benchmarks/npbench_style.py), its size S (50 x 70) and a
  larger one (120 x 200), their hand ports the masked matrix products (not NumPy's order);
- gemv_minus (`t = x[k] * 2.0; y[:] -= A[:, k] * t - b[k]`, 400 x 240): a fold without lanes.

On a TPU every trip of a lax loop is a round of its scalar unit: the fold's passes make K / 16 trips
(K = 70: 5) where the loop made K, and one pass none. float32 and preserve (float64). Each time: an
ahead-of-time compile on device arrays, then the median of --calls waited calls, checked against
NumPy (float64 to 1e-9, float32 to 2e-3); the compile's seconds are printed too. Rows print as
they finish; what is not reached within --budget seconds is skipped (one chip call of at most
120 s). Timing, not a test.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import jax
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import npbench_style as NB  # noqa: E402
from common import chip_args, chip_table  # noqa: E402
from tpu_carry8 import variant_rows  # noqa: E402 (hand port, then np2ref per variant, checked)

from np2ref.rt import fold  # noqa: E402


def gemv_minus(y, A, x, b):
    for k in range(A.shape[1]):
        t = x[k] * 2.0
        y[:] -= A[:, k] * t - b[k]


def hand_gemv_minus(y, A, x, b):
    return None, {"y": y - (A @ (x * 2.0) - b.sum())}


def _pure(hand):
    """A hand port of NB's (C alone) as `.pure` returns: (result, {mutated})."""
    return lambda *a, **k: (None, {"C": hand(*a, **k)})


def _kernels():
    rng = np.random.default_rng(0)

    def r(*shape):
        return rng.random(shape)
    return {
        "syrk S": (NB.syrk, _pure(NB.hand_syrk), dict(alpha=1.5, beta=1.2, C=r(50, 50), A=r(50, 70))),
        "syrk 120x200": (NB.syrk, _pure(NB.hand_syrk), dict(alpha=1.5, beta=1.2, C=r(120, 120), A=r(120, 200))),
        "syr2k S": (NB.syr2k, _pure(NB.hand_syr2k), dict(alpha=1.5, beta=1.2, C=r(50, 50), A=r(50, 70), B=r(50, 70))),
        "gemv": (gemv_minus, hand_gemv_minus, dict(y=r(400), A=r(400, 240), x=r(240), b=r(240))),
    }


def _variants():
    """The loop; the fold in passes of 16 trips; the fold in one pass. (The default, rt/fold.py:
    one pass while trips x reads <= 288, else passes of 16.)"""
    def setting(on, one_pass):
        def apply():
            saved = fold.NPR_FOLD, fold.NPR_FOLD_ONE_PASS
            fold.NPR_FOLD, fold.NPR_FOLD_ONE_PASS = on, one_pass
            return lambda: (setattr(fold, "NPR_FOLD", saved[0]), setattr(fold, "NPR_FOLD_ONE_PASS", saved[1]))
        return apply
    return {"loop (before)": setting(False, 0), "fold, passes of 16": setting(True, 0),
            "fold, one pass": setting(True, 1 << 30)}


def main(argv=None) -> int:
    a = chip_args(argv, __doc__, calls=5, budget=110.0, only="comma-separated kernel name prefixes (default: all)")
    warnings.simplefilter("ignore")
    kernels = _kernels()
    jobs = [((name, policy), (original, hand_fn, kw, policy, a.calls, _variants()))
            for policy in ("float32", "preserve") for name, (original, hand_fn, kw) in kernels.items()
            if not a.only or name.startswith(a.only)]
    chip_table("tpu_fold11.py", ("kernel", "policy"), jobs, a, variant_rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
