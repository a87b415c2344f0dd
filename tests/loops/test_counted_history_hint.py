"""NPR034 (a list appended in a `while` whose trip count is data) names the loop and hints at the
exact rewrite: an array of the most items there can be and a count, returned and sliced after the
call. The hinted form is checked against NumPy (results, the argument, dtypes)."""

import numpy as np
import pytest

import np2ref
from conftest import ProgramChecks, program

checks = ProgramChecks("counted_history")


def test_the_refusal_names_the_loop_and_the_rewrite():
    u = np.linspace(0.0, 1.0, 9) ** 2
    with pytest.raises(np2ref.Np2RefError) as info:
        checks.compiled("listed_tail")(u.copy(), 1e-4)
    (d,) = info.value.diagnostics
    assert d.code == "NPR034" and d.line == 24  # the `while` line
    assert "hist[n] = x; n += 1" in d.hint and "hist[:n]" in d.hint


def test_the_list_itself_is_exact():
    hist, _ = checks.same("listed", np.linspace(0.0, 1.0, 9) ** 2, 1e-4)
    assert len(hist) > 10


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_hinted_form_is_exact(dtype):
    u = (np.linspace(0.0, 1.0, 9) ** 2).astype(dtype)
    (hist, n), _ = checks.same("counted", u, 1e-3)
    assert 0 < n < program("counted_history").MAXIT
