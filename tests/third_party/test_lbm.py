"""Lattice Boltzmann as third parties write it (after J. Latt's lbmFlowAroundCylinder.py): the
bounce-back `fout[i, obstacle] = fin[8 - i, obstacle]` with the obstacle passed in, so that the
mask is traced. A masked store with integers before the mask is a masked store into the view
`fout[i]` (rules/mask_store.py mask_lead, rt/masks.py npr_mask_lead)."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy

NX, NY = 24, 12
V = np.array([[1, 1], [1, 0], [1, -1], [0, 1], [0, 0], [0, -1], [-1, 1], [-1, 0], [-1, -1]])
T = np.array([1 / 36, 1 / 9, 1 / 36, 1 / 9, 4 / 9, 1 / 9, 1 / 36, 1 / 9, 1 / 36])
NOSLIP = [8, 7, 6, 5, 4, 3, 2, 1, 0]
COL2 = np.array([3, 4, 5])
COL3 = np.array([6, 7, 8])


def macroscopic(fin):
    rho = np.sum(fin, axis=0)
    u = np.zeros((2, NX, NY))
    for i in range(9):
        u[0, :, :] += V[i, 0] * fin[i, :, :]
        u[1, :, :] += V[i, 1] * fin[i, :, :]
    u /= rho
    return rho, u


def equilibrium(rho, u):
    usqr = 3 / 2 * (u[0] ** 2 + u[1] ** 2)
    feq = np.zeros((9, NX, NY))
    for i in range(9):
        cu = 3 * (V[i, 0] * u[0, :, :] + V[i, 1] * u[1, :, :])
        feq[i, :, :] = rho * T[i] * (1 + cu + 0.5 * cu ** 2 - usqr)
    return feq


def cylinder_step(fin, vel, obstacle, omega):
    fin[COL3, -1, :] = fin[COL3, -2, :]
    rho, u = macroscopic(fin)
    u[:, 0, :] = vel[:, 0, :]
    rho[0, :] = 1 / (1 - u[0, 0, :]) * (np.sum(fin[COL2, 0, :], axis=0) + 2 * np.sum(fin[COL3, 0, :], axis=0))
    feq = equilibrium(rho, u)
    fin[[0, 1, 2], 0, :] = feq[[0, 1, 2], 0, :] + fin[[8, 7, 6], 0, :] - feq[[8, 7, 6], 0, :]
    fout = fin - omega * (fin - feq)
    for i in range(9):
        fout[i, obstacle] = fin[8 - i, obstacle]
    for i in range(9):
        fin[i, :, :] = np.roll(np.roll(fout[i, :, :], V[i, 0], axis=0), V[i, 1], axis=1)
    return fin


def bounce_back_table(fin, fout, obstacle):
    for i in range(9):
        fout[i, obstacle] = fin[NOSLIP[i], obstacle]
    return fout


def reflect_scaled(f, g, obstacle, w):
    for k in range(3):
        f[:, k, obstacle] += w * g[:, -1 - k, obstacle] - 0.5
    return f


def reflect_past_end(f, g, obstacle, w):
    for k in range(3):
        f[:, k, obstacle] += w * g[:, k + 1, obstacle]
    return f


def lead_of(f, g, table, obstacle):
    for k in range(1):
        f[table[k], obstacle] = g[table[k], obstacle]
    return f


def _obstacle():
    x, y = np.meshgrid(np.arange(NX), np.arange(NY), indexing="ij")
    return (x - NX // 4) ** 2 + (y - NY // 2) ** 2 < (NY // 4) ** 2


def _start():
    y = np.arange(NY)
    vel = np.zeros((2, NX, NY))
    vel[0] = 0.04 * (1 + 1e-4 * np.sin(y / (NY - 1) * 2 * np.pi))
    return equilibrium(np.ones((NX, NY)), vel), vel


@pytest.fixture(scope="module")
def step():
    return np2ref.compile(cylinder_step, host_below=0, bitwise=True)


def test_cylinder_steps_match_numpy_with_the_obstacle_traced(step):
    fin, vel = _start()
    obstacle = _obstacle()
    expected, got = fin.copy(), fin.copy()
    for _ in range(3):
        expected = cylinder_step(expected, vel, obstacle, 1.7)
        got = step(got, vel, obstacle, 1.7)
        np.testing.assert_array_equal(got, expected)
    moved = _obstacle()
    moved[:, :2] = True  # another obstacle, the same compiled program
    assert_same_as_numpy(cylinder_step, step, fin, vel, moved, 1.7)


def test_bounce_back_through_a_list_of_opposites():
    rng = np.random.default_rng(3)
    fin, fout = rng.random((9, NX, NY)), rng.random((9, NX, NY))
    assert_same_as_numpy(bounce_back_table, np2ref.compile(bounce_back_table, host_below=0),
                         fin, fout, _obstacle())


def test_integers_after_full_slices_and_an_augmented_store():
    rng = np.random.default_rng(4)
    f, g = rng.random((2, 3, NX, NY)), rng.random((2, 3, NX, NY))
    compiled = np2ref.compile(reflect_scaled, host_below=0)
    assert_same_as_numpy(reflect_scaled, compiled, f, g, _obstacle(), 0.25)


def test_an_integer_out_of_range_raises_numpys_index_error():
    compiled = np2ref.compile(reflect_past_end, host_below=0)
    f = np.zeros((2, 3, NX, NY))
    with pytest.raises(IndexError):
        reflect_past_end(f.copy(), f, _obstacle(), 1.0)
    with pytest.raises(IndexError):
        compiled(f.copy(), f, _obstacle(), 1.0)


@pytest.mark.parametrize("lead, error", [
    (np.array([[0, 2]]), "NPR104"),  # a row: NumPy pairs an array with the mask's positions: refused
    (np.array([True]), "NPR104"),  # a boolean before the mask is another mask
    (np.array([1.0]), "only integers"),  # NumPy's IndexError
])
def test_what_is_not_one_integer_before_the_mask_is_refused_or_raises(lead, error):
    compiled = np2ref.compile(lead_of, host_below=0)
    f = np.zeros((3, NX, NY))
    with pytest.raises(Exception, match=error):
        compiled(f, f + 1, lead, _obstacle())


# -- selections kept to be stored back (rules/kept.py) -------------------------------------
OPP = np.array([0, 3, 4, 1, 2, 7, 8, 5, 6])


def latt_bounce_back(f, obstacle):
    bnd = f[:, obstacle]
    f[:, obstacle] = bnd[OPP, :]
    return f


def mocz_step(F, cylinder, tau):
    """After P. Mocz's "Create Your Own Lattice Boltzmann Simulation": the populations inside
    the cylinder are saved with their directions reversed, the collision runs everywhere, and
    they are put back."""
    for i, cx, cy in zip(range(9), V[:, 0], V[:, 1]):
        F[:, :, i] = np.roll(F[:, :, i], cx, axis=1)
        F[:, :, i] = np.roll(F[:, :, i], cy, axis=0)
    bndryF = F[cylinder, :]
    bndryF = bndryF[:, [8, 7, 6, 5, 4, 3, 2, 1, 0]]
    rho = np.sum(F, 2)
    F += -(1.0 / tau) * (F - rho[:, :, None] * T)
    F[cylinder, :] = bndryF
    return F


FIXED = (np.arange(NX)[:, None] // 3 == 1) & (np.arange(NY) % 4 == 2)  # a mask known when traced


def fixed_bounce_back(f):
    bnd = f[:, FIXED]
    f[:, FIXED] = bnd[OPP, :]
    return f


def stored_elsewhere(x, m, n):
    v = x[m]
    x[n] = v
    return x


def test_a_selection_reindexed_and_stored_back_matches_numpy():
    f = np.random.default_rng(5).random((9, NX, NY))
    compiled = np2ref.compile(latt_bounce_back, host_below=0)
    assert_same_as_numpy(latt_bounce_back, compiled, f, _obstacle())
    assert_same_as_numpy(latt_bounce_back, compiled, f, np.zeros((NX, NY), bool))


def test_mocz_steps_match_numpy_with_the_cylinder_traced():
    rng = np.random.default_rng(6)
    F = 1 + 0.01 * rng.standard_normal((NY, NX, 9))
    step = np2ref.compile(mocz_step, host_below=0, bitwise=True)
    cylinder = _obstacle().T
    expected, got = F.copy(), F.copy()
    for _ in range(3):
        expected = mocz_step(expected, cylinder, 0.6)
        got = step(got, cylinder, 0.6)
    # np.sum(F, 2) adds its nine terms in XLA's order, not NumPy's pairwise one (docs/semantics.md):
    # a last-bit difference that three collisions grow to ~1e-12; a wrong bounce-back is O(1)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=0)
    once = step(F.copy(), cylinder, 0.6)  # inside the cylinder: the saved populations, reversed, bit for bit
    np.testing.assert_array_equal(once[cylinder], mocz_step(F.copy(), cylinder, 0.6)[cylinder])
    assert not np.array_equal(once[cylinder], F[cylinder])


def test_a_kept_selection_with_a_mask_known_when_traced_is_numpys_copy():
    f = np.random.default_rng(7).random((9, NX, NY))
    assert_same_as_numpy(fixed_bounce_back, np2ref.compile(fixed_bounce_back, host_below=0), f)


def test_a_selection_stored_under_another_mask_is_refused():
    compiled = np2ref.compile(stored_elsewhere, host_below=0)
    x = np.arange(6.0)
    with pytest.raises(Exception, match="NPR104"):
        compiled(x, x > 2, x < 3)


CXS, CYS = V[:, 0].copy(), V[:, 1].copy()


def stream(F):
    for i, cx, cy in zip(range(9), CXS, CYS):  # a module's NumPy tables, indexed by the traced k
        F[:, :, i] = np.roll(np.roll(F[:, :, i], cx, axis=1), cy, axis=0)
    return F


def test_zip_over_a_modules_numpy_tables_streams_as_numpy():
    F = np.random.default_rng(8).random((NY, NX, 9))
    assert_same_as_numpy(stream, np2ref.compile(stream, host_below=0), F)


def wall_value(f, m, v):
    for i in range(-2, 2, 3):
        f[i, m] = v
    return f


def wall_add(f, m, v):
    for i in range(2):
        f[:, i, m] += v * i
    return f


def fixed_rows(f, v):
    f[2, FIXED] = v  # a mask known when traced: NumPy's own store, whatever v's shape
    f[:, FIXED] += v[:3, None]
    return f


@pytest.mark.parametrize("fn, args", [
    (wall_value, (_obstacle(), 0.5)), (wall_value, (_obstacle(), np.float64(2.0))),
    (wall_add, (_obstacle(), 1.5)),
])
def test_one_value_stored_under_integers_and_a_traced_mask(fn, args):
    f = np.random.default_rng(9).random((3, NX, NY) if fn is wall_value else (3, 2, NX, NY))
    assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), f, *args)


def test_stores_under_a_mask_known_when_traced_take_arrays_as_numpy_does():
    f = np.random.default_rng(10).random((3, NX, NY))
    v = np.arange(float(FIXED.sum()))
    assert_same_as_numpy(fixed_rows, np2ref.compile(fixed_rows, host_below=0), f, v)


def column_permuted(A, j, perm):
    col = A[:, j]  # an integer: NumPy's view, not a selection
    A[0, j] = -1.0  # the view sees it
    A[:, j] = col[perm]
    return A


def test_a_name_kept_from_an_integer_index_is_numpys_view():
    A = np.arange(12.0).reshape(4, 3)
    compiled = np2ref.compile(column_permuted, host_below=0)
    assert_same_as_numpy(column_permuted, compiled, A, 1, np.array([3, 2, 1, 0]))
