"""max()/min() of a NumPy scalar and a Python number whose result goes on through names: Python
returns one operand, so `m = max(x[0], 0.5)` is np.float64 or the Python float 0.5 as the data
picks, and so is `m2 = m * 2` (analysis/pick_uses.of_derived). Where such a value meets a float32
operand NumPy's dtype depends on the data (float32 for the Python float): refused (NPR128), by
np2ref.compile and by the converted file alike; where it meets only float64, translated, with
NumPy's values and dtypes whichever operand the data picks (each case is run on data picking each
side). A float32 pick whose arithmetic cannot be shown alike is checked when it runs: the data must
pick the float32 (`level = max(abs(x[i]), level * decay)`), else NPR128 then; one returned is
NumPy's result, the Python float or np.float32 as the data picks."""

import sys

import numpy as np
import pytest

import np2ref
from np2ref.diagnostics import Np2RefError
from tests.conftest import assert_numpys_bits, converted_functions


def _scaled_then_f32(x, y32):
    m = max(x[0], 0.5)
    m2 = m * 2  # (fuzz_c0175e571d: np2ref's float64, NumPy's float32 where 0.5 is picked)
    return y32 * m2


def _doubled_then_f32(x, y32):
    k = 2 * max(x[0], 0.5)
    return y32 * k


def _doubled_then_branch_f32(x, y32):
    k = 2 * max(x[0], 0.5)
    if x[1] > 0:  # (on data: k comes out of a lax.cond, noted again where read)
        k = k + 1.0
    return y32 * k


def _doubled_in_a_loop_f32(x, y32):
    k = 2 * max(x[0], 0.5)
    for i in range(y32.shape[0]):
        y32[i] = y32[i] * k  # float32 * 1.0 in NumPy where 0.5 is picked; float64 product stored otherwise
        k = k * 0.5  # (a carry of the loop: noted again where read)
    return y32


def _into_another_pick_f32(x, y32):
    m = max(x[0], 0.5)
    m2 = min(m * 2, x[1])
    return y32 * m2


def _scaled_then_f64(x, y64):
    m = max(x[0], 0.5)
    m2 = m * 2
    return y64 * m2, m2 > 1.0


def _cut_last_step(u, t, t_end):
    """corpus godunov_burgers_masked: the CFL step from a pick, cut by a branch to land on t_end."""
    steps = 0
    while t < t_end:
        dt = 0.4 / max(np.max(np.abs(u)), 1e-12)
        if t + dt > t_end:
            dt = t_end - t
        u[1:] -= dt * (u[1:] - u[:-1])
        t += dt
        steps += 1
    return steps


def _adaptive_step(y, h, t_end, tol):
    """scripts8 lorenz_ensemble_rkf45: `h = h * max(0.2, f)`, h carried to the next trip's pick."""
    t, tries = 0.0, 0
    while t < t_end and tries < 40:
        tries += 1
        h = min(h, t_end - t)
        err = np.abs(y * h).max()
        if err > tol:
            h = h * max(0.2, 0.9 * (tol / err) ** 0.25)
            continue
        y[:] = y - h * y
        t += h
        h = h * min(4.0, max(0.2, 0.9 * (tol / max(err, 1e-300)) ** 0.2))
    return h * y


def _envelope(x, decay):
    """scripts8b resample_stats: float32 data and the Python float 0.0 the first trip starts from."""
    env = np.zeros_like(x)
    level = 0.0
    for i in range(x.shape[0]):
        level = max(abs(x[i]), level * decay)
        env[i] = level
    return env, level


def _signed_envelope(x, decay):
    level = 0.0
    out = np.zeros_like(x)
    for i in range(x.shape[0]):
        level = max(x[i], level * decay)  # x[0] < 0: the Python float 0.0 is picked
        out[i] = level * 3
    return out


def _capped_speed(road, vmax, gaps):
    """scripts8 traffic_int16_occupancy: int16 data and Python ints; NumPy's v is np.int16 or the
    Python int as the data picks, the same value while int16 holds it."""
    n = road.size
    new = np.full(n, -1, dtype=np.int16)
    moved = 0
    for i in range(n):
        v = road[i]
        if v < 0:
            continue
        gap = 0
        while gap < gaps[i]:
            gap += 1
        v = min(v + 1, vmax, gap)
        if v > 0 and i % 2 == 0:
            v -= 1  # (in a branch: the note carried into it, rt/raises.py)
        j = (i + v) % n
        if i + v >= n:
            moved += 1
        new[j] = v
    return new, moved


def _doubled_capped(x16, cap, out):
    v = min(x16[0] + 1, cap)  # cap 30000 picked: NumPy's 60000 below; an int16 would wrap
    out[0] = v * 2
    return out


def _int8_times_capped(x16, y8):
    v = min(x16[0] + 1, 3)
    return y8 * v  # NumPy's int8 where 3 is picked, int16 where x16[0] + 1 is


def _int_or_float_doubled(x32, y32):
    m = max(x32[0], 2.5)  # np.int32 or the Python float
    k = m * 2.0  # np.float64 (7 picked) or a Python float (2.5): y32 * k float64 or float32
    return y32 * k


def _step_through_a_product(y, B, k, h, t_end):
    """scripts10 rkf45_rejection: the picked h read by `h * (B @ k)`, which 0-d stand-ins of B and k
    cannot evaluate (no matrix product of 0-d arrays): not known there, not a mismatch."""
    t = 0.0
    while t < t_end:
        h = min(h, t_end - t)
        y = y + h * (B @ k)
        t += h
    return y, t


def _returned_f32_pick(y32):
    return max(0.1, y32[0])  # NumPy: the Python 0.1 itself, or np.float32


F32 = [_scaled_then_f32, _doubled_then_f32, _doubled_then_branch_f32, _doubled_in_a_loop_f32, _into_another_pick_f32]
F64 = [_scaled_then_f64, _cut_last_step, _adaptive_step, _envelope, _signed_envelope, _step_through_a_product]
INT16 = [_capped_speed, _doubled_capped, _int8_times_capped, _int_or_float_doubled, _returned_f32_pick]


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    return converted_functions(sys.modules[__name__], [f.__name__ for f in F32 + F64 + INT16],
                               tmp_path_factory.mktemp("picks"), "pick_kinds_names")


def _routes(fn, converted):
    return {"compile": np2ref.compile(fn, host_below=0), "convert": getattr(converted, fn.__name__)}


def _codes(exc) -> set:
    return {d.code for d in getattr(exc, "diagnostics", ())} or {getattr(exc, "code", None)}


def _copies(args):
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def _refused(run, args):
    with pytest.raises(Exception) as info:
        run(*_copies(args))
    assert _codes(info.value) == {"NPR128"}, info.value


# x[0] 0.25: the Python float 0.5 is picked; 1.0: NumPy's float64
PICKS = [np.array([0.25, 1.0]), np.array([1.0, 1.5])]


@pytest.mark.parametrize("fn", F32, ids=[f.__name__ for f in F32])
@pytest.mark.parametrize("x", PICKS, ids=["python", "numpy"])
def test_a_pick_through_a_name_into_float32_is_refused(fn, x, converted):
    y32 = np.array([0.1, 3.3], dtype=np.float32)
    if fn is not _doubled_in_a_loop_f32:  # (its float32 stores round NumPy's float64 or float32 products)
        kinds = {np.asarray(fn(x.copy(), y32.copy())).dtype for x in PICKS}
        assert kinds == {np.dtype(np.float32), np.dtype(np.float64)}  # (NumPy's dtype follows the data)
    for run in _routes(fn, converted).values():
        _refused(run, (x, y32))


def _same(fn, args, converted):
    want_args = _copies(args)
    want = fn(*want_args)
    for route, run in _routes(fn, converted).items():
        got_args = _copies(args)
        got = run(*got_args)
        for g, w in zip(got if isinstance(want, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
            assert_numpys_bits(np.asarray(g), np.asarray(w))
        for g, w in zip(got_args, want_args):
            if isinstance(w, np.ndarray):
                assert_numpys_bits(g, w)


@pytest.mark.parametrize("x", PICKS, ids=["python", "numpy"])
def test_a_pick_through_a_name_into_float64_translates(x, converted):
    _same(_scaled_then_f64, (x, np.array([0.1, 3.3])), converted)


@pytest.mark.parametrize("u", [np.zeros(6), np.linspace(0.0, 1.0, 6)], ids=["python", "numpy"])
def test_a_time_step_from_a_pick_cut_by_a_branch_translates(u, converted):
    """u all zeros: the Python 1e-12 is picked (one huge step, cut to t_end); else np.max."""
    _same(_cut_last_step, (u, 0.0, 0.5), converted)


@pytest.mark.parametrize("tol", [1e-3, 1e-9], ids=["grows", "rejects"])
def test_an_adaptive_step_carried_through_picks_translates(tol, converted):
    """max(0.2, f) picks the Python 0.2 where a step is rejected hard (tol 1e-9), np.float64 else;
    h then goes on through min(h, t_end - t) on the next trip (noted again where read)."""
    _same(_adaptive_step, (np.array([1.0, -2.0, 0.5]), 0.3, 1.0, tol), converted)


@pytest.mark.parametrize("t_end", [0.35, 1.0], ids=["cut", "whole"])
def test_a_pick_read_by_a_matrix_product_translates(t_end, converted):
    """`min(h, t_end - t)` of Python floats, then `y + h * (B @ k)`: refused on main (NPR128, the
    stand-ins' ValueError read as a type mismatch: rkf45_rejection's four -m long checks)."""
    B, k = np.array([0.25, 0.5, -0.125]), np.arange(6.0).reshape(3, 2)
    _same(_step_through_a_product, (np.array([1.0, -2.0]), B, k, 0.3, t_end), converted)


def test_a_float32_envelope_from_a_python_float_translates(converted):
    x = (np.sin(np.arange(12.0)) * np.exp(-0.2 * np.arange(12.0))).astype(np.float32)
    x[3] = 0.0  # (a tie with level * decay: max returns abs(x[i]), the first)
    _same(_envelope, (x, 0.9), converted)


def test_a_float32_pick_of_a_python_float_the_data_picks_is_refused_when_it_runs(converted):
    """level = max(x[i], level * decay): x[0] < 0 picks the Python 0.0, whose next trips NumPy
    computes in float64 (`level * 3`, 0.0 * 0.9); x[0] > 0 never picks it: translated."""
    _same(_signed_envelope, (np.array([0.5, -0.25, 0.125], dtype=np.float32), 0.9), converted)
    for run in _routes(_signed_envelope, converted).values():
        _refused(run, (np.array([-0.5, 0.25, 0.125], dtype=np.float32), 0.9))


@pytest.mark.parametrize("vmax", [1, 5], ids=["python", "numpy"])
def test_an_int16_pick_of_python_ints_through_a_branch_translates(vmax, converted):
    """vmax 1 (or a short gap) picks a Python int, vmax 5 the int16 `v + 1` where the gap allows."""
    road = np.array([0, -1, 3, 2, -1, 1, -1, 4, 0, -1], dtype=np.int16)
    _same(_capped_speed, (road, vmax, np.array([2, 0, 5, 1, 0, 6, 0, 5, 1, 0])), converted)


def test_int16_arithmetic_on_a_pick_that_may_be_a_python_int_is_checked_not_to_wrap(converted):
    """min(x16[0] + 1, 30000) * 2: where the Python int is picked NumPy's 60000 is stored, an
    int16 product wraps to -5536 (np2ref before): refused when it runs; where the data picks the
    int16 and nothing wraps, translated."""
    _same(_doubled_capped, (np.array([5], dtype=np.int16), 30000, np.zeros(1, dtype=np.int64)), converted)
    for run in _routes(_doubled_capped, converted).values():
        _refused(run, (np.array([31000], dtype=np.int16), 30000, np.zeros(1, dtype=np.int64)))


@pytest.mark.parametrize("x16", [np.array([1], np.int16), np.array([7], np.int16)], ids=["numpy", "python"])
def test_an_int16_pick_of_a_python_int_meeting_int8_is_refused(x16, converted):
    y8 = np.array([100, 2], dtype=np.int8)
    assert {_int8_times_capped(np.array([v], np.int16), y8).dtype for v in (1, 7)} == {np.dtype(np.int16), np.dtype(np.int8)}
    for run in _routes(_int8_times_capped, converted).values():
        _refused(run, (x16, y8))


@pytest.mark.parametrize("x32", [np.array([1], np.int32), np.array([7], np.int32)], ids=["python", "numpy"])
def test_an_int_or_a_float_doubled_through_a_name_into_float32_is_refused(x32, converted):
    """The fold of np.int32 and 2.5 is a weakly typed float64, so np2ref's `y32 * k` was float32
    where the data picks np.int32 (NumPy's float64: a wrong dtype on main)."""
    y32 = np.array([0.1, 3.3], dtype=np.float32)
    assert {_int_or_float_doubled(np.array([v], np.int32), y32).dtype for v in (1, 7)} == \
        {np.dtype(np.float32), np.dtype(np.float64)}
    for run in _routes(_int_or_float_doubled, converted).values():
        _refused(run, (x32, y32))


@pytest.mark.parametrize("y32", [np.array([0.75, 0.0], np.float32), np.array([-0.75, 0.0], np.float32)],
                         ids=["numpy", "python"])
def test_a_float32_pick_of_a_python_float_returned_is_numpys(y32, converted):
    """np2ref returned float32(0.1) where NumPy returns the Python float 0.1 (fuzz_24d025cfc6), then
    refused it when the data picked it: now the Python float 0.1 itself, or np.float32, as the data
    picks (rt/picks._npr_pick_returned), on both routes."""
    want = _returned_f32_pick(y32.copy())
    for run in _routes(_returned_f32_pick, converted).values():
        got = run(y32.copy())
        assert type(got) is type(want) and got == want
