"""Device-resident np2ref / hand port on an accelerator, each of this round's switches before and
after (issue 38 item 4; docs/benchmarks.md "Device-resident on a TPU: np2ref's own overhead"):

    python benchmarks/tpu_chip7.py [--budget 170] [--calls 10] [--only jacobi_poisson2d,cnn_forward]

- run.py's time loops at size M (jacobi_poisson2d, game_of_life, threshold_denoise, iir_filter,
  heat2d_explicit, wave1d_leapfrog), float32 and preserve: the jitted `.pure` on device arrays
  as before this round (the store-ordering selects on: rt/store_order.py's XLA:CPU copy-insertion
  workaround; every traced index wrapped for negatives), with the selects off (the default on a
  TPU now), and now (also no wrap of an index proved never negative, rt/bounds.py);
- suite.py L's CNN forward pass (float64): window lanes as before (a pooling window `x[:, 2 *
  i:2 * i + 2]` not proved full, every lane window a gather), the proof only, and now (the proof
  and the windows as strided slices, rt/lane_reads.py `_npr_lane_window`);
- suite.py L's 3x3 conv layer (float64): the window-dots product on and off (off by default on a TPU).

Each time: an ahead-of-time compile on device arrays, then the median of --calls waited calls;
checked against NumPy (float64 to 1e-9, float32 to 2e-3; suite kernels to 1e-9). Rows are
printed as they finish; what is not reached within --budget seconds is skipped (one chip call).
Timing, not a test.
"""

from __future__ import annotations

import copy
import sys
import time
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import programs as P  # noqa: E402
import suite  # noqa: E402
import suite_kernels as K  # noqa: E402
from common import chip_args, disagreement, run_numpy, split_static  # noqa: E402
from device_worst import timed  # noqa: E402 (the median of waited calls)
from hand import suite as H  # noqa: E402
from run import aot  # noqa: E402

import np2ref  # noqa: E402
from np2ref.rt import bounds, index, lane_reads, lowering, peepholes, windows  # noqa: E402

STENCILS = ("jacobi_poisson2d", "game_of_life", "threshold_denoise", "iir_filter", "heat2d_explicit",
            "wave1d_leapfrog")
INTS = ("game_of_life",)  # no float64 in it: preserve is float32's program


def _switch(table, key, value):
    def apply():
        saved = table[key]
        table[key] = value
        return lambda: table.__setitem__(key, saved)
    return apply


def _no_window_proof():
    windows._npr_affine_range = bounds._npr_known_range  # the window's base must be the loop variable
    undo_slices = _switch(lane_reads._npr_LANE_WINDOWS, "slices", False)()
    return lambda: (setattr(windows, "_npr_affine_range", bounds._npr_affine_range), undo_slices())


def _wraps(order):
    """Every traced index wrapped (`e < 0 ? e + n : e`), as before bounds._npr_nonnegative; the
    ordering selects as `order` says."""
    def apply():
        saved = bounds._npr_nonnegative
        bounds._npr_nonnegative = index._npr_nonnegative = lambda e: False
        undo = _switch(lowering._npr_LOWERING, "order", order)()
        return lambda: (setattr(bounds, "_npr_nonnegative", saved), setattr(index, "_npr_nonnegative", saved),
                        undo())
    return apply


STENCIL_VARIANTS = {"before (ordering selects, wraps)": _wraps(True),
                    "ordering selects off": _wraps(False),
                    "now (+ no wrap of indices >= 0)": _switch(lowering._npr_LOWERING, "order", False)}
SUITE_VARIANTS = {
    "cnn_forward": {"before (window not proved)": _no_window_proof,
                    "proof, gathers": _switch(lane_reads._npr_LANE_WINDOWS, "slices", False),
                    "proof, strided slices (now)": lambda: (lambda: None)},
    "conv_relu": {"window dots on": _switch(peepholes._npr_PEEPHOLES, "dots", True),
                  "window dots off": _switch(peepholes._npr_PEEPHOLES, "dots", False)},
}


def stencil_rows(name, policy, calls):
    prog = P.PROGRAMS[name]()
    kw = prog.make("M")
    static, dynamic = split_static(kw)
    expected, after = run_numpy(prog.original, kw)
    x64 = policy == "preserve"
    tol = dict(rtol=1e-9, atol=1e-12) if x64 else dict(rtol=2e-3, atol=1e-4)
    with jax.enable_x64(x64):
        dev = {k: jnp.asarray(v) for k, v in dynamic.items()}
        _, hand, _, out = aot(prog.hand, static, dev)
        yield "hand port", timed(hand, calls), disagreement(expected, after, *out, **tol)
        for variant, setting in STENCIL_VARIANTS.items():
            undo = setting()
            try:
                compiled = np2ref.compile(prog.original, dtype_policy=policy)
                _, run, _, out = aot(compiled.pure, static, copy.copy(dev))
                yield variant, timed(run, calls), disagreement(expected, after, *out, **tol)
            except Exception as exc:  # a variant that does not compile is a finding too
                yield variant, float("nan"), f"{type(exc).__name__}: {str(exc)[:80]}"
            finally:
                undo()


def suite_rows(kname, calls):
    label, (_, args, _) = next((k, v) for k, v in suite.cases("L").items() if v[0] == kname)
    expected = getattr(K, kname)(*copy.deepcopy(args))
    with jax.enable_x64(True):
        dev = [jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
        hand = jax.jit(getattr(H, kname)).lower(*dev).compile()
        yield "hand port", timed(lambda: hand(*dev), calls), _check(expected, hand(*dev))
        for variant, setting in SUITE_VARIANTS[kname].items():
            undo = setting()
            try:
                run = jax.jit(np2ref.compile(getattr(K, kname)).pure).lower(*dev).compile()
                yield variant, timed(lambda: run(*dev), calls), _check(expected, run(*dev))
            except Exception as exc:
                yield variant, float("nan"), f"{type(exc).__name__}: {str(exc)[:80]}"
            finally:
                undo()


def _check(expected, got):
    got = np.asarray(got[0] if isinstance(got, tuple) else got)
    return None if np.allclose(got, expected, rtol=1e-9, atol=1e-12) else f"max diff {np.max(np.abs(got - expected)):.3g}"


def main(argv=None) -> int:
    a = chip_args(argv, __doc__, calls=10, budget=170.0)
    warnings.simplefilter("ignore")
    only = set(a.only)
    jobs = [(n, pol) for pol in ("float32", "preserve") for n in STENCILS if pol == "float32" or n not in INTS]
    jobs += [("cnn_forward", "preserve"), ("conv_relu", "preserve")]
    jobs = [j for j in jobs if not only or j[0] in only]
    start = time.perf_counter()
    print(f"`python benchmarks/tpu_chip7.py`: jax {jax.__version__}, {jax.default_backend()} "
          f"({jax.devices()[0].device_kind}), device-resident, medians of {a.calls} calls")
    print("\n| kernel | policy | variant | ms | / hand port | check |\n|---|---|---|---|---|---|", flush=True)
    for name, policy in jobs:
        if time.perf_counter() - start > a.budget:
            print(f"| {name} | {policy} | skipped: budget | | | |", flush=True)
            continue
        rows = suite_rows(name, a.calls) if name in SUITE_VARIANTS else stencil_rows(name, policy, a.calls)
        hand = None
        for variant, seconds, check in rows:
            hand = seconds if hand is None else hand
            print(f"| {name} | {policy} | {variant} | {seconds * 1e3:.3f} | {seconds / hand:.2f} | {check or 'ok'} |",
                  flush=True)
    print(f"\n{time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
