"""The TYPE of a returned max()/min() pick of a Python number and a NumPy scalar of one kind
(fuzz_3fcc03ecbb.py, fuzz_ec1bb67ea2.py): Python's builtin returns the operand the data picks, so
NumPy's `min(dt, x[2])` is the Python float dt or NumPy's float64 x[2]; `type(r) is float`,
`json.dumps(r)` and `repr(r)` tell them apart. np2ref's fold of jnp.where is one strongly typed
float64 and came back np.float64 whichever was picked. Since ret11 the fold carries a traced flag
(was a Python number picked?) and is noted as either (rt/truth.py `_npr_pick_either`,
promotion.py's `chosen`), which the call reads to return Python's type where the data picked it:
returned as it is, in a tuple, list or dict, after arithmetic with Python numbers (`* 2`, `-m`),
through every route: np2ref.compile, a converted script, and not under vmap (arrays there).
Each test runs both data: the Python number picked and the NumPy scalar picked."""

import json

import jax
import numpy as np
import pytest

import np2ref
from tests.conftest import assert_returns_as_numpy, converted_functions, result_types


def picked_as_is(x, dt):
    m = min(dt, x[2])
    return m


def picked_inline(x, dt):
    return min(dt, x.max())


def in_tuple(x, dt):
    return (min(x.max(), dt), 1)


def in_list(x, dt):
    return [min(dt, x[2]), x[0]]


def in_dict(x, dt):
    return {"m": min(dt, x[2]), "n": x.size}


def scaled(x, dt):
    return min(dt, x[2]) * 2


def negated(x, dt):
    m = min(dt, x[0])
    return -m


def three_operands(x, dt):
    return min(x[0], dt, x[1])


def of_ints(x, dt):
    k = x.astype(np.int64)
    return (min(len(x), k[2] + 2), x)


def chosen_by_a_branch_then_scaled(x, dt):
    v = 0.0 if x[1] > dt else x[0]  # (promotion.py's `chosen` carried through `* 2` too)
    return v * 2


FORMS = [picked_as_is, picked_inline, in_tuple, in_list, in_dict, scaled, negated, three_operands, of_ints,
         chosen_by_a_branch_then_scaled]
PICKS = {"python picked": lambda: (np.array([0.75, 1.5, 1.0]), 0.5),
         "numpy picked": lambda: (np.array([-0.75, -1.5, -0.125]), 0.5)}


@pytest.mark.parametrize("picks", PICKS, ids=str)
@pytest.mark.parametrize("fn", FORMS, ids=lambda f: f.__name__)
def test_a_returned_pick_has_the_type_of_the_operand_the_data_picked(fn, picks):
    assert_returns_as_numpy(fn, PICKS[picks])


def test_both_picks_are_met_by_the_forms():
    """The two data give NumPy's two types for each form (else a test above could not fail)."""
    for fn in FORMS:
        kinds = {json.dumps(result_types(fn(*make()))) for make in PICKS.values()}
        assert len(kinds) == 2, fn.__name__


def test_a_numpy_scalar_passed_for_the_python_number_stays_numpys():
    """dt passed as np.float64: both operands NumPy's, so the pick is np.float64 either way."""
    assert_returns_as_numpy(picked_as_is, lambda: (np.array([0.25, -0.5, 1.0]), np.float64(0.5)))
    assert_returns_as_numpy(in_tuple, lambda: (np.array([0.25, -0.5, 1.0]), np.float64(0.5)))


def test_the_converted_script_returns_pythons_type(tmp_path):
    import sys

    module = sys.modules[__name__]
    converted = converted_functions(module, ["picked_as_is", "in_dict", "of_ints"], tmp_path, "picks")
    for name in ("picked_as_is", "in_dict", "of_ints"):
        for make in PICKS.values():
            want, got = getattr(module, name)(*make()), getattr(converted, name)(*make())
            assert result_types(got) == result_types(want), name
            assert json.dumps(got, default=repr) == json.dumps(want, default=repr), name


def test_under_vmap_the_pick_is_a_value():
    """`.pure` under jax.vmap: each member's value is NumPy's (the types are the call's)."""
    pure = np2ref.compile(scaled).pure
    xs = np.array([[0.25, -0.5, 1.0], [0.75, 1.5, 0.125]])
    with jax.enable_x64(True):
        got, _ = jax.vmap(pure, in_axes=(0, None))(xs, 0.5)
    np.testing.assert_array_equal(np.asarray(got), [scaled(x, 0.5) for x in xs])


def carried_by_a_loop(x, dt):
    m = dt
    for i in range(x.shape[0]):
        m = min(m, x[i])
    return m


def test_a_pick_carried_by_a_loop_keeps_pythons_type_open():
    """The loop carries a flag beside m (rt/carried_kinds.py): the Python float dt where no trip beat it."""
    assert_returns_as_numpy(carried_by_a_loop, PICKS["python picked"])


def test_a_pick_carried_by_a_loop_where_numpys_wins():
    assert_returns_as_numpy(carried_by_a_loop, PICKS["numpy picked"])


def narrow_float_pick(x, dt):
    y = x.astype(np.float32)
    return min(y[0], 0.1)


def narrow_int_pick(x, dt):
    k = (x * 4).astype(np.int32)
    return max(k[0], 2 ** 40)


def narrow_but_held(x, dt):
    k = (x * 4).astype(np.int8)
    return min(k[2], 300), max(k[1], -1), min(k[0], 5)  # (300: never the smaller of an int8)


def narrow_float_held(x, dt):
    y = x.astype(np.float32)
    return min(y[0], 0.5), max(y[1], -1.0)


@pytest.mark.parametrize("fn", [narrow_float_pick, narrow_int_pick], ids=lambda f: f.__name__)
def test_a_returned_pick_of_a_python_number_its_numpy_operand_cannot_hold_is_refused(fn):
    """NumPy returns the Python number itself where the data picks it (0.1, 2 ** 40); np2ref's fold
    of the float32 / int32 operand held 0.10000000149 and 0 (wrapped)."""
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(*PICKS["python picked"]())
    assert "NPR128" in str(info.value)


@pytest.mark.parametrize("picks", PICKS, ids=str)
def test_a_returned_pick_of_a_python_number_its_operand_holds_is_exact(picks):
    assert_returns_as_numpy(narrow_but_held, PICKS[picks])


def test_a_returned_float32_pick_is_numpys_or_refused_where_the_python_number_is_picked():
    """A float32 pick of a Python float is checked when it runs (rt/picks._npr_check_strong_picked):
    NumPy's float32 where the data picks it, NPR128 where it picks the Python number (which NumPy
    goes on computing with in float64; returned as it is, 0.5 would be exact: not told apart)."""
    assert_returns_as_numpy(narrow_float_held, lambda: (np.array([-0.75, 1.5, 1.0]), 0.5))  # both NumPy's
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(narrow_float_held, host_below=0)(*PICKS["python picked"]())
    assert "NPR128" in str(info.value)
