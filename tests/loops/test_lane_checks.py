"""Run-time index checks in the lanes of a vectorised loop nest (rt/bounds.py, rt/vectorise.py;
issue 39): a read under a branch is checked only in the lanes that take the branch, and the call
raises NumPy's IndexError for the first element in loop order whose taken branch reads out of
range, never a clamped value. Differential against NumPy: results, mutated arrays, dtypes, and
the error's type and message (which names the index, so the loop order shows)."""

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits


def relax(new, old, nx, ny):
    for x in range(nx):
        for y in range(ny):
            if x == 0 or x == nx - 1:
                new[x, y] = -1.0
            elif y == 0:  # benchmarks/element_nest.py's relax, its branches reading more neighbours
                new[x, y] = old[x, y + 1] - old[x + 1, y]  # out of range where y == ny - 1 (another branch)
            elif y == ny - 1:
                new[x, y] = old[x, y - 1] * old[x - 1, y]
            else:
                new[x, y] = 0.25 * (old[x - 1, y] + old[x + 1, y]) + 0.5 * (old[x, y - 1] - old[x, y + 1])


def relax_past(new, old, nx, ny):
    for x in range(nx):
        for y in range(ny):
            if x == 0 or x == nx - 1:
                new[x, y] = 0.0
            elif y == ny - 1:
                new[x, y] = old[x, y + 1]  # taken: NumPy's IndexError at (1, ny - 1)
            else:
                new[x, y] = old[x, y] * 2.0


def two_faults(new, old, nx, ny, a, b):
    for x in range(nx):
        for y in range(ny):
            if x == a and y == ny - 1:
                new[x, y] = old[x, y + 1]  # axis 1, index ny
            elif x == b and y == 0:
                new[x, y] = old[x + nx, y]  # axis 0, index x + nx
            else:
                new[x, y] = old[x, y] + 1.0


def two_faults_down(new, old, nx, a, b):
    for x in range(nx - 1, -1, -1):
        if x == a:
            new[x] = old[x + 2 * nx]
        elif x == b:
            new[x] = old[x + nx]
        else:
            new[x] = old[x] * 3


def gather(out, src, idx):
    for i in range(out.shape[0]):
        out[i] = src[idx[i]] * 2  # data: checked per lane when the program runs


def gather_if(out, src, idx):
    for i in range(out.shape[0]):
        if idx[i] >= 0:
            out[i] = src[idx[i]]  # read only where the index is not negative
        else:
            out[i] = -1


def dropped_lane(new, old, ny):
    for y in range(1, ny):
        if y == 0:
            new[0, y] = old[0, y + ny]  # only lane 0 takes it, and lane 0 is not an iteration
        else:
            new[0, y] = old[0, y] - 1.0


def ifexp(new, old, nx, ny):
    for x in range(nx):
        for y in range(ny):
            new[x, y] = old[x, y + 1] if y < ny - 1 else old[x, y - 1]


RNG = np.random.default_rng(3)


def _numpy(fn, args):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        fn(*args)
    except IndexError as exc:
        return exc, args
    return None, args


def _ours(fn, args):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        np2ref.compile(fn)(*args)
    except IndexError as exc:
        return exc, args
    return None, args


def _same(fn, args):
    (theirs, want), (ours, got) = _numpy(fn, args), _ours(fn, args)
    assert (type(ours), str(ours)) == (type(theirs), str(theirs))
    if theirs is None:
        for w, g in zip(want, got):
            if isinstance(w, np.ndarray):
                assert_numpys_bits(g, w)
    return theirs


def _grid(nx, ny, dtype=np.float64):
    old = RNG.standard_normal((nx, ny)).astype(dtype)
    return [np.zeros_like(old), old]


@pytest.mark.parametrize("nx, ny", [(6, 5), (3, 2), (2, 4), (1, 3), (5, 1)])
def test_relax_matches_numpy(nx, ny):
    assert _same(relax, [*_grid(nx, ny), nx, ny]) is None or ny == 1  # (ny 1: NumPy's own IndexError)


def test_relax_float32_and_int_arrays():
    assert _same(relax, [*_grid(5, 4, np.float32), 5, 4]) is None
    old = RNG.integers(-9, 9, (5, 4))
    assert _same(relax, [np.zeros((5, 4), np.int16), old, 5, 4]) is None


@pytest.mark.parametrize("nx, ny", [(4, 3), (3, 5), (2, 3)])
def test_a_taken_branch_past_the_edge_raises(nx, ny):
    error = _same(relax_past, [*_grid(nx, ny), nx, ny])
    assert (error is not None) == (nx > 2)


@pytest.mark.parametrize("a, b", [(2, 3), (3, 2), (2, 2), (0, 4), (5, 5)])
def test_the_first_fault_in_loop_order(a, b):
    _same(two_faults, [*_grid(5, 4), 5, 4, a, b])


@pytest.mark.parametrize("a, b", [(1, 3), (3, 1), (4, 9)])
def test_the_first_fault_of_a_descending_loop(a, b):
    old = RNG.standard_normal(5)
    _same(two_faults_down, [np.zeros(5), old, 5, a, b])


@pytest.mark.parametrize("idx", [[0, 4, 2, 1], [0, 7, -6, 1], [0, -5, 9, 1], [3, 3, 3, 5]])
def test_data_indices_in_lanes(idx):
    src = RNG.standard_normal(5)
    _same(gather, [np.zeros(4), src, np.array(idx)])
    _same(gather_if, [np.zeros(4), src, np.array(idx)])


def test_a_lane_outside_the_range_does_not_raise():
    assert _same(dropped_lane, [*_grid(2, 4), 4]) is None


def test_conditional_expressions():
    assert _same(ifexp, [*_grid(4, 3), 4, 3]) is None


@pytest.mark.parametrize("fn, args", [
    (relax, lambda: [*_grid(6, 5), 6, 5]),
    (relax_past, lambda: [*_grid(4, 3), 4, 3]),
    (gather, lambda: [np.zeros(4), RNG.standard_normal(5), np.array([0, 1, 2, 3])]),
], ids=["relax", "relax_past", "gather"])
def test_the_checked_program_has_no_loop(fn, args):
    """The NumPy-facing call's own program (index checks on) is the lanes, not a loop with a
    cond per element (issue 39: relax 200x200 took 6.3 s a call)."""
    text = np2ref.compile(fn).lower(*args()).as_text()
    assert "stablehlo.while" not in text and "stablehlo.case" not in text
