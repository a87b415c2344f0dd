"""The translator's mark on an element read that feeds a store into the same array
(`A[i, i] = np.sqrt(A[i, i])` -> `npr_get(A, feeds_store=True)[i, i]`, rewrite/rules/store_reads.py):
the runtime takes such a read from the value just stored, any other from the array
(rt/views.py `_npr_element_read`), with no look at the converted code's bytecode. Both reads are
the same value (differential, bit for bit); the mark decides whether XLA:CPU copies the array a
trip (the loop body's HLO is counted, as benchmarks/seq_loops.py counts it)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, load_module

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from seq_loops import copies  # noqa: E402

SOURCE = '''
import numpy as np


def ternary(u, w):
    for n in range(1, u.shape[0]):
        u[n] = w * u[n] + (1.0 - w) * u[n - 1]
        u[n] = u[n] * u[n] if u[n] < 0.5 else u[n]
    return u


def walrus(x, y):
    for n in range(1, x.shape[0]):
        y[n] = x[n] - 0.5 * y[n - 1] * y[n - 1]
        y[n] = (t := np.sqrt(np.abs(y[n])))
    return y


def pair(x, y, z):
    for n in range(1, x.shape[0]):
        y[n] = x[n] - 0.5 * y[n - 1] * y[n - 1]
        y[n], z[n] = np.sqrt(np.abs(y[n])), 1.0
    return y


def others(x, y, z):
    e = 0.0
    for n in range(1, x.shape[0]):
        y[n] = x[n] - 0.5 * y[n - 1]
        e += y[n] * y[n]
        z[n] = y[n] + e
        y[n] /= y[n - 1] + 2.0
        s = y[n] = y[n - 1] * 0.5
        z[n] = sum([y[n] for _ in range(2)])
    return e
'''


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("store_reads"), "store_reads")


def _lines(source: str, needle: str) -> list[str]:
    return [line.strip() for line in source.splitlines() if needle in line]


def test_the_mark_is_on_reads_that_feed_a_store_into_their_own_array():
    body = np2ref.convert_source(SOURCE, "store_reads.py").body
    assert _lines(body, "npr_at(u)[n] = npr_ifexp")[0] == (
        "npr_at(u)[n] = npr_ifexp(npr_get(u)[n] < 0.5, lambda: npr_get(u, feeds_store=True)[n] * "
        "npr_get(u, feeds_store=True)[n], lambda: npr_get(u, feeds_store=True)[n])")
    assert "npr_np_sqrt(npr_np_abs(npr_get(y, feeds_store=True)[n]))" in _lines(body, "(t :=")[0]
    assert _lines(body, "npr_at(z)[n] = npr_np_sqrt")[0].endswith(
        "npr_np_sqrt(npr_np_abs(npr_get(y, feeds_store=True)[n])), 1.0")


def test_no_mark_on_other_reads():
    """An accumulator, another array's store, an `op=`, several targets, a comprehension."""
    body = np2ref.convert_source(SOURCE, "store_reads.py").body
    others = body[body.index("def others"):]
    assert "feeds_store" not in others.replace("npr_at(y)[n] = npr_get(x)[n] - 0.5 * npr_get(y, feeds_store=True)[n - 1]", "")


@pytest.mark.parametrize("name, args", [
    ("ternary", lambda u: (u, 0.3)),
    ("walrus", lambda u: (u, np.zeros(u.size))),
    ("pair", lambda u: (u, np.zeros(u.size), np.zeros(u.size))),
])
def test_a_marked_read_is_numpys_and_copies_nothing_per_trip(programs, name, args):
    """Main, reading the bytecode, missed the ternary's arms and the walrus (2 copies of the
    array a trip each): marked, they copy nothing."""
    u = np.random.default_rng(4).random(300)
    want_args, got_args = args(u.copy()), args(u.copy())
    fn = getattr(programs, name)
    want = fn(*want_args)
    compiled = np2ref.compile(fn, host_below=0, bitwise=True)
    assert_numpys_bits(np.asarray(compiled(*got_args)), np.asarray(want))
    for got, expected in zip(got_args, want_args):
        assert_numpys_bits(np.asarray(got), np.asarray(expected))
    assert copies(compiled.lower(*args(u)).compile().as_text(), f"f64[{u.size}]") == 0


def test_unmarked_reads_are_numpys(programs):
    x = np.random.default_rng(6).random(200)
    want_y, want_z, got_y, got_z = (np.zeros(200) for _ in range(4))
    want = programs.others(x, want_y, want_z)
    got = np2ref.compile(programs.others, host_below=0)(x, got_y, got_z)
    assert_numpys_bits(np.asarray(got), np.asarray(want))
    assert_numpys_bits(got_y, want_y)
    assert_numpys_bits(got_z, want_z)
