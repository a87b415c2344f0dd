"""Out-of-range indices: NumPy raises IndexError (with its message), so does np2ref.compile's
call, whether the index is known at trace time (a Python int: NumPy's check, then) or only
when the program runs (NumPy integers and arrays, loop variables: the run-time checks of
_npr_Bounds). In-range calls agree with NumPy value for value; `bounds="unchecked"` is JAX's
clamping, documented as not NumPy."""

from __future__ import annotations

import copy
import functools

import jax
import numpy as np
import pytest

import np2ref
from np2ref.rt import fold
from conftest import program as load_program, ROOT, assert_same_as_numpy


def programs():
    return load_program("bounds")


@functools.cache
def compiled(name, bounds="checked"):
    return np2ref.compile(getattr(programs(), name), bounds=bounds)


def same(name, *args):
    """NumPy's outcome and np2ref's agree: both raise the same exception type and message (and
    np2ref leaves every argument as it was: nothing is written back), or both return and
    assert_same_as_numpy holds."""
    fn = getattr(programs(), name)
    try:
        fn(*copy.deepcopy(args))
    except (IndexError, ValueError) as exc:
        given = copy.deepcopy(args)
        with pytest.raises(type(exc)) as info:
            compiled(name)(*given)
        assert str(info.value) == str(exc)
        for before, after in zip(args, given):
            if isinstance(before, np.ndarray):
                np.testing.assert_array_equal(after, before)
        return str(exc)
    assert_same_as_numpy(fn, compiled(name), *args)
    return None


U = np.arange(4.0) + 1.0


def test_static_index_raises_at_trace_time():
    assert same("diff_at", U, 3) == "index 4 is out of bounds for axis 0 with size 4"
    assert same("diff_at", U, -6) == "index -5 is out of bounds for axis 0 with size 4"
    assert same("diff_at", U, 1) is None
    assert same("diff_at", U, -2) is None  # -2 and -1: negative indices count from the end


@pytest.mark.parametrize("c", [4, -5, 100, 3, -4, 0])
def test_traced_scalar(c):
    assert same("read", U, np.int64(c)) == (None if -4 <= c < 4 else
                                            f"index {c} is out of bounds for axis 0 with size 4")


def test_traced_scalar_each_axis_and_first_failure():
    a = np.arange(6.0).reshape(2, 3)
    assert same("read2", a, np.int64(1), np.int64(3)) == "index 3 is out of bounds for axis 1 with size 3"
    assert same("read2", a, np.int64(-3), np.int64(7)) == "index -3 is out of bounds for axis 0 with size 2"
    assert same("read2", a, np.int64(-2), np.int64(-3)) is None
    # the first failing read of the program is the one reported
    assert same("two_reads", U, np.int64(9), np.int64(7)) == "index 9 is out of bounds for axis 0 with size 4"
    assert same("two_reads", U, np.int64(1), np.int64(7)) == "index 7 is out of bounds for axis 0 with size 4"


def test_traced_index_array():
    assert same("gather", U, np.array([0, 3, -4])) is None
    # NumPy reports the first offending element
    assert same("gather", U, np.array([1, 6, -9, 4])) == "index 6 is out of bounds for axis 0 with size 4"
    assert same("gather", U, np.array([[1, 2], [-5, 0]])) == "index -5 is out of bounds for axis 0 with size 4"
    assert same("gather", U, np.array([], dtype=np.int64)) is None
    assert same("gather", U, np.array([1, 4], dtype=np.uint8)) == "index 4 is out of bounds for axis 0 with size 4"


def test_loop_variable_in_lax_loop():
    # independent iterations are npr_vfor since the speed branch: its lanes' index check, recorded
    # under vmap, runs the loop (npr_for), whose check raises NumPy's IndexError
    assert "npr_vfor(" in compiled("shift_loop").source
    assert same("shift_loop", U) == "index 4 is out of bounds for axis 0 with size 4"


def test_loop_variable_range_and_repeated_checks(monkeypatch):
    assert "npr_fold_for(" in compiled("overrun").source  # (an ordered fold; npr_for where it does not run)
    assert same("overrun", U) == "index 4 is out of bounds for axis 0 with size 4"
    monkeypatch.setitem(fold._npr_FOLD, "scalar", True)  # the fold's reads of every trip: the same check
    with pytest.raises(IndexError, match="^index 4 is out of bounds for axis 0 with size 4$"):
        np2ref.compile(programs().overrun, host_below=0)(U.copy())
    a = np.arange(6.0).reshape(2, 3)
    assert same("diag", a, np.int64(2)) == "index 2 is out of bounds for axis 0 with size 2"
    assert same("diag", a.T.copy(), np.int64(2)) == "index 2 is out of bounds for axis 1 with size 2"
    assert same("diag", a, np.int64(1)) is None


def test_loop_variable_plus_a_literal():
    u = np.arange(6.0) + 1.0
    assert same("offsets", u, 1, 2) is None  # u[-1] at i = 1: NumPy's last element
    assert same("offsets", u, 0, 6) is None
    assert same("offsets", u, 0, 7) == "index -7 is out of bounds for axis 0 with size 6"
    assert same("offsets", u, 1, -1) == "index 6 is out of bounds for axis 0 with size 6"


def test_while_loop_stops_at_the_failed_check():
    # clamped reads would keep u[i] > 0 true forever; the loop ends at the failed check
    assert same("scan_until", U) == "index 4 is out of bounds for axis 0 with size 4"
    assert same("scan_until", np.array([1.0, 2.0, 0.0, 1.0])) is None


def test_ufunc_at_put_and_stores():
    h = np.zeros(3)
    assert same("deposit", h, np.array([0, 2, 2]), 1.5) is None
    assert same("deposit", h, np.array([0, 3, 1]), 1.5) == "index 3 is out of bounds for axis 0 with size 3"
    assert same("store", U, np.int64(-1), 5.0) is None
    assert same("store", U, np.int64(4), 5.0) == "index 4 is out of bounds for axis 0 with size 4"
    assert same("scatter_add", U, np.array([1, 1, 3]), 2.0) is None
    assert same("scatter_add", U, np.array([1, -7]), 2.0) == "index -7 is out of bounds for axis 0 with size 4"
    assert same("put", U, np.array([0, -1]), 9.0) is None
    assert same("put", U, np.array([0, -5]), 9.0) == "index -5 is out of bounds for axis 0 with size 4"
    assert same("put", np.zeros((2, 2)), np.array([3, 4]), 9.0) == "index 4 is out of bounds for axis 0 with size 4"


def test_helpers_and_branches():
    out = np.zeros(2)
    assert same("calls_helper", U, np.int64(3), out) is None
    assert same("calls_helper", U, np.int64(5), out) == "index 5 is out of bounds for axis 0 with size 4"
    # a data-dependent `if` (lax.cond): the check counts only on the branch taken
    assert same("branch_store", U, out, np.int64(2)) == "index 2 is out of bounds for axis 0 with size 2"
    assert same("branch_store", -U, out, np.int64(2)) is None
    assert same("branch_store", U, out, np.int64(1)) is None


def test_take_take_along_axis_choose():
    a = np.arange(6.0).reshape(2, 3)
    assert same("take", a, np.array([2, -3])) is None
    assert same("take", a, np.array([2, 3])) == "index 3 is out of bounds for axis 1 with size 3"
    assert same("take_along", a, np.array([[2], [0]])) is None
    assert same("take_along", a, np.array([[2], [5]])) == "index 5 is out of bounds for axis 1 with size 3"
    b, c = np.zeros(2), np.ones(2)
    assert same("choose", np.array([1, 0]), b, c) is None
    assert same("choose", np.array([1, 2]), b, c) == "invalid entry in choice array"


def test_unchecked_is_jax_clamping():
    fast = compiled("read", bounds="unchecked")
    assert fast(U, np.int64(2)) == U[2]
    assert fast(U, np.int64(9)) == U[3]  # not NumPy: JAX clamps
    with pytest.raises(IndexError, match="index 4 is out of bounds"):
        compiled("diff_at", bounds="unchecked")(U, 3)  # known at trace time: still NumPy's error
    with pytest.raises(ValueError, match="bounds must be"):
        np2ref.compile(programs().read, bounds="clamp")


def test_pure_under_vmap_and_grad_is_unchecked():
    pure = compiled("read").pure
    rows = np.arange(12.0).reshape(3, 4)
    got = jax.vmap(pure, in_axes=(0, None))(rows, np.int64(2))[0]
    np.testing.assert_array_equal(np.asarray(got), rows[:, 2])
    assert float(jax.grad(lambda u: pure(u, np.int64(1))[0])(U)[1]) == 1.0
    assert float(jax.jit(pure)(U, np.int64(9))[0]) == U[3]  # documented: .pure does not check
    with pytest.raises(IndexError, match="index 9 is out of bounds"):
        pure(U, np.int64(9))  # called eagerly the index is concrete: NumPy's check


def test_reads_that_cannot_fail_stay_as_written():
    src = compiled("literal_reads").source
    assert "u[0] + u[-1] + u[1:-1].sum() + npr_get(a)[:, 2].sum() + a.shape[1]" in src
    assert "npr_get(u)[i + 1] - npr_get(u)[i]" in compiled("diff_at").source
    a = np.arange(6.0).reshape(2, 3)
    assert same("literal_reads", U, a) is None
    assert same("literal_reads", U, a[:, :2]) == "index 2 is out of bounds for axis 1 with size 2"


def _small_int_indices(lut, idx):
    out = lut[idx] + np.take(lut, idx) + lut.take(idx)
    lut[idx] = -1.0
    np.add.at(lut, idx, 0.5)
    np.put(lut, idx, 2.0)
    return out, lut, np.bincount(idx.astype(np.uint8), minlength=300)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16])
def test_index_arrays_of_small_integer_types_index_by_value(dtype):
    """A uint8 index array into an axis of 300 raised a false IndexError (the check compared
    with 300 cast to uint8, 44); int8/int16 ones an OverflowError from JAX (a negative index made
    positive in the index's own dtype). NumPy indexes by value."""
    idx = np.array([241, 3, 255, 7] if dtype == np.uint8 else [-100, 3, 127, -1], dtype)
    assert_same_as_numpy(_small_int_indices, np2ref.compile(_small_int_indices, host_below=0),
                         np.arange(300.0), idx)


def _take_method(a, idx):
    return a.take(idx), a.take([0, -1])


def test_the_take_method_raises_numpys_indexerror():
    """`a.take(idx)` went to jax.numpy's method, whose default mode fills an out-of-range index
    with NaN (NumPy raises IndexError) and which refuses a list."""
    f = np2ref.compile(_take_method, host_below=0)
    assert_same_as_numpy(_take_method, f, np.arange(3.0), np.array([2, -3]))
    with pytest.raises(IndexError, match="index 5 is out of bounds"):
        f(np.arange(3.0), np.array([5, 0]))


def _array_methods(x):
    return x.searchsorted(2.5), x.searchsorted(np.array([1.0, 3.0]), side="right"), x.repeat(2), \
        x.reshape(2, 3).diagonal(), x.reshape(2, 3).argsort(axis=0)


def test_array_methods_take_numpys_dtypes():
    """`x.searchsorted(v)` went to jax.numpy's method, which returns int32 (NumPy: intp)."""
    assert_same_as_numpy(_array_methods, np2ref.compile(_array_methods, host_below=0),
                         np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0]))
