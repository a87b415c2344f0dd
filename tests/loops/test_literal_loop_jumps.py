"""A `continue` or `break` on array data in a `for` over a tuple or list display (`for di in
(-1, 0, 1):`, the neighbour offsets of a cell grid): the desugaring into flags (frontend/jumps.py)
passed over loops whose iterable was not a name, a subscript or range/enumerate/..., so a display
kept its jump and the traced condition before it was refused NPR030, while the same loop over
`range(-1, 2)` translated. A display is finite: its jumps become flags as any other loop's; so is
an array a draw or NumPy makes (`for j in rng.permutation(n)`, `for j in np.arange(n)`).
Found by tests/third_party/scripts11/dem_contact_grid.py. Compared against NumPy: results, their
types, the arguments after the call."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_returns_as_numpy

NC = 4


def neighbour_sum(cells, y):
    s = 0.0
    for a in range(cells.shape[0]):
        ci = int(cells[a]) // NC
        for di in (-1, 0, 1):
            ni = ci + di
            if ni < 0 or ni >= NC:
                continue
            s += y[ni]
    return s


def occupied(cells, counts):
    out = np.zeros(cells.shape[0], dtype=np.int64)
    for a in range(cells.shape[0]):
        ci, cj = divmod(int(cells[a]), NC)
        for di, dj in [(-1, 0), (1, 0), (0, -1), (0, 1)]:
            ni, nj = ci + di, cj + dj
            if ni < 0 or nj < 0 or ni >= NC or nj >= NC:
                continue
            if counts[ni * NC + nj] > 0:
                out[a] += 1
    return out


def first_scale(x, limit, picked):
    for s in (0.5, 1.0, 2.0, 4.0):
        if (x * s).sum() > limit:
            picked[0] = s
            break
        x *= 1.5
    else:
        picked[0] = -1.0


def first_scale_returned(x, limit):
    picked = 0.0
    for s in (0.5, 1.0, 2.0, 4.0):
        if (x * s).sum() > limit:
            picked = s
            break
    return picked


def random_order_moves(grid):
    """A cellular automaton's update in a drawn order: `for j in np.random.permutation(...)` with a
    `continue` on the cell's state (the loop was left with its jump: NPR030)."""
    moved = 0
    for j in np.random.permutation(np.arange(1, grid.shape[0] - 1)):
        if grid[j] == 0 or grid[j + 1] != 0:
            continue
        grid[j], grid[j + 1] = grid[j + 1], grid[j]
        moved += 1
    for j in np.arange(grid.shape[0]):
        if grid[j] < 0:
            break
        grid[j] += 1
    return moved


CELLS = np.array([0, 5, 15, 3, 12, 9, 6])


@pytest.mark.parametrize("fn, args", [
    (neighbour_sum, (CELLS, np.arange(NC, dtype=float))),
    (occupied, (CELLS, np.bincount(CELLS, minlength=NC * NC))),
    (occupied, (np.array([5, 6, 9, 10]), np.ones(NC * NC, dtype=np.int64))),
])
def test_a_continue_in_a_loop_over_a_display(fn, args):
    assert_returns_as_numpy(fn, lambda: tuple(a.copy() for a in args))


@pytest.mark.parametrize("grid", [[0, 1, 0, 2, 2, 0, 1, 0], [0, 1, -1, 0, 3, 0, 0, 0]])
def test_jumps_in_a_loop_over_a_draw_or_an_arange(grid):
    compiled = np2ref.compile(random_order_moves, host_below=0)
    np.random.seed(3)
    want_grid = np.array(grid)
    want = random_order_moves(want_grid)
    np.random.seed(3)
    got_grid = np.array(grid)
    got = compiled(got_grid)
    assert (type(got), got) == (type(want), want)
    assert np.array_equal(got_grid, want_grid) and got_grid.dtype == want_grid.dtype


@pytest.mark.parametrize("limit", [-1.0, 3.0, 10.0, 1e9])  # break at once, in the middle, late, never
def test_a_break_in_a_loop_over_a_display(limit):
    assert_returns_as_numpy(first_scale, lambda: (np.array([0.5, 1.0, 0.25]), limit, np.zeros(1)))


@pytest.mark.parametrize("limit", [-1.0, 3.0, 1e9])  # the first item, a later one, none (the start's 0.0)
def test_a_python_float_picked_from_a_display_by_a_break(limit):
    """An item of a display of Python floats is a Python float (rules/pyscalars.py): it came back
    np.float64."""
    assert_returns_as_numpy(first_scale_returned, lambda: (np.array([0.5, 1.0, 0.25]), limit))
