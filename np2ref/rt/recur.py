"""npr_recur: an element a loop's trip stored, carried to the later trips that read it back.

`for n in range(2, N): y[n] = b * x[n] - a1 * y[n - 1] - a2 * y[n - 2]` reads back what the two
trips before stored (rewrite/recurrences.py proves that no other write reaches those elements).
The translation keeps the store and carries the last `depth` stored elements as loop values:

    _y_was = npr_recur(_range_n, y, 0, 2)       # y[1], y[0]: what the first trip reads
    def _loop_n(n, carry):
        e, _y_was1, _y_was2 = carry
        npr_at(y)[n] = b * x[n] - a1 * _y_was.read(y, _y_was1, n - 1) - a2 * _y_was.read(y, _y_was2, n - 2)
        return e, _y_was.stored(y, n), _y_was1

Why: a read of an element the trip before stored is a gather from the array the loop updates in
place, one more dependent memory round trip per trip; on a TPU iir_filter took 3.0x its hand port,
which carries y[n - 1], y[n - 2] as scalars. Exact: the carried value is the stored one, in the
array's dtype, taken from the store itself (views._npr_element_read: NumPy's cast of the value,
as the array then holds it), so every later read sees the bits the array holds. Decided when the
loop is traced, with its bounds known (`on`): a traced range, an array other than a 1-d Ref or
view of one (thomas_tridiag's rows of `work`, which npr_for gives the body as Refs of their own), or
an index the original would wrap (negative) or find out of range keeps every read as it was (the
carried values are then zeros nobody reads), so NumPy's IndexError still comes from the same read.
"""

import jax
import jax.numpy as jnp
import numpy as np

from .core import npr_load
from .views import NprView, _npr_element_read, _npr_overlap, npr_get


# Whether loops carry what they read back: None, everywhere but on a TPU, and there for 64-bit
# arrays. On the chip (tpu_carry8.py, TPU v5e, 2026-12-07, device-resident / hand port) a lax loop
# reads a float32 element back faster than it carries one: read back / carried, the prefix sum
# 0.38 / 1.21, a second-order recurrence 0.23 / 1.13, thomas_tridiag 0.11 / 1.46; a float64 one,
# emulated as a pair of float32 words, slower or as fast: iir_filter 1.82 / 0.75, the second-order
# recurrence with a running energy 1.66 / 1.11, biquad_plain 0.86 / 0.62, the others 1.0-2.2 both.
_npr_RECUR = {"on": None}


def _npr_recur_on(dtype):
    on = _npr_RECUR["on"]
    if on is not None:
        return bool(on)
    return jax.default_backend() != "tpu" or np.dtype(dtype).itemsize == 8


class NprRecur:
    """The stores into `ref[i + at]` of a `range` loop over i, the last `depth` carried."""

    __slots__ = ("on", "first", "_zero")

    def __init__(self, rng, ref, at, depth, written=()):
        # another array the body writes may be y's buffer when the caller passed one array as
        # two parameters (np2ref then gives both the same Ref): its stores would change y
        dtype = ref.dtype if isinstance(ref, (jax.Ref, NprView)) else jnp.result_type(ref)
        bounds = None if not _npr_recur_on(dtype) or any(_npr_overlap(ref, w) for w in written) \
            else _npr_bounds(rng, ref, at, depth)
        self.on = bounds is not None
        self._zero = jnp.zeros((), dtype)
        if self.on:  # what the first trip reads: the elements 1..depth trips before its store
            start, step = bounds
            loaded = npr_load(ref)
            self.first = tuple(loaded[start + at - step * k] for k in range(1, depth + 1))
        else:
            self.first = (self._zero,) * depth

    # The body names the array itself (`read(y, ...)`), never this object: npr_for may give the
    # body a Ref of its own for it (loops._npr_split_views rebinds the body's closure), which an
    # array held here would not follow (thomas_tridiag's rows of `work` read stale, by 1e-5).
    def read(self, ref, slot, idx):
        """The read `ref[idx]` whose element the carried `slot` holds (the array's when off)."""
        return slot if self.on else npr_get(ref)[idx]

    def stored(self, ref, idx):
        """What `ref[idx]` holds after this trip's store into it, taken from the store."""
        if not self.on:
            return self._zero
        value = _npr_element_read(ref, idx, feeds_store=True) if isinstance(ref, jax.Ref) else None
        return value if value is not None else npr_get(ref)[idx]  # (a view the body did not get as a Ref)


def _npr_bounds(rng, ref, at, depth):
    """(start, step) when the loop's every store `ref[i + at]` and read `ref[i + at - step * d]`
    (d <= depth) is an index in range, not negative, over a range of at least one trip known
    now; else None."""
    start, stop, step = (getattr(rng, a, None) for a in ("start", "stop", "step"))
    if not (isinstance(ref, (jax.Ref, NprView)) and ref.ndim == 1) or not all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (start, stop, step)):
        return None
    start, stop, step = int(start), int(stop), int(step)
    if step not in (1, -1):
        return None
    trips = len(range(start, stop, step))
    if trips == 0:
        return None
    last = start + (trips - 1) * step
    ends = [i + at - step * d for i in (start, last) for d in (0, depth)]
    return (start, step) if 0 <= min(ends) and max(ends) < ref.shape[0] else None


def npr_recur(rng, ref, at, depth, *written):
    """NprRecur: `ref[i + at]`'s stores in the `range` loop `rng`, the last `depth` carried;
    `written`: the other arrays the loop writes."""
    return NprRecur(rng, ref, at, depth, written)
