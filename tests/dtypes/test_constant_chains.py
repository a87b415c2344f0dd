"""A sum, difference or product with a constant after another one with a constant, whose value
reaches a decision (a cast to an integer, a comparison, floor, round): NumPy's two roundings.
XLA's simplifier folds `(x + 0.1) + 0.7` into `x + 0.8` (one rounding): 34,952 of 3,000,000
cells of `(x + 0.1 + 0.7).astype(np.int64)` differed before rt/divisions.py fenced the chain.
Values that decide nothing keep XLA's rounding (docs/semantics.md, "Floating point")."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, on_tpu, program

# A TPU's float64 is a float32 pair (48 bits, docs/tpu.md): `x + 0.1` is 79-128 ulps off there,
# so a float64 value on a cell's edge falls either side whatever the fence; float32 is IEEE's
_PAIR = pytest.mark.skipif(on_tpu(), reason="a TPU's float64 pair decides edges by its own 48 bits (docs/tpu.md)")

P = program("constant_chains")
GRID = np.arange(0, 300_000) / 10.0  # values a tenth apart: sums land on cell edges


@_PAIR
@pytest.mark.parametrize("name,grid", [("cells_of_a_sum", GRID), ("cells_of_a_product", GRID / 3),
                                       ("floor_of_module_constants", GRID), ("constant_arrays", GRID)])
def test_a_chain_that_decides_is_rounded_as_numpy_rounds_it(name, grid):
    fn = getattr(P, name)
    assert_same_as_numpy(fn, np2ref.compile(fn), grid)


@_PAIR
def test_a_masked_store_by_a_chain():
    fn = P.mask_of_a_fraction
    assert_same_as_numpy(fn, np2ref.compile(fn), GRID, np.zeros_like(GRID))


@_PAIR
def test_a_chain_in_a_loop_that_counts():
    x = np.arange(0, 20_000) / 100.0
    assert_same_as_numpy(P.chain_in_a_loop, np2ref.compile(P.chain_in_a_loop), x, 7)


def test_float32_chains_decide_as_numpy():
    assert_same_as_numpy(P.cells_of_a_sum, np2ref.compile(P.cells_of_a_sum), GRID.astype(np.float32))


def test_the_chain_is_fenced_only_where_it_decides():
    """A chain whose value decides nothing is XLA's (fast, the last bit), as a quotient's is."""
    jitted = np2ref.compile(P.values_only)
    got, want = jitted(GRID), P.values_only(GRID)
    np.testing.assert_allclose(got, want, rtol=1e-13 if on_tpu() else 1e-15)
