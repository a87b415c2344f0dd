"""What a history appended in a `while` loop on data costs compiled (rt/histories.py): the loop
runs as one compiled program whatever its trip count, each append a store into a K-row buffer,
each K appends an ordered host callback handing the chunk over.

- `ode`: benchmarks/graph_break_scripts/own_ode_history.py (an adaptive Heun step, (t, y) recorded
  each accepted step, a `continue` on rejection), t_end 50 and 500;
- `cos fixed point`: `norms.append(change)` (a Python float) each trip of `while change > tol:`,
  x = cos(x) on 1,000 values from 1.0 to tol 1e-15;
- `steps`: a plain `while k < n: hist.append(k * 0.5)` of n trips (n = 10^5), K = 4,096 rows a
  chunk (25 chunks) against K = 64 (1,563 chunks): what a chunk's round trip costs.

    python benchmarks/while_histories.py [--repeat 5]

Prints, per case: the appends, NumPy's time, the first call (trace, compile, run), the fastest
later call, and the later call's time per append. np2ref.compile(host_below=0): the translation.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import os
import time
from pathlib import Path

os.environ["NP2REF_HOST_BELOW"] = "0"
import numpy as np  # noqa: E402

import np2ref  # noqa: E402
from np2ref.rt import histories  # noqa: E402

HERE = Path(__file__).resolve().parent


def _script(name):
    spec = importlib.util.spec_from_file_location(name, HERE / "graph_break_scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cosine_fixed_point(x, tol):
    norms = []
    change = 1.0
    while change > tol:
        new = np.cos(x)
        change = float(np.abs(new - x).max())
        x[...] = new
        norms.append(change)
    return x, norms


def steps(x, n):
    hist = []
    k = 0
    while k < n + x[0]:
        x[0] = x[0] * 1.0
        hist.append(k * 0.5)
        k += 1
    return np.array(hist)


def _time(fn, make, repeat):
    times = []
    for _ in range(repeat):
        args = copy.deepcopy(make())
        t0 = time.perf_counter()
        out = fn(**args)
        times.append(time.perf_counter() - t0)
    return out, times


def case(name, fn, make, repeat, count):
    (want, numpy_t) = _time(fn, make, repeat)
    compiled = np2ref.compile(fn, host_below=0)
    got, times = _time(compiled, make, repeat + 1)
    n = count(want)
    assert count(got) == n
    print(f"| {name} | {n} | {min(numpy_t) * 1e3:.1f} | {times[0]:.2f} | {min(times[1:]) * 1e3:.1f} | "
          f"{min(times[1:]) / max(n, 1) * 1e6:.2f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    opts = ap.parse_args()
    ode = _script("own_ode_history")
    print("| case | appends | NumPy ms | first call s | later call ms | later us/append |")
    print("|---|---|---|---|---|---|")
    for t_end in (50.0, 500.0):
        case(f"ode t_end={t_end:g}", ode.integrate, lambda t=t_end: dict(y=np.array([1.0, 0.0]), t_end=t, tol=1e-4, h=0.1),
             opts.repeat, lambda out: len(out[0]))
    case("cos fixed point", cosine_fixed_point, lambda: dict(x=np.ones(1000), tol=1e-15), opts.repeat,
         lambda out: len(out[1]))
    for rows in (4096, 64):
        histories.NPR_HISTORY_ROWS = rows
        case(f"steps K={rows}", steps, lambda: dict(x=np.zeros(1), n=100_000), opts.repeat, len)


if __name__ == "__main__":
    main()
