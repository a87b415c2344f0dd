"""`return math.pi * h`, `return x, pi * h` (`from math import pi` in the body or at module level)
with `h` a Python float: NumPy's program returns a Python float, the compiled call returned
np.float64 (rules/param_arithmetic.py took only parameters and literals for Python numbers;
found by fuzz12's exact comparison in tests/python/test_math_from_imports.py `cells`). Compared
with compare.first_difference: values and types."""

import pytest

import numpy as np

import np2ref
from conftest import program
from np2ref.compare import first_difference


@pytest.mark.parametrize("name", ["attribute", "body_import", "module_alias", "literal"])
@pytest.mark.parametrize("h", [0.5, np.float64(0.5)], ids=["float", "np.float64"])
def test_math_constants_times_a_python_float_return_its_type(name, h):
    fn = getattr(program("math_constants_returned"), name)
    compiled = np2ref.compile(fn, host_below=0)
    for _ in range(2):  # the first call and the planned one after it
        x0, x1 = np.arange(3.0), np.arange(3.0)
        want, got = fn(x0, h), compiled(x1, h)
        assert first_difference(want, got) is None
        assert [type(v) for v in _items(got)] == [type(v) for v in _items(want)]  # (as main's compare did not)
        assert first_difference(x0, x1) is None


def _items(value):
    return list(value) if isinstance(value, tuple) else [value]


def numpy_constants(x):
    """`np.pi`, `np.inf` are Python floats: arithmetic of them with a Python float is one too."""
    x *= 2.0
    v = np.pi * float(x[0])
    w = min(np.inf, float(x[1]))
    return v, w, np.e + float(x[0])


def test_numpy_float_constants_are_python_floats():
    """(np.float64 came back for each before round 14: the classifier knew math's constants only)"""
    x0, x1 = np.arange(1.0, 4.0), np.arange(1.0, 4.0)
    want, got = numpy_constants(x0), np2ref.compile(numpy_constants, host_below=0)(x1)
    assert first_difference(want, got) is None
    assert first_difference(x0, x1) is None
