"""Scalar accumulators as ordered folds (rewrite/scalar_fold.py, rt/fold.py's npr_fold_scalar;
issues 38 and 39) on an accelerator: device-resident np2ref / hand port, the fold switched off (the
lax loop: before), and the fold with its chain's scan in passes of 1, 16 (the default) and 128 trips:

    python benchmarks/tpu_acc12.py [--budget 110] [--calls 5] [--only diag,dot]

- diag: `trace += np.tanh(a[i, i])` (benchmarks/suite.py's diagonal loop, its trace alone), a n x n;
- dot: `s += a[k] * b[k]`; prod: `p *= (1 + r[k])`;
n = 100, 1000, 4000; float64 (`preserve`) and float32. Hand ports: jnp.sum / jnp.prod (not NumPy's
order). On a TPU every trip of a lax loop is a round of its scalar unit, and a 0-d float64 tanh is
accurate64's formulation; the fold makes one vector tanh and n / K trips of K additions. Each time:
an ahead-of-time compile on device arrays, then the median of --calls waited calls, checked against
NumPy (float64 to 1e-9, float32 to 2e-3). Rows print as they finish, the most telling first
(diag at n = 1000 in float64: suite.py's L row); what is not reached within --budget seconds is
skipped (one chip call of at most 120 s). On a CPU it is the same table (docs/loops.md). Timing,
not a test.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from common import chip_args, chip_table  # noqa: E402
from tpu_carry8 import variant_rows  # noqa: E402 (hand port, then np2ref per variant, checked)

from np2ref.rt import fold  # noqa: E402


def diag(a):
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return trace


def dot(a, b):
    s = 0.0
    for k in range(a.shape[0]):
        s += a[k] * b[k]
    return s


def prod(r):
    p = 1.0
    for k in range(r.shape[0]):
        p *= (1 + r[k])
    return p


def hand_diag(a):
    return jnp.sum(jnp.tanh(jnp.diagonal(a))), {}


def hand_dot(a, b):
    return jnp.sum(a * b), {}


def hand_prod(r):
    return jnp.prod(1 + r), {}


def _inputs(name, n):
    rng = np.random.default_rng(0)
    if name == "diag":
        return dict(a=rng.standard_normal((n, n)))
    if name == "dot":
        return dict(a=rng.standard_normal(n), b=rng.standard_normal(n))
    return dict(r=rng.standard_normal(n) * 1e-3)


KERNELS = {"diag": (diag, hand_diag), "dot": (dot, hand_dot), "prod": (prod, hand_prod)}
# the most telling rows first: suite.py's L float64 diagonal loop
JOBS = [("diag", "preserve", 1000), ("diag", "float32", 1000), ("diag", "preserve", 4000), ("diag", "preserve", 100),
        ("dot", "preserve", 1000), ("dot", "float32", 1000), ("prod", "preserve", 1000), ("diag", "float32", 4000),
        ("diag", "float32", 100), ("dot", "preserve", 4000), ("dot", "preserve", 100), ("prod", "float32", 1000)]


def _variants():
    """The loop; the fold's chain in passes of 1, 16 (the default) and 128 trips."""
    def setting(on, unroll):
        def apply():  # (n = 100: one pass whatever the unroll; "scalar" forced: a CPU folds only in lanes)
            saved = fold.NPR_FOLD, fold.NPR_FOLD_SCALAR_UNROLL, fold._npr_FOLD["scalar"]
            fold.NPR_FOLD, fold.NPR_FOLD_SCALAR_UNROLL, fold._npr_FOLD["scalar"] = on, unroll, True

            def undo():
                fold.NPR_FOLD, fold.NPR_FOLD_SCALAR_UNROLL, fold._npr_FOLD["scalar"] = saved
            return undo
        return apply
    return {"loop (before)": setting(False, 16), "fold, passes of 1": setting(True, 1),
            "fold, passes of 16": setting(True, 16), "fold, passes of 128": setting(True, 128)}


def main(argv=None) -> int:
    a = chip_args(argv, __doc__, calls=5, budget=110.0, only="comma-separated kernel names (default: all)")
    warnings.simplefilter("ignore")
    jobs = [((name, n, policy), (name, n, policy)) for name, policy, n in JOBS if not a.only or name in a.only]

    def rows(name, n, policy):  # (the inputs made when the row is reached: n = 4000 is 128 MB)
        return variant_rows(*KERNELS[name], _inputs(name, n), policy, a.calls, _variants())
    chip_table("tpu_acc12.py", ("kernel", "n", "policy"), jobs, a, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
