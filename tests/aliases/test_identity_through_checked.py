"""A parameter returned through a helper that `op=`s it before returning it (`def scale(p): p *= 2;
return p`, `def twice(p): return scale(p)`): NumPy hands back the caller's own array through both
calls, so `r = twice(u); r[0] = 3.0` writes u. The checked identity (analysis/identity.py: the very
array when an array is passed, a new object when a number is) now passes through helpers as the
unchecked one does; main loaded the Ref at `return scale(p)` (npr_value) and the write went into
a copy (a wrong answer found by fuzz8's helper_identity family). Differential: results, every
argument and which argument each returned item is, against NumPy, compiled and converted."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import load_module, run_cli
from np2ref.verify.compare import first_difference

SOURCE = '''
import numpy as np


def scale(p):
    p *= 2
    return p


def twice(p):
    return scale(p)


def thrice(p):
    return twice(p)


def written_through(u):
    r = twice(u)
    r[0] = 3.0
    return r, u.sum()


def two_deep(u):
    r = thrice(u)
    r[1:] += 1.0
    return u


def looped(v, n):
    for k in range(n):
        v = twice(v)
        v[0] += 1.0
    return v


def a_number(u, t):
    s = twice(t)
    u[0] = s
    return s


def offset(p, k):
    p += k
    p -= 0.5
    return p


def a_number_rebound(u, t):
    s = scale(t)
    s += 1.0
    u[:1] = s
    return s, t


def a_number_offset(u, t, k):
    r = twice(t)
    s = offset(r, k)
    u[:1] = s
    return s
'''

ARGS = {
    "written_through": lambda: (np.arange(4.0),),
    "two_deep": lambda: (np.arange(4.0),),
    "looped": lambda: (np.arange(4.0), 3),
    "a_number": lambda: (np.arange(4.0), 0.75),
    "a_number_rebound": lambda: (np.arange(4.0), 0.75),
    "a_number_offset": lambda: (np.arange(4.0), 3, 2),
}
# the helpers' Python numbers against what else may be passed there: NumPy's scalars, arrays (the caller's own)
KINDS = {
    "a_number": [(np.arange(4.0), np.float64(0.75)),
                 pytest.param((np.arange(4.0), 3), marks=pytest.mark.xfail(strict=True, reason=(
                     "a Python int passed to the caller (static) and op='d by its helper comes back np.int64: "
                     "views.npr_own makes the number a Ref, as `t = 0.0; t += a[0]; u = t` needs (kinds13's "
                     "value for every Python number made that a wrong value, test_dp_finance_queues)")))],
    "a_number_rebound": [(np.arange(4.0), np.float32(0.75)), (np.arange(4.0), np.array([0.75]))],
    "a_number_offset": [(np.arange(4.0), 3.0, 2), (np.arange(4.0), 3, 2.5), (np.arange(4.0), 3, np.float64(2.0)),
                        (np.arange(4.0), np.array([3.0]), 2)],
}


def _which(result, args):
    """Per returned item, the array argument it is (a scalar's identity means nothing: immutable)."""
    items = result if isinstance(result, tuple) else (result,)
    return [next((i for i, a in enumerate(args) if item is a and isinstance(a, np.ndarray)), None) for item in items]


def _check(fn, translated, make):
    a0, a1 = make(), make()
    expected, got = fn(*a0), translated(*a1)
    assert first_difference(expected, got, "result") is None
    for i, (x, y) in enumerate(zip(a0, a1)):
        assert first_difference(x, y, f"argument {i}") is None
    assert _which(got, a1) == _which(expected, a0)


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("identity_checked"))


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("identity_checked_conv")
    (folder / "checked.py").write_text(SOURCE)
    r = run_cli("convert", "checked.py", "-o", "checked_ref.py", cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    return load_module((folder / "checked_ref.py").read_text(), folder, "checked_ref")


NAMES = list(ARGS)


@pytest.mark.parametrize("name", NAMES)
def test_compiled_writes_the_callers_array(module, name):
    _check(getattr(module, name), np2ref.compile(getattr(module, name), host_below=0), ARGS[name])


@pytest.mark.parametrize("name", NAMES)
def test_converted_writes_the_callers_array(module, converted, name):
    _check(getattr(module, name), getattr(converted, name), ARGS[name])


@pytest.mark.parametrize("name, args", [pytest.param(n, *a.values, marks=a.marks) if hasattr(a, "marks") else (n, a)
                                        for n, cases in KINDS.items() for a in cases])
def test_a_helpers_op_of_what_is_passed_keeps_its_kind(module, converted, name, args):
    """`def scale(p): p *= 2; return p` of a Python float returned np.float64 where NumPy's is the
    Python float (was a strict xfail): the caller's name holds the Python number passed through
    (rules/helper_kinds.Through), a NumPy scalar or array passed stays NumPy's."""
    def make():
        return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
    for translated in (np2ref.compile(getattr(module, name), host_below=0), getattr(converted, name)):
        _check(getattr(module, name), translated, make)


def test_a_numpy_scalar_a_helper_op_s_into_another_dtype(module):
    """`p -= 0.5` of an np.int64 passed: NumPy rebinds p to np.float64 (a strict xfail until round 14:
    the helper took the value for a 0-d array written in place, same_kind's UFuncTypeError; rt/ops.npr_iop)."""
    def make():
        return np.arange(4.0), np.int64(3), 2
    _check(module.a_number_offset, np2ref.compile(module.a_number_offset, host_below=0), make)
