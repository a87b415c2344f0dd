"""`out=` into a slice whose bounds move with the loop variable (`np.maximum(V[:m], ex,
out=V[:m])` with `m = 2 * i + 1`: the American option lattice's early exercise) is stored
through the window's own masked store (rt/win_views.py) in a lax loop; it was a Python loop
(NPR033) traced one trip at a time, whose compile grew with the trip count (scripts7's
american_trinomial: 241 s for its converted script on the CPU, 24 s now)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import np2ref
from conftest import numpys_values


def lattice_exercise(V, S, K, n):
    for i in range(n - 1, -1, -1):
        m = 2 * i + 1
        V[:m] = 0.97 * ((V[:m] + V[1:m + 1]) + V[2:m + 2])  # (no product feeds an add: no FMA, docs/semantics.md)
        ex = K - S[n - i:n + i + 1]
        np.maximum(V[:m], ex, out=V[:m])
    return V[0]


def shrink_in_place(x, n):
    for i in range(n):
        np.multiply(x[i:], 0.5, out=x[i:])
        np.add(x[:n - i], x[i], out=x[:n - i])
    return x


def casts_into_float32(y, w, n):
    for i in range(1, n):
        np.subtract(y[:i], w[:i], out=y[:i])  # float64 values into a float32 buffer: same_kind
    return y


def int_target(c, n):
    for i in range(1, n):
        np.multiply(c[:i], 1.5, out=c[:i])  # float64 into int64: NumPy's UFuncTypeError
    return c


def _args(name):
    rng = np.random.default_rng(3)
    n = 12
    return {"lattice_exercise": lambda: (rng.random(2 * n + 1), 1.0 + rng.random(2 * n + 1), 1.5, n),
            "shrink_in_place": lambda: (rng.random(n), n),
            "casts_into_float32": lambda: (rng.random(n).astype(np.float32), rng.random(n), n)}[name]()


@pytest.mark.parametrize("fn", [lattice_exercise, shrink_in_place, casts_into_float32], ids=lambda f: f.__name__)
def test_out_into_a_moving_slice_is_a_lax_loop_with_numpys_values(fn):
    want_args, got_args = _args(fn.__name__), _args(fn.__name__)
    want = fn(*want_args)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)  # no loop traced one trip at a time
        got = np2ref.compile(fn, host_below=0)(*got_args)
    assert numpys_values(got, want)
    for g, w in zip(got_args, want_args):
        assert numpys_values(g, w)
        assert np.asarray(g).dtype == np.asarray(w).dtype


def test_out_into_a_moving_slice_keeps_numpys_casting_error():
    with pytest.raises(TypeError) as want:
        int_target(np.arange(6), 6)
    with pytest.raises(TypeError) as got:
        np2ref.compile(int_target, host_below=0)(np.arange(6), 6)
    assert type(got.value).__name__ == type(want.value).__name__


# `r = ufunc(..., out=w)` is `w` itself in NumPy: writes through r land in the array (fuzz9's
# out_window family: jax.new_ref of the view raised TypeError, of a whole Ref ValueError)
def out_result_slice(A, B, n):
    r = np.multiply(B[1:5], 2, out=A[:4])
    r[0] = 7.0
    return A


def out_result_whole(A, B, n):
    r = np.add(B, 2.0, out=A)
    r[0] = 9.0
    return A, r


def out_result_moving(A, B, n):
    for i in range(n):
        r = np.add(B[i:i + 2], 1.0, out=A[i:i + 2])
        r[0] = -1.0
        B[i] = r.sum()
    return A, B


def out_result_masked(A, B, n):
    for i in range(n):
        r = np.multiply(A[i:], 0.5, out=A[i:])
        r[r > 3] = 0.25
    return A


def out_result_scaled(A, B, n):
    for i in range(n):
        r = np.subtract(B[i:i + 3], A[i], out=A[i + 1:i + 4])
        r *= 2.0
    return A


@pytest.mark.parametrize("n", [0, 3, 17])
@pytest.mark.parametrize("fn", [out_result_slice, out_result_whole, out_result_moving, out_result_masked,
                                out_result_scaled], ids=lambda f: f.__name__)
def test_the_result_of_out_is_the_out_array_written_through(fn, n):
    def args():
        return np.arange(20.0) * 0.25, np.arange(20.0) * 0.5 - 3.0, n
    want_args, got_args = args(), args()
    want = fn(*want_args)
    got = np2ref.compile(fn, host_below=0)(*got_args)
    for g, w in zip(got if isinstance(want, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
        assert numpys_values(g, w)
    for g, w in zip(got_args, want_args):
        assert numpys_values(g, w)
