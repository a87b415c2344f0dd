"""`u = unew` at the end of an iteration that allocated `unew` afresh (analysis/snapshots.py): a
load, `u` a value the lax loop carries. It was a Python loop (NPR033), NPR011 in a `while`, and
NPR030 with a `break` on data (k-means, Jacobi to a tolerance). Differential against NumPy, and
the cases where the buffer is written after the binding, or seen by another name, keep NumPy's
aliasing (a Python loop, or refused)."""

from __future__ import annotations

import functools
import inspect
import sys
import warnings

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy


def jacobi(u, f, h, iters):
    for it in range(iters):
        unew = u.copy()
        unew[1:-1] = 0.5 * (u[:-2] + u[2:] - h * h * f[1:-1])
        u = unew
    return u


def jacobi_to_tolerance(u, f, h, iters, tol):
    for it in range(iters):
        unew = np.zeros_like(u)
        unew[1:-1] = 0.5 * (u[:-2] + u[2:] - h * h * f[1:-1])
        unew[0], unew[-1] = u[0], u[-1]
        err = np.max(np.abs(unew - u))
        u = unew
        if err < tol:
            break
    return u, it


def jacobi_while(u, f, h, tol):
    err = 1.0
    while err > tol:
        unew = u.copy()
        unew[1:-1] = 0.5 * (u[:-2] + u[2:] - h * h * f[1:-1])
        err = np.max(np.abs(unew - u))
        u = unew
    return u


def centroids(X, labels, centers, iters):
    k = centers.shape[0]
    for _ in range(iters):
        new = np.zeros_like(centers)
        for dim in range(X.shape[1]):
            new[:, dim] = np.bincount(labels, weights=X[:, dim], minlength=k)
        new /= np.maximum(np.bincount(labels, minlength=k), 1)[:, None]  # `op=` before the binding
        labels = np.argmin(((X[:, None, :] - new[None]) ** 2).sum(axis=2), axis=1)
        centers = new
    return centers, labels


def shift_until_still(c, n, tol):
    for it in range(n):
        new = np.zeros_like(c)
        new[:] = 0.5 * c + 1.0
        if np.abs(new - c).max() < tol:  # the break before the binding: `c = new` under a guard
            break
        c = new
    return c, it


def bound_in_a_branch_then_written(u, x, n):
    for i in range(n):
        unew = u * 0.5
        if x[i] > 0.5:
            u = unew
            unew[0] += 1.0  # after the binding, in the statement that holds it: u sees it
    return u


def written_after(u, n):
    for _ in range(n):
        unew = u * 0.5
        u = unew
        unew[0] += 1.0  # NumPy's u sees this write
    return u


def seen_by_another(u, n):
    for _ in range(n):
        unew = u + 1.0
        keep = unew[1:]
        u = unew
        keep[0] = -5.0  # through a view: u sees it
    return u


def bound_in_a_branch(u, x, n):
    unew = u.copy()
    for i in range(n):
        if x[i] > 0.5:
            unew = u * 2.0
        unew[0] += 1.0  # the buffer of an earlier iteration, which u holds
        u = unew
    return u


def while_written_after(u, tol):
    while u[1] > tol:
        unew = u * 0.5
        u = unew
        unew[0] += 1.0
    return u


@functools.cache
def compiled(name):
    return np2ref.compile(globals()[name], host_below=0)


def notes(name) -> set[str]:
    source = inspect.getsource(sys.modules[__name__])
    result = np2ref.convert_source(source, __file__, only={name})
    return {d.code for d in result.diagnostics}


RNG = np.random.default_rng(11)
U, F = RNG.random(24), RNG.random(24)


@pytest.mark.parametrize("name, args", [
    ("jacobi", (U, F, 0.1, 40)), ("jacobi_to_tolerance", (U, F, 0.1, 2000, 1e-9)),
    ("jacobi_to_tolerance", (U, F, 0.1, 5, 1e-9)), ("jacobi_while", (U, F, 0.1, 1e-9)),
    ("centroids", (RNG.random((30, 2)), RNG.integers(0, 3, 30), RNG.random((3, 2)), 6)),
    ("shift_until_still", (U, 200, 1e-6)), ("shift_until_still", (U, 4, 1e-6)),  # were NPR030
])
def test_a_fresh_buffer_bound_at_the_end_of_an_iteration_is_a_carried_value(name, args):
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        expected, got = assert_same_as_numpy(globals()[name], compiled(name), *args)
    assert "NPR033" not in notes(name)  # a lax loop, not one traced per iteration
    if name == "shift_until_still":
        assert got[1] == expected[1]
    if name == "jacobi_to_tolerance":
        assert got[1] == expected[1] and (expected[1] < 2000 - 1 or args[3] == 5)  # the break's trip


@pytest.mark.parametrize("name, args", [
    ("written_after", (U, 5)), ("seen_by_another", (U, 4)),
])
def test_a_buffer_written_after_the_binding_keeps_numpys_aliasing(name, args):
    # no snapshot, but a lax loop: its first trip alone, then the buffer u is bound to each trip
    # refilled into one Ref of the loop's (rt/rebinds.py), as nothing else holds it at the trip's end
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        assert_same_as_numpy(globals()[name], compiled(name), *args)
    assert "NPR033" not in notes(name)


def test_a_binding_that_may_not_run_every_iteration_is_still_refused():
    assert "NPR011" in notes("while_written_after")
    with pytest.raises(np2ref.Np2RefError, match="NPR030"):  # (a Python loop; the `if` is on data)
        compiled("bound_in_a_branch")(U, RNG.random(6), 6)


def test_a_binding_in_a_branch_with_a_write_after_it_is_no_snapshot():
    """`u = unew` then `unew[0] += 1.0` in the `if` that holds it: NumPy's u sees the write, so the
    binding is no load; the `if` on data rebinding a written array stays refused."""
    with pytest.raises(np2ref.Np2RefError, match="NPR030"):
        compiled("bound_in_a_branch_then_written")(U, RNG.random(6), 6)
