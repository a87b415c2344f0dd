"""A 0-d NumPy array argument where the function asks a value's type or text (found by the
fuzzer, fuzz_54aa66b7a9: `print(repr(a))` printed np.int32(0) for array(0, dtype=int32)).
Traced, a 0-d array cannot be told from a NumPy scalar: np2ref.compile runs the original for
such a call, a converted file refuses it (NPR041); NumPy scalars and n-d arrays still compile."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import load_module

SOURCE = '''
import numpy as np


def kinds(a):
    return isinstance(a, np.ndarray), type(a).__name__, a * 2


def shows(a):
    print(repr(a))
    return a + 1


def plain(a):
    return a * 2
'''


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("zero_d"), "zero_d_arguments")


@pytest.mark.parametrize("arg", [np.array(3.0), np.array(0, dtype=np.int32), np.float64(2.5), np.arange(3.0)],
                         ids=["0d_float", "0d_int32", "scalar", "1d"])
def test_type_and_isinstance_are_numpys(programs, arg):
    want = programs.kinds(arg.copy())
    got = np2ref.compile(programs.kinds, host_below=0)(arg.copy())
    assert got[:2] == want[:2]
    np.testing.assert_array_equal(got[2], want[2])
    assert np.asarray(got[2]).dtype == np.asarray(want[2]).dtype


@pytest.mark.parametrize("arg", [np.array(0, dtype=np.int32), np.array(2.5), np.int64(7)], ids=["0d_int32", "0d", "scalar"])
def test_repr_printed_is_numpys(programs, arg, capsys):
    want = programs.shows(arg.copy())
    theirs = capsys.readouterr().out
    got = np2ref.compile(programs.shows, host_below=0)(arg.copy())
    assert capsys.readouterr().out == theirs
    np.testing.assert_array_equal(got, want)


def test_converted_file_refuses_a_0d_array_where_it_asks_and_takes_a_scalar(capsys):
    result = np2ref.convert_source(SOURCE, "zero_d.py")
    ns: dict = {}
    exec(compile(result.code, "zero_d_ref.py", "exec"), ns)  # noqa: S102
    with pytest.raises(np2ref.rt.NprError) as info:
        ns["shows"](np.array(3))
    assert info.value.code == "NPR041"
    assert int(ns["shows"](np.int64(3))) == 4 and capsys.readouterr().out == "np.int64(3)\n"
    # a function of a module that asks nothing of a value's type takes the 0-d array as before
    plain_ns: dict = {}
    exec(compile(np2ref.convert_source(SOURCE.split("def kinds")[0] + "def plain(a):\n    return a * 2\n").code,
                 "plain_ref.py", "exec"), plain_ns)  # noqa: S102
    assert float(plain_ns["plain"](np.array(3.0))) == 6.0
