"""Python's max()/min() of an int and a float on array data (found by the scripts8b probes):
Python returns one of its operands, so `min(x[0], 2.5)` on int64 data is NumPy's int64 or
Python's float as the data decides, and `x * m` after it int64 or float64. np2ref's fold of
jnp.where promoted both to float64: `x * min(x[0], 2.5)` came back float64 where NumPy's is
int64, and `lo = 0; lo = max(lo, v)` over negative floats 0.0 where NumPy's is the int 0.
Refused now (NPR128); one kind of operand on both sides still translates, differentially."""

import numpy as np
import pytest

import np2ref
from np2ref.diagnostics import Np2RefError
from tests.conftest import assert_numpys_bits


def _scaled_by_min(x):
    m = min(x[0], 2.5)
    return x * m, m


def _floor_by_max(x):
    return x // max(x[0], 0.25)


def _running_max_from_int(x):
    lo = 0
    for v in x:
        lo = max(lo, v)
    return lo


def _same_kind(x, y):
    return x * min(x[0], 2), max(y[1], 0.5), min(y[0], y[1], -1.0)


@pytest.mark.parametrize("fn, arg", [(_scaled_by_min, np.array([1, 2, 3])), (_floor_by_max, np.array([3, 5, 8])),
                                     (_running_max_from_int, np.array([-1.5, -2.0]))])
def test_max_min_of_an_int_and_a_float_on_data_is_refused(fn, arg):
    """Each of these gave NumPy's values in the wrong dtype or type (float64 for int64 or int)."""
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(arg.copy())
    assert {d.code for d in info.value.diagnostics} == {"NPR128"} or info.value.code == "NPR128"


def test_max_min_of_one_kind_still_gives_numpys_answer():
    x, y = np.array([4, 1, 7]), np.array([0.25, -3.0])
    want = _same_kind(x.copy(), y.copy())
    got = np2ref.compile(_same_kind, host_below=0)(x.copy(), y.copy())
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), w)
        assert np.asarray(g).dtype == np.asarray(w).dtype


def _scale_by_capped(x, y8):
    m = min(x[0], 3)  # NumPy: np.int64(5) -> the Python int 3 (weak): int8 * 3 wraps
    return y8 * m


def _scale_by_capped_inline(x, y8):
    return y8 * min(x[0], 3)


def _f32_by_capped(x, y32):
    return y32 * max(x[0], 0.5)  # float32 * 0.5 is float32, float32 * np.float64 float64


@pytest.mark.parametrize("fn, args", [(_scale_by_capped, (np.array([5, 1]), np.array([100, 2], dtype=np.int8))),
                                      (_scale_by_capped_inline, (np.array([5, 1]), np.array([100, 2], dtype=np.int8))),
                                      (_f32_by_capped, (np.array([0.25, 1.0]), np.array([3, 2], dtype=np.float32)))])
def test_max_min_of_a_numpy_scalar_and_a_python_number_in_arithmetic_is_refused(fn, args):
    """NumPy's dtype differs by which one the data picks (a Python number is weak in NumPy 2's
    promotion): int8 * min(x[0], 3) is int8 44, np2ref's strong int64 gave 300."""
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(*(a.copy() for a in args))
    assert {d.code for d in info.value.diagnostics} == {"NPR128"} or info.value.code == "NPR128"


# -- where only the picked value counts: translated (dtype and value compared) ----------------
def _local_alignment(a, b, gap=-1):
    H = np.zeros((len(a) + 1, len(b) + 1))
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            s = 2 if a[i - 1] == b[j - 1] else -1
            H[i, j] = max(0, H[i - 1, j - 1] + s, H[i - 1, j] + gap, H[i, j - 1] + gap)
    return H


def _value_uses(x, t):
    out = np.zeros(4)
    count = 0
    best = 0
    for v in x:
        best = max(best, v)  # the int 0 or a float, only ever stored
        if min(v, 2) > t:
            count += 1
    out[0] = best
    m = max(x[1], 1)  # bound to a name read only as a value
    out[1] = m
    out[2] = float(min(x[2], -1)) + int(max(x[0], 3))
    out[3] = max(min(x[3], 0), -2)
    return out, count


def _int_store(k, out):
    out[0] = max(k[0], 2.5)  # int32 data: exact in float64, truncated by the int store
    out[1] = min(k[1], 0.5)
    return out


@pytest.mark.parametrize("fn, args", [
    (_local_alignment, (np.array(list(b"GGTTGACTA")), np.array(list(b"TGTTACGG")))),
    (_value_uses, (np.array([-1.5, -2.0, 3.0, 0.5]), 0.75)),
    (_value_uses, (np.array([4.5, 0.5, -7.25, -3.0]), -1.0)),
    (_int_store, (np.array([7, -4], dtype=np.int32), np.zeros(3, dtype=np.int64))),
    (_int_store, (np.array([1, 9], dtype=np.int32), np.zeros(3, dtype=np.float32)))])
def test_max_min_of_an_int_and_a_float_used_only_as_a_value_translates(fn, args):
    want = fn(*(a.copy() if isinstance(a, np.ndarray) else a for a in args))
    got = np2ref.compile(fn, host_below=0)(*(a.copy() if isinstance(a, np.ndarray) else a for a in args))
    for g, w in zip(got if isinstance(want, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
        assert_numpys_bits(np.asarray(g), np.asarray(w))


def _into_dict(x):
    kept = {}
    kept["m"] = max(x[0], 2.5)  # a dict keeps Python's object: the int or the float
    return kept


def _printed(x, out):
    m = max(x[0], 2.5)
    out[0] = m
    print(m)  # 3 or 2.5: the type shows
    return out


def _int64_stored(x, out):
    out[0] = max(x[0], 0.5)  # int64 data: 2**60 + 1 is not a float64
    return out


def test_max_min_of_an_int_and_a_float_refused_where_its_type_or_precision_can_show():
    cases = [(_into_dict, (np.array([3, 1]),)), (_printed, (np.array([3, 1]), np.zeros(2))),
             (_int64_stored, (np.array([2 ** 60 + 1]), np.zeros(1, dtype=np.int64)))]
    for fn, args in cases:
        with pytest.raises(Np2RefError) as info:
            np2ref.compile(fn, host_below=0)(*(a.copy() for a in args))
        assert {d.code for d in info.value.diagnostics} == {"NPR128"} or info.value.code == "NPR128"


def _bool_int_store(x, out):
    out[0] = max(x[0] > 2, x[1])  # a NumPy bool or an int64, stored: its value only
    out[1] = min(x[0] < 0, 0)
    return out


def test_max_min_of_a_bool_and_an_int_stored_translates():
    for x in (np.array([3, -4]), np.array([1, 7])):
        want = _bool_int_store(x.copy(), np.zeros(2, dtype=np.int64))
        got = np2ref.compile(_bool_int_store, host_below=0)(x.copy(), np.zeros(2, dtype=np.int64))
        assert_numpys_bits(got, want)


def _payoff_sum(s, k):
    total = 0.0
    for v in s:
        total += max(0, v - k)  # the int 0 or NumPy's float64: float64 either way
    return total


def _scaled_inline(x, y):
    return y * max(x[0], 2.5), x * min(x[1], 3)  # y float64: float64 whichever; x int64 with an int


@pytest.mark.parametrize("fn, args", [(_payoff_sum, (np.array([90.0, 105.5, 120.25, 99.0]), 100.0)),
                                      (_payoff_sum, (np.array([90.0, 80.0]), 100.0)),
                                      (_scaled_inline, (np.array([1, 7]), np.array([0.5, -2.0])))])
def test_max_min_in_arithmetic_that_promotes_alike_translates(fn, args):
    want = fn(*(a.copy() if isinstance(a, np.ndarray) else a for a in args))
    got = np2ref.compile(fn, host_below=0)(*(a.copy() if isinstance(a, np.ndarray) else a for a in args))
    for g, w in zip(got if isinstance(want, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
        assert_numpys_bits(np.asarray(g), np.asarray(w))


def _time_step(u, t, t_end):
    """Every time-stepping loop's last step: `dt = min(dt, t_end - t)`, an np.float64 and a Python
    float, the result through a name into float64 arithmetic (NumPy's float64 either way)."""
    steps = 0
    F = u[1:] - u[:-1]
    while t < t_end:
        dt = 0.3 / np.max(np.abs(u) + 1.0)
        dt = min(dt, t_end - t)
        u[1:] -= dt * F  # (F float64 beside either: the read is checked there, npr_picked)
        t += dt
        steps += 1
    return t, steps


def _stepped_both_ways(fn, u, *args):
    """fn run by NumPy and by np2ref.compile on copies of `u`, which must agree: (want, got)."""
    want_u, got_u = u.copy(), u.copy()
    want, got = fn(want_u, *args), np2ref.compile(fn, host_below=0)(got_u, *args)
    assert_numpys_bits(got_u, want_u)
    return want, got


def _same_number(got, want):
    assert_numpys_bits(np.float64(got), np.float64(want))  # (a TPU's float64 pair: 1e-13)


def test_a_last_time_step_through_a_name_translates():
    want, got = _stepped_both_ways(_time_step, np.linspace(0.0, 1.0, 16), 0.0, 1.0)
    assert got[1] == want[1]
    _same_number(got[0], want[0])


def _f32_by_capped_name(x, y32):
    m = max(x[0], 0.5)  # x[0] 0.25: the Python float 0.5 -> float32 * 0.5 is float32 in NumPy
    return y32 * m


def _time_step_f32(u, y32, t, t_end):
    dt = 0.3 / np.max(np.abs(u) + 1.0)
    dt = min(dt, t_end - t)
    return y32 * dt


def _time_step_later_operand(u, y32, t, t_end):
    dt = min(np.max(u), t_end - t)
    k = y32  # bound after the pick: the read checks it (npr_picked); before, float64 came back
    return k * dt


@pytest.mark.parametrize("fn, args", [
    (_f32_by_capped_name, (np.array([0.25, 1.0]), np.array([3, 2], dtype=np.float32))),
    (_time_step_f32, (np.linspace(0.0, 1.0, 4), np.array([3, 2], dtype=np.float32), 0.95, 1.0)),
    (_time_step_later_operand, (np.array([0.5, 0.25]), np.array([3, 2], dtype=np.float32), 0.95, 1.0))])
def test_a_pick_through_a_name_into_float32_arithmetic_is_refused(fn, args):
    """NumPy's float32 where the Python float is picked, np2ref's float64 (before: the float64
    stopgap in rt/truth.py let an np.float64 and a Python float through a name translate)."""
    want = fn(*args)
    assert np.asarray(want).dtype == np.float32  # (the data picks the Python float)
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(*args)
    assert {d.code for d in info.value.diagnostics} == {"NPR128"} or info.value.code == "NPR128"


def _time_step_named(u, F, t, t_end):
    dt = 0.3 / np.max(np.abs(u) + 1.0)
    dt = min(dt, t_end - t)
    u -= dt * F
    t += dt
    return t, dt / 2


@pytest.mark.parametrize("t", [0.0, 0.95])  # np.float64 picked; the Python float picked
def test_a_time_step_through_a_name_with_named_operands_gives_numpys_answer(t):
    want, got = _stepped_both_ways(_time_step_named, np.linspace(0.0, 1.0, 5), np.linspace(1.0, 2.0, 5), t, 1.0)
    for g, w in zip(got, want):
        _same_number(g, w)


def _add_capped_into(a, b32):
    a[...] += max(0.1, a.max())  # a float64: float64 either way
    b32[...] += max(0.1, a.max())  # float32 + 0.1 in float32 where NumPy picks the Python float
    return a


def test_a_pick_added_into_an_array_promotes_by_the_arrays_dtype():
    a, b32 = np.arange(4.0) - 5.0, np.arange(3, dtype=np.float32)
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(_add_capped_into, host_below=0)(a.copy(), b32.copy())
    assert {d.code for d in info.value.diagnostics} == {"NPR128"} or info.value.code == "NPR128"
    want_a = a.copy()
    want_a[...] += max(0.1, want_a.max())
    got = np2ref.compile(_add_only, host_below=0)(a.copy())
    assert_numpys_bits(np.asarray(got), want_a)


def _add_only(a):
    a[...] += max(0.1, a.max())
    return a


def _upwind_last_step(u, t, t_end):
    """The last step clipped, then an upwind difference: the arithmetic dt is read in, its array
    expression stood in for by u's dtype (analysis/pick_uses.py): float64 throughout, translated."""
    while t < t_end:
        dt = 0.4 / np.max(np.abs(u) + 1.0)
        dt = min(dt, t_end - t)
        u[1:] -= dt * (u[1:] - u[:-1])
        t += dt
    return t


def test_a_last_time_step_into_an_array_expression_translates():
    want, got = _stepped_both_ways(_upwind_last_step, np.linspace(0.0, 1.0, 16), 0.0, 1.0)
    _same_number(got, want)


# -- round 10: the arithmetic a pick flows into, followed whole --------------------------------
def _upwind_f32_last_step(u32, v, t, t_end):
    dt = 0.4 / np.max(np.abs(v) + 1.0)  # np.float64
    dt = min(dt, t_end - t)  # the Python float on the last step: NumPy's step in float32
    u32[1:] -= dt * (u32[1:] - u32[:-1])
    return u32


def _f32_by_doubled_capped(x, y32):
    return y32 * (2 * max(x[0], 0.5))  # 2 * 0.5 stays a Python float: float32 * 1.0


def _f32_after_a_loop(u, y32, t, t_end):
    dt = min(np.max(u), t_end - t)
    for i in range(2):
        y32[i] = y32[i] * dt  # float32 * 0.05 rounds 0.05 to float32 first; float64 * 0.05 does not
    return y32


_F32_DATA = [(_upwind_f32_last_step, lambda: ((np.random.default_rng(9).random(9).astype(np.float32) * 100),
                                              np.linspace(0.0, 1.0, 4), 0.95, 1.0)),
             (_f32_by_doubled_capped, lambda: (np.array([0.25, 1.0]), np.array([0.1, 3], dtype=np.float32))),
             (_f32_after_a_loop, lambda: (np.array([0.5, 0.25]), np.array([0.1, 3.3], dtype=np.float32), 0.95, 1.0))]


@pytest.mark.parametrize("fn, make", _F32_DATA, ids=[fn.__name__ for fn, _ in _F32_DATA])
def test_a_pick_whose_python_number_reaches_float32_arithmetic_is_refused(fn, make):
    """NumPy computes in float32 where the data picks the Python float; np2ref's float64 fold gave
    float64 (`y32 * (2 * m)`: only `2 * m` was checked) or float32 of other bits (`u32[1:] -= dt *
    (...)`, let through before: rt/truth._NPR_WIDEST_FLOATS; a read behind a loop, not followed)."""
    want = fn(*make())
    assert np.asarray(want).dtype == np.float32
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(*make())
    assert {d.code for d in info.value.diagnostics} == {"NPR128"} or info.value.code == "NPR128"


def _f32_inside_f64(x, y32):
    return x * (y32 * max(x[0], 0.5))  # float64 whichever is picked, but y32 * 0.5 rounds in float32


def test_a_pick_whose_arithmetic_differs_below_the_top_is_refused():
    """Each level of the arithmetic is compared, not only the last: NumPy's float32 product under
    a float64 one differs from np2ref's float64 product in the last bits."""
    x, y32 = np.array([0.25, 1.0]), np.array([0.1, 3.3], dtype=np.float32)
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(_f32_inside_f64, host_below=0)(x, y32)
    assert {d.code for d in info.value.diagnostics} == {"NPR128"} or info.value.code == "NPR128"


def _f64_by_doubled_capped(x, y64):
    return y64 * (2 * max(x[0], 0.5)) - 1.5 * max(x[1], 0.25) / y64  # (a call beside: cut, float64 either way)


def _late_f64_operand(u, y64, t, t_end):
    dt = min(np.max(u), t_end - t)
    k = y64 * 2  # bound after the pick: checked where k * dt runs
    return k * dt


def _euler_like(U, dx, t, t_end):
    dt = 0.3 * dx / np.max(np.abs(U[1]) + 1.0)
    dt = min(dt, t_end - t)
    F = U[:, 1:] * U[:, :-1]  # bound after the pick (corpus euler1d_hll_sod)
    U[:, 1:-1] -= dt / dx * (F[:, 1:] - F[:, :-1])
    return U, t + dt


@pytest.mark.parametrize("fn, args", [
    (_f64_by_doubled_capped, (np.array([0.25, 1.0]), np.array([0.1, 3.0]))),
    (_f64_by_doubled_capped, (np.array([0.75, 0.1]), np.array([0.1, 3.0]))),
    (_late_f64_operand, (np.array([0.5, 0.25]), np.array([0.1, 3.0]), 0.95, 1.0)),
    (_late_f64_operand, (np.array([0.5, 0.25]), np.array([0.1, 3.0]), 0.0, 1.0)),
    (_euler_like, (np.linspace(0.5, 2.0, 12).reshape(2, 6), 0.2, 0.99, 1.0)),
    (_euler_like, (np.linspace(0.5, 2.0, 12).reshape(2, 6), 0.2, 0.0, 1.0))])
def test_arithmetic_a_pick_flows_into_with_one_dtype_translates(fn, args):
    copy = lambda: tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
    want = fn(*copy())
    got = np2ref.compile(fn, host_below=0)(*copy())
    for g, w in zip(got if isinstance(want, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
        assert_numpys_bits(np.asarray(g), np.asarray(w))


def _big_index_stored(x, out):
    for i in range(2 ** 60, 2 ** 60 + 2):
        out[i - 2 ** 60] = max(i + 1, x[0])  # the Python int 2**60 + 1: exact in an int64 store
    return out


def _big_index_compared(x, out):
    for i in range(2 ** 60, 2 ** 60 + 3):
        if max(i, x[0]) > 2 ** 60 + 1:  # Python compares the int exactly
            out[i - 2 ** 60] = 1.0
    return out


def _small_index_stored(x, out):
    for i in range(3):
        out[i] = max(i + 1, x[i])
    return out


def test_a_traced_python_int_beyond_2_53_with_a_float_is_refused_when_it_runs():
    """A loop index is a traced Python int: the fold made it a float64, 2**60 + 1 became 2**60 in
    the int64 store and `> 2**60 + 1` false for 2**60 + 2 (NumPy: [2**60 + 1, 2**60 + 2], and 1.0
    at [2]). Checked when the program runs (NPR128); within 2**53, translated."""
    for fn, out in ((_big_index_stored, np.zeros(2, dtype=np.int64)), (_big_index_compared, np.zeros(3))):
        with pytest.raises(Np2RefError) as info:
            np2ref.compile(fn, host_below=0)(np.array([0.5, 0.25]), out.copy())
        assert {d.code for d in info.value.diagnostics} == {"NPR128"} or info.value.code == "NPR128"
    x = np.array([0.5, 2.5, 7.25])
    want = _small_index_stored(x, np.zeros(3, dtype=np.int64))
    assert_numpys_bits(np2ref.compile(_small_index_stored, host_below=0)(x, np.zeros(3, dtype=np.int64)), want)


def _int64_into_f64(k, a):
    for i in range(k.shape[0]):
        a[i] = max(k[i], 0.5)  # np.int64 or 0.5, stored as float64: the fold's float64(k) is NumPy's store
    return a


def _big_index_into_f64(x, a):
    for i in range(2 ** 60, 2 ** 60 + 2):
        a[i - 2 ** 60] = max(i + 1, x[0])
    return a


def test_an_int_and_a_float_stored_into_an_array_of_the_promoted_float_translates():
    """`into=`: the stores into float64 arrays round the int as the fold does (NumPy compares
    int64 with a float in float64 too): refused before for int64 data (NPR128)."""
    k = np.array([2 ** 60 + 1, -3, 0, 2 ** 53 + 1])
    assert_numpys_bits(np2ref.compile(_int64_into_f64, host_below=0)(k, np.zeros(4)), _int64_into_f64(k, np.zeros(4)))
    x = np.array([0.5, 0.25])
    assert_numpys_bits(np2ref.compile(_big_index_into_f64, host_below=0)(x, np.zeros(2)),
                       _big_index_into_f64(x, np.zeros(2)))


def test_an_int64_and_a_float_stored_into_float32_is_refused():
    """float32 of 2**60 + 2**36 + 1 is 2**60 + 2**37 stored directly, 2**60 through float64."""
    k = np.array([2 ** 60 + 2 ** 36 + 1])
    assert _int64_into_f64(k, np.zeros(1, dtype=np.float32))[0] != np.float32(np.float64(k[0]))
    with pytest.raises(Np2RefError) as info:
        np2ref.compile(_int64_into_f64, host_below=0)(k, np.zeros(1, dtype=np.float32))
    assert {d.code for d in info.value.diagnostics} == {"NPR128"} or info.value.code == "NPR128"


# (`k = 2 * max(x[0], 0.5); y32 * k`, a strict xfail here before: tests/python/test_pick_kinds_through_names.py)


def _grown_step(u, h, hmax):
    t, n = 0.0, 0
    while t < 1.0:
        h = min(h * 1.5, hmax, np.max(u))  # h read in its own pick: `* 1.5` checked beside the pick
        t += h
        n += 1
    return t, n


def test_a_name_read_with_numbers_in_its_own_pick_translates():
    args = (np.array([0.3, 0.2]), 0.01, 0.25)
    want, got = _grown_step(*args), np2ref.compile(_grown_step, host_below=0)(*args)
    _same_number(got[0], want[0])
    assert int(got[1]) == want[1]
