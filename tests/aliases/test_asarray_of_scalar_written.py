"""`np.asarray(s)`, `s[...]` and `np.array(s, copy=False)` of a parameter, the result written
(tests/regressions/fuzz_9fff21fe57.py). Of an array NumPy's result is s itself, which the write
changes; of a NumPy or Python scalar a new 0-d array, which the write changes and the caller's
scalar does not see. np2ref took the result for a view of the parameter's Ref, which a scalar
argument does not have: `npr_at needs a jax.Ref` while tracing; an `op=` rebound it to a NumPy
scalar where NumPy's is a 0-d array. Now rt/ops.npr_asarray and rt/views.npr_sub make a scalar's
0-d array a Ref of its own (rt/views._npr_array0_ref, never written back, returned as a 0-d
array). `np.array(x, copy=False)` (and `copy=None`) was taken for a new array: a write through
it lost x's change (a wrong value for a 0-d array x) and NumPy's ValueError for a scalar was not
raised; it is now NumPy 2's `np.asarray(x, copy=...)` (analysis/effects.view_call)."""

import numpy as np
import pytest

from tests.conftest import assert_returns_as_numpy


def asarray_written(s, w):
    w[0] += 1
    b = np.asarray(s)
    b[...] += 1
    return b


def through_a_helper(s, w):
    r = asarray_written(s, w)
    return r, s


def helper_given_numbers(w):
    return asarray_written(2.5, w), asarray_written(w[0], w)


def ellipsis_written(s, w):
    b = s[...]
    b[...] += 1
    return b, s


def asarray_op(s, w):
    b = np.asarray(s)
    b += 1
    return b, s


def asanyarray_shared(s):
    b = np.asanyarray(s)
    b *= 2
    c = b
    c += 1
    return b, c, s


def asarray_stored_after_read(s, w):
    b = np.asarray(s)
    w += b
    b[...] = 7
    return b, w


def array_no_copy(s, w):
    b = np.array(s, copy=False)
    b += 1
    return b, s


def array_copy_none(s):
    b = np.array(s, copy=None)
    b[1:] *= 3.0
    return s


def _w():
    return np.array([0.5, 1.0])


CASES = {
    "asarray_numpy_scalar": (asarray_written, lambda: (np.float64(2.5), _w())),
    "asarray_python_float": (asarray_written, lambda: (2.5, _w())),
    "asarray_0d_array": (asarray_written, lambda: (np.array(2.5), _w())),
    "asarray_array": (asarray_written, lambda: (np.array([2.5, 1.0]), _w())),
    "helper_numpy_scalar": (through_a_helper, lambda: (np.float64(2.5), _w())),
    "helper_python_float": (through_a_helper, lambda: (2.5, _w())),
    "helper_given_numbers": (helper_given_numbers, lambda: (_w(),)),
    "ellipsis_numpy_scalar": (ellipsis_written, lambda: (np.float64(2.5), _w())),
    "ellipsis_0d_array": (ellipsis_written, lambda: (np.array(2.5), _w())),
    "op_numpy_scalar": (asarray_op, lambda: (np.float64(2.5), _w())),
    "op_python_float": (asarray_op, lambda: (2.5, _w())),
    "op_0d_array": (asarray_op, lambda: (np.array(2.5), _w())),
    "asanyarray_float": (asanyarray_shared, lambda: (np.float64(1.5),)),
    "asanyarray_int": (asanyarray_shared, lambda: (np.int64(1),)),
    "stored_after_read_int32": (asarray_stored_after_read, lambda: (np.int32(3), _w())),
    "no_copy_0d_array": (array_no_copy, lambda: (np.array(2.5), _w())),
    "no_copy_array": (array_no_copy, lambda: (np.array([2.5, 1.0]), _w())),
    "copy_none_array": (array_copy_none, lambda: (np.arange(3.0),)),
}


@pytest.mark.parametrize("case", CASES)
def test_written_as_numpy(case):
    fn, args = CASES[case]
    assert_returns_as_numpy(fn, args)


@pytest.mark.parametrize("s", [np.float64(2.5), 2.5], ids=["numpy_scalar", "python_float"])
def test_no_copy_of_a_scalar_raises_as_numpy(s):
    import np2ref

    with pytest.raises(ValueError, match="Unable to avoid copy"):
        array_no_copy(s, _w())
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        np2ref.compile(array_no_copy, host_below=0)(s, _w())
