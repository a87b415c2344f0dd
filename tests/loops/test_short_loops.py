"""Short lax loops (a static trip count of at most rt/loops.py's NPR_SHORT_LOOP) are unrolled by
XLA: the body is traced as for the rolled loop, so the values are the rolled loop's bit for bit
and NumPy's (to XLA's dot order); the nest budget keeps deep nests rolled, and a body that
stores into an array keeps its loop rolled."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from np2ref.rt import loops as L
from np2ref.rt import fold, vectorise as V


def conv2d(x, w):
    """x (C, H, W), w (K, C, kh, kw): nine shifted-window products for a 3x3 w."""
    out = np.zeros((w.shape[0], x.shape[1] - w.shape[2] + 1, x.shape[2] - w.shape[3] + 1))
    for i in range(w.shape[2]):
        for j in range(w.shape[3]):
            window = x[:, i:i + out.shape[1], j:j + out.shape[2]]
            out = out + np.einsum("kc,chw->khw", w[:, :, i, j], window)
    return out


def shifted_dots(x, y, out):
    n = x.shape[0]
    for k in range(n):
        out[k] = x[k + 1:] @ y[k:-1]  # a window of traced length: masked, zero-filled


def triple(a):
    n = a.shape[0]
    t = 0.0
    for i in range(n):
        for j in range(n):
            for k in range(n):
                t += a[i, j, k] * (i - j + k)
    return t


@functools.cache
def compiled(fn):
    return np2ref.compile(fn, host_below=0)


def rolled(fn, *args):
    """fn compiled and called with unrolling off, its HLO text."""
    old = L.NPR_SHORT_LOOP
    L.NPR_SHORT_LOOP = 0
    try:
        f = np2ref.compile(fn, host_below=0)
        return f(*args), f.lower(*args).as_text()
    finally:
        L.NPR_SHORT_LOOP = old


def test_short_nest_unrolls_to_the_rolled_loops_values():
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((3, 7, 6)), rng.standard_normal((4, 3, 3, 3))
    want = conv2d(x, w)
    got = compiled(conv2d)(x, w)
    assert want.shape == got.shape == (4, 5, 4)
    assert "while" not in compiled(conv2d).lower(x, w).as_text()  # 3 x 3 copies of the body
    again, text = rolled(conv2d, x, w)
    assert text.count("while") >= 2
    assert np.array_equal(got, again) and got.dtype == again.dtype  # bit for bit
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def shifted_sum(x, y):
    n = x.shape[0]
    t = 0.0
    for k in range(n):
        t += x[k + 1:] @ y[k:-1]  # a window of traced length: masked, zero-filled
    return t


def test_unrolled_masked_windows_keep_numpys_signed_zeros():
    z = np.array([-0.0, -0.0, -0.0, 1.0, -3.0, -0.0, 4.0])
    got = compiled(shifted_sum)(z, z[::-1].copy())
    assert "while" not in compiled(shifted_sum).lower(z, z).as_text()
    assert np.asarray(got).tobytes() == np.asarray(shifted_sum(z, z[::-1].copy())).tobytes()


def test_a_body_that_stores_stays_rolled():
    z = np.array([2.0, -0.0, -0.0, 1.0, -3.0, -0.0, 4.0])
    o1, o2 = np.full(7, 9.0), np.full(7, 9.0)
    shifted_dots(z, z[::-1].copy(), o1)
    compiled(shifted_dots)(z, z[::-1].copy(), o2)  # lanes (the windows' checks per lane: test_lane_checks.py)
    V.NPR_VECTORISE = False
    try:
        text = np2ref.compile(shifted_dots).lower(z, z, o2).as_text()
    finally:
        V.NPR_VECTORISE = True
    assert "while" in text  # out[k] = ...: a Ref, not unrolled
    assert o1.tobytes() == o2.tobytes()  # x[6:] @ y[5:-1] is 0.0, not XLA's one-product -0.0


@pytest.mark.parametrize("n, loops", [(3, 0), (4, 1)])
def test_nest_budget_keeps_the_innermost_loop_rolled(n, loops, monkeypatch):
    monkeypatch.setitem(fold._npr_FOLD, "scalar", False)  # (else the k loop is an ordered fold: no loop)
    a = np.random.default_rng(1).random((n, n, n))
    f = np2ref.compile(triple, host_below=0)
    # 27 copies fit NPR_SHORT_NEST; 64 do not: the innermost loop stays rolled (jax 0.10 lowers
    # its 16 copies as one while called 16 times, jax 0.11 writes out 16 whiles)
    assert ("while" in f.lower(a).as_text()) == bool(loops)
    assert np.isclose(f(a), triple(a), rtol=1e-12)
