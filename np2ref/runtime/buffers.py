"""64-byte-aligned NumPy arrays: what XLA on CPU takes without a copy.

`jax.jit` (and `np2ref.compile`) hands a NumPy argument to XLA:CPU without copying it when its
buffer is C-contiguous and aligned to 64 bytes; otherwise every call copies it into a new
buffer first (a 160 MB matrix: ~100 ms a call on a 2-core VM, against ~0.01 ms aligned).
NumPy's allocator aligns to 16 bytes only, so large arrays land 16 bytes past a 64-byte
boundary. These helpers allocate (or copy once into) aligned NumPy arrays: ordinary, writable
NumPy arrays in every other respect. Only the arguments a function reads benefit: written ones
are copied and written back either way (NumPy's write-back, exact).
"""

from __future__ import annotations

import numpy as np

ALIGNMENT = 64  # bytes: XLA:CPU's minimum alignment for taking a host buffer as it is


def aligned_empty(shape, dtype=float) -> np.ndarray:
    """`np.empty(shape, dtype)`, C-contiguous, its data aligned to ALIGNMENT bytes."""
    dtype = np.dtype(dtype)
    shape = (shape,) if np.ndim(shape) == 0 else tuple(shape)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + ALIGNMENT, np.uint8)
    start = -raw.ctypes.data % ALIGNMENT
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def aligned_zeros(shape, dtype=float) -> np.ndarray:
    """`np.zeros(shape, dtype)`, aligned as aligned_empty."""
    out = aligned_empty(shape, dtype)
    out[...] = 0
    return out


def is_aligned(x) -> bool:
    """Whether XLA:CPU can take NumPy array `x` without a copy (C-contiguous, aligned)."""
    return x.flags.c_contiguous and x.ctypes.data % ALIGNMENT == 0


def aligned(x) -> np.ndarray:
    """`x` itself when it is a C-contiguous NumPy array aligned to ALIGNMENT bytes, else an
    aligned copy of it (same values, dtype and shape): make it once, outside a loop, and pass
    it to every call."""
    x = np.asarray(x)
    if is_aligned(x):
        return x
    out = aligned_empty(x.shape, x.dtype)
    np.copyto(out, x)
    return out
