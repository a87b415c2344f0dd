"""Writes through views that helpers return (frontend/view_helpers.py): the helper's body is
`return a[<basic index>]`, so its call is the index it stands for."""

import numpy as np


def interior(a):
    """The interior of a 1-D or 2-D grid."""
    return a[1:-1]


def inner2d(a):
    return a[1:-1, 1:-1]


def ghost_left(a):
    return a[:1]


def band(a, k):
    return a[k:-k]


def every_other(a):
    return a[::2]


def copied(a):
    return a[1:-1].copy()


def halve_(v):
    v *= 0.5


def advect(u, c, d, nsteps):
    """boundary_view_helpers' step: writes through interior() and ghost_left()."""
    for step in range(nsteps):
        flux = c * (u[1:-1] - u[:-2]) - d * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        interior(u)[:] -= flux
        ghost_left(u)[...] = u[-2]
        u[-1] = u[1]
    return u.sum()


def bound_then_written(u, k):
    """A name bound to the view, written in place (NPR203 on main)."""
    inner = inner2d(u)
    inner *= 3
    inner -= u[0, 0] + 1
    inner[0] = k
    return inner.sum(), u.dtype


def band_steps(u, k, n):
    """A parameter in the helper's slice bounds; `+=` through the call's view, in a loop."""
    for _ in range(n):
        band(u, k)[::2] += 1
        every_other(u)[...] *= 2
    return u


def written_by_calls(u, x, i):
    """out=, an in-place method, np.copyto, np.add.at and a helper that writes its argument."""
    np.multiply(x, 2, out=interior(u))
    total = float(u.sum())
    interior(u).fill(3)
    np.copyto(interior(u), x)
    np.add.at(interior(u), i, 1)
    halve_(interior(u))
    view = interior(u)
    return total, view.sum()


def copy_not_view(u):
    """copied() returns a copy: writing it leaves `u` as it was (not inlined: another body)."""
    c = copied(u)
    c[:] = 0.0
    u[0] += c.sum() + 1.0
    return u


def pick(a, k):
    return a[k]


def fancy_copy_written(u, idx, i):
    """`pick(u, idx)` with an index array is a copy: writing it leaves `u` as it was; with an
    int, a view: the row is written."""
    pick(u, idx)[...] = -1.0
    row = pick(u, i)
    row += 10.0
    return u
