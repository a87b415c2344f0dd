"""`loops="pallas"` on the edge data of the fuzz family pallas_nest (np2ref/fuzz/seq_families.py),
against NumPy, results and every argument: an empty array among the kernel's (its element copy
and the out-of-range stand-in element 0 had nothing to lower to: JAX's TypeError "slice_sizes
must be less than or equal to operand shape" from the jitted call, found by the fuzzer)."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from np2ref.verify.compare import first_difference


def wrap_mod(Q):
    m0 = Q.shape[0]
    for i1 in range(m0):
        Q[(i1 + 1) % m0] += Q[i1] * -1.5


def rows(Q, B):
    for i in range(Q.shape[0]):
        for j in range(B.shape[1]):
            B[i, j] = B[i, j] * 0.5 + Q[i]


_COMPILED: dict = {}


def _same(fn, *args):
    comp = _COMPILED.setdefault(fn, np2ref.compile(fn, loops="pallas", host_below=0))
    want = [a.copy() for a in args]
    got = [a.copy() for a in args]
    fn(*want)
    comp(*got)
    for k, (w, g) in enumerate(zip(want, got)):
        diff = first_difference(w, g, f"argument {k}")
        assert diff is None, diff
    return comp


@pytest.mark.parametrize("args", [(np.zeros(0),), (np.array([1.0, -2.0, 0.5]),)], ids=["empty", "three"])
def test_an_empty_array_runs_the_lax_loop(args):
    comp = _same(wrap_mod, *args)
    explained = comp.explain()
    assert ("`Q` is empty" in explained) == (args[0].size == 0)


@pytest.mark.parametrize("shape", [(3, 0), (0, 2), (2, 3)])
def test_rows_of_an_empty_or_full_matrix(shape):
    _same(rows, np.arange(float(shape[0])), np.ones(shape))
