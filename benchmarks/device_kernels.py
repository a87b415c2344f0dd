"""Third-party-style kernels measured both ways a user calls np2ref on an accelerator (issue 38):

    python benchmarks/device_kernels.py [--quick] [--only gemm,trmm] [--calls N] [--dtype-policy float32]

The kernels are NPBench's NumPy versions as benchmarks/npbench_style.py writes them (with their
hand JAX ports) plus NPBench's gemm. Per kernel, one row:

- NumPy: the original on the host (its written arguments restored before each call, untimed).
- np2ref, NumPy in: `np2ref.compile(fn)` called with the NumPy arrays, as a NumPy user calls it:
  the transfers to the device and back are in its time, and the route np2ref chose for the
  signature (the host route, NumPy itself, or the jitted translation: docs/guide.md, "Which route
  a call takes") is in the route column. Its first calls, while the route is measured, are not
  timed.
- np2ref .device: `compiled.device(*arrays)` with the arrays already jax.Arrays on the device
  (the call a time loop makes: docs/guide.md, "Keeping data on the device").
- np2ref .pure: `jax.jit(compiled.pure)` on the same jax.Arrays.
- hand: the jitted hand port on the same jax.Arrays (nothing donated: the same inputs each call).
- the ratios: NumPy in over NumPy; .device and .pure over the hand port (the issue's target is
  device-resident np2ref / hand port <= 1.0 in geomean).
- check: np2ref's NumPy-in and .device answers (result and written arguments) against NumPy's:
  floats to 1e-9 relative in `preserve`, 1e-4 in `float32`.

Each time is the median of --calls calls, each timed alone and waited for (block_until_ready).
`--quick` takes the kernels the issue measured (gemm, gemver, softmax, covariance, trmm) and two
time loops at NPBench's small sizes, a few calls each: under 4 minutes on a TPU v5e with its
compiles (about 4 a kernel, 1-12 s each there). Rows go to stderr as they finish, so a run
killed at a time limit keeps them. Timing, not a test: no assertions on numbers.
"""

from __future__ import annotations

import argparse
import math
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
import npbench_style as S  # noqa: E402
from common import disagreement  # noqa: E402

import np2ref  # noqa: E402


def gemm(alpha, beta, C, A, B):
    C[:] = alpha * A @ B + beta * C


def hand_gemm(alpha, beta, C, A, B):
    return alpha * A @ B + beta * C


KERNELS = {"gemm": (gemm, hand_gemm)} | {n: (getattr(S, n), getattr(S, "hand_" + n)) for n in S.NAMES}
QUICK = ("gemm", "gemver", "softmax", "covariance", "trmm", "jacobi_2d", "fdtd_2d")


def inputs(name, size, rng):
    """NumPy arguments: NPBench's small sizes (npbench_style.inputs) for "S", larger ones for "M"
    where the kernel has a size that matters to an accelerator."""
    r = rng.standard_normal
    if name == "gemm":
        n = 200 if size == "S" else 1000
        return 1.5, 1.2, r((n, n)), r((n, n)), r((n, n))
    if size == "S":
        return S.inputs(name, rng)
    big = {"gemver": lambda: (1.5, 1.2, r((2000, 2000))) + tuple(r(2000) for _ in range(8)),
           "softmax": lambda: (r((16, 16, 128, 128)),),
           "covariance": lambda: (400, 1000.0, r((1000, 400))),
           "correlation": lambda: (400, 1000.0, r((1000, 400))),
           "trmm": lambda: (1.5, r((300, 300)), r((300, 400))),
           "syrk": lambda: (1.5, 1.2, r((300, 300)), r((300, 350))),
           "compute": lambda: (rng.integers(0, 12, (2000, 2000)), rng.integers(0, 12, (2000, 2000)), 4, 3, 9),
           "jacobi_2d": lambda: (100, r((400, 400)), r((400, 400))),
           "fdtd_2d": lambda: (100, r((400, 450)), r((400, 450)), r((400, 450)), r(100)),
           "hdiff": lambda: (r((132, 132, 32)), np.zeros((128, 128, 32)), r((128, 128, 32)))}
    return big[name]() if name in big else S.inputs(name, rng)


def median_time(fn, calls, reset=None):
    """Median seconds of `calls` calls of fn, each waited for; reset() (untimed) before each."""
    times = []
    for _ in range(calls):
        if reset is not None:
            reset()
        t = time.perf_counter()
        jax.block_until_ready(fn())
        times.append(time.perf_counter() - t)
    return statistics.median(times)


class Kernel:
    """One kernel's arguments on the host and on the device, and its callables."""

    def __init__(self, name, size, policy):
        self.name, self.policy = name, policy
        self.fn, self.hand = KERNELS[name]
        self.args = inputs(name, size, np.random.default_rng(0))
        self.static = tuple(k for k, a in enumerate(self.args) if isinstance(a, int))
        self.x64 = policy == "preserve"
        with jax.enable_x64(self.x64):
            self.dev = [a if k in self.static else jax.device_put(self._narrow(a)) for k, a in enumerate(self.args)]
        self.host = [a.copy() if isinstance(a, np.ndarray) else a for a in self.args]
        self.compiled = np2ref.compile(self.fn, dtype_policy=policy)
        self.pure = jax.jit(self.compiled.pure, static_argnums=self.static)
        self.hand_jit = jax.jit(self.hand, static_argnums=self.static)

    def _narrow(self, a):
        """float32 policy: the device arrays a JAX user would make (float32)."""
        a = np.asarray(a)
        return a.astype(np.float32) if not self.x64 and a.dtype == np.float64 else a

    def reset(self):
        """The host arguments back to the inputs (the kernels write theirs)."""
        for h, a in zip(self.host, self.args):
            if isinstance(a, np.ndarray):
                np.copyto(h, a)

    def device(self):
        with jax.enable_x64(self.x64):
            return self.compiled.device(*self.dev)

    def pure_call(self):
        with jax.enable_x64(self.x64):
            return self.pure(*self.dev)

    def hand_call(self):
        with jax.enable_x64(self.x64):
            return self.hand_jit(*self.dev)

    def numpy_in(self):
        return self.compiled(*self.host)


def check(k):
    """np2ref's NumPy-in and .device answers against NumPy's: "ok" or the first difference."""
    rtol = 1e-9 if k.x64 else 1e-4
    names = list(k.compiled.original.__code__.co_varnames[:len(k.args)])
    k.reset()
    want_args = [a.copy() if isinstance(a, np.ndarray) else a for a in k.args]
    want = k.fn(*want_args)
    after = dict(zip(names, want_args))
    k.reset()
    got = k.numpy_in()
    finals = {n: h for n, h in zip(names, k.host) if n in k.compiled.mutated}
    bad = disagreement(want, after, got, finals, rtol=rtol, atol=rtol * 1e-3) if want is not None or finals else None
    result, dev_finals = k.device()
    bad_dev = disagreement(want, after, result, dev_finals, rtol=rtol, atol=rtol * 1e-3) \
        if want is not None or dev_finals else None
    return "ok" if bad is None and bad_dev is None else f"DIFFERS: {bad or ''} {bad_dev or ''}".strip()


def settle_route(k, most=20):
    """Call with NumPy arrays until the signature's route is decided (choice.py times both on
    the first calls); the route."""
    for _ in range(most):
        route = k.compiled.route(*k.host)
        if route in ("host", "jit"):
            return route
        k.reset()
        k.numpy_in()
    return k.compiled.route(*k.host) or "?"


def measure(name, size, policy, calls):
    k = Kernel(name, size, policy)
    row = {"kernel": name, "shape": " ".join("x".join(map(str, np.shape(a))) for a in k.args
                                             if isinstance(a, np.ndarray) and np.ndim(a) > 0)}
    t = time.perf_counter()
    row["check"] = check(k)  # (the first calls: traces and compiles)
    for f in (k.pure_call, k.hand_call):
        jax.block_until_ready(f())
    row["first"] = time.perf_counter() - t
    row["route"] = settle_route(k)
    row["NumPy"] = median_time(lambda: k.fn(*k.host), calls, k.reset)
    row["numpy in"] = median_time(k.numpy_in, calls, k.reset)
    row[".device"] = median_time(k.device, calls)
    row[".pure"] = median_time(k.pure_call, calls)
    row["hand"] = median_time(k.hand_call, calls)
    return row


def ms(s):
    return f"{s * 1e3:.3f}"


def geomean(xs):
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(statistics.fmean(math.log(x) for x in xs)) if xs else float("nan")


def table(rows):
    out = ["| kernel | arrays | NumPy ms | np2ref NumPy in ms | route | np2ref .device ms | np2ref .pure ms | "
           "hand ms | NumPy in / NumPy | .device / hand | .pure / hand | check |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['kernel']} | {r['shape']} | {ms(r['NumPy'])} | {ms(r['numpy in'])} | {r['route']} | "
                   f"{ms(r['.device'])} | {ms(r['.pure'])} | {ms(r['hand'])} | {r['numpy in'] / r['NumPy']:.2f} | "
                   f"{r['.device'] / r['hand']:.2f} | {r['.pure'] / r['hand']:.2f} | {r['check']} |")
    out.append("")
    out.append(f"Geometric means over {len(rows)} kernels: NumPy in / NumPy "
               f"**{geomean([r['numpy in'] / r['NumPy'] for r in rows]):.2f}**; device-resident np2ref / hand: "
               f".device **{geomean([r['.device'] / r['hand'] for r in rows]):.2f}**, "
               f".pure **{geomean([r['.pure'] / r['hand'] for r in rows]):.2f}**.")
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="the issue's kernels at NPBench's small sizes, 5 calls each")
    p.add_argument("--size", choices=("S", "M"), default=None, help="S: NPBench's small sizes; M (default): larger")
    p.add_argument("--only", default="", help="comma-separated kernel names")
    p.add_argument("--calls", type=int, default=None)
    p.add_argument("--dtype-policy", choices=("preserve", "float32"), default="preserve")
    a = p.parse_args(argv)
    size = a.size or ("S" if a.quick else "M")
    calls = a.calls or (5 if a.quick else 15)
    names = a.only.split(",") if a.only else QUICK if a.quick else tuple(KERNELS)
    warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
    rows = []
    for name in names:
        try:
            rows.append(measure(name, size, a.dtype_policy, calls))
        except Exception as exc:  # a kernel the device refuses: say so, go on with the others
            print(f"{name}: {type(exc).__name__}: {str(exc)[:300]}", file=sys.stderr, flush=True)
            continue
        print(rows[-1], file=sys.stderr, flush=True)
    print(f"`python benchmarks/device_kernels.py {' '.join(argv if argv is not None else sys.argv[1:])}`: "
          f"jax {jax.__version__}, numpy {np.__version__}, {jax.default_backend()} "
          f"({jax.devices()[0].device_kind}), size {size}, dtype policy {a.dtype_policy}, medians of {calls} calls")
    print()
    print("\n".join(table(rows)) if rows else "no kernel ran")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
