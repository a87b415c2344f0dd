"""Windows `x[m * i + c:m * i + c + w]` in loops made lanes (rt/bounds.py `_npr_affine_range`,
rt/lane_reads.py `_npr_lane_window`), indices proved never negative read without a wrap
(bounds.py `_npr_nonnegative`), and the store-ordering selects off on a TPU (rt/store_order.py
`_npr_ordering`), from issue 38 item 4 (docs/benchmarks.md, "chip7").

A window whose start is the loop variable times a literal (the CNN's `x[:, 2 * i:2 * i + 2]`)
was not proved inside its axis: it was read clamped and masked, its max checked for an empty
window in every lane. Proved, each lane's window is read as strided static slices of the array,
not a gather (a TPU's gathers are slow). A read moves no arithmetic: NumPy's bits."""

from __future__ import annotations

import warnings

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program
from np2ref.rt import bounds, index, lane_reads, lowering, store_order, windows

P = program("lane_windows")
RNG = np.random.default_rng(7)

CASES = {
    "max_pool2": [(RNG.standard_normal((3, 8, 6)),), (RNG.standard_normal((2, 9, 7)),)],
    "strided_sums": [(RNG.standard_normal(16),), (RNG.standard_normal(14),)],
    "rows_min": [(RNG.standard_normal((9, 4)),)],
    "overhanging_sums": [(RNG.standard_normal(10),)],
}


def _hlo(fn, *args):
    with jax.enable_x64(True):
        return jax.jit(np2ref.compile(fn).pure).lower(*[jax.numpy.asarray(a) for a in args]).compile().as_text()


@pytest.mark.parametrize("name", sorted(CASES))
def test_windows_of_a_multiple_of_the_loop_variable_are_numpys(name):
    fn = getattr(P, name)
    compiled = np2ref.compile(fn, host_below=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        for args in CASES[name]:
            assert_same_as_numpy(fn, compiled, *args)


@pytest.mark.parametrize("name", ["max_pool2", "strided_sums", "rows_min"])
def test_full_windows_in_lanes_are_slices_not_gathers(name):
    text = _hlo(getattr(P, name), *CASES[name][0])
    assert " gather(" not in text and " while(" not in text


def test_the_gather_is_kept_when_switched_off():
    """The switch benchmarks/tpu_chip7.py measures: off, the same program reads by a gather."""
    lane_reads._npr_LANE_WINDOWS["slices"] = False
    try:
        text = _hlo(P.max_pool2, *CASES["max_pool2"][0])
    finally:
        lane_reads._npr_LANE_WINDOWS["slices"] = True
    assert " gather(" in text


def test_the_pool_is_not_masked(monkeypatch):
    """Proved full, the pooling window needs no mask: fewer selects than the masked read has."""
    x = jax.numpy.asarray(CASES["max_pool2"][0][0])

    def selects():
        with jax.enable_x64(True):
            return str(jax.make_jaxpr(np2ref.compile(P.max_pool2).pure)(x)).count("select_n")
    proved = selects()
    monkeypatch.setattr(windows, "_npr_affine_range", bounds._npr_known_range)  # the loop variable only
    assert proved < selects()


def test_ordering_selects_follow_the_device(monkeypatch):
    monkeypatch.setitem(lowering._npr_LOWERING, "order", None)
    assert store_order._npr_ordering() is (jax.default_backend() != "tpu")
    monkeypatch.setattr(store_order.jax, "default_backend", lambda: "tpu")
    assert store_order._npr_ordering() is False
    monkeypatch.setitem(lowering._npr_LOWERING, "order", True)
    assert store_order._npr_ordering() is True
    monkeypatch.setitem(lowering._npr_LOWERING, "peepholes", False)
    assert store_order._npr_ordering() is False


@pytest.mark.parametrize("order", [True, False])
def test_sweeps_without_ordering_selects_are_numpys(order, monkeypatch):
    """Off (a TPU's default), the loop stores no element back through an always-false select
    on the trip number: no `> inf` compare in the program, and NumPy's bits either way."""
    monkeypatch.setitem(lowering._npr_LOWERING, "order", order)
    cur, rhs = RNG.standard_normal((12, 10)), RNG.standard_normal((12, 10))
    assert_same_as_numpy(P.sweeps, np2ref.compile(P.sweeps), cur, rhs, 7)
    with jax.enable_x64(True):
        text = jax.jit(np2ref.compile(P.sweeps).pure, static_argnums=2).lower(
            jax.numpy.asarray(cur), jax.numpy.asarray(rhs), 7).as_text()
    assert ("dense<0x7F800000>" in text) is order  # the select's `float32(k) > inf`


def _selects(fn, *args):
    with jax.enable_x64(True):
        text = jax.jit(np2ref.compile(fn).pure).lower(*[jax.numpy.asarray(a) for a in args]).compile().as_text()
    assert " while(" in text
    return text.count(" select(")


def test_indices_never_negative_need_no_wrap(monkeypatch):
    """`y[n - 1]` for n in range(2, N): proved non-negative (bounds._npr_nonnegative), read and
    stored without `n - 1 < 0 ? n - 1 + N : n - 1`; NumPy's bits, and fewer selects a trip."""
    x, y = RNG.standard_normal(300), np.zeros(300)
    assert_same_as_numpy(P.recurrence, np2ref.compile(P.recurrence), x, y, 0.5, 0.25)
    proved = _selects(P.recurrence, x, y, 0.5, 0.25)
    monkeypatch.setattr(bounds, "_npr_nonnegative", lambda e: False)
    monkeypatch.setattr(index, "_npr_nonnegative", lambda e: False)
    assert proved < _selects(P.recurrence, x, y, 0.5, 0.25)


def test_indices_that_go_negative_still_wrap():
    x, y = RNG.standard_normal(40), RNG.standard_normal(40)
    assert_same_as_numpy(P.wrapping, np2ref.compile(P.wrapping), x, y)
