"""A scalar recurrence that stores an element and reads it back in the same trip (`y[n] = ...`
then `e += y[n] * y[n]`, iir_filter's biquad) updates its array in place: the read comes from the
array after the store. When the read was the stored value itself, XLA computed that value twice
(in the store's fusion and in the reader's, which reads the array the store updates) and copied
the whole array every trip: 1.6 s for NumPy's 12 ms at 20,000 samples (run.py's iir_filter, size
S, since the third session's element forwarding). Differential, and the loop body's HLO holds no
copy of the array (benchmarks/seq_loops.py counts them the same way). A read that feeds a store
of the same array (`y[n] = ...; y[n] = np.sqrt(y[n])`, Cholesky's diagonal) is the stored value:
the second store is then made over the array the first was made over."""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, load_module

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from seq_loops import copies  # noqa: E402

SOURCE = '''
import numpy as np


def biquad(x, y, energy, b0, b1, b2, a1, a2):
    N = x.shape[0]
    y[0] = b0 * x[0]
    y[1] = b0 * x[1] + b1 * x[0] - a1 * y[0]
    e = y[0] * y[0] + y[1] * y[1]
    for n in range(2, N):
        y[n] = b0 * x[n] + b1 * x[n - 1] + b2 * x[n - 2] - a1 * y[n - 1] - a2 * y[n - 2]
        e += y[n] * y[n]
        energy[n] = e
    return e


def settle(x, y):
    for n in range(1, x.shape[0]):
        y[n] = x[n] - 0.5 * y[n - 1] * y[n - 1]
        y[n] = np.sqrt(np.abs(y[n]))
    return y


def smooth(u, w):
    for n in range(1, u.shape[0]):
        u[n] = w * u[n] + (1.0 - w) * u[n - 1]
        u[n] = u[n] * u[n] if u[n] < 0.5 else u[n]
    return u
'''


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("recurrences"), "recurrences")


def _inputs(n=600):
    rng = np.random.default_rng(3)
    return rng.standard_normal(n), np.zeros(n), np.zeros(n)


def test_a_recurrence_read_back_is_numpys_and_copies_nothing_per_trip(programs):
    coeffs = (0.02, 0.04, 0.02, -1.56, 0.64)
    x, y, energy = _inputs()
    want_y, want_e = y.copy(), energy.copy()
    want = programs.biquad(x.copy(), want_y, want_e, *coeffs)
    compiled = np2ref.compile(programs.biquad, host_below=0)
    got = compiled(x.copy(), y, energy, *coeffs)
    assert_numpys_bits(np.asarray(got), np.asarray(want))
    assert_numpys_bits(y, want_y)
    assert_numpys_bits(energy, want_e)
    hlo = compiled.lower(x, y, energy, *coeffs).compile().as_text()
    assert copies(hlo, f"f64[{x.size}]") == 0


def test_an_element_stored_twice_in_a_trip_is_read_back_as_stored(programs):
    u = np.random.default_rng(4).random(300)
    want = programs.smooth(u.copy(), 0.3)
    assert_numpys_bits(np2ref.compile(programs.smooth, host_below=0)(u.copy(), 0.3), want)


def test_a_read_into_a_store_of_the_same_element_copies_nothing(programs):
    """`y[n] = ...; y[n] = np.sqrt(np.abs(y[n]))`: the read feeds a store of the same array, so
    it is the stored value and the second store is made over the array the first was made over
    (Cholesky's `A[i, i] = np.sqrt(A[i, i])`). Read back from the array, XLA copied y twice a
    trip (225fcb7)."""
    x = np.random.default_rng(5).random(500)
    y, want_y = np.zeros(500), np.zeros(500)
    want = programs.settle(x.copy(), want_y)
    compiled = np2ref.compile(programs.settle, host_below=0, bitwise=True)  # (no contracted x - a * b)
    assert_numpys_bits(np.asarray(compiled(x.copy(), y)), want)
    assert_numpys_bits(y, want_y)
    assert copies(compiled.lower(x, y).compile().as_text(), f"f64[{x.size}]") == 0


def test_a_tpu_carries_64_bit_recurrences_and_reads_32_bit_ones_back(monkeypatch):
    """The device decides (rt/recur.py, tpu_carry8.py on the chip): a TPU's lax loop reads a
    float32 element back faster than it carries one, and a float64 (a pair of words there) slower."""
    from np2ref.rt import recur

    assert recur._npr_RECUR["on"] is None
    monkeypatch.setattr(recur.jax, "default_backend", lambda: "tpu")
    assert not recur._npr_recur_on(np.float32) and not recur._npr_recur_on(np.int32)
    assert recur._npr_recur_on(np.float64) and recur._npr_recur_on(np.int64)
    monkeypatch.setattr(recur.jax, "default_backend", lambda: "cpu")
    assert recur._npr_recur_on(np.float32) and recur._npr_recur_on(np.float64)
    monkeypatch.setitem(recur._npr_RECUR, "on", False)
    assert not recur._npr_recur_on(np.float64)
