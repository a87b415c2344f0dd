"""Python operators between values of different dtypes follow NumPy's promotion (NEP 50), not
JAX's: `int64_array + float32_array` is float64 in NumPy, float32 in jax.numpy (rt/promotion.py).
Differential over the 28 ordered pairs where the two libraries differ: operators, comparisons,
`op=` on names, `**`, `//`, `%`, NumPy scalars, in and out of a lax loop, compile and convert."""

import functools
import importlib.util
import sys

import jax

import numpy as np
import pytest

import np2ref
from np2ref.pipeline import convert_source
from np2ref.rt.promotion import _NPR_PROMOTE_TABLE
from conftest import ROOT, assert_same_as_numpy, program

P = program("promotion")
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
INTS = (np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64)
NARROW = (np.float16, np.float32, np.complex64)
COMPILED = {}


def _compiled(fn):
    if fn not in COMPILED:
        COMPILED[fn] = np2ref.compile(fn)
    return COMPILED[fn]


def _ints(dtype):
    big = 2 ** 24 + 1 if np.iinfo(dtype).max > 2 ** 25 else 2049  # not held by float32 / float16
    return np.array([3, big, 7], dtype)


def _floats(dtype):
    return np.array([2.5, np.float32(2 ** 24) if dtype != np.float16 else 2048, 0.1], dtype)


def test_the_table_is_the_documented_one():
    assert len(_NPR_PROMOTE_TABLE) == 28
    assert _NPR_PROMOTE_TABLE[np.dtype(np.int64), np.dtype(np.float32)] == np.float64


def test_every_pair_promotes_as_numpy():
    args = [_ints(t) for t in INTS] + [_floats(t) for t in NARROW]
    expected, _ = assert_same_as_numpy(P.all_pairs, _compiled(P.all_pairs), *args)
    assert [np.asarray(e).dtype for e in expected[:4]] == [np.float32, np.float64, np.float64, np.float32]


@pytest.mark.parametrize("ints, floats", [(np.int64, np.float32), (np.uint16, np.float16),
                                          (np.int32, np.complex64)], ids=lambda t: np.dtype(t).name)
def test_operators_op_assign_and_comparisons(ints, floats):
    fn = P.complex_operators if floats == np.complex64 else P.operators
    assert_same_as_numpy(fn, _compiled(fn), _ints(ints), _floats(floats))


def test_in_a_lax_loop():
    assert_same_as_numpy(P.in_a_loop, _compiled(P.in_a_loop), _ints(np.uint32), _floats(np.float32), 3)


def test_numpy_scalars_are_strong():
    expected, _ = assert_same_as_numpy(P.numpy_scalars, _compiled(P.numpy_scalars),
                                       np.array([2 ** 24 + 1, 5], np.int64), 4)
    assert expected[0].dtype == np.float64


def test_module_helpers_and_max():
    assert_same_as_numpy(P.calls_a_helper, _compiled(P.calls_a_helper),
                         _ints(np.int64), _floats(np.float32))


def test_max_of_values_whose_type_depends_on_data_is_refused():
    with pytest.raises(np2ref.Np2RefError) as err:
        _compiled(P.largest)(_ints(np.int64), _floats(np.float32))
    assert err.value.diagnostics[0].code == "NPR128"
    assert_same_as_numpy(P.largest, _compiled(P.largest), _floats(np.float32), _floats(np.float32))


def test_converted_file(tmp_path):
    path = ROOT / "tests" / "programs" / "promotion.py"
    out = tmp_path / "promotion_converted.py"
    out.write_text(convert_source(path.read_text(), str(path)).code)
    assert "npr_binop" not in out.read_text()  # the operators stay as written
    spec = importlib.util.spec_from_file_location("promotion_converted", out)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    x, y = _ints(np.int64), _floats(np.float32)
    assert_same_as_numpy(P.in_a_loop, module.in_a_loop, x, y, 3)
    assert_same_as_numpy(P.calls_a_helper, module.calls_a_helper, x, y)


def test_float32_policy_keeps_float32():
    got = np2ref.compile(P.calls_a_helper, dtype_policy="float32")(_ints(np.int32), _floats(np.float32))
    assert got[0].dtype == np.float32


def test_a_conditional_giving_a_numpy_scalar_or_a_python_float():
    x, y = np.array([0.5, 1.0, 2.0]), _floats(np.float32)
    for sign in (1.0, -1.0):  # both branches: float64 wherever it meets only float64
        assert_same_as_numpy(P.either_value, _compiled(P.either_value), x * sign, y)
    with pytest.raises(np2ref.Np2RefError) as err:  # NumPy: float64 or float32, as the data picks
        _compiled(P.either_meets_float32)(x, y)
    assert err.value.diagnostics[0].code == "NPR128"


def test_a_program_without_such_a_pair_traces_to_the_same_jaxpr():
    entry = _compiled(P.in_a_loop)._entry
    x, y = _ints(np.int64), np.array([2.5, 0.5, 0.1])

    def jaxpr():
        with jax.enable_x64(True):
            return str(jax.make_jaxpr(functools.partial(entry.pure, n=3))(x, y))
    promoting = jaxpr()
    assert entry.traced_fn() is not entry.fn  # the variant ran
    entry._traced = entry.fn  # the function as converted
    try:
        assert jaxpr() == promoting
    finally:
        entry._traced = None


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_operators_where_numpy_answers_differently_on_one_dtype():
    """A Python int outside an integer array's range (`u8 < 300` is all True in NumPy;
    jax.numpy casts 300 to 44), NumPy's OverflowError for the other operators; `/` between
    integers is float64 (jax.numpy: float32 below 64 bits: `img / 255`); `x ** 0.5` is NumPy's
    square root (`-inf ** 0.5` is nan, `-0.0 ** 0.5` is -0.0)."""
    img = np.array([100, 250, 0, 255], np.uint8)
    for dtype in (np.uint8, np.int8, np.int16):
        x = img.astype(dtype)
        expected, got = assert_same_as_numpy(P.python_int_out_of_range, _compiled(P.python_int_out_of_range), x)
        assert all(np.asarray(g).dtype == np.bool_ for g in got)
        assert_same_as_numpy(P.integer_true_divide, _compiled(P.integer_true_divide), x)
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for uint8"):
        _compiled(P.python_int_overflows)(img)
    for dtype in (np.float64, np.float32):
        x = np.array([-np.inf, -0.0, 4.0, np.nan, 2.0], dtype)
        with np.errstate(invalid="ignore"):
            expected, got = assert_same_as_numpy(P.square_root_power, _compiled(P.square_root_power), x)
        assert np.signbit(got[0][1]) and np.isnan(got[0][0])


def test_an_integer_array_and_a_python_float_are_a_strong_float64():
    """`(np.arange(3) - 2.0) * b.max()` with b float16 (found by np2ref fuzz, moving_dots): the
    traced call returned float16 where NumPy gives float64."""
    fn = P.int_array_and_python_float
    expected, got = assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), np.array([3, 5], np.int64),
                                         np.array([0.5, 1.5], np.float16))
    assert [g.dtype for g in got] == [np.float64] * 3
