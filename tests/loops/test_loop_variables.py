"""A for loop's variable is the Python int `range` gives, wherever it is read: in the body of a
lax loop (its trip count static or traced, the early-exit while_loop of a `break`) and after the
loop, through the carry a `break` or an `if` on data makes (rt/loops._npr_python_int,
rt/branches._npr_unset_zeros and _npr_if_init). So NEP 50's rules for a Python int hold: `u16 +=
k` stays uint16, `u8 + k` is uint8, `u8[0] = k + 300` and `u8 + (k + 300)` raise NumPy's
OverflowError (a strongly typed int64 made the first a UFuncTypeError, the second an int64
result, the last two a silent wraparound and an int64 array). Differential against NumPy."""

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("loop_variables")
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


def _u8():
    return np.array([250, 3, 1, 200], np.uint8)


def test_a_loop_left_by_break_keeps_k_a_python_int():
    assert_same_as_numpy(P.break_then_aug, _compiled(P.break_then_aug), np.array(65535, np.uint16),
                         np.array([False, True, True]))


@pytest.mark.parametrize("name", ["data_break_then_arith", "data_break_then_store", "data_break_then_aug_wrap",
                                  "bound_in_branch", "traced_count_in_body"])
@pytest.mark.parametrize("n", [1, 3])
def test_k_after_and_in_a_lax_loop_is_weak(name, n):
    fn = getattr(P, name)
    expected, got = assert_same_as_numpy(fn, _compiled(fn), _u8(), n)
    if name == "data_break_then_arith":  # k itself comes back a Python int
        assert type(got[2]) is int and got[2] == expected[2]


@pytest.mark.parametrize("name", ["data_break_then_wrap", "data_break_then_big_operand"])
def test_k_beyond_uint8_raises_numpy_overflow(name):
    fn = getattr(P, name)
    want = _raises(fn, _u8(), 3)
    assert want is not None and want[0] is OverflowError
    b = _u8()
    assert _raises(_compiled(fn), b, 3) == want
    assert np.array_equal(b, _u8())  # nothing written back
