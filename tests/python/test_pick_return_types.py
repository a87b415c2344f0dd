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
from tests.conftest import assert_returns_as_numpy, converted_functions, on_tpu, result_types


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
            if on_tpu():  # (the Python float through a TPU's float64 pair: 48 bits, docs/tpu.md)
                leaves = [np.concatenate([np.ravel(np.asarray(v, float)) for v in jax.tree_util.tree_leaves(r)])
                          for r in (got, want)]
                np.testing.assert_allclose(*leaves, rtol=1e-13)
                continue
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


def test_a_returned_pick_of_a_python_number_its_numpy_operand_cannot_hold_is_refused():
    """NumPy returns the Python number itself where the data picks it (2 ** 40); np2ref's fold of
    the int32 operand held 0 (wrapped)."""
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(narrow_int_pick, host_below=0)(*PICKS["python picked"]())
    assert "NPR128" in str(info.value)


@pytest.mark.parametrize("picks", PICKS, ids=str)
def test_a_returned_pick_of_a_python_number_its_operand_holds_is_exact(picks):
    assert_returns_as_numpy(narrow_but_held, PICKS[picks])


# rt/picks.py's one rule for a float32 (float16) pick of Python floats: RETURNED (as it is, or an item
# of a returned tuple, list or dict display, nothing else reading it), NumPy's max()/min() result
# itself: the Python float (0.1, not float32's 0.10000000149) or np.float32, as the data picks (an
# exact float64 fold and the chosen flag); anywhere else (arithmetic, passed on, compared, a loop's
# or a branch's trace) checked when it runs that the data picks the float32 (NPR128 where not).
def returned_in_a_dict(x, dt):
    y = x.astype(np.float32)
    m = min(y[2], 0.1, 0.10000001)  # (two Python floats compared in float64, as Python does)
    return {"m": m, "n": 1}


def returned_and_compared(x, dt):
    y = x.astype(np.float32)
    m = min(y[0], 0.1)
    return m, m > 0.05


def helper_then_arithmetic(x, dt):
    return narrow_float_pick(x, dt) * x.astype(np.float32)


def helper_returned_and_doubled(x, dt):
    r = narrow_float_pick(x, dt)  # (the helper's pick is returned there; here read in arithmetic too)
    return r, r * 2.0


def picked_in_a_loop(x, dt):
    y = x.astype(np.float32)
    m = 0.0
    for i in range(2):
        m = min(y[i], 0.1)
    return m


RETURNED32 = [narrow_float_pick, narrow_float_held, returned_in_a_dict]


@pytest.mark.parametrize("picks", PICKS, ids=str)
@pytest.mark.parametrize("fn", RETURNED32, ids=lambda f: f.__name__)
def test_a_returned_float32_pick_is_numpys_result_whichever_the_data_picks(fn, picks):
    """Refused on main where the data picks the Python float (at trace time for 0.1, which float32
    does not hold; when it ran for 0.5)."""
    assert_returns_as_numpy(fn, PICKS[picks])


def test_the_returned_float32_forms_meet_both_types():
    for fn in RETURNED32:
        kinds = {json.dumps(result_types(fn(*make()))) for make in PICKS.values()}
        assert len(kinds) == 2, fn.__name__


@pytest.mark.parametrize("fn", [returned_and_compared, helper_then_arithmetic, helper_returned_and_doubled,
                                picked_in_a_loop],
                         ids=lambda f: f.__name__)
def test_a_float32_pick_read_otherwise_is_checked_when_it_runs(fn):
    """Its value read in float32 (compared, in arithmetic through a helper's return) or its flag in
    a loop's trace: NumPy's where the data picks the float32, NPR128 where it picks the Python float."""
    assert_returns_as_numpy(fn, lambda: (np.array([-0.75, -1.5, 1.0]), 0.5))
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(*PICKS["python picked"]())
    assert "NPR128" in str(info.value)


def test_a_returned_float32_pick_under_pure_and_vmap_is_the_value():
    """`.pure` has no result types: the float64 value of the pick, exact (0.1 itself)."""
    pure = np2ref.compile(narrow_float_pick).pure
    xs = np.array([[0.75, 1.5, 1.0], [-0.75, 1.5, 1.0]])
    with jax.enable_x64(True):
        got, _ = jax.vmap(pure, in_axes=(0, None))(xs, 0.5)
    want = [float(narrow_float_pick(x, 0.5)) for x in xs]
    if on_tpu():  # (a TPU's float64 is a float32 pair: 0.1 is 0.09999999999999998 there, docs/tpu.md)
        return np.testing.assert_allclose([float(g) for g in np.asarray(got)], want, rtol=1e-13)
    assert [float(g) for g in np.asarray(got)] == want


def test_the_converted_script_returns_a_float32_pick_as_numpy(tmp_path):
    import sys

    converted = converted_functions(sys.modules[__name__], ["narrow_float_pick", "returned_in_a_dict"],
                                    tmp_path, "picks32")
    for name in ("narrow_float_pick", "returned_in_a_dict"):
        for make in PICKS.values():
            want, got = globals()[name](*make()), getattr(converted, name)(*make())
            assert result_types(got) == result_types(want), name
            if on_tpu():  # (the Python float through a TPU's float64 pair: 48 bits, docs/tpu.md)
                leaves = [np.concatenate([np.ravel(np.asarray(v, float)) for v in jax.tree_util.tree_leaves(r)])
                          for r in (got, want)]
                np.testing.assert_allclose(*leaves, rtol=1e-13)
                continue
            assert json.dumps(got, default=repr) == json.dumps(want, default=repr), name
