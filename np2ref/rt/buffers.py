"""64-byte-aligned NumPy arrays: what XLA on CPU takes without a copy, and the staging buffers
a compiled call copies large unaligned read-only arguments into.

`jax.jit` hands a NumPy argument to XLA:CPU without a copy when its buffer is C-contiguous
and aligned to 64 bytes; otherwise XLA copies it into a new buffer on every call (a 4000x5000
float64 matrix: ~90 ms a call on a 2-core VM, against ~0.01 ms aligned). NumPy's allocator
aligns to 16 bytes only. np2ref.aligned / aligned_empty / aligned_zeros (these, public) make
aligned NumPy arrays once; _NprStaging copies an unaligned read-only argument into a buffer
kept between calls, 2-5x faster than XLA's copy into a fresh one (no page faults).
"""

import threading as _npr_threading

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
