"""Raw errors the fuzzer's phys_surface family found (tests/programs/fuzz_surface.py), each
against NumPy: a name bound to a Python number that `op=` rebinds to an array which is then
written, np.add.at into arrays made from constants, and a tuple result kept in a written name."""

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("fuzz_surface")


@functools.cache
def _compiled(name):
    return np2ref.compile(getattr(P, name), host_below=0)


def _same(name, *args):
    return assert_same_as_numpy(getattr(P, name), _compiled(name), *args)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.float32])
def test_a_number_rebound_to_an_array_by_op_assign_is_a_new_array(dtype):
    a = (np.arange(12) - 5).reshape(3, 4).astype(dtype)
    _same("number_then_array", a)
    _same("int_then_float_array", a)
    _same("carried_int", a)
    for n in (1, 3):
        _same("carried_number", a, n)


def test_add_at_into_arrays_made_from_constants():
    for i in (np.int64(0), np.int64(-1)):
        _same("add_at_constants", i, np.array([0.5, 2.0]))


def test_a_tuple_result_kept_in_a_written_name_is_refused_and_unpacking_at_once_translates():
    with pytest.raises(np2ref.Np2RefError, match="NPR207.*np.linspace"):
        np2ref.compile(P.tuple_then_unpacked, host_below=0)(np.arange(4.0))
    _same("unpacked_at_once", np.arange(4.0))
