"""Cost of np2ref's run-time index checks: each kernel compiled with bounds="checked" (the
default) and bounds="unchecked" (JAX's clamping), end-to-end calls (NumPy in, NumPy out),
medians of interleaved rounds. Timing only, no assertions.

    python benchmarks/bounds.py
"""
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import np2ref  # noqa: E402



def gather(u, idx):
    return u[idx].sum()

def recurrence(x, y, a, b):
    for i in range(1, x.shape[0]):
        y[i] = a * y[i - 1] + b * x[i]

def hist(h, idx):
    np.add.at(h, idx, 1.0)

def small(u, i):
    return u[i] + u[i + 1]

def gauss_seidel(u, f, h2):
    n = u.shape[0]
    for i in range(1, n - 1):
        for j in range(1, n - 1):
            u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - h2 * f[i, j])

def csr(indptr, indices, data, x, y):
    for i in range(indptr.shape[0] - 1):
        acc = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            acc += data[k] * x[indices[k]]
        y[i] = acc


def _time(fn, args, reps):
    ts = []
    for _ in range(reps):
        a = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
        t = time.perf_counter()
        fn(*a)
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def main():
    rng = np.random.default_rng(0)
    cases = [
        ("u[idx].sum(), 1e6 traced indices", gather, (rng.random(10**6), rng.integers(0, 10**6, 10**6))),
        ("np.add.at, 1e6 traced indices", hist, (np.zeros(1000), rng.integers(0, 1000, 10**6))),
        ("recurrence y[i] = a*y[i-1] + b*x[i], 1e4", recurrence, (rng.random(10**4), np.zeros(10**4), 0.5, 0.3)),
        ("gauss_seidel 128x128 (scalar reads)", gauss_seidel, (rng.random((128, 128)), rng.random((128, 128)), 0.01)),
        ("csr matvec, 2000 rows, 20000 nnz", csr, (np.arange(0, 20001, 10), rng.integers(0, 2000, 20000),
                                                  rng.random(20000), rng.random(2000), np.zeros(2000))),
        ("u[i] + u[i+1], n=1000 (per call)", small, (rng.random(1000), np.int64(5))),
    ]
    print(f"{'kernel':44s} {'checked':>12s} {'unchecked':>12s} {'ratio':>6s}")
    for name, fn, args in cases:
        checked, unchecked = np2ref.compile(fn), np2ref.compile(fn, bounds="unchecked")
        for c in (checked, unchecked):
            _time(c, args, 1)
        rounds = [(_time(checked, args, 7), _time(unchecked, args, 7)) for _ in range(5)]
        tc, tu = (statistics.median(r[k] for r in rounds) for k in (0, 1))
        print(f"{name:44s} {tc * 1e6:9.1f} us {tu * 1e6:9.1f} us {tc / tu:6.2f}")


if __name__ == "__main__":
    main()
