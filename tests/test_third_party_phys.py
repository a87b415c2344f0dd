"""Wrong answers, raw errors and refusals found by probing physics and numerics kernels written
in the style of published scientific codes (tests/programs/third_party_phys.py), each against
NumPy."""

import contextlib
import copy
import io

import numpy as np

import np2ref
from conftest import assert_same_as_numpy, program

P = program("third_party_phys")


def _same(name, *args):
    fn = getattr(P, name)
    return assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), *args)


def _printed(name, *args):
    """What the original and the compiled function print, and their results compared."""
    out = [io.StringIO(), io.StringIO()]
    with contextlib.redirect_stdout(out[0]):
        expected = getattr(P, name)(*copy.deepcopy(args))
    with contextlib.redirect_stdout(out[1]):
        got = np2ref.compile(getattr(P, name), host_below=0)(*copy.deepcopy(args))
    return out[0].getvalue(), out[1].getvalue(), expected, got


def test_a_range_in_an_index_is_its_array_of_ints():
    p = np.random.default_rng(0).random((5, 4))
    _same("range_indices", p, np.array([0, 3, 1, 1, 2]), 3)
    rng = np.random.default_rng(5)
    X, y = rng.standard_normal((30, 2)), np.repeat(np.arange(3), 10)
    args = (X, y, 0.01 * rng.standard_normal((2, 8)), np.zeros((1, 8)), 0.01 * rng.standard_normal((8, 3)),
            np.zeros((1, 3)), 1e-3, 1.0, 6)
    with contextlib.redirect_stdout(io.StringIO()):
        _same("mlp_fit", *args)


def test_text_formatted_with_percent_or_format_is_printed_on_the_host():
    shown, printed, expected, got = _printed("progress_lines", np.array([3.0, -1.5, 2.25]), 3)
    assert np.array_equal(got, expected)
    assert printed == shown and shown.count("\n") == 9
