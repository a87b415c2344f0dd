"""Recurrences through an array (rewrite/recurrences.py, rt/recur.py; issues 38 and 39): a read
`y[i - d]` of what the store `y[i] = ...` of the trip d before put is carried from that store,
not gathered back from the array. Differential (results and every mutated argument, bit for bit,
dtypes included), and the mechanism: the loop body's jaxpr reads nothing back from the array
(main read `y[n - 1]`, `y[n - 2]` with a dynamic slice each trip). Refused forms keep the reads."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, load_module
from np2ref.rt import recur

SOURCE = '''
import numpy as np


def two_back(y, c):
    for n in range(2, y.shape[0]):
        y[n] = 0.5 * y[n - 1] - 0.25 * y[n - 2] + c
    return y


def biquad(x, y, energy, b0, b1, a1, a2):
    e = 0.0
    for n in range(2, x.shape[0]):
        y[n] = b0 * x[n] + b1 * x[n - 1] - a1 * y[n - 1] - a2 * y[n - 2]
        e += y[n] * y[n]
        energy[n] = e
    return e


def sweep(lo, diag, up, rhs, x):
    size = rhs.shape[0]
    for k in range(1, size):
        r = 1.0 / diag[k - 1]
        w = lo[k] * r
        rhs[k] -= w * rhs[k - 1]
        diag[k] -= w * up[k - 1]
    x[size - 1] = rhs[size - 1] / diag[size - 1]
    for k in range(size - 2, -1, -1):
        x[k] = rhs[k] - up[k] * x[k + 1]
    return x


def sweep_rows(work, x):
    return sweep(work[0], work[1], work[2], work[3], x)


def sweep_same(lo, diag, up, x):
    return sweep(lo, diag, up, diag, x)  # rhs is diag: its stores change diag


def sweep_overlap(lo, diag, up, x):
    return sweep(lo, diag[:-1], up[:-1], diag[1:], x[:-1])  # rhs overlaps diag, one element on


def int_growth(y, x):
    for n in range(1, y.shape[0]):
        y[n] = y[n - 1] * 1.5 + x[n]
    return y


def narrow(y, x):
    for n in range(3, y.shape[0]):
        y[n] = y[n - 3] + x[n] * 0.1
    return y


def wraps(y):
    for n in range(y.shape[0]):
        y[n] = y[n - 1] + 1.0
    return y


def short(y, k):
    for n in range(2, k):
        y[n] = y[n - 1] + y[n - 2]
    return y


def past_end(y):
    for n in range(1, y.shape[0] + 1):
        y[n] = y[n - 1] + 1.0
    return y


def through_view(y):
    v = y[1:]
    for n in range(1, y.shape[0] - 1):
        y[n] = y[n - 1] + 1.0
        v[n] = 2.0 * v[n]
    return y


def through_row(y, work):
    for n in range(1, y.shape[0]):
        row = work[1]  # bound by the trip: npr_recur cannot name it before the loop
        y[n] = y[n - 1] * 0.5 + 1.0
        row[n] = y[n]
    return y


def helper(y, n):
    y[n] = 0.0


def through_call(y):
    for n in range(1, y.shape[0] - 1):
        y[n] = y[n - 1] + 1.0
        helper(y, n + 1)
    return y


def guarded(y, x):
    for n in range(1, y.shape[0]):
        if x[n] > 0:
            y[n] = y[n - 1] + x[n]
    return y
'''


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("forwarding"), "forwarding")


def _same(fn, *args):
    """fn's translation on copies of args against NumPy's: result and every argument, bit for bit."""
    want_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    got_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    want = fn(*want_args)
    got = np2ref.compile(fn, host_below=0, bitwise=True)(*got_args)  # (no contracted `d - c * x`)
    assert_numpys_bits(np.asarray(got), np.asarray(want))
    for g, w in zip(got_args, want_args):
        if isinstance(w, np.ndarray):
            assert_numpys_bits(g, w)


def _carried(fn) -> bool:
    return "npr_recur(" in np2ref.compile(fn).source


RNG = np.random.default_rng(7)


def test_two_elements_back_are_carried_and_numpys(m):
    y = RNG.standard_normal(300)
    _same(m.two_back, y, 0.3)
    assert _carried(m.two_back)


def _loop_body_ops(fn, *args) -> list[str]:
    """The primitives of the body of the one lax loop (scan or while) in fn's translation."""
    with jax.enable_x64(True):
        closed = jax.make_jaxpr(np2ref.compile(fn, host_below=0).pure)(*args)
    loops = [e for e in closed.jaxpr.eqns if e.primitive.name in ("scan", "while")]
    assert len(loops) == 1, closed
    body = loops[0].params.get("jaxpr") or loops[0].params["body_jaxpr"]
    return [e.primitive.name for e in body.jaxpr.eqns]


def test_the_loop_body_reads_nothing_back_from_the_array(m):
    """main's body gathered y[n - 1] and y[n - 2] from y each trip (two dynamic slices). On a TPU
    only 64-bit arrays are carried (rt/recur.py _npr_recur_on): y here is float64, carried there too."""
    with jax.enable_x64(True):
        y = jnp.asarray(RNG.standard_normal(64))
    ops = _loop_body_ops(m.two_back, y, 0.3)
    assert "swap" in ops and "dynamic_update_slice" in ops, ops  # (the store stays)
    carried = "dynamic_slice" not in ops and "gather" not in ops
    assert carried, ops


def test_the_carry_switched_off_reads_back(m, monkeypatch):
    monkeypatch.setattr(recur, "_npr_RECUR", {"on": False})
    with jax.enable_x64(True):
        y = jnp.asarray(RNG.standard_normal(64))
    assert "dynamic_slice" in _loop_body_ops(m.two_back, y, 0.3)  # (read back, as a TPU does for 32-bit arrays)
    _same(m.two_back, RNG.standard_normal(300), 0.3)


def test_a_filter_with_a_read_after_its_store(m):
    x = RNG.standard_normal(500)
    _same(m.biquad, x, np.zeros(500), np.zeros(500), 0.02, 0.04, -1.56, 0.64)
    assert _carried(m.biquad)


def test_op_assign_stores_and_a_descending_loop(m):
    n = 40
    a, c, d = RNG.random(n), RNG.random(n), RNG.random(n)
    b = RNG.random(n) + 3.0
    _same(m.sweep, a, b, c, d, np.zeros(n))
    assert np2ref.compile(m.sweep).source.count("npr_recur(") == 3  # diag and rhs forward, x backward


def test_rows_of_one_array_passed_as_the_arrays(m):
    """The arrays are rows of `work` (thomas_tridiag's form): views, given to the loop's body as
    Refs of their own (rt/loops.py _npr_split_views); the carried values follow them."""
    work = RNG.random((4, 30))
    work[1] += 3.0
    _same(m.sweep_rows, work, np.zeros(30))


@pytest.mark.parametrize("name", ["sweep_same", "sweep_overlap"])
def test_one_array_passed_as_two_parameters(m, name):
    """The proof on the source takes the parameters apart; the caller passed one buffer twice (or
    overlapping views): npr_recur sees the other written array share y's elements and carries
    nothing (carried, diag's read `diag[k - 1]` missed rhs's store into the same element)."""
    lo, up, diag = RNG.random(25), RNG.random(25), RNG.random(25) + 3.0
    _same(getattr(m, name), lo, diag, up, np.zeros(25))


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8])
def test_the_carried_value_is_cast_as_the_array_holds_it(m, dtype):
    """int: `y[n - 1] * 1.5 + x[n]` is a float the store truncates; the next trip reads the int."""
    y = np.zeros(30, dtype)
    y[0] = 3
    _same(m.int_growth, y, RNG.random(30) * 4)


def test_float32_array_float64_values(m):
    y = RNG.standard_normal(50).astype(np.float32)
    _same(m.narrow, y, RNG.standard_normal(50))
    assert _carried(m.narrow)


def test_a_read_that_wraps_stays_a_read(m):
    """`y[n - 1]` at n = 0 is y[-1], the last element: not a stored one; NumPy's answer."""
    _same(m.wraps, RNG.standard_normal(20))


@pytest.mark.parametrize("k", [0, 1, 2, 3, 9])
def test_few_or_no_trips_on_a_short_array(m, k):
    """range(2, k) over y of length 2: the first trip's reads would be y[1], y[0]; with no trip
    nothing is read (no IndexError from the carried values)."""
    y = RNG.standard_normal(max(k, 2))
    _same(m.short, y, k)


def test_an_index_past_the_end_raises_numpys_error(m):
    y = RNG.standard_normal(6)
    with pytest.raises(IndexError):
        m.past_end(y.copy())
    with pytest.raises(IndexError):
        np2ref.compile(m.past_end, host_below=0)(y.copy())


@pytest.mark.parametrize("name", ["through_view", "through_call", "guarded", "through_row"])
def test_another_write_that_may_reach_the_array_keeps_the_reads(m, name):
    fn = getattr(m, name)
    args = {"through_view": (RNG.standard_normal(12),), "through_call": (RNG.standard_normal(12),),
            "guarded": (RNG.standard_normal(12), RNG.standard_normal(12)),
            "through_row": (RNG.standard_normal(12), RNG.standard_normal((3, 12)))}[name]
    assert not _carried(fn)
    _same(fn, *args)
