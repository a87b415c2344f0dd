"""Copies and index tuples: stores into a copy NumPy makes (`b[[0, 1]][0] = v`), `op=` rebinding
a NumPy scalar to an array that is written after, index tuples with `...` or slices rebound in
loops, a rebinding (`x = x.copy()`) the aliasing analysis did not see, `copy.copy` and
`copy.deepcopy` of arrays, and a traced index into an empty axis (NumPy's IndexError). Differential: the original against np2ref.compile of it (results and
mutated arguments); refusals carry their code."""

import functools
import warnings

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("copies_and_index_tuples")


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(P, name), host_below=0)


def _grid():
    return np.arange(12.0).reshape(3, 4) + 1


def _state():
    return (np.arange(4.0), np.array([1.0, -2.0, 0.5, 3.0]))


@pytest.mark.parametrize("name", ["store_into_fancy_copy", "store_into_basic_view",
                                  "store_into_argument_fancy_copy"])
def test_stores_into_a_chained_index_match_numpy(name):
    """A fancy index makes a copy: the store goes into it and the array is unchanged; a basic
    slice is a view, and the store writes through it."""
    assert_same_as_numpy(getattr(P, name), compiled(name), _grid())


def test_a_store_into_a_mask_copy_is_refused_not_crashed():
    with pytest.raises(np2ref.Np2RefError, match="NPR104"):
        compiled("store_into_a_mask_copy")(_grid())


@pytest.mark.parametrize("name", ["scalar_rebound_then_written", "scalar_reductions_rebound",
                                  "array_sum_in_place", "zero_d_array_in_place"])
def test_op_assign_on_a_numpy_scalar_rebinds(name):
    """`t = a.sum()` is NumPy's scalar: `t += a[0]` makes t a new array, which `t[1] = 3.0`
    writes; a reduction along an axis (an array) and a 0-d array stay written in place."""
    assert_same_as_numpy(getattr(P, name), compiled(name), _grid())


@pytest.mark.parametrize("name", ["ellipsis_index_in_loop", "slice_index_in_loop"])
@pytest.mark.parametrize("n", [0, 3])
def test_index_tuples_rebound_in_a_loop_run_as_python(name, n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        assert_same_as_numpy(getattr(P, name), compiled(name), _grid(), n)


def test_an_index_tuple_store_matches_numpy():
    assert_same_as_numpy(P.index_tuple_once, compiled("index_tuple_once"), _grid())


def test_an_index_tuple_chosen_by_data_is_refused():
    with pytest.raises(np2ref.Np2RefError, match="NPR122"):
        compiled("index_chosen_by_data")(_grid())


def test_an_index_array_with_an_unmasked_array_pairs_it_with_the_selection():
    """`a[i] = a[i] + b`, i an integer array: b pairs with a[i] in NumPy; the whole-array form
    of a masked store paired it with a (a wrong result before this round, then NPR104). The
    reads are decided when traced (npr_unmask): NumPy's own a[i] for an integer index."""
    fn = compiled("index_array_with_unmasked_array")
    for i in (np.array([2, 0, 1]), np.array([1, 1, 0])):  # a repeated index: NumPy's last write wins
        assert_same_as_numpy(P.index_array_with_unmasked_array, fn, np.arange(3.0), i, np.array([10.0, 20.0, 30.0]))
    assert_same_as_numpy(P.index_array_with_unmasked_array, fn, np.arange(3.0), np.array([True, False, True]), 2.5)


def test_a_copy_of_a_tuple_item_written_is_not_a_write_into_the_tuple():
    assert_same_as_numpy(P.copy_of_tuple_item, compiled("copy_of_tuple_item"), _state())
    fn = compiled("fresh_items_written")
    assert_same_as_numpy(P.fresh_items_written, fn, _state(), 2)
    assert fn.mutated == ()


@pytest.mark.parametrize("name", ["tuple_item_written", "tuple_item_written_before_copy",
                                  "tuple_item_maybe_copied", "tuple_item_alias_written"])
def test_a_write_that_may_reach_the_tuple_is_still_refused(name):
    args = (_state(),) + ((2,) if name == "tuple_item_written_before_copy" else ())
    with pytest.raises(np2ref.Np2RefError, match="NPR207"):
        compiled(name)(*args)


def test_a_rebound_parameter_is_not_written_back():
    fn = compiled("param_rebound_not_written")
    assert_same_as_numpy(P.param_rebound_not_written, fn, np.arange(4.0), np.ones(4))
    assert fn.mutated == ()


# ---- found by the fuzzer (seed 7): a traced index into an empty axis --------------------------
@pytest.mark.parametrize("name", ["read_empty_axis", "read_written_empty_axis"])
def test_a_traced_index_into_an_empty_axis_raises_numpys_indexerror_with_its_value(name):
    fn = getattr(program("extremes_and_math"), name)
    b = np.zeros((0, 6), dtype=np.float32)[..., ::2]
    for call in (fn, np2ref.compile(fn)):  # JAX refused the gather; the value was reported as 0
        with pytest.raises(IndexError, match="^index 2 is out of bounds for axis 0 with size 0$"):
            call(b.copy(), np.int64(2))


def test_copy_and_deepcopy_of_arrays_are_copies():
    """`copy.deepcopy(u)` / `copy.copy(u)` (a library call that kept the whole function NumPy
    code, NPR021): a new array, as NumPy's; in a time loop the previous step's state."""
    P = program("copies")
    u = np.sin(np.linspace(0.0, 3.0, 9))
    assert_same_as_numpy(P.leapfrog_with_deepcopy, np2ref.compile(P.leapfrog_with_deepcopy, host_below=0), u, 5)
    assert_same_as_numpy(P.copy_is_not_a_view, np2ref.compile(P.copy_is_not_a_view, host_below=0), u)
