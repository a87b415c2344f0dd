"""An assert on array data whose message formats array data or the loop index
(`assert abs(e - e0) < tol, f"energy drift at step {step}: {e}"`) is refused NPR030 with the
rewrite, not NPR031 with a hint about the float argument (main); the hinted form (a message of
Python values, the values returned) is checked against NumPy, passing and failing."""

import numpy as np
import pytest

import np2ref
from conftest import on_tpu, program

P = program("assert_messages")


def _refusal(name, *args):
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(getattr(P, name), host_below=0)(*args)
    (d,) = info.value.diagnostics
    return d


@pytest.mark.parametrize("name, args", [
    ("drift_checked", (np.array([1.0, 0.5]), np.array([0.0, 0.2]), 0.05, 8)),
    ("positive_checked", (np.linspace(1.0, 2.0, 5), 6, 0.3)),
])
def test_a_message_of_array_data_is_refused_with_the_rewrite(name, args):
    d = _refusal(name, *args)
    assert d.code == "NPR030" and "assert" in d.message
    assert 'assert np.all(c >= 0), "negative concentration"' in d.hint and "return the values" in d.hint


def _outcome(fn, *args):
    try:
        return "ok", fn(*args)
    except AssertionError as exc:
        return "AssertionError", exc.args


@pytest.mark.parametrize("dt", [0.05, 0.9])  # 0.9: the drift passes 1 % at some step
def test_the_hinted_form_is_exact(dt):
    fn = P.drift_checked_hinted
    compiled = np2ref.compile(fn, host_below=0)
    a = (np.array([1.0, 0.5]), np.array([0.0, 0.2]))
    b = tuple(x.copy() for x in a)
    want, got = _outcome(fn, *a, dt, 8), _outcome(compiled, *b, dt, 8)
    assert want[0] == got[0]
    if want[0] == "ok":
        for w, g in zip(want[1], got[1]):
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-13 if on_tpu() else 0)  # (a TPU's float64 pair)
            assert type(g) is type(w) and np.asarray(g).dtype == np.asarray(w).dtype
        for x, y in zip(a, b):  # the mutated arguments
            np.testing.assert_allclose(y, x, rtol=1e-12)
    else:
        assert got[1] == want[1] == ("energy drift",)
