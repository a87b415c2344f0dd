"""Kernels for benchmarks/run.py that are not corpus programs: the NumPy originals."""

import numpy as np


def heat(u, c, steps):
    """The 2-D heat stencil of research/perf-baselines.md (kernel 1), in place."""
    for _ in range(steps):
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + c * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:]
                                             + u[1:-1, :-2] - 4 * u[1:-1, 1:-1])


def bump(a, b):
    """A near no-op with write-back, for compile's per-call overhead."""
    a += b
