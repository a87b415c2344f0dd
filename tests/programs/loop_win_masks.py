"""Masked stores into windows that move with the loop variable (rt/win_views.py): a window of a
static width at a traced offset, bound as a view and written through, or written in place
(`out[i:i + k][m] op= v`); overlapping windows, so each iteration sees the earlier writes."""

import numpy as np


def clip_windows(a, k):
    """A view bound to the window, a mask of it, a scalar stored."""
    out = a.copy()
    for i in range(a.shape[0] - k + 1):
        w = out[i:i + k]
        w[w < 0] = 0.0
    return out


def masked_add_window(a, b, k):
    """`out[i:i + k][m] += v`, the mask from a window of another array."""
    out = np.zeros_like(a)
    for i in range(a.shape[0] - k + 1):
        seg = a[i:i + k]
        out[i:i + k][seg > 0] += b[i]
    return out


def halve_big(a, k):
    """The value a window-shaped expression of the masked view (`w[m] = w[m] // 2`), then
    repeated writes through the same view; into the argument itself."""
    for i in range(a.shape[0] - k + 1):
        w = a[i:i + k]
        big = w > 3
        w[big] = w[big] // 2
        w[w < 0] += 1
        w[...] += 1
    return a.sum()


def add_selected(a, b, k):
    """`w[m] += b[i:i + k][m]`: the mask and the value from another window of the same width."""
    out = a.copy()
    for i in range(a.shape[0] - k + 1):
        w = out[i:i + k]
        m = b[i:i + k] > 0
        w[m] += b[i:i + k][m]
    return out


def ragged_sub(a, b, k):
    """Windows that run past the end (i up to n - 2, width k): NumPy's slice is shorter there."""
    out = a.copy()
    for i in range(a.shape[0] - 1):
        out[i:i + k][b[i:i + k] > 0] -= 1
    return out


def ragged_view(a, k):
    """A ragged window bound as a view: mask and value from the view itself."""
    out = a.copy()
    for i in range(a.shape[0]):
        w = out[i:i + k]
        w[w > 2] = w[w > 2] - 1
        w[w < 0] *= 2
    return out


def ragged_scalar_index(a, k, stop):
    """An integer index into a window that may be shorter than it (NumPy raises past its end):
    not provable at any length, so the loop runs as Python (exact)."""
    out = a.copy()
    for i in range(stop):
        w = out[i:i + k]
        w[1] = w[0]
    return out


def ragged_rows(A, k):
    """Rows of a 2-D window selected by a mask of another array's window (the mask on the
    window's first axis), ragged at the end; then a 2-D mask of the window itself."""
    out = A.copy()
    for i in range(A.shape[0]):
        out[i:i + k][A[i:i + k, 0] > 0] -= 1
        w = out[:, i:i + k]
        w[w < -1] = -1
    return out


def neg_start(a):
    """`u[i - 1:i + 2]` at i = 0 is `u[-1:2]`: empty when the axis is longer than 3, the last
    element when the axis has 3 (NumPy's clipping), through a masked store."""
    out = a.copy()
    for i in range(a.shape[0]):
        w = out[i - 1:i + 2]
        w[w > 0] -= 1
    return out
