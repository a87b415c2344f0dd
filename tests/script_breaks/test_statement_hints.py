"""Trace-time refusals whose hint is the exact rewrite, read from the statement's form
(compiled/statement_hints.py): NPR030 at `sum(1 for s in sizes if s > 0)` after a loop whose
items are data, NPR031 at `hists.append(hist.tolist())` in a compiled loop. On main both hints were
generic ("use np.where(cond, a, b)", "make it a Python int argument"). Each rewrite the hint gives
is run against the original NumPy program: the same results, arguments and printed text."""

import contextlib
import io

import numpy as np
import pytest

import np2ref
from exactly import run_both


def avalanche_counts(grid, drops):
    sizes = []
    for d in range(drops):
        grid[d % grid.shape[0]] += 2
        sizes.append(int((grid >= 3).sum()))
        grid[grid >= 3] -= 3
    print("avalanches", sum(1 for s in sizes if s > 0), "largest", max(sizes))
    return sizes


def avalanche_counts_hinted(grid, drops):
    sizes = []
    for d in range(drops):
        grid[d % grid.shape[0]] += 2
        sizes.append(int((grid >= 3).sum()))
        grid[grid >= 3] -= 3
    print("avalanches", int(np.count_nonzero([s > 0 for s in sizes])), "largest", max(sizes))
    return sizes


def histograms(frame, passes):
    hists = []
    for p in range(passes):
        frame[...] = (frame * 5 + 3) % 97
        hist = np.bincount(frame.ravel() // 16, minlength=7)
        hists.append(hist.tolist())
        print(p, hists[-1])
    return hists


def histograms_hinted(frame, passes):
    hists = []
    for p in range(passes):
        frame[...] = (frame * 5 + 3) % 97
        hist = np.bincount(frame.ravel() // 16, minlength=7)
        hists.append(hist)
        print(p, hist.tolist())
    return hists


def _refusal(fn, *args):
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(*args)
    (d,) = info.value.diagnostics
    return d


def test_a_filtered_count_gets_the_count_as_its_hint():
    d = _refusal(avalanche_counts, np.arange(4) % 3, 5)
    assert d.code == "NPR030"
    assert "`int(np.count_nonzero([s > 0 for s in sizes]))` for `sum(1 for s in sizes if s > 0)`" in d.hint


@pytest.mark.parametrize("drops", [1, 6])
def test_the_count_hinted_is_numpys(drops):
    grid = np.array([2, 0, 1, 2])
    want = run_both(avalanche_counts_hinted, grid, drops)
    # the hinted program prints what the original does
    with contextlib.redirect_stdout(io.StringIO()) as original:
        avalanche_counts(grid.copy(), drops)
    assert want == original.getvalue()


def test_an_appended_tolist_gets_the_array_appended_as_its_hint():
    d = _refusal(histograms, np.arange(12).reshape(3, 4), 3)
    assert d.code == "NPR031"
    assert "`hists.append(hist)`" in d.hint and "`[row.tolist() for row in hists]`" in d.hint


def test_the_arrays_appended_give_numpys_lists_and_text():
    frame = np.arange(12).reshape(3, 4)
    with contextlib.redirect_stdout(io.StringIO()) as original:
        want = histograms(frame.copy(), 3)
    compiled = np2ref.compile(histograms_hinted, host_below=0, bitwise=True)
    printed = run_both(histograms_hinted, frame, 3, compiled=compiled)
    assert printed == original.getvalue()
    assert [row.tolist() for row in compiled(frame.copy(), 3)] == want
