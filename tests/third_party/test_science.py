"""Wrong answers, raw errors and refusals found by probing scientific kernels written in the
style of third-party simulation codes (tests/programs/science.py), each against NumPy."""

import warnings

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("science")


def _same(name, *args):
    fn = getattr(P, name)
    return assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), *args)


def test_a_product_added_before_a_decision_is_rounded_as_numpy_rounds_it():
    pos = np.round(np.random.default_rng(0).random(4000) * 20 - 10, 3)
    pos[:3] = [-4.2, 2.1, 1e20]
    for box in (0.7, 1.1):
        expected, got = _same("wrapped_cells", pos, box, 10)
        assert np.array_equal(got[0], expected[0])  # bit for bit: w decides, so it is NumPy's
    x, y, z = (np.array([0.1, 0.7, 3.0, 1.1]), np.array([3.0, 3.0, 1.0 / 3.0, 0.7]),
               np.array([-0.3, -2.1, -1.0, -0.77]))
    _same("crossings", x, y, z, 0.0)  # 3 * (1 / 3) - 1 was -1.9e-17 (NumPy: 0.0, counted)
    _same("crossings", x, y, -z, 0.0)  # floor(3 * (1 / 3) - 1) was -1
    rng = np.random.default_rng(1)
    a, b = np.round(rng.random(2000) * 10, 2), np.round(rng.random(2000) * 10, 2)
    _same("negated_products", a, b, np.round(a * b, 2))


def test_the_numpy_module_as_a_value_is_refused_with_a_code():
    with pytest.raises(np2ref.Np2RefError, match="NPR004.*NumPy module `np` used as a value"):
        np2ref.compile(P.trapezoid_either, host_below=0)


def test_np_insert_at_an_int_index():
    _same("running_mean", np.random.default_rng(2).random(20), 4)
    m = np.arange(6.0).reshape(2, 3)
    for k in (0, 3, 5, -5):
        _same("insert_variants", np.array([3, 1, 4, 1, 5]), m, np.float64(2.75), k)
    for v in (np.nan, 1e300):  # a traced value NumPy casts to int64's minimum (x86), jnp to 0 or its maximum
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected, got = _same("insert_variants", np.array([3, 1, 4, 1, 5]), m, np.float64(v), 1)
        assert got[1][-2] == expected[1][-2] == np.iinfo(np.int64).min
    with pytest.raises(np2ref.Np2RefError, match="NPR004"):
        np2ref.compile(P.insert_at_data, host_below=0)(np.array([3, 1, 4]), 1)
