"""suite.py's kernels that were furthest from their hand ports on a TPU (issue 38: the diagonal
loop 20x, the CNN forward pass 6.2x, the 3x3 conv layer 3.8x at size L, device-resident), each
with np2ref's rewrites that concern it switched on and off, device-resident against the hand port:

    python benchmarks/device_worst.py [--size L|S] [--calls N] [--kernels diagonal_tanh ...]

- diagonal_tanh: rt/fission.py on and off (the loop's tanh done for all trips before the loop,
  or in each trip: on a TPU a 0-d float64 tanh is accurate64's formulation);
- conv_relu: rt/dots.py's one product for the nine window products on and off (on: a
  (9K x C) . (C x HW) product and nine shifted sums; off: nine products of copied windows);
- cnn_forward: as compiled (its convolutions one output position at a time are lanes of lanes
  since the whole-axis slot fix, rewrite/lanes.py), and with every loop a lax loop
  (NPR_VECTORISE off: the rows as sequential trips, as far as lanes go).

Each time: the median of --calls calls of np2ref.compile called with jax.Arrays (float64, x64 on),
each waited for; the hand port jitted on the same arrays (benchmarks/hand/suite.py). Prints one
table; rows also go to stderr as they finish. Timing, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

import jax
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import suite  # noqa: E402
import suite_kernels as K  # noqa: E402
from hand import suite as H  # noqa: E402

import np2ref  # noqa: E402
from np2ref.rt import fission, peepholes, vectorise  # noqa: E402

SWITCHES = {
    "diagonal_tanh": ("fission", lambda on: fission._npr_FISSION.__setitem__("on", on)),
    "conv_relu": ("window dots", lambda on: peepholes._npr_PEEPHOLES.__setitem__("dots", on)),
    "cnn_forward": ("lanes", lambda on: setattr(vectorise, "NPR_VECTORISE", on)),
}


def timed(fn, calls):
    jax.block_until_ready(fn())
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        jax.block_until_ready(fn())
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def measure(name, args, calls):
    """[(variant, seconds, check)] for one kernel: the hand port, np2ref with its switch on, off."""
    label, switch = SWITCHES[name]
    want = getattr(K, name)(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    with jax.enable_x64(True):
        dev = [jax.device_put(a) if isinstance(a, np.ndarray) else a for a in args]
        hand = jax.jit(getattr(H, name))
        rows = [("hand port", timed(lambda: hand(*dev), calls), "")]
        for on in (True, False):
            switch(on)
            try:
                compiled = np2ref.compile(getattr(K, name))  # a fresh compile: traced with the switch as set
                t = time.perf_counter()
                got = jax.block_until_ready(compiled.device(*dev)[0])  # (device-resident: the plain call
                first = time.perf_counter() - t  # returns NumPy's results, a transfer out)
                ok = np.allclose(np.asarray(got), want, rtol=1e-9, atol=1e-12)
                rows.append((f"np2ref, {label} {'on' if on else 'off'}", timed(lambda: compiled.device(*dev)[0], calls),
                             f"{'ok' if ok else 'DIFFERS'}; first call {first:.2f} s"))
            finally:
                switch(True)
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", choices=("S", "L"), default="L")
    p.add_argument("--calls", type=int, default=10)
    p.add_argument("--kernels", nargs="*", default=list(SWITCHES))
    a = p.parse_args(argv)
    warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
    cases = {name: (label, args) for label, (name, args, _) in suite.cases(a.size).items() if name in SWITCHES}
    out = ["| kernel | variant | ms | / hand port | check |", "|---|---|---|---|---|"]
    for name in a.kernels:
        label, args = cases[name]
        rows = measure(name, args, a.calls)
        hand = rows[0][1]
        for variant, seconds, check in rows:
            line = f"| {label} | {variant} | {seconds * 1e3:.3f} | {seconds / hand:.2f} | {check} |"
            out.append(line)
            print(line, file=sys.stderr, flush=True)
    print(f"`python benchmarks/device_worst.py --size {a.size}`: jax {jax.__version__}, {jax.default_backend()} "
          f"({jax.devices()[0].device_kind}), float64, device-resident, medians of {a.calls} calls")
    print()
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
