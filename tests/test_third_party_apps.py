"""Wrong answers, raw errors and refusals found by probing application kernels written in the
style of third-party NumPy benchmark collections (tests/programs/third_party_apps.py), each
against NumPy."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("third_party_apps")


def _same(name, *args):
    fn = getattr(P, name)
    return assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), *args)


def test_bitwise_operators_of_python_ints_give_python_ints():
    data = np.array([0x31, 0x32, 0x33, 0xFF, 0], np.uint8)
    expected, got = _same("crc16_ccitt", data)
    assert [type(v) for v in got] == [type(v) for v in expected] == [int, int]


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
