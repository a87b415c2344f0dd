"""A fence that decides through a store: rt/divisions.py fences a quotient, a chain of constants
or a product whose value reaches a decision (docs/semantics.md, "Floating point"), and a value
stored into an array that is then loaded and decided on (`z[...] = x / 0.1; z.astype(int)`,
`x += 0.1; x += 0.7; np.floor(x)`) reached it through a Ref, which the analysis did not follow:
XLA's rewrites stayed and put values in other cells (found by hand beside fuzz11's fold_edges
family). The identities XLA applies are fenced wherever they are, through a store too
(`v[...] = np.exp(x); np.log(v)`, `v = x.copy(); v *= v; np.sqrt(v)`) and for exp2 as for exp
(`np.exp2(x) * np.exp2(-x)` was 1.0 where NumPy's inf * 0 is NaN). `x + 0.0` is fenced wherever it
is: XLA drops the zero, and NumPy's `-0.0 + 0.0` is 0.0, a value (`1.0 / (x + 0.0)` was -inf for
NumPy's inf)."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, on_tpu, program

_PAIR = pytest.mark.skipif(on_tpu(), reason="a TPU's float64 pair decides edges by its own 48 bits (docs/tpu.md)")
_RANGE = pytest.mark.skipif(on_tpu(), reason="a TPU's float64 has float32's exponent range (docs/tpu.md)")

P = program("fenced_through_refs")
GRID = np.arange(0, 3000) / 10.0  # values a tenth apart: sums and quotients land on cell edges
SPECIAL = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 1e300, -1e300, 1.0, -1.0, 0.5, -2.5, 800.0, -800.0, 700.0])


@pytest.fixture(autouse=True)
def _quiet():
    with np.errstate(all="ignore"):
        yield


@_PAIR
@pytest.mark.parametrize("name", ["chain_stored_then_cast", "quotient_stored_then_cast", "chain_by_op_assign_on_a_copy",
                                  "chain_by_op_assign_on_the_argument", "chain_on_a_slice_in_place", "chain_through_out",
                                  "chain_carried_by_a_loop_in_place", "quotients_stored_by_a_loop",
                                  "chains_stored_by_a_loop", "chain_under_a_mask", "chain_through_a_reversal",
                                  "quotient_stored_under_a_branch", "chain_in_place_under_a_branch"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_value_stored_then_decided_is_rounded_as_numpy(name, dtype):
    fn = getattr(P, name)
    assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), GRID.astype(dtype))


@_PAIR
def test_a_quotient_stored_into_a_slice_then_masked():
    fn = P.quotient_into_a_slice_then_masked
    assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), GRID, np.zeros_like(GRID))


@_PAIR
def test_a_product_stored_then_floored_with_an_addend():
    fn = P.product_stored_then_floor
    x = np.arange(0, 2000) / 7.0
    assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), x, np.full_like(x, 0.3))


@pytest.mark.parametrize("name", ["reciprocal_of_a_zero_added", "angle_of_a_zero_added",
                                  "sign_of_a_zero_added_through_a_store", "zero_d_reciprocal"])
def test_a_zero_added_is_numpys_positive_zero(name):
    fn = getattr(P, name)
    if on_tpu():  # a TPU's float64 pair has no -0.0 (docs/tpu.md): np.signbit is refused there, NPR302
        if name == "sign_of_a_zero_added_through_a_store":
            with pytest.raises(np2ref.Np2RefError, match="NPR302"):
                np2ref.compile(fn, host_below=0)(SPECIAL.copy())
        pytest.skip("a TPU's float64 has no -0.0 (docs/tpu.md)")
    for x in (SPECIAL, SPECIAL[::-1].copy()):
        want, got = fn(x.copy()), np2ref.compile(fn, host_below=0)(x.copy())
        assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), x)
        # the comparison takes -0.0 for 0.0: the signs as well
        np.testing.assert_array_equal(np.signbit(np.asarray(got)), np.signbit(np.asarray(want)))


@_RANGE
@pytest.mark.parametrize("name", ["log_of_an_exp_stored", "exp_products_through_a_copy", "root_of_a_square_stored",
                                  "root_of_a_square_in_place", "abs_compared_through_a_copy", "exp2_products",
                                  "exp2_ratio", "log_of_an_exp2"])
def test_an_identity_through_a_store_or_of_exp2_is_fenced(name):
    fn = getattr(P, name)
    assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), SPECIAL)


@_PAIR
@pytest.mark.parametrize("name", ["bins_of_an_arange_grid", "cells_of_an_arange_grid", "chain_on_a_constant_grid"])
def test_a_grid_made_from_arange_decides_as_numpy(name):
    """`np.arange(n) * 0.1 + 0.1`: LLVM proved the product no NaN (a converted integer times a
    constant) and folded the fence's `p != p` away, then contracted the multiply-add into an FMA;
    a chain on a grid made from constants alone was not fenced (XLA reassociates it before it
    folds it). The fence now tests the product's bits against one NaN's."""
    fn = getattr(P, name)
    assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), GRID)


@_PAIR
def test_a_loop_that_stores_what_is_decided_after_it_is_fenced():
    """The loop is handed the Ref, not the value: its body's division is fenced since fuzz11."""
    fn = P.quotient_stored_in_a_loop_of_n_trips
    assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), GRID, 3)
