"""64-byte-aligned NumPy arrays: what XLA on CPU takes without a copy, and the staging buffers
a compiled call copies large unaligned read-only arguments into.

`jax.jit` hands a NumPy argument to XLA:CPU without a copy when its buffer is C-contiguous
and aligned to 64 bytes; otherwise XLA copies it into a new buffer on every call (a 4000x5000
float64 matrix: ~90 ms a call on a 2-core VM, against ~0.01 ms aligned). NumPy's allocator
aligns to 16 bytes only. np2ref.aligned / aligned_empty / aligned_zeros (these, public) make
aligned NumPy arrays once; _NprStaging copies an unaligned read-only argument into a buffer
kept between calls, 2-5x faster than XLA's copy into a fresh one (no page faults).
_npr_results_numpy hands a large result out as a writable NumPy array over XLA's own output
buffer, where that buffer is the result's alone, instead of copying it.
"""

import sys as _npr_sys
import threading as _npr_threading

import jax as _npr_jax
import numpy as np

_NPR_ALIGNMENT = 64  # bytes: XLA:CPU's minimum alignment for taking a host buffer as it is
_NPR_STAGE_BYTES = 1 << 16  # read-only NumPy arguments from this size on are staged


def npr_aligned_empty(shape, dtype=float):
    """`np.empty(shape, dtype)`, C-contiguous, its data aligned to 64 bytes: an ordinary
    writable NumPy array that np2ref.compile (and jax.jit) take without a copy on CPU."""
    dtype = np.dtype(dtype)
    shape = (int(shape),) if np.ndim(shape) == 0 else tuple(shape)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + _NPR_ALIGNMENT, np.uint8)
    start = -raw.ctypes.data % _NPR_ALIGNMENT
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def npr_aligned_zeros(shape, dtype=float):
    """`np.zeros(shape, dtype)`, aligned as npr_aligned_empty."""
    out = npr_aligned_empty(shape, dtype)
    out[...] = 0
    return out


def _npr_is_aligned(x):
    return x.flags.c_contiguous and x.ctypes.data % _NPR_ALIGNMENT == 0


def npr_aligned(x):
    """`x` itself when it is a C-contiguous NumPy array aligned to 64 bytes, else an aligned
    copy (same values, dtype and shape): make it once, outside a loop, and pass it to every
    call. Only arguments a function reads gain: written ones are copied in either way."""
    x = np.asarray(x)
    if _npr_is_aligned(x):
        return x
    out = npr_aligned_empty(x.shape, x.dtype)
    np.copyto(out, x)
    return out


class _NprStaging:
    """Aligned buffers, one per argument position, that a plan's call copies its large
    unaligned read-only NumPy arguments into (XLA then reads them without a copy of its own).
    The buffers are np2ref's: nothing else writes them, and one call at a time uses them (the
    lock; a call that finds it held passes its arguments as they are). The call holds the lock
    until its results are NumPy arrays of their own, so no result can alias a buffer reused."""

    def __init__(self, positions):
        self.positions = positions  # the kept NumPy-array arguments' (name, position)
        self.lock = _npr_threading.Lock()
        self.buffers = {}

    def wanted(self, args):
        return any(args[i].nbytes >= _NPR_STAGE_BYTES and not _npr_is_aligned(args[i])
                   for _, i in self.positions)

    def inputs(self, args, kept):
        """The `kept` arguments ((name, position) pairs) by name, the large unaligned NumPy
        arrays among them replaced by staged copies."""
        out = {name: args[i] for name, i in kept}
        for name, i in self.positions:
            v = args[i]
            if v.nbytes >= _NPR_STAGE_BYTES and not _npr_is_aligned(v):
                buf = self.buffers.get(i)
                if buf is None or buf.shape != v.shape or buf.dtype != v.dtype:
                    buf = self.buffers[i] = npr_aligned_empty(v.shape, v.dtype)
                np.copyto(buf, v)
                out[name] = buf
        return out


_NPR_VIEW_BYTES = 1 << 16  # results from this size on are handed out without a copy, where exact


class _NprResultBuffer:
    """The owner of a result's jax.Array on CPU, through which NumPy views XLA's output buffer
    writably (the NumPy array's base): the jax.Array, and with it the buffer, lives as long as
    any NumPy view of it. Only made for a buffer nothing else holds (_npr_results_numpy)."""

    def __init__(self, array, view):
        self.array = array
        self.__array_interface__ = dict(view.__array_interface__, data=(view.ctypes.data, False))


def _npr_refs(items, k):
    return _npr_sys.getrefcount(items[k])


_NPR_FRESH_REFS = _npr_refs([object()], 0)  # an object only a list holds, counted as below


def _npr_buffer_pointer(x):
    """The address of a single-buffer jax.Array's data (on CPU, in host memory), else None."""
    if not isinstance(x, _npr_jax.Array) or len(x.sharding.device_set) != 1:
        return None
    try:
        return x.unsafe_buffer_pointer()
    except (ValueError, RuntimeError, NotImplementedError):
        return None


def _npr_overlaps(view, a):
    """Whether an argument of the call (a NumPy array, a jax.Array) may share view's memory."""
    if isinstance(a, np.ndarray):
        return np.may_share_memory(view, a)
    return isinstance(a, _npr_jax.Array) and _npr_buffer_pointer(a) == view.ctypes.data


def _npr_results_numpy(leaves, inputs=()):
    """A call's result leaves (jax.Arrays) as NumPy returns results: writable arrays of their
    own, a NumPy scalar for 0-d. A leaf of at least 64 KiB whose data lies in host memory
    (CPU: np.asarray is a read-only view of the buffer itself) becomes a writable view of
    XLA's output buffer, kept alive by a _NprResultBuffer, when that buffer is the leaf's
    alone: no other reference to the jax.Array (`leaves` is the jitted call's own list; a
    constant or an argument JAX forwarded to the output is held elsewhere), no overlap with
    an array the call passed in (`inputs`: a zero-copy NumPy argument forwarded would be the
    caller's or the staging buffer) nor with another leaf. XLA writes each output of a call
    into a buffer of its own (copy insertion), so on JAX 0.10.2 every large result qualifies;
    anything else is copied, as every result was before (one pass less over the data: 1000x1000
    float64, ~0.6 ms)."""
    out, views = [], []
    for k in range(len(leaves)):
        fresh = _npr_refs(leaves, k) <= _NPR_FRESH_REFS
        x = leaves[k]
        view = np.asarray(x)
        if view.nbytes < _NPR_VIEW_BYTES:  # small: copied (the common case first)
            out.append(view.copy() if view.ndim else view[()])
        elif view.flags.writeable:
            out.append(view)
        elif (fresh and view.nbytes >= _NPR_VIEW_BYTES and view.ctypes.data == _npr_buffer_pointer(x)
              and not any(_npr_overlaps(view, a) for a in inputs)
              and not any(np.may_share_memory(view, v) for v in views)):
            views.append(view)
            out.append(np.asarray(_NprResultBuffer(x, view)))
        else:
            out.append(view.copy())
    return out

