"""Wrong answers and raw errors found by probing third-party-style NumPy snippets
(tests/programs/snippets.py), each against NumPy."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("snippets")


def _same(name, *args):
    fn = getattr(P, name)
    assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), *args)


@pytest.mark.parametrize("x", [np.array([0.1, 0.7, 0.3], np.float32), np.array([0.5, -2.0, 3.0])])
def test_a_python_float_beside_float_data_takes_the_data_dtype(x):
    _same("running_max_from_minus_inf", x)
    _same("decayed_sum_from_zero", x)
    got = np2ref.compile(P.decayed_sum_from_zero, host_below=0)(x)
    assert type(got) is type(P.decayed_sum_from_zero(x))


@pytest.mark.parametrize("x", [np.array([2 ** 60 + 1, 3, 2 ** 60 + 3]), np.array([5, 7, -3], np.int32)])
def test_a_python_float_beside_integer_data_is_refused(x):
    # int64 values beyond 2**53 came back rounded (a float64 carry); int32 ones as float64
    with pytest.raises(np2ref.Np2RefError, match="NPR128"):
        np2ref.compile(P.running_max_from_minus_inf, host_below=0)(x)


@pytest.mark.parametrize("x", [np.array([5, 7, -3], np.int32), np.array([200, 100, 250], np.uint8),
                               np.array([2 ** 60 + 1, 3])])
def test_a_python_int_beside_integer_data_takes_the_data_dtype(x):
    _same("running_max_from_zero", x)
    got = np2ref.compile(P.running_max_from_zero, host_below=0)(x)
    assert type(got) is type(P.running_max_from_zero(x))


def test_a_python_int_the_data_dtype_cannot_hold_is_refused():
    with pytest.raises(np2ref.Np2RefError, match="NPR128"):
        np2ref.compile(P.running_max_from_minus_one, host_below=0)(np.array([200, 100], np.uint8))
    _same("running_max_from_minus_one", np.array([5, 7, -3], np.int32))


def test_a_list_index_is_an_array_index():
    _same("index_with_a_list", np.array([1.5, -2.0, 3.0, 4.5]))


def test_reductions_of_list_displays():
    _same("reductions_of_lists", np.array([2.5, 1.0]))


def test_allclose_and_array_equal_return_python_bools():
    a, b = np.array([1.0, 2.0]), np.array([1.0, 2.0 + 1e-12])
    got = np2ref.compile(P.closeness, host_below=0)(a, b)
    assert got == P.closeness(a, b) and [type(v) for v in got] == [bool] * 4


def test_the_removed_ptp_method_raises_numpys_attribute_error():
    x = np.array([3.0, -1.0])
    with pytest.raises(AttributeError, match="'numpy.ndarray' object has no attribute 'ptp'"):
        P.peak_to_peak_method(x)
    with pytest.raises(AttributeError, match="'numpy.ndarray' object has no attribute 'ptp'"):
        np2ref.compile(P.peak_to_peak_method, host_below=0)(x)


def test_a_negative_literal_power_of_integers_raises_numpys_value_error():
    f = np2ref.compile(P.reciprocal_by_power, host_below=0)
    for x in (np.array([1, 2]), np.array([3], np.int8)):
        with pytest.raises(ValueError, match="negative integer powers"):
            P.reciprocal_by_power(x)
        with pytest.raises(ValueError, match="negative integer powers"):  # it was JAX's TypeError
            f(x)
    _same("reciprocal_by_power", np.array([2.0, -4.0]))


@pytest.mark.parametrize("t0", [0.0, np.float64(0.0)])
def test_a_rebound_float_parameter_returns_what_the_caller_passed(t0):
    # `t = t0; t += h` with Python floats passed in came back as np.float64 (a name rebound in a
    # data-dependent branch, a bisection's `lo = mid`, still does: the branch's carry is strong)
    expected = P.integrate_time(np.ones(2), t0, 1.0, 5)
    got = np2ref.compile(P.integrate_time, host_below=0)(np.ones(2), t0, 1.0, 5)
    assert type(got[1]) is type(expected[1]) and np.isclose(got[1], expected[1])
    c = np.array([1.0, 0.0, -2.0])
    expected = P.bisection(c, t0, 2.0)
    got = np2ref.compile(P.bisection, host_below=0)(c, t0, 2.0)
    assert got == expected and type(got[0]) is type(expected[0])


def test_a_returned_dtype_is_numpys_dtype():
    # it was JAX's TypeError (a dtype is not a valid JAX type for a jitted result)
    x = np.arange(6, dtype=np.int16).reshape(2, 3)
    assert np2ref.compile(P.shape_and_dtype, host_below=0)(x) == P.shape_and_dtype(x)


@pytest.mark.parametrize("dt", [np.uint8, np.uint16])
def test_a_python_float_stored_into_unsigned_ints_is_range_checked(dt):
    # -3.5 into uint8 raised NumPy's OverflowError (Python integer -3), np2ref wrapped it to 253;
    # NumPy's own float scalar is cast (wraps), and a Python NaN raises ValueError
    f = np2ref.compile(P.store_scalar, host_below=0)
    for v in (-3.5, -1.0, 70000.0):
        with pytest.raises(OverflowError, match="out of bounds"):
            P.store_scalar(np.zeros(3, dt), v)
        with pytest.raises(OverflowError, match="out of bounds"):
            f(np.zeros(3, dt), v)
    for v in (np.float64(-3.5), np.float64(300.0), 2.9, -0.5):
        _same("store_scalar", np.zeros(3, dt), v)
    with pytest.raises(ValueError, match="NaN"):
        f(np.zeros(3, dt), float("nan"))


def test_a_python_complex_stored_into_a_real_array_raises_numpys_type_error():
    f = np2ref.compile(P.store_scalar, host_below=0)
    for dt, name in ((np.float64, "float"), (np.int32, "int")):
        with pytest.raises(TypeError, match=rf"{name}\(\) argument must be"):
            P.store_scalar(np.zeros(3, dt), 1 + 2j)
        with pytest.raises(TypeError, match=rf"{name}\(\) argument must be"):
            f(np.zeros(3, dt), 1 + 2j)
    _same("store_scalar", np.zeros(3, complex), 1 + 2j)


def test_a_name_bound_to_none_before_a_loop_and_to_data_in_it():
    # `m is None or v > m` raised TypeError (the comparison evaluated eagerly with m None), then
    # the lax loop's carry changed from None to an array: the first iteration now runs as
    # Python runs it, the loop the rest
    x = np.array([0.3, 0.9, -1.0, 0.95, 0.2])
    _same("running_max_from_none", x)
    _same("running_min_from_none", x)
    got = np2ref.compile(P.running_max_from_none, host_below=0)(x)
    assert type(got) is type(P.running_max_from_none(x))


def test_a_name_bound_to_none_in_a_loop_on_data_is_refused():
    with pytest.raises(np2ref.Np2RefError, match="NPR130"):
        np2ref.compile(P.first_above_from_none, host_below=0)(np.array([0.3, 0.5, 0.95, 0.1]))


def test_complex_argmax_argmin_and_spread_follow_numpy():
    z = np.array([1 + 2j, 3 + 0j, 3 + 1j, 0.5 + 9j, 3 + 1j, -1 - 1j])
    zz = (np.arange(20) % 3 + 1j * (np.arange(20) % 4)).reshape(4, 5)
    _same("complex_extremes", z, zz)
    zz[2, 3], zz[1, 1] = complex(np.nan, 0), complex(0, np.nan)  # NaN first, as NumPy picks it
    _same("complex_extremes", z, zz)


def test_a_layout_attribute_is_refused_with_its_code():
    with pytest.raises(np2ref.Np2RefError, match="NPR131"):
        np2ref.compile(P.layout_read, host_below=0)(np.arange(4.0))


def test_copies_in_fortran_order_and_products_of_shapes():
    x = np.arange(6.0).reshape(2, 3)
    _same("copies_in_order", x)
    _same("products_of_shapes", x)


def test_an_enumerate_index_kept_in_a_loop_comes_back_a_python_int():
    # np.int64 came back (it promotes differently: np.int64(2) * float32 array is float64)
    x = np.array([0.3, 0.9, -1.0, 0.95, 0.2])
    _same("min_and_index_by_enumerate", x)
    got = np2ref.compile(P.min_and_index_by_enumerate, host_below=0)(x)
    assert [type(v) for v in got] == [type(v) for v in P.min_and_index_by_enumerate(x)] == [np.float64, int]


@pytest.mark.parametrize("order", ["C", "F"])
def test_unravel_index_and_ravel_multi_index_of_indices_known_at_run_time(order):
    x = np.arange(12.0).reshape(3, 4) % 5
    _same("peak_position", x)
    _same("coordinates_and_back", x, np.array([0, 5, 11, 7], np.int32), order)


@pytest.mark.parametrize("k, message", [(np.array([3, 12]), "index 12 is out of bounds for array with size 12"),
                                        (np.array([-1, 2]), "index -1 is out of bounds for array with size 12")])
def test_unravel_index_out_of_the_array_raises_numpys_value_error(k, message):
    # jnp.unravel_index clamps: (2, 3) came back for 12
    with pytest.raises(ValueError, match=message):
        np2ref.compile(P.coordinates_and_back, host_below=0)(np.zeros((3, 4)), k, "C")


def test_ravel_multi_index_of_a_coordinate_out_of_its_axis_raises_numpys_value_error():
    f = np2ref.compile(P.flat_index_of, host_below=0)
    assert f(np.zeros((3, 4)), np.array([2]), np.array([3])).tolist() == [11]
    with pytest.raises(ValueError, match="invalid entry in coordinates array"):
        f(np.zeros((3, 4)), np.array([2, 0]), np.array([4, 0]))


def test_a_name_left_none_by_one_branch_on_data_is_refused_with_npr122():
    # refused before too, but as NPR127 quoting JAX ("None is not a valid value for jnp.array")
    with pytest.raises(np2ref.Np2RefError, match="NPR122.*leaves a name None on one path"):
        np2ref.compile(P.first_index_above_from_none, host_below=0)(np.array([0.1, 0.7, 0.9]))


@pytest.mark.parametrize("x", [(np.arange(12).reshape(3, 4) * 7.3).astype(np.float16),
                               np.arange(1000).reshape(40, 25).astype(np.float16) + np.float16(300)])
def test_float16_variance_and_deviation_round_as_numpys(x):
    # NumPy rounds each step to float16: a variance past its range is inf in np.std too (288.8 came back)
    _same("half_moments", x, x > x.mean())


@pytest.mark.parametrize("rel, tol", [(1e-9, 0.0), (1e-3, 1e-6), (0.0, 0.5)])
def test_math_isclose_of_array_data_decides_as_python(rel, tol):
    # refused before (NPR031: a Python value depends on array data)
    inf, nan = float("inf"), float("nan")
    a = np.array([1.0, 0.0, 1e10, inf, inf, nan, -2.0, 1e-7, 5.0])
    b = np.array([1.0 + 1e-10, 1e-12, 1e10 + 1.0, inf, -inf, nan, -2.0000001, 0.0, 5.25])
    got = np2ref.compile(P.count_close, host_below=0)(a, b, rel, tol)
    assert got == P.count_close(a, b, rel, tol) and [type(v) for v in got] == [int, bool, bool]


def test_math_isclose_with_a_negative_tolerance_raises_pythons_error():
    with pytest.raises(ValueError, match="tolerances must be non-negative"):
        np2ref.compile(P.count_close, host_below=0)(np.ones(2), np.ones(2), -1.0, 0.0)
