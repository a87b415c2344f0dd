"""A view np2ref does not model, handed to a helper that writes it: `step(rows(u))` where rows()
is more than `return a[<basic index>]`, `step(np.flip(u))`, `step(u.squeeze())`. NumPy's helper
writes the caller's array through the view; np2ref passed a copy and left the array as it was (a
wrong answer, found by `np2ref fuzz --family view_helper`). Now refused, NPR205, as a write through
such a view is elsewhere (rules/calls.py, rules/views.opaque_view); a helper's new array is still
passed as one."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy

HEAD = ("import numpy as np\n\ndef rows(x):\n    y = x[1:]\n    return y\n\ndef fresh(x):\n    return x * 2\n\n"
        "def step(y):\n    y[0] = -1.0\n\n")


@pytest.mark.parametrize("arg", ["rows(u)", "rows(u)[1:]", "np.flip(u)", "u[::-1].squeeze()", "np.fliplr(u[None])"])
def test_an_unmodelled_view_passed_to_a_writing_helper_is_refused(arg):
    result = np2ref.convert_source(HEAD + f"def f(u):\n    step({arg})\n    return u\n")
    errors = [d for d in result.diagnostics if d.is_error]
    assert [(d.code, d.line) for d in errors] == [("NPR205", 14)], errors


def test_a_helper_returning_a_new_array_still_translates(tmp_path):
    path = tmp_path / "fresh_arg.py"
    path.write_text(HEAD + "def f(u):\n    step(fresh(u))\n    step(u[1:])\n    return u\n")
    ns: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    assert_same_as_numpy(ns["f"], np2ref.compile(ns["f"]), np.arange(4.0))
