"""`for row in a:` over an array the function writes: the indexed loop it stands for
(frontend/rows.py), where `row` is the view `a[k]` (NPR204 before)."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy


def normalise_rows(a):
    for row in a:
        row /= row.sum()
    return a


def read_after_write(a):
    s = 0.0
    a[0, 0] = 1.0
    for row in a:
        s += row.max()
    return s


def enumerate_rows(a):
    for i, row in enumerate(a):
        row *= i
        row[0] = -i


def one_line(a):
    for row in a: row += 1.0  # noqa: E701


def row_used_after(a):
    for row in a:
        row[:] = row[::-1]
    row[0] = 100.0  # the last row's view, as NumPy leaves it bound
    return row.sum()


def planes_then_rows(t):
    for plane in t:
        for row in plane:
            row -= row.mean()


def stop_at(a, limit):
    for row in a:
        if row.sum() > limit:
            break
        row *= 2.0
    return a


def write_then_read_row(a):
    out = np.zeros(a.shape[0])
    for i, row in enumerate(a):
        a[i, 0] = 5.0  # seen through the view bound before the write
        out[i] = row[0]
    return out


def rebound_row(a):
    for row in a:
        row = row * 2
        row[0] = 1.0  # a new array: a is unchanged
    return a


def empty_leaves_unbound(a):
    found = -1.0
    for row in a:
        row *= 3.0
        found = row[0]
    return found


def enumerate_from(a, first):
    for i, row in enumerate(a, first):
        row += i
    return i


def particles(pos, vel):
    for p, v in zip(pos, vel):
        p += v * 0.5
        v *= 0.9


def zipped_shorter(a, b):
    for r, q in zip(a, b):  # stops at the shorter one
        r -= q[::-1]
        q[0] = r.sum()


def zipped_with_a_list(a):
    weights = [1.0, 2.0, 3.0]
    for row, w in zip(a, weights):
        row *= w


def centre_columns(a):
    for col in a.T:
        col -= col.mean()
    return a


def every_other_row(a, lo):
    for row in a[lo::2]:
        row *= -1.0
    for row in a[1:, ::2]:
        row[0] += row[-1]


CASES = [
    (normalise_rows, ((4, 3),)), (read_after_write, ((4, 3),)), (enumerate_rows, ((4, 3),)),
    (one_line, ((4, 3),)), (row_used_after, ((4, 3),)), (planes_then_rows, ((2, 3, 4),)),
    (stop_at, ((5, 3), 2.0)), (write_then_read_row, ((4, 3),)), (rebound_row, ((4, 3),)),
    (empty_leaves_unbound, ((0, 3),)), (empty_leaves_unbound, ((3, 2),)),
    (enumerate_from, ((3, 2), 1)), (enumerate_from, ((3, 2), -2)), (particles, ((5, 3), (5, 3))),
    (zipped_shorter, ((4, 3), (3, 3))), (centre_columns, ((4, 3),)), (every_other_row, ((5, 4), 1)),
]


@pytest.mark.parametrize("fn, shapes", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_rows_of_a_written_array_match_numpy(fn, shapes):
    rng = np.random.default_rng(0)
    args = [rng.random(s) if isinstance(s, tuple) else s for s in shapes]
    assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), *args)


def test_zip_with_a_sequence_that_is_not_a_written_array_stays_refused():
    with pytest.raises(np2ref.Np2RefError, match="NPR204"):
        np2ref.compile(zipped_with_a_list, host_below=0)


def test_converted_file_reads_as_an_indexed_loop(tmp_path):
    from np2ref.pipeline import convert_source
    text = "def f(a):\n    for row in a:\n        row /= row.sum()\n    return a\n"
    result = convert_source(text, "rows.py")
    assert result.ok and not any(d.code == "NPR204" for d in result.diagnostics)
    assert "range(len(" in result.body
