"""Writes through the views helpers return (`interior(u)[:] -= flux`, `inner = interior(u);
inner *= 0.5`, `out=interior(u)`): frontend/view_helpers.py inlines the helper's index where
its body is `return a[<basic index>]`. Differential: results, every mutated argument and dtypes
against NumPy (these functions were refused on main, NPR205 or NPR203), and an index array
passed to such a helper, a copy in both."""

import numpy as np
import pytest

import np2ref
from conftest import ProgramChecks

checks = ProgramChecks("view_helpers")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_advect_writes_through_helper_views(dtype):
    x = np.linspace(0.0, 1.0, 12)
    u = np.exp(-50.0 * (x - 0.4) ** 2).astype(dtype)
    checks.same("advect", u, 0.3, 0.1, 10)


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_a_name_bound_to_the_view_is_written(dtype):
    u = np.arange(30, dtype=dtype).reshape(5, 6)
    checks.same("bound_then_written", u, 7)


@pytest.mark.parametrize("dtype", [np.int8, np.float32])
def test_helper_bounds_from_a_parameter_in_a_loop(dtype):
    checks.same("band_steps", np.arange(11, dtype=dtype), 2, 3)
    checks.same("band_steps", np.arange(11, dtype=dtype), 1, 2)


def test_calls_that_write_the_view():
    u = np.arange(10.0)
    x = np.linspace(-1.0, 1.0, 8)
    checks.same("written_by_calls", u, x, np.array([0, 3, 3, 7]))


def test_an_index_array_parameter_makes_a_copy_as_in_numpy():
    checks.same("fancy_copy_written", np.arange(12.0).reshape(4, 3), np.array([0, 2]), 1)


@pytest.mark.parametrize("name, args", [
    ("zero_interior_via_helper", (np.linspace(0.0, 1.0, 6),)),
    ("scale_interior_via_helper", (np.linspace(0.0, 1.0, 6), 3.0)),
    ("rows_written_through_helper", (np.arange(12.0).reshape(3, 4),)),
])
def test_the_third_party_programs_once_refused(name, args):
    """tests/programs/objects_and_dtypes.py's helpers (refused NPR205/NPR203 on main)."""
    ProgramChecks("objects_and_dtypes").same(name, *args)


def test_a_helper_returning_a_copy_is_left_alone():
    checks.same("copy_not_view", np.arange(6.0))


def test_reads_keep_the_users_call():
    source = ("import numpy as np\n\ndef interior(a):\n    return a[1:-1]\n\n"
              "def f(u):\n    return interior(u).sum()\n")
    assert "interior(" in np2ref.convert_source(source).code.split("def f")[1]


def test_a_rebound_helper_is_refused_as_before():
    source = ("import numpy as np\n\ndef interior(a):\n    return a[1:-1]\n\n"
              "def f(u, x):\n    interior(u)[:] = x\n\ninterior = None\n")
    (d,) = [d for d in np2ref.convert_source(source).diagnostics if d.is_error]
    assert (d.code, d.line) == ("NPR205", 7)
    assert "what interior() returns" in d.message and "`return a[<basic index>]`" in d.message
    assert "make interior() a single `return a[...]`" in d.hint
