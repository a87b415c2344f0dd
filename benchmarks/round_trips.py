"""Python's `round(v, n)` of a float read from array data, once a trip of a loop: NumPy (the
original), np2ref with the rounding made on the host (an io_callback a trip: rt/host.npr_round as
it was) and on the device (rt/pymath._npr_py_round, the default for a known 0 <= n <= 22), and the
same loop with no round at all (what the loop itself costs).

    python benchmarks/round_trips.py [--trips 10000] [--rounds 5]

Each column the median of --rounds calls after a warm-up call (compile excluded), in ms; "same"
says the np2ref results equal NumPy's to the bit. Timing, not a test: no assertions on numbers.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import np2ref  # noqa: E402
from np2ref.rt import host  # noqa: E402


def rounded_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += round(float(x[i]), 3)
    return s


def plain_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += float(x[i])
    return s


def _median_ms(fn, x, rounds):
    fn(x)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn(x)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def _on_host(fn):
    """np2ref.compile of `fn` with the device rounding switched off while it is traced."""
    compiled = np2ref.compile(fn, host_below=0)
    saved = host._npr_py_round

    def run(x):
        host._npr_py_round = lambda v, n: None
        try:
            return compiled(x)
        finally:
            host._npr_py_round = saved
    return run


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--trips", type=int, default=10_000)
    p.add_argument("--rounds", type=int, default=5)
    a = p.parse_args(argv)
    x = np.random.default_rng(0).standard_normal(a.trips) * 100.0
    want = rounded_sum(x)
    host_run, device_run = _on_host(rounded_sum), np2ref.compile(rounded_sum, host_below=0)
    plain = np2ref.compile(plain_sum, host_below=0)
    same = all(repr(r(x)) == repr(want) for r in (host_run, device_run))
    print(f"`python benchmarks/round_trips.py --trips {a.trips}`: medians of {a.rounds} calls, ms\n\n"
          "| NumPy | np2ref, round on the host | np2ref, round on the device | np2ref, no round | same |\n"
          "|---|---|---|---|---|")
    print(f"| {_median_ms(rounded_sum, x, a.rounds):.2f} | {_median_ms(host_run, x, a.rounds):.2f} | "
          f"{_median_ms(device_run, x, a.rounds):.2f} | {_median_ms(plain, x, a.rounds):.2f} | {same} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
