"""A helper's Python number unpacked beside a returned parameter and returned again:
`samples, rate, scale = chain(x0, n, 1.0)` where chain returns `samples, accepted / n, scale`
(an adaptive Metropolis sampler). NumPy's `rate` is a Python float; the call unpacks into
names np2ref owns (chain returns a parameter, so its items may be the caller's Refs), and the
owned `rate` was a new Ref whose load no longer carried the note that it is a Python number:
the caller returned np.float64. npr_own now binds such a value as it is (rt/views.npr_own,
rt/core._npr_pyreturned). Compared against NumPy: values and each result's type.
"""

from __future__ import annotations

import numpy as np

import np2ref
from conftest import numpys_values


def chain(x0, n, scale):
    samples = np.empty((n, 2))
    x = x0.copy()
    accepted = 0
    for i in range(n):
        prop = x + scale * np.random.randn(2)
        if np.random.rand() < 0.5:
            x = prop
            accepted += 1
        samples[i] = x
        scale *= np.exp(0.01)
    return samples, accepted / n, scale, accepted


def run(n, seed):
    np.random.seed(seed)
    samples, rate, scale, count = chain(np.zeros(2), n, 1.0)
    kept = samples[n // 5:]
    return kept.mean(axis=0), rate, scale, count


def test_a_helpers_python_numbers_come_back_as_python_numbers():
    want = run(12, 1)
    got = np2ref.compile(run)(12, 1)
    assert [type(v) for v in got] == [type(v) for v in want]  # ndarray, float, np.float64, int
    assert all(numpys_values(g, w) for g, w in zip(got, want))
