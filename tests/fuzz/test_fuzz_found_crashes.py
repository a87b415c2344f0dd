"""Crashes inside np2ref that `np2ref fuzz` found in the families of host_families.py and
flow_families.py (docs/fuzzing.md), each against NumPy: results, written arguments, dtypes and
generator states.

- rewrite/rules/loop_draws.py read `.star` of a tuple's items (`np.random.random((5,))`, `rng.normal(0.0,
  1.0, (3,))` in a loop: a size written as a tuple literal), which libcst's Element does not have
  (AttributeError at compile time; found by `--family draw_loop`).
- rt/opaque.py's first call notes what every Python function f calls returns; NumPy's dispatchers
  (`np.dot`'s returns `(a, b, out)`) gave a ragged tuple, and np.asarray of it raised ValueError
  (found by `--family opaque_obj`: `y = y + np.dot(...)` beside `obj.noise(...)`).
"""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import load_module

SOURCE = '''
import numpy as np


class Probe:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.calls = 0

    def noise(self, n):
        self.calls += 1
        return np.round(self.rng.standard_normal(n) * 4.0) / 4.0


def tuple_sized_draws(x, n, rng):
    for k in range(n):
        x += rng.normal(0.0, 1.0, (3,))
        x[:2] -= np.random.random((2,))
    return x


def rows_redrawn(a):
    for r in a:
        a[...] = np.random.random((5,))


def dot_beside_an_object(a, b, obj):
    y = np.zeros((1, 3))
    for i in range(2):
        y = y + np.dot(a[:, i:i + 1], b)
    return y + obj.noise(y.shape[-1])
'''


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("fuzz_found"))


def _same(got, want):
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


def test_draws_sized_by_a_tuple_literal_in_a_loop(module):
    compiled = np2ref.compile(module.tuple_sized_draws)
    for n in (0, 3):
        theirs, ours = [np.zeros(3), n, np.random.default_rng(5)], [np.zeros(3), n, np.random.default_rng(5)]
        np.random.seed(7)
        want = module.tuple_sized_draws(*theirs)
        after_numpy = np.random.random()
        np.random.seed(7)
        got = compiled(*ours)
        _same(got, want)
        _same(ours[0], theirs[0])
        assert ours[2].bit_generator.state == theirs[2].bit_generator.state
        assert np.random.random() == after_numpy


def test_a_written_array_redrawn_for_each_of_its_rows(module):
    compiled = np2ref.compile(module.rows_redrawn)
    theirs, ours = np.array([5, 127, 0, 9, -128], dtype=np.int8), np.array([5, 127, 0, 9, -128], dtype=np.int8)
    np.random.seed(3)
    want = module.rows_redrawn(theirs)
    np.random.seed(3)
    got = compiled(ours)
    assert got is None and want is None
    _same(ours, theirs)


def test_numpys_dispatchers_in_the_first_call_of_an_object_method(module):
    compiled = np2ref.compile(module.dot_beside_an_object, host_below=0)
    a, b = np.array([[0.5, -1.0]]), np.array([[1.0, 2.0, -0.5]])
    for _ in range(3):  # the first call is NumPy's own, noting what the method returns; then compiled
        theirs, ours = module.Probe(0), module.Probe(0)
        want, got = module.dot_beside_an_object(a, b, theirs), compiled(a, b, ours)
        _same(got, want)
        assert (ours.calls, ours.rng.bit_generator.state) == (theirs.calls, theirs.rng.bit_generator.state)
