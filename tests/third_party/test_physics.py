"""Wrong answers, raw errors and refusals found by probing physics and numerics kernels written
in the style of published scientific codes (tests/programs/physics.py), each against
NumPy."""

import contextlib
import copy
import io

import numpy as np

import np2ref
from conftest import assert_same_as_numpy, program

P = program("physics")


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


def test_a_python_int_rebound_to_a_float_in_a_loop_stays_a_python_number():
    rng = np.random.default_rng(1)
    pos, vel, acc = rng.random((6, 3)), rng.random((6, 3)), rng.random((6, 3))
    for t, dt in ((0, 0.01), (0, 1), (0.5, 0.25), (0, np.float32(0.5))):
        expected, got = _same("leapfrog_clock", pos, vel, acc, t, dt, 40)
        assert type(got) is type(expected)


def test_a_product_plus_a_scalar_that_decides_is_rounded_twice():
    x = np.arange(2000.0)
    expected, got = _same("scaled_cells", x, 0.7, -2.5)  # 7 cells and 1 comparison were off


def test_linspace_is_numpys_under_jit():
    expected, got = _same("mandelbrot", 40, 40)
    assert got[60, 20] == expected[60, 20] == 20  # c = -2 + 0j never escapes
    for a, b, n in ((-2.5, 1.5, 161), (-1.5, 1.5, 121), (0.1, 0.7, 1000), (np.float32(0.1), 0.7, 77)):
        expected, got = _same("grids", a, b, n)
        assert all(np.array_equal(e, g) for e, g in zip(expected[:2] + expected[2][:1], got[:2] + got[2][:1]))


def test_64_bit_values_reach_the_host_intact():
    x = np.random.default_rng(7).random(200_000)
    for _ in range(2):  # the first call of a large program ran its callbacks on XLA's thread
        shown, printed, expected, got = _printed("report_peak", x, np.random.default_rng(3))
        assert printed == shown and np.array_equal(got[0], expected[0]) and got[1] == expected[1]


def test_a_draw_imported_by_name_is_numpys_draw():
    """`from numpy.random import rand, randint` (the Ising scripts' import): draws from NumPy's
    global generator made on the host at run time (was NPR004 before issue 41): the same spins
    and the same generator state afterwards as NumPy."""
    compiled = np2ref.compile(P.metropolis_imported_draws, host_below=0)
    theirs, ours = np.tile([1.0, -1.0], 8), np.tile([1.0, -1.0], 8)
    np.random.seed(5)
    expected = P.metropolis_imported_draws(theirs, 0.4)
    after = np.random.random()
    np.random.seed(5)
    got = compiled(ours, 0.4)
    assert np.random.random() == after
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(ours, theirs)
