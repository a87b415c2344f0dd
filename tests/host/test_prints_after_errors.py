"""Prints after a failed run-time check: NumPy stopped at the failing statement and printed
nothing after it; the compiled program runs on to its end, and each print staged after a check
takes the check record's flag and is not made once a check has failed (rt/introspect.py npr_print,
rt/host.py _npr_unless_failed). A print before the check in the failing trip still appears.
Differential on the captured stdout, for an index check, an assert, a `raise` and Python's
ZeroDivisionError, in a `for` loop (its failing trip first, middle, last), nested loops, a
helper, a `while` loop on data and a loop whose draws are made in advance."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from conftest import program

P = program("prints_after_errors")


CASES = {
    "indexed": (P.indexed, [lambda k: (np.arange(6.0), 6, np.int64(k))], (6, 4, 1, 0)),
    "asserted": (P.asserted, [lambda t: (np.arange(6.0), 6, np.float64(t))], (0.5, 3.0, 5.5, 9.0)),
    "raised": (P.raised, [lambda t: (np.arange(6.0), 6, np.float64(t))], (0.0, 2.0, 5.0, 9.0)),
    "divided": (P.divided, [lambda n: (np.arange(6.0), n)], (5, 3, 2)),
    "nested": (P.nested, [lambda k: (np.arange(8.0), 6, np.int64(k))], (8, 3, 1, 0)),
    "through_a_helper": (P.through_a_helper, [lambda k: (np.arange(6.0), 6, np.int64(k))], (6, 3, 0)),
    "while_data": (P.while_data, [lambda k: (np.arange(1.0, 7.0), np.int64(k))], (4, 1)),
    "drawn_in_advance": (P.drawn_in_advance, [lambda k: (np.arange(6.0), 6, np.random.default_rng(3), np.int64(k))],
                         (6, 3, 0)),
}


@functools.cache
def _compiled(name):
    return np2ref.compile(CASES[name][0], host_below=0)


def _printed(fn, args, capsys):
    try:
        fn(*args)
        error = None
    except Exception as exc:  # noqa: BLE001 (compared with NumPy's)
        error = (type(exc), str(exc))
    return capsys.readouterr().out, error


@pytest.mark.parametrize("name, value", [(n, v) for n, (_, _, values) in CASES.items() for v in values])
def test_printed_as_numpy_printed_before_its_error(name, value, capsys):
    fn, (make,), _ = CASES[name]
    want = _printed(fn, make(value), capsys)
    got = _printed(_compiled(name), make(value), capsys)
    assert got == want


def test_the_advance_loop_keeps_its_draws_in_advance():
    assert "npr_draws(" in _compiled("drawn_in_advance").source
