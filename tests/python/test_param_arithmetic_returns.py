"""`return dt * 2` of parameters never rebound (rules/param_arithmetic.py): NumPy's program returns
a Python float when the caller passes one. fuzz8's first fix wrapped every return of parameter
arithmetic in npr_pyreturn, arrays' too (`return a // b`), and converted functions with no array
work at all; it was reverted. Now only arithmetic of parameters used as numbers, in a function
whose array work is on another parameter, is wrapped; a function with no array work is left as
written by convert, and np2ref.compile runs it as written when it is given no array (rt/jit.py
run_as_written, which takes the module's rebindings as a jitted call does: pyfn10).
Differential: the value and its type against NumPy's, the arguments after the call; and the text."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import assert_returns_as_numpy
from np2ref.pipeline import convert_source


def doubled(dt):  # no array work: stays as written
    return dt * 2


def stepped(u, dt, nc):  # u is the array; dt and nc numbers
    u *= dt
    u[0] += nc
    return dt + nc, -dt, u.sum() * 2


def array_operands(u, v):  # v is read as an array (v[0]): `v * 2` is an array's arithmetic
    u *= v[0]
    return v * 2


def appended(u, dt):  # `hist.append(dt)` keeps dt as it is: no array use (fuzz_1313f13006)
    hist = []
    hist.append(dt)
    u *= 2.0
    return dt * 2, hist


def doubled_beside(i64, dt):  # no array work, an array passed: traced (fuzz_c3f3ca5761)
    return dt * 2, (dt, 0.5), i64


def _step(u, dt):
    u *= dt


def stepped_by_helper(u, dt):  # dt passed to a helper that uses it as a number: still a number here
    _step(u, dt)
    return dt * 2, -dt


CASES = [(doubled, lambda: (2.0,)), (doubled, lambda: (np.float64(2.0),)),
         (doubled_beside, lambda: (np.array([1]), 0.25)), (doubled_beside, lambda: (np.array([1]), 3)),
         (doubled_beside, lambda: (np.array([1]), np.float64(0.25))),
         (doubled, lambda: (3,)),
         (doubled, lambda: (np.arange(3.0),)),
         (stepped, lambda: (np.arange(3.0), 0.5, 2)), (stepped, lambda: (np.arange(3.0, dtype=np.float32), 0.5, 2)),
         (stepped, lambda: (np.arange(3.0), np.float64(0.5), np.int64(2))),
         (array_operands, lambda: (np.arange(3.0), np.array([0.5, 2.0]))),
         (appended, lambda: (np.arange(3.0), 0.1)), (appended, lambda: (np.arange(3.0), 3)),
         (appended, lambda: (np.arange(3.0), np.float64(0.1))),
         (stepped_by_helper, lambda: (np.arange(3.0), 0.5)),
         (stepped_by_helper, lambda: (np.arange(3.0), np.float64(0.5))),
         (stepped_by_helper, lambda: (np.arange(3.0), np.array([0.5])))]


@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", None))
def test_parameter_arithmetic_returned_as_numpy_returns_it(fn, args):
    assert_returns_as_numpy(fn, args)


def _converted(fn_text: str) -> str:
    return convert_source("import numpy as np\n\n\n" + fn_text, "<t>").code


def test_only_numbers_arithmetic_is_wrapped():
    text = _converted("def stepped(u, dt, nc):\n    u *= dt\n    u[0] += nc\n    return dt + nc, -dt, u.sum() * 2\n")
    assert "npr_pyreturn(dt + nc, 'passed', dt, nc), npr_pyreturn(-dt, 'passed', dt)" in text
    text = _converted("def array_operands(u, v):\n    u *= v[0]\n    return v * 2\n")
    assert "npr_pyreturn" not in text and "return v * 2" in text


def test_no_array_work_and_no_proven_array_stay_as_written():
    assert _converted("def doubled(dt):\n    return dt * 2\n").endswith("def doubled(dt):\n    return dt * 2\n")
    # a and b may be arrays (nothing says which): their floor division is not wrapped
    text = _converted("def fd(a, b):\n    return a // b, b // a\n")
    assert "npr_pyreturn" not in text


def test_no_array_work_keeps_pythons_types_call_after_call():
    """Calls after the first (the jitted route's fast paths keep their runs by argument types)
    still give Python's float for a Python float, NumPy's float64 for that, in any order."""
    import np2ref

    c = np2ref.compile(doubled, host_below=0)
    for arg in (2.0, np.float64(2.0), 2.0, 3, 2.5, np.float64(0.5), 2.0):
        got, want = c(arg), doubled(arg)
        assert type(got) is type(want) and got == want
