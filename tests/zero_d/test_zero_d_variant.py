"""np2ref.compile's 0-d variant (compiled/zero_d_variant.py): a call given a 0-d value where a
parameter's copy, astype, zeros_like or np.where shows its kind traces a second program. These
check what it keeps of the first: the user's lines in refusals, loops="pallas", the ordinary
calls' program (never made for them), and the calls after an n-d one (plans and straight-line
calls keyed by type: a 0-d NumPy array took an n-d array's program and came back a scalar)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import np2ref


def copied_kinds(z):
    return z.copy(), z.astype(np.float32), z.reshape(()), np.zeros_like(z)


def _kinds(v):
    return [(type(i), getattr(i, "dtype", None)) for i in v]


@pytest.mark.parametrize("order", ["nd_first", "zero_d_first"])
def test_a_0d_array_after_an_nd_array_has_numpys_kinds(order):
    """The second call of each kind takes the plan or straight-line call the first made."""
    compiled = np2ref.compile(copied_kinds, host_below=0)
    calls = [np.arange(1.0, 2.0), np.arange(1.0, 2.0), np.array(2.5), np.array(0.5)]
    for z in calls if order == "nd_first" else calls[2:] + calls[:2]:
        got, expected = compiled(z), copied_kinds(z)
        assert _kinds(got) == _kinds(expected), z
        assert all(np.array_equal(g, e) for g, e in zip(got, expected))


def copy_then_halve(x, n):
    out = x.copy()
    m = n.copy()
    while m > 1:  # a 0-d array `m`: the test is traced, `out` rebound in it (NPR011)
        out = out.reshape(2, -1)
        out[0] += out[1]
        out = out[0].copy()
        m //= 2
    return out


def test_the_variants_refusal_is_on_the_users_line():
    """The variant's refusal at the `while` (a first version placed it at line 0, `file:0:1`)."""
    comp = np2ref.compile(copy_then_halve, host_below=0)
    with pytest.raises(np2ref.Np2RefError) as info:
        comp(np.arange(8.0), np.array(8))
    (d,) = info.value.diagnostics
    lines, first = inspect.getsourcelines(copy_then_halve)
    assert d.code == "NPR011" and d.line == first + next(i for i, t in enumerate(lines) if "while" in t)
    assert d.filename == __file__ and comp._entry._traced0 is not None  # (the variant's trace refused it)


def sweep_then_zeros(u, f, h2):
    n = u.shape[0]
    for i in range(1, n - 1):
        for j in range(1, n - 1):
            u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - h2 * f[i, j])
    return np.zeros_like(h2)


def test_the_variant_keeps_loops_pallas():
    """np.float64 h2 takes the variant (np.zeros_like of a scalar is a 0-d array): still the
    Pallas kernel, as explain() says (the lax loop before), and NumPy's results."""
    rng = np.random.default_rng(0)
    u, f = rng.random((5, 5)).astype(np.float32), rng.random((5, 5)).astype(np.float32)
    comp = np2ref.compile(sweep_then_zeros, loops="pallas", host_below=0, bitwise=True)
    ref, got = u.copy(), u.copy()
    expected, out = sweep_then_zeros(ref, f, np.float32(0.1)), comp(got, f, np.float32(0.1))
    np.testing.assert_array_equal(got, ref)
    assert type(out) is type(expected) and out.dtype == expected.dtype
    assert comp._entry._traced0 is not None and "one Pallas kernel" in comp.explain()


def scaled_copy(u, dt):
    v = u.copy()
    v *= dt
    return v, np.where(u > 0, u, dt)


def test_ordinary_calls_never_make_the_variant():
    """n-d arrays and a Python or NumPy float where only `u` is copied: the function's own
    program (`dt` is read by no copy nor maker of its own)."""
    comp = np2ref.compile(scaled_copy, host_below=0)
    for dt in (0.5, np.float64(0.25)):
        u = np.arange(-1.0, 3.0)
        got, expected = comp(u.copy(), dt), scaled_copy(u.copy(), dt)
        assert all(np.array_equal(g, e) and type(g) is type(e) for g, e in zip(got, expected))
    assert comp._entry.variant0 is not None and comp._entry._traced0 is None
