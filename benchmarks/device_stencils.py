"""run.py's time-loop programs furthest from their hand ports on a TPU (size M, device-resident
`.pure` against the hand port: heat1d_explicit 1.60, wave1d_leapfrog 1.53, jacobi_poisson2d 1.52,
game_of_life 1.40, iir_filter 2.18 in float32; docs/tpu.md), each with np2ref's lowering
switches on and off, to find which of them a TPU pays for:

    python benchmarks/device_stencils.py [--size M] [--policy float32|preserve] [--programs ...]

- default: as compiled;
- no peepholes: rt/lowering.py's store lowering choices and rt/store_order.py's ordering
  selects off (`_npr_LOWERING['peepholes']`: XLA:CPU's copy-insertion workarounds);
- no slice peepholes: rt/peepholes.py's slice forwards and leading reductions off;
- DUS only: every basic-index store a dynamic-update-slice (padwhere_min = inf);
- fission off / on: rt/fission.py forced.

Each time: run.py's ahead-of-time compile of `.pure` on device arrays, the median of --calls
waited calls; checked against NumPy (float64 to 1e-9, float32 to 2e-3). Timing, not a test.
"""

from __future__ import annotations

import argparse
import copy
import sys
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import programs as P  # noqa: E402
from common import disagreement, run_numpy, split_static  # noqa: E402
from device_worst import timed  # noqa: E402 (the median of waited calls)
from run import aot  # noqa: E402

import np2ref  # noqa: E402
from np2ref.rt import fission, lowering, peepholes  # noqa: E402

WORST = ("heat1d_explicit", "wave1d_leapfrog", "jacobi_poisson2d", "game_of_life", "iir_filter")


def _setting(table, **values):
    def apply():
        saved = {k: table[k] for k in values}
        table.update(values)
        return lambda: table.update(saved)
    return apply


VARIANTS = {
    "default": lambda: (lambda: None),
    "no peepholes": _setting(lowering._npr_LOWERING, peepholes=False),
    "no slice peepholes": _setting(peepholes._npr_PEEPHOLES, slices=False, reductions=False),
    "DUS only": _setting(lowering._npr_LOWERING, padwhere_min=float("inf")),
    "fission off": _setting(fission._npr_FISSION, on=False),
    "fission on": _setting(fission._npr_FISSION, on=True),
}


def measure(name, size, policy, calls):
    prog = P.PROGRAMS[name]()
    kw = prog.make(size)
    static, dynamic = split_static(kw)
    expected, after = run_numpy(prog.original, kw)
    x64 = policy == "preserve"
    tol = dict(rtol=1e-9, atol=1e-12) if x64 else dict(rtol=2e-3, atol=1e-4)
    rows = []
    with jax.enable_x64(x64):
        dev = {k: jnp.asarray(v) for k, v in dynamic.items()}
        first, hand, _, out = aot(prog.hand, static, dev)
        rows.append(("hand port", timed(hand, calls), first, disagreement(expected, after, *out, **tol)))
        for variant, setting in VARIANTS.items():
            undo = setting()
            try:
                compiled = np2ref.compile(prog.original, dtype_policy=policy)
                first, run, _, out = aot(compiled.pure, static, copy.copy(dev))
                rows.append((variant, timed(run, calls), first, disagreement(expected, after, *out, **tol)))
            except Exception as exc:  # a variant that does not compile is a finding too
                rows.append((variant, float("nan"), 0.0, f"{type(exc).__name__}: {str(exc)[:80]}"))
            finally:
                undo()
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", default="M")
    p.add_argument("--policy", choices=("preserve", "float32"), default="float32")
    p.add_argument("--calls", type=int, default=10)
    p.add_argument("--programs", nargs="*", default=list(WORST))
    a = p.parse_args(argv)
    warnings.simplefilter("ignore")
    out = ["| program | variant | ms | / hand port | first call s | check |", "|---|---|---|---|---|---|"]
    for name in a.programs:
        rows = measure(name, a.size, a.policy, a.calls)
        hand = rows[0][1]
        for variant, seconds, first, check in rows:
            line = f"| {name} | {variant} | {seconds * 1e3:.3f} | {seconds / hand:.2f} | {first:.2f} | {check or 'ok'} |"
            out.append(line)
            print(line, file=sys.stderr, flush=True)
    print(f"`python benchmarks/device_stencils.py --size {a.size} --policy {a.policy}`: jax {jax.__version__}, "
          f"{jax.default_backend()} ({jax.devices()[0].device_kind}), device-resident .pure, medians of {a.calls} calls")
    print()
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
