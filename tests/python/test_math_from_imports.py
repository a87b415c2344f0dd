"""Functions imported by name from `math` (`from math import exp, sqrt`, module-level or in a
body) and called bare: translated as `math.exp(x)` is (npr_math on traced values), not refused
NPR003 as "a class or object of this module" (which failed `np2ref convert` on a whole script)."""

import functools

import numpy as np
import pytest

import np2ref
from conftest import ROOT, assert_same_as_numpy, program


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(program("math_from_imports"), name), host_below=0)


@pytest.mark.parametrize("name, args", [
    ("damp", (np.linspace(0.0, 2.0, 7), 0.3, 0.1)),
    ("gaussian_row", (np.linspace(-2.0, 2.0, 9), 0.7)),
    ("cells", (np.linspace(0.0, 3.9, 11), 0.5)),
])
def test_bare_math_functions_compute_what_math_computes(name, args):
    assert_same_as_numpy(getattr(program("math_from_imports"), name), compiled(name), *args)


def test_a_script_with_bare_math_calls_converts():
    result = np2ref.convert_file(str(ROOT / "tests" / "programs" / "math_from_imports.py"))
    assert not [d for d in result.diagnostics if d.is_error]
