"""Small integer and float dtypes against NumPy 2: NEP 50's Python ints out of a small integer
array's range (`u8 // 300` raises OverflowError, `np.less(u8, 300)` compares by the value,
`np.clip(u8, 0, 300)` drops the bound, np.where wraps), float stores into small integers
through a mask (x86's wraparound), NumPy's square root for `x ** 0.5`, `s += y[0]` on a NumPy
scalar (a rebinding), `1.0 / dt` with dt a Python float (ZeroDivisionError), and Python ints and
floats returned as Python's types. Differential: the original under NumPy against
np2ref.compile(host_below=0) and the converted file."""

import importlib.util
import sys
import warnings

import numpy as np
import pytest

import np2ref
from np2ref.pipeline import convert_source
from conftest import ROOT, assert_same_as_numpy, program

P = program("small_ints")
COMPILED = {}
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _compiled(fn):
    if fn not in COMPILED:
        COMPILED[fn] = np2ref.compile(fn, host_below=0)
    return COMPILED[fn]


def _raises(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001
        return type(e), str(e)
    return None


def test_python_ints_out_of_range_compare_clip_and_wrap_by_value():
    assert_same_as_numpy(P.by_value, _compiled(P.by_value), np.array([200, 5, 255, 0, 250], np.uint8),
                         np.array([-128, 5, 127, 4, 64], np.int8))


@pytest.mark.parametrize("name", ["floordiv_300", "mod_300", "divmod_300", "floordiv_minus_one", "full_like_300",
                                  "element_iadd_300"])
def test_python_ints_out_of_range_raise_overflow(name):
    fn, x = getattr(P, name), np.array([200, 5], np.uint8)
    want = _raises(fn, x)
    assert want is not None and want[0] is OverflowError
    assert _raises(np2ref.compile(fn, host_below=0), x) == want


def test_power_one_half_is_numpy_square_root():
    x = np.array([-np.inf, -0.0, 4.0, 2.0])
    expected, got = assert_same_as_numpy(P.half_powers, _compiled(P.half_powers), x, 0.5)
    for e, g in zip(expected, got):  # -inf ** 0.5 is nan, -0.0 ** 0.5 is -0.0 (pow: inf, 0.0)
        assert np.array_equal(np.signbit(e), np.signbit(g)) and np.array_equal(np.isnan(e), np.isnan(g))


def test_masked_float_stores_into_small_integers_wrap_as_numpy():
    v = np.array([-1.5, 2.5, -300.0, 200.7, 40000.0])
    assert_same_as_numpy(P.masked_float_stores, _compiled(P.masked_float_stores), np.zeros(5, np.uint8),
                         np.zeros(5, np.int8), np.zeros(5, np.uint16), v)


def test_numpy_scalar_op_assign_rebinds():
    y = np.array([0.5, 1.5])
    expected, got = assert_same_as_numpy(P.element_accumulate, _compiled(P.element_accumulate),
                                         np.array([1, 2], np.int16), y)
    assert [type(g) for g in got] == [np.float64, np.float64]
    # on a 2-d x, x[0] is a view: `s += y[0]` works in place, NumPy's casting error
    x2 = np.array([[1, 2], [3, 4]], np.int16)
    assert _raises(_compiled(P.element_accumulate), x2.copy(), y)[0] is _raises(P.element_accumulate, x2.copy(), y)[0]


def test_python_float_parameter_divisor():
    x = np.array([1.0, 2.0])
    c = _compiled(P.step)
    assert _raises(P.step, x.copy(), 0.0)[0] is ZeroDivisionError
    assert _raises(c, x.copy(), 0.0) == _raises(P.step, x.copy(), 0.0)
    assert_same_as_numpy(P.step, c, x, 2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_as_numpy(P.step, c, x, np.float64(0.0))  # a NumPy scalar: inf and nan


def test_python_scalars_returned_as_python_types():
    x = np.array([3.0, 4.5, 1.0])
    expected, got = assert_same_as_numpy(P.python_results, _compiled(P.python_results), x)
    assert [type(g) for g in got] == [type(e) for e in expected] == [int, np.float64, float, int, int]


def test_loop_variables_are_python_ints():
    x, z = np.array([3, 200, 255], np.uint8), np.array([1, 0], np.uint8)
    c = _compiled(P.loop_ints)
    assert_same_as_numpy(P.loop_ints, c, x, np.zeros(3, np.uint8), z)  # i * 100 <= 200, i + 254 <= 255
    for y, z in ((np.zeros(4, np.uint8), np.ones(2, np.uint8)), (np.zeros(4, np.int16), np.ones(2, np.int8))):
        want = _raises(P.loop_ints, x, y.copy(), z.copy())
        assert want is not None and want[0] is OverflowError and _raises(c, x, y.copy(), z.copy()) == want


def test_converted_file(tmp_path):
    path = ROOT / "tests" / "programs" / "small_ints.py"
    out = tmp_path / "small_ints_converted.py"
    out.write_text(convert_source(path.read_text(), str(path)).code)
    spec = importlib.util.spec_from_file_location("small_ints_converted", out)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    x = np.array([1.0, 2.0])
    assert _raises(module.step, x.copy(), 0.0) == _raises(P.step, x.copy(), 0.0)
    assert _raises(module.floordiv_300, np.array([7], np.int8))[0] is OverflowError
    assert type(module.python_results(np.array([3.0, 4.5]))[0]) is int
