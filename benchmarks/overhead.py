"""np2ref.compile's per-call overhead against a plain `jax.jit` call on the same arguments.

    python benchmarks/overhead.py [--rounds N] [--sizes 10 1000 100000]

For each kernel (1-3 float64 arguments, none or one of them written) and size, three cases
are timed in paired, interleaved rounds: `jax.jit` of the same computation on device arrays
(block_until_ready), the same jitted function on the NumPy arrays with its results converted
by `np.asarray` (and copied back into the written array, as NumPy semantics need),
`np2ref.compile(host_below=0)` with the NumPy arrays (always the jitted translation: the
overhead column), NumPy itself, and `np2ref.compile` with its defaults (below HOST_BELOW
elements a loop-free program takes the host route: the original NumPy function). A round's sample of a case is the mean of a batch of
back-to-back calls; the overhead column is the median over rounds of (np2ref - jit on NumPy),
the two samples of one round taken next to each other on this drifting, shared VM. Timing,
not a test: no assertions on numbers.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import np2ref  # noqa: E402


# ---- the kernels: NumPy originals (np2ref.compile translates these) -------------------------

def one(a):
    return a * 2.0 + 1.0


def two(a, b):
    return a + b * b


def three(a, b, c):
    return a * b + c


def scale_(a):
    a *= 2.0


def axpy_(a, b, c):
    a += b * c


# name, the NumPy original, the same computation as a pure function, the written argument (or None)
KERNELS = [
    ("1 arg", one, lambda a: a * 2.0 + 1.0, None),
    ("2 args", two, lambda a, b: a + b * b, None),
    ("3 args", three, lambda a, b, c: a * b + c, None),
    ("1 arg, written", scale_, lambda a: a * 2.0, 0),
    ("3 args, 1 written", axpy_, lambda a, b, c: a + b * c, 0),
]


def batch_time(fn, calls):
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t) / calls


def measure(name, original, pure, written, n, rounds):
    rng = np.random.default_rng(0)
    arity = original.__code__.co_argcount
    host = [rng.random(n) for _ in range(arity)]
    compiled = np2ref.compile(original, host_below=0)
    default = np2ref.compile(original)
    with jax.enable_x64(True):
        jitted = jax.jit(pure)
        device = [jax.device_put(x) for x in host]

    def np2ref_call():
        compiled(*host)

    def jit_device():
        with jax.enable_x64(True):
            jitted(*device).block_until_ready()

    def jit_numpy():
        with jax.enable_x64(True):
            out = np.asarray(jitted(*host))
        if written is not None:
            np.copyto(host[written], out)

    numpy_host = [x.copy() for x in host]
    default_host = [x.copy() for x in host]
    cases = {"np2ref": np2ref_call, "jit device": jit_device, "jit numpy": jit_numpy,
             "NumPy": lambda: original(*numpy_host), "default": lambda: default(*default_host)}
    for fn in cases.values():  # compile and warm up
        fn()
        fn()
    calls = max(3, min(200, int(0.004 / max(batch_time(jit_numpy, 5), 1e-7))))
    samples = {k: [] for k in cases}
    order = list(cases)
    for r in range(rounds):
        for k in (order if r % 2 == 0 else order[::-1]):
            samples[k].append(batch_time(cases[k], calls))
    median = {k: statistics.median(v) for k, v in samples.items()}
    over = statistics.median(c - p for c, p in zip(samples["np2ref"], samples["jit numpy"]))
    route = "host" if any(r is not False for r in default._hosted.values()) else "jit"
    return {"kernel": name, "n": n, **median, "overhead": over, "route": route}


def fmt(s):
    return f"{s * 1e6:.1f} µs" if abs(s) < 1e-3 else f"{s * 1e3:.2f} ms"


def table(rows):
    out = ["| kernel | elements | jit, device arrays | jit, NumPy arrays | np2ref.compile jitted, NumPy arrays "
           "| np2ref − jit (NumPy), paired | NumPy | np2ref.compile default (route) |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['kernel']} | {r['n']:,} | {fmt(r['jit device'])} | {fmt(r['jit numpy'])} | "
                   f"{fmt(r['np2ref'])} | {fmt(r['overhead'])} | {fmt(r['NumPy'])} | "
                   f"{fmt(r['default'])} ({r['route']}) |")
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=21)
    p.add_argument("--sizes", type=int, nargs="+", default=[10, 1000, 100_000])
    p.add_argument("--kernels", nargs="*", help="names (default: all)")
    args = p.parse_args(argv)
    rows = [measure(name, o, f, w, n, args.rounds) for name, o, f, w in KERNELS
            if not args.kernels or name in args.kernels for n in args.sizes]
    print(f"jax {jax.__version__}, numpy {np.__version__}, {jax.default_backend()}, "
          f"medians of {args.rounds} paired rounds")
    print("\n".join(table(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
