"""`A[i + c]` in a loop's lanes read as slices, not a gather (rt/lane_reads.py; issue 39): the
program has no gather left, and the values are NumPy's bit for bit (a read moves no arithmetic),
including a negative position's wrap-around and NumPy's IndexError past the end."""

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits


def shifted(A, B):
    for i in range(A.shape[0]):  # i = 0 reads A[-1]: NumPy's wrap-around
        B[i] = A[i - 1] * 2.0 + A[i - 2]


def stencil(A, B, steps):
    n = A.shape[0]
    for t in range(steps):
        for i in range(1, n - 1):
            B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1])
        for i in range(1, n - 1):
            A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1])


def rows_and_columns(A, B):
    for i in range(1, A.shape[0] - 1):
        for j in range(1, A.shape[1] - 1):
            B[i, j] = A[i + 1, j] - A[i, j - 1] + A[i - 1, j + 1]


def past_the_end(A, B):
    for i in range(A.shape[0]):
        B[i] = A[i + 1]


CASES = {
    "shifted": (shifted, lambda r: (r(9), np.zeros(9))),
    "stencil": (stencil, lambda r: (r(40), r(40), 3)),
    "rows_and_columns": (rows_and_columns, lambda r: (r((7, 8)), np.zeros((7, 8)))),
}
_COMPILED = {}


def _compiled(fn):
    if fn not in _COMPILED:
        _COMPILED[fn] = np2ref.compile(fn, host_below=0)
    return _COMPILED[fn]


def _run(fn, args):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    fn(*args)
    return args


@pytest.mark.parametrize("name", sorted(CASES))
def test_lane_reads_are_numpys_bits(name):
    fn, make = CASES[name]
    args = make(np.random.default_rng(5).standard_normal)
    for got, want in zip(_run(_compiled(fn), args), _run(fn, args)):
        if isinstance(want, np.ndarray):
            assert_numpys_bits(got, want)


@pytest.mark.parametrize("name", sorted(CASES))
def test_lane_reads_are_slices_not_gathers(name):
    fn, make = CASES[name]
    args = make(np.random.default_rng(5).standard_normal)
    static = tuple(k for k, a in enumerate(args) if isinstance(a, int))
    with jax.enable_x64(True):
        dev = [a if k in static else jax.device_put(a) for k, a in enumerate(args)]
        hlo = jax.jit(_compiled(fn).pure, static_argnums=static).lower(*dev).compile().as_text()
    assert " gather(" not in hlo


def test_an_index_past_the_end_is_numpys_index_error():
    args = (np.arange(5.0), np.zeros(5))
    with pytest.raises(IndexError):
        past_the_end(*[a.copy() for a in args])
    with pytest.raises(IndexError):
        _compiled(past_the_end)(*[a.copy() for a in args])
