"""A masked store whose value holds an item at a literal key, `acc[has] += w[0] * c[has]`,
`u[m] -= p["dt"] * g[m]` (boids' weights tuple, a parameter dict): the item is one value,
a leaf like a name, and the value is computed on whole arrays (rules/mask_store._constant_item,
npr_mask_leaf). It was NPR107 when traced ("a boolean-mask read has a data-dependent
shape"). An item that is no single value (`W[0]` a row) pairs with the selection in NumPy and
stays refused (NPR104). Compared: the array written and the result, against NumPy's.
"""

from __future__ import annotations

import numpy as np
import pytest

import np2ref


def steer(acc, centre, cnt, has, w):
    acc[has] += w[0] * centre[has] / cnt[has, None]
    acc[has] -= w[-1] * centre[has]
    return acc


def relax(u, g, m, p):
    u[m] -= p["dt"] * g[m]
    u[m] = np.maximum(u[m], p["floor"])
    return u.sum()


def rows(acc, centre, has, W):
    acc[has] += W[0] * centre[has]
    return acc


def _steer_args(w):
    rng = np.random.default_rng(0)
    centre = rng.normal(size=(7, 2))
    cnt = np.array([1, 2, 0, 3, 1, 4, 2])
    return np.zeros((7, 2)), centre, cnt, cnt > 0, w


@pytest.mark.parametrize("w", [(0.5, 0.25), [2.0, 0.125], np.array([0.5, 4.0])], ids=["tuple", "list", "array"])
def test_an_item_beside_masked_reads_is_one_value(w):
    want = steer(*_steer_args(w))
    args = _steer_args(w)
    got = np2ref.compile(steer)(*args)
    np.testing.assert_allclose(got, want, rtol=1e-15, atol=0)  # (XLA's quotient: to an ulp)
    np.testing.assert_allclose(args[0], want, rtol=1e-15, atol=0)
    assert got.dtype == want.dtype


def test_a_dict_entry_beside_masked_reads():
    u0 = np.linspace(-1.0, 1.0, 9)
    g = np.cos(u0)
    p = {"dt": 0.3, "floor": -0.2}
    want_u = u0.copy()
    want = relax(want_u, g, u0 > 0, p)
    got_u = u0.copy()
    got = np2ref.compile(relax)(got_u, g, u0 > 0, p)
    np.testing.assert_allclose(got_u, want_u, rtol=1e-15, atol=1e-16)  # (XLA may fuse u - dt * g: an ulp)
    np.testing.assert_allclose(got, want, rtol=1e-15)
    assert type(got) is type(want)


def test_an_item_that_is_a_row_stays_refused():
    args = (np.zeros((4, 2)), np.ones((4, 2)), np.array([True, False, True, True]), np.ones((2, 2)))
    with pytest.raises(np2ref.Np2RefError) as err:
        np2ref.compile(rows)(*args)
    assert {d.code for d in err.value.diagnostics} == {"NPR104"}
