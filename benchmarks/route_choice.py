"""Whether np2ref.compile's default route is the faster one (issue 39 item 4, issue 38 item 4).

    PYTHONPATH=$PWD python benchmarks/route_choice.py [--rounds N] [--only a,b]

For each kernel of benchmarks/route_kernels.py, three ways of calling it with NumPy arrays: NumPy
itself, np2ref.compile(fn, host_below=0) (always the jitted translation) and np2ref.compile(fn)
(the default: its route decision). Each call gets fresh copies of its arguments (made outside
the timed region: the kernels write theirs). The default is called `--warm` times before the
timed rounds, so that a decision made on the first calls is made; its first call's time is
shown apart. Rounds are interleaved; each cell is the median of the rounds. "default / best" is
the default's time over the faster of NumPy and the translation: the requirement is <= 1.10.
"its time / best": the column of the route the default took (NumPy or jitted) over the faster
one, "right" when that is <= 1.10; "default / best" adds the default's own call (the route's
dispatch) and the noise of timing the same route twice.
Timing, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import route_kernels as K  # noqa: E402

import np2ref  # noqa: E402


def timed(fn, arguments):
    """Seconds for one call of fn on fresh copies of `arguments`."""
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in arguments]
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def fmt(s):
    return f"{s * 1e6:.0f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms" if s < 1 else f"{s:.2f} s"


def route_of(compiled, arguments) -> str:
    if hasattr(compiled, "route"):  # np2ref.compile's own answer (compiled/choice.py)
        return compiled.route(*arguments)
    hosted = compiled._hosted or {}  # before it: the route decided by the estimate alone
    return "host" if any(r is not False for r in hosted.values()) else "jit"


EXPLAINED = []  # each default's explain(): its estimates and measured times


def measure(name, rounds, warm):
    fn, arguments = getattr(K, name), K.inputs(name, np.random.default_rng(0))
    jitted, default = np2ref.compile(fn, host_below=0), np2ref.compile(fn)
    first = timed(default, arguments)
    for _ in range(warm - 1):
        timed(default, arguments)
    timed(jitted, arguments)
    variants = {"NumPy": fn, "jitted": jitted, "default": default}
    samples = {v: [] for v in variants}
    for k in range(rounds):
        order = list(variants) if k % 2 == 0 else list(variants)[::-1]
        for v in order:
            samples[v].append(timed(variants[v], arguments))
    t = {v: statistics.median(s) for v, s in samples.items()}
    EXPLAINED.append(default.explain().split("\n", 1)[-1] if hasattr(default, "explain") else "")
    return t["NumPy"], t["jitted"], t["default"], first, route_of(default, arguments)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--warm", type=int, default=14, help="default calls before the timed rounds")
    parser.add_argument("--only", default="", help="comma-separated kernel names")
    args = parser.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or K.NAMES
    rows = []
    for name in names:
        try:
            rows.append((name, *measure(name, args.rounds, args.warm)))
        except Exception as exc:  # refused on this device (complex128 on a TPU, ...): said, not timed
            print(f"{name}: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}", flush=True)
            continue
        print(rows[-1], flush=True)
    import jax
    print(f"\n`python benchmarks/route_choice.py --rounds {args.rounds}` on {jax.default_backend()} "
          f"({jax.devices()[0].device_kind}, jax {jax.__version__}): medians of {args.rounds} interleaved rounds\n")
    print("| kernel | NumPy | jitted | default | default / best | route | its time / best | right | default's first call |")
    print("|---|---|---|---|---|---|---|---|---|")
    worst = 0.0
    for name, tn, tj, td, first, route in rows:
        ratio = td / min(tn, tj)
        worst = max(worst, ratio)
        chosen = (tn if route == "host" else tj) / min(tn, tj)  # the route's own column: no noise of the default's
        right = chosen <= 1.1
        print(f"| {name} | {fmt(tn)} | {fmt(tj)} | {fmt(td)} | {ratio:.2f} | {route} | {chosen:.2f} | "
              f"{'yes' if right else 'no'} | {fmt(first)} |")
    print(f"\nworst default / best: {worst:.2f}\n")
    print("\n".join(EXPLAINED))


if __name__ == "__main__":
    main()
