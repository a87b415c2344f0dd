"""`A[i + c]` in lanes as a slice, not a gather (issue 39).

Under jax.vmap over a loop's lanes (vectorise.py's npr_vfor, sum_reorder.py's npr_sum_for) the lane
variable is an iota, and `A[i - 1]` with a batched i is a gather: one index per lane, which XLA:CPU
runs element by element where the hand port reads the slice `A[:-2]`. A lane variable is noted
here when it is made (`_npr_note_lane`: its first value and step); a read whose integer index is
a noted lane variable plus an int literal (`i - 1`, `k + 2`: compat._npr_affine follows it back)
goes through `_npr_lane_take`, a jax.custom_batching.custom_vmap function whose batching rule, at
the vmap whose iota that index is, reads the lanes' positions as static slices of A put side by side (`_npr_positions`: a negative
position counted from the end, as NumPy's index is, and one past the axis clamped, as jnp's
gather clamps it: lanes the range does not hold, or an index NumPy refuses, which the bounds
check reports as before). The
other indices are read the same way at their own vmap (`B[i, k]` in syr2k's reordered sum: k at
the inner vmap, i at the outer one). Only directly in the lanes (or in vmaps nested in them): in
a loop body inside the lanes (syrk's k loop without sums="reorder") the whole slice would be
made again every trip, 2x slower than the gather of one element a lane, so the gather stays. Anything else (a batched array, two indices of one vmap, a
step other than 1) is the plain read, as before. Values are the gather's bit for bit: a read
moves no arithmetic. Not under differentiation (custom_vmap has no reverse-mode rule): the lanes
are noted only where no derivative is taken.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.custom_batching import custom_vmap

from .bounds import _npr_wide
from .compat import (
    _npr_affine, _npr_current_trace, _npr_linear, _npr_traced, _npr_unbatched, _npr_vmaps_within)

_npr_LANES = {}  # id(the lane variable's per-batch value) -> (start, step, that value)
_npr_LANE_WINDOWS = {"slices": True}  # False: a window in lanes is the gather (benchmarks/tpu_chip7.py)


def _npr_note_lane(k, start, step):
    """Note the vmapped lane variable k: in lane j it is start + j * step."""
    val = (_npr_unbatched(k) or (None,))[0]
    if val is None:
        return
    if len(_npr_LANES) > 256:  # the oldest (traces that ended); an outer lane's note is recent
        for key in list(_npr_LANES)[:-128]:
            del _npr_LANES[key]
    _npr_LANES[id(val)] = (int(start), int(step), val, _npr_current_trace())


def _npr_lane_of(e):
    """(first position, step) of an index that is a noted lane variable plus a literal, else None."""
    val = (_npr_unbatched(e) or (None,))[0] if _npr_LANES else None
    if val is None:
        return None
    base, c = _npr_affine(val)
    hit = _npr_LANES.get(id(base))
    if hit is None or hit[2] is not base or not _npr_vmaps_within(_npr_current_trace(), hit[3]):
        return None  # (in a loop body inside the lanes the gather stays: a slice there is a copy a trip)
    return hit[0] + c, hit[1]


def _npr_lane_read(x, idx):
    """x[idx] (x an array) with each index that is a lane variable plus a literal read as a slice at
    its own vmap; None when no index is one, or idx has a form this does not take."""
    items = idx if isinstance(idx, tuple) else (idx,)
    if not _npr_LANES or len(items) > np.ndim(x) or not any(_npr_traced(e) for e in items):
        return None
    specs, traced, static = [], [], []
    for e in items:
        if _npr_traced(e):
            if np.ndim(e) != 0 or not jnp.issubdtype(jnp.result_type(e), jnp.integer):
                return None
            specs.append(_npr_lane_of(e))
            traced.append(e)
            static.append(None)
        elif isinstance(e, slice) or isinstance(e, (int, np.integer)) and not isinstance(e, bool):
            static.append(e)
        else:
            return None
    if all(s is None for s in specs):
        return None
    return _npr_take(x, tuple(static), tuple(specs), *traced)


def _npr_plain(x, static, es):
    it = iter(es)
    return x[tuple(_npr_wide(next(it)) if e is None else e for e in static)]


def _npr_take(x, static, specs, *es):
    """x[static with es in its None places]; at a vmap where exactly one of es is batched and is
    that vmap's lane (specs: (start, step) or None), that index a slice."""
    if not es:
        return x[static]

    @custom_vmap
    def take(x, *es):
        return _npr_plain(x, static, es)

    @take.def_vmap
    def rule(axis_size, in_batched, x, *es):
        hit = [k for k, b in enumerate(in_batched[1:]) if b]
        if in_batched[0] or len(hit) != 1 or specs[hit[0]] is None or specs[hit[0]][1] != 1 or not x.size:
            axes = [0 if b else None for b in in_batched]
            return jax.vmap(lambda x, *es: _npr_plain(x, static, es), in_axes=axes)(x, *es), True
        k = hit[0]
        at = [p for p, e in enumerate(static) if e is None][k]  # the axis of x that index reads
        lanes = _npr_positions(x, specs[k][0], axis_size, at)
        rest_static = static[:at] + (slice(None),) + static[at + 1:]
        rest = [e for j, e in enumerate(es) if j != k]
        out = _npr_take(lanes, rest_static, specs[:k] + specs[k + 1:], *rest)
        lane_axis = sum(isinstance(e, slice) for e in static[:at])  # where axis `at` is in the result
        return jnp.moveaxis(out, lane_axis, 0), True

    return take(x, *es)


def _npr_positions(x, start, count, at):
    """x at positions start, start + 1, ... (count of them) along axis `at`, each as jnp's `x[p]`
    reads it (a negative p counted from the end, then clamped into the axis): static slices of x
    put side by side, no gather."""
    n, end, p, pieces = x.shape[at], start + count, start, []
    for lo, hi, shift in ((-n, 0, n), (0, n, 0)):  # the wrapped negatives, then the axis itself
        if p < end and p < hi:
            if p < lo:  # below: clamped to the axis's first element
                pieces.append(jnp.repeat(lax.slice_in_dim(x, 0, 1, axis=at), min(end, lo) - p, axis=at))
                p = min(end, lo)
            if p < end:
                top = min(end, hi)
                pieces.append(lax.slice_in_dim(x, p + shift, top + shift, axis=at))
                p = top
    if p < end:  # past the end: clamped to its last element
        pieces.append(jnp.repeat(lax.slice_in_dim(x, n - 1, n, axis=at), end - p, axis=at))
    return pieces[0] if len(pieces) == 1 else jnp.concatenate(pieces, axis=at)


def _npr_lane_window(x, lo, width, axis):
    """lax.dynamic_slice_in_dim(x, lo, width, axis) of a window proved inside its axis
    (windows.py `_npr_cut`); at the vmap whose lane variable k gives lo = m * k + c (the CNN's
    `x[:, 2 * i:2 * i + 2]` pooling window, a convolution's `x[:, i:i + 3]` patch), the lanes'
    windows as `width` strided static slices of x put side by side, not a gather (a TPU's
    gathers are slow; XLA:CPU's run element by element). The same elements: a read moves no
    arithmetic. Lanes whose window would leave the axis (those outside the loop's range) keep
    the gather."""
    unbatched = _npr_unbatched(lo) if _npr_LANES and _npr_LANE_WINDOWS["slices"] else None
    if unbatched is None or np.ndim(lo) != 0:
        return lax.dynamic_slice_in_dim(x, lo, width, axis)
    base, m, c = _npr_linear(unbatched[0], lambda t: id(t) in _npr_LANES and _npr_LANES[id(t)][2] is t)
    hit = _npr_LANES.get(id(base))
    if hit is None or hit[2] is not base or not _npr_vmaps_within(_npr_current_trace(), hit[3]):
        return lax.dynamic_slice_in_dim(x, lo, width, axis)
    first, stride = m * hit[0] + c, m * hit[1]

    @custom_vmap
    def window(x, lo):
        return lax.dynamic_slice_in_dim(x, lo, width, axis)

    @window.def_vmap
    def rule(axis_size, in_batched, x, lo):
        last = first + stride * (axis_size - 1)
        if in_batched[0] or not in_batched[1] or stride < 1 or first < 0 or last + width > x.shape[axis]:
            axes = [0 if b else None for b in in_batched]
            return jax.vmap(lambda x, lo: lax.dynamic_slice_in_dim(x, lo, width, axis), in_axes=axes)(x, lo), True
        cols = [lax.slice_in_dim(x, first + d, last + d + 1, stride, axis) for d in range(width)]
        return jnp.moveaxis(jnp.stack(cols, axis=axis + 1), axis, 0), True

    return window(x, lo)
