"""Wrong answers, raw errors and refusals found by probing application kernels written in the
style of third-party NumPy benchmark collections (tests/programs/apps.py), each
against NumPy."""

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("apps")


def _same(name, *args):
    fn = getattr(P, name)
    return assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), *args)


def test_bitwise_operators_of_python_ints_give_python_ints():
    data = np.array([0x31, 0x32, 0x33, 0xFF, 0], np.uint8)
    expected, got = _same("crc16_ccitt", data)
    assert [type(v) for v in got] == [type(v) for v in expected] == [int, int]
    expected, got = _same("crc16_reflected", data)
    assert type(got) is type(expected) is int


@pytest.mark.xfail(strict=True, raises=np2ref.Np2RefError,
                   reason="too timid since kinds12: crc is a Python int or np.int64 by the branch the data takes "
                          "(followed now: on main it was np.int64 whatever the data), and `(crc & 1) ^ (b & 1)` "
                          "with a uint8 is refused NPR128 though only its truth is read by the `if`")
def test_a_numpy_int_polynomial_gives_numpys_type():
    data = np.array([0x31, 0x32, 0x33, 0xFF, 0], np.uint8)
    expected, got = _same("crc16_reflected", data, np.int64(0x8408))  # a NumPy int: NumPy's type
    assert type(got) is type(expected) is np.int64


@pytest.mark.parametrize("rmax", [1.2, 1.4, 0.7])
def test_a_scalar_divided_by_a_static_int_is_numpys_division(rmax):
    radius = np.array([0.05, 0.3, rmax / 2, 0.9 * rmax, rmax])
    _same("azimuthal_mean_in_bins", np.array([1.0, 2.0, 4.0, 8.0, 16.0]), radius, 10)


@pytest.mark.parametrize("x", [np.array([1.7]), np.array([0.3]), np.array([2.3])])
def test_scalar_quotients_are_ieee_divisions(x):
    for s in (1.2, 0.7, 1.9):
        expected, got = _same("scalar_quotients", x, s)
        assert np.array(got).tobytes() == np.array(expected).tobytes()  # bit for bit


def test_a_ufunc_of_sizes_is_numpys_concrete_value():
    x = np.random.default_rng(0).random(16) + 1j * np.random.default_rng(1).random(16)
    _same("radix2_fft", x)
    _same("block_sums", np.arange(10.0), 4)
    expected, got = _same("block_sums", np.arange(10.0), 5)
    assert [type(v) for v in got] == [type(v) for v in expected]


def test_a_masked_read_of_rows_reduces_along_axis_0():
    rng = np.random.default_rng(0)
    _same("kmeans_step", rng.random((40, 2)), rng.random((4, 2)))
    X = rng.random((6, 3))
    for m in ([True, False, True, True, False, False], [False, False, False, False, False, True]):
        _same("masked_row_reductions", X, np.array(m))
    _same("masked_row_reductions", rng.integers(-5, 5, (6, 3)), np.arange(6) % 2 == 0)


def test_a_masked_read_reduced_along_another_axis_is_refused():
    with pytest.raises(np2ref.Np2RefError, match="NPR107"):
        np2ref.compile(P.masked_rows_along_axis_1, host_below=0)(np.ones((3, 2)), np.array([True, False, True]))


def test_the_row_mean_of_an_empty_selection_warns_as_numpy():
    X, m = np.ones((3, 2)), np.zeros(3, bool)
    with pytest.warns(RuntimeWarning, match="invalid value encountered in divide"):
        _same("masked_row_mean", X, m)


def test_a_while_loop_on_sizes_that_rebinds_a_written_array_runs_as_python():
    rng = np.random.default_rng(2)
    _same("pairwise_stages_while", rng.random(32))
    _same("halve_until", np.arange(8.0), 8)
    with pytest.raises(np2ref.Np2RefError, match="NPR030"):
        np2ref.compile(P.halve_until, host_below=0)(np.arange(8.0), np.array(8))


def test_a_particle_cell_index_is_numpys_quotient_floored():
    x = np.array([0.3, 0.6, 0.7, 2.3, 0.05, 0.95])
    expected, got = _same("particle_cells", x, 0.1, 30)
    assert list(expected[0]) == [2, 5, 6, 22, 0, 9]  # NumPy's own quotients: 0.3 / 0.1 < 3


def test_array_quotients_that_reach_a_decision_are_numpys():
    a = np.arange(-128, 129) * 0.1  # multiples of 0.1: x * (1 / c) and x / c floor differently
    a[:5] = [np.nan, np.inf, -np.inf, 0.0, -0.0]
    b, c = np.full(257, 0.1), np.arange(257) * 0.3 + 0.3
    b[5:8], c[:3] = [0.9, 0.3, 0.7], [np.nan, 0.0, -np.inf]
    for d in (0.1, 0.7, 0.3):
        expected, got = _same("array_decisions", a, b, c, d)
        for e, g in zip(expected, got):  # bit for bit, or NaN in both (inf % 1.0: jnp's NaN's sign)
            g = np.asarray(g)
            assert g.dtype == e.dtype and np.all((g == e) & (np.signbit(g) == np.signbit(e)) | np.isnan(e) & np.isnan(g))


def test_quotients_that_decide_are_numpys_under_the_callers_jit():
    """.pure under the caller's jax.jit (alone, or inside a vmap) fences its divisions as the
    compiled call does: XLA's `x * (1 / dx)` put the particle at 0.3 in cell 3."""
    x = np.array([0.3, 0.6, 0.7, 2.3, 0.05, 0.95])
    expected = P.particle_cells(x, 0.1, 30)
    pure = np2ref.compile(P.particle_cells).pure
    cells = jax.jit(lambda x, dx: pure(x, dx, 30)[0])
    with jax.enable_x64(True):
        jitted = cells(x, 0.1)
        batched = jax.vmap(cells, in_axes=(0, None))(np.stack([x, x[::-1]]), 0.1)
    for e, g in zip(expected, jitted):
        assert np.array_equal(np.asarray(g), e)
    assert np.array_equal(np.asarray(batched[0][1]), expected[0][::-1])
    assert np.array_equal(np.asarray(batched[1][0]), expected[1])


def test_a_quotient_floored_in_a_loop_body_is_numpys():
    u = np.arange(64) * 0.1
    expected, got = _same("quantised_steps", u, 5)
    assert got.tobytes() == expected.tobytes()
