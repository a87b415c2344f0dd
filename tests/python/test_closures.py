"""Nested functions and lambdas inside a compiled function (issue 19), lifted to module helpers
(frontend/closures.py), and refusals (NPR014) at the user's line. Differential: the original NumPy
function against np2ref.compile of it and against the converted module."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, load_module, program
from np2ref.diagnostics import Np2RefError

P = program("closures_and_builtins")


def _line(fn_name: str, text: str) -> int:
    """The line of `text` inside the program's function `fn_name`."""
    lines = open(P.__file__).read().splitlines()
    start = next(i for i, t in enumerate(lines) if t.startswith(f"def {fn_name}("))
    return next(i for i, t in enumerate(lines[start:], start) if text in t) + 1


# ---- nested functions and lambdas that translate ------------------------------------------
def test_a_nested_def_in_the_time_loop_writes_the_callers_array():
    assert_same_as_numpy(P.closure_time_loop, np2ref.compile(P.closure_time_loop), np.linspace(0, 1, 9) ** 2, 4)


def test_a_helper_writing_a_captured_array_and_calling_another_helper():
    assert_same_as_numpy(P.closure_writes_captured, np2ref.compile(P.closure_writes_captured),
                         np.arange(12.0).reshape(4, 3))


def test_lambdas_with_defaults_and_captures():
    assert_same_as_numpy(P.lambdas, np2ref.compile(P.lambdas), np.linspace(-2, 2, 5), np.arange(5.0))


def test_a_closure_reads_its_captures_when_called_not_when_defined():
    _, got = assert_same_as_numpy(P.late_binding, np2ref.compile(P.late_binding), np.zeros(3))
    np.testing.assert_array_equal(got, [3.0, 3.0, 3.0])


def test_a_nested_def_inside_a_nested_def():
    assert_same_as_numpy(P.nested_twice, np2ref.compile(P.nested_twice), np.arange(3.0), np.arange(3.0) + 1)


def test_a_captured_array_also_passed_in_is_read_before_the_write():
    """g(u) with `u` captured too: `v[0] = u[1]` reads u before it stores (was NPR201)."""
    assert_same_as_numpy(P.captured_and_passed, np2ref.compile(P.captured_and_passed), np.arange(3.0))


def test_the_converted_module_lifts_the_helper_and_keeps_the_lines(tmp_path):
    result = np2ref.convert_source(open(P.__file__).read().split("\ndef escapes")[0], "p.py")
    assert result.ok, result.diagnostics
    code = result.code
    assert "def closure_time_loop__loop_body(c, grid):" in code
    assert "closure_time_loop__loop_body(c, u)" in code
    assert "# loop_body: lifted to closure_time_loop__loop_body" in code
    mod = load_module(code, tmp_path)
    for name, args in [("closure_time_loop", (np.linspace(0, 1, 9) ** 2, 3)),
                       ("lambdas", (np.linspace(-2, 2, 5), np.arange(5.0))),
                       ("late_binding", (np.zeros(3),))]:
        assert_same_as_numpy(getattr(P, name), getattr(mod, name), *args)


# ---- refused, NPR014 with the reason, at the user's line ---------------------------------
@pytest.mark.parametrize("name, text, words", [
    ("escapes", "g = lambda", "escapes"),
    ("recursive", "def fact", "calls itself"),
    ("called_before_def", "def h", "called before its def"),
    ("rebound_by_comprehension", "def get", "binds again"),
    ("defined_in_loop", "def g", "defined in a loop body and called outside it"),
])
def test_nested_functions_np2ref_cannot_lift_are_refused_saying_why(name, text, words):
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(getattr(P, name))
    diag = next(d for d in info.value.diagnostics if d.code == "NPR014")
    assert words in diag.message
    assert diag.line == _line(name, text)


def test_a_refusal_inside_a_lifted_helper_points_at_the_users_line():
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(P.deleted_in_helper)
    diag = info.value.diagnostics[0]
    assert diag.code == "NPR016"
    assert (diag.line, diag.col) == (_line("deleted_in_helper", "del tmp"), 9)
    assert "del tmp" in str(info.value)


def _one_line_masked_read(x): return np.histogram(x[~np.isnan(x)], bins=3)  # noqa: E704


def test_a_refusal_while_tracing_a_one_line_def_points_at_its_line():
    """`def f(x): return ...` on one line had no line mark: the refusal said `path:0:1`."""
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(_one_line_masked_read, host_below=0)(np.ones(3))
    diag = info.value.diagnostics[0]
    assert diag.code == "NPR107"
    assert diag.line == _one_line_masked_read.__code__.co_firstlineno
