"""`isinstance`, `type`, `str`, `format`, f-strings and `"...".format` on translated values:
NumPy's answers (a traced Python float argument was not a float, `str(x[0])` gave
'JitTracer(float64[])'), against the original; strings of array data refused (NPR031)."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("introspection")
X = np.array([1.5, -2.0, 3.0])


def test_isinstance_of_a_python_float_argument():
    assert_same_as_numpy(P.scale_if_float, np2ref.compile(P.scale_if_float, host_below=0), X, 2.0)


def test_isinstance_and_type_give_numpys_types():
    got = np2ref.compile(P.kinds, host_below=0)(X)
    assert tuple(bool(g) for g in got) == P.kinds(X.copy())


def test_strings_of_static_values_are_pythons():
    expected = P.sized_label(X.copy())
    got = np2ref.compile(P.sized_label, host_below=0)(X)
    assert got[1:] == expected[1:] and np.array_equal(got[0], expected[0])


@pytest.mark.parametrize("name", ["label_of_data", "key_of_data"])
def test_strings_of_array_data_are_refused(name):
    with pytest.raises(np2ref.Np2RefError, match="NPR031"):
        np2ref.compile(getattr(P, name), host_below=0)(X)


@pytest.mark.parametrize("name, args", [
    ("halve_until_small", (np.array([8.0, 3.0, 0.5]), 0.1)),
    ("print_values", (np.array([1.5, 2.0], np.float32), 3)),
])
def test_print_runs_on_the_host_when_the_program_runs_with_numpys_text(name, args, capfd):
    # a function that printed stayed NumPy code (NPR021): np2ref.compile refused it
    fn = getattr(P, name)
    expected = fn(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
    printed = capfd.readouterr().out
    compiled = np2ref.compile(fn, host_below=0)
    for _ in range(2):  # every run prints, in program order, none while tracing
        got = compiled(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
        assert capfd.readouterr().out == printed and np.array_equal(got, expected)


def test_print_to_a_file_stays_numpy_code():
    with pytest.raises(np2ref.Np2RefError, match="NPR021.*print"):
        np2ref.compile(P.print_to_a_file, host_below=0)(X, None)
