"""64-bit values across the host boundary (print, opaque calls, draws): how a float64 or int64
operand leaves the program for a host callback, and how a host result comes back.

JAX converts a callback's operands and results with the x64 setting of the thread that runs
it (XLA's, not the caller's jax.enable_x64): float64 would cross as float32, int64 as int32
(a printed energy 3e-6 off, `rng.normal(mu)` drawn about a rounded mu). So a 64-bit value
crosses as two 32-bit words:

- IEEE float64 (CPU, GPU) and every 64-bit integer: its bits, as two uint32 words
  (`bitcast_convert_type` in the program, `.view` on the host);
- float64 on a TPU: the float32 pair the TPU holds (hi, lo), summed in IEEE float64 on the
  host. A TPU has no float64 unit: XLA emulates float64 as a pair of float32 values, and its
  bitcast of such a value gives the pair's float32 bits, not IEEE's (measured on the chip,
  2026-12-06: a printed 31.5 came out 7516192768.0, the float32 bits of 31.5 read as a float64's
  high word). The pair (hi = float32(v), lo = float32(v - hi)) is the TPU's value exactly.
"""

import jax
from jax import lax
import jax.numpy as jnp
import numpy as np


# None: pairs where the default backend is a TPU; True/False forces them (the CPU tests)
_npr_FLOAT_PAIRS = {"on": None}


def _npr_pairs() -> bool:
    on = _npr_FLOAT_PAIRS["on"]
    return jax.default_backend() == "tpu" if on is None else on


def _npr_wide(dt) -> bool:
    """Does a value of dtype dt cross as words (64-bit numbers, complex128)?"""
    dt = np.dtype(dt)
    return dt.itemsize == 8 and dt.kind in "iuf" or dt == np.complex128


class NprWords:
    """The encoding of one trace's 64-bit values: IEEE bits, or float64 as float32 pairs."""

    def __init__(self):
        self.pairs = _npr_pairs()

    def _paired(self, dt) -> bool:
        return self.pairs and np.dtype(dt).kind in "fc"

    # ---- in the program -------------------------------------------------------------------
    def send(self, v, dt):
        """The words of v (dtype dt, wide) to hand to a callback: shape + (2,) (complex: + (2, 2))."""
        if np.dtype(dt).kind == "c":
            v = jnp.stack([jnp.real(v), jnp.imag(v)], axis=-1)
        if self._paired(dt):
            hi = v.astype(np.float32)
            return jnp.stack([hi, (v - hi.astype(v.dtype)).astype(np.float32)], axis=-1)
        if jnp.ndim(v) == 0:  # jax 0.10.2's XLA:CPU crashed (SIGSEGV) on a 0-d bitcast of a reduction
            # of 4,096 or more float64 values (`jit(lambda u: bitcast_convert_type(u.max(), uint32))`): as 1-d
            return lax.bitcast_convert_type(jnp.reshape(v, (1,)), np.uint32).reshape(2)
        return lax.bitcast_convert_type(v, np.uint32)

    def spec(self, shape, dt):
        """The ShapeDtypeStruct of a callback result of `shape` and dtype dt (wide) as words."""
        words = (2, 2) if np.dtype(dt).kind == "c" else (2,)
        return jax.ShapeDtypeStruct(tuple(shape) + words, np.float32 if self._paired(dt) else np.uint32)

    def take(self, out, dt):
        """The value of dtype dt whose words a callback returned (`spec`)."""
        dt = np.dtype(dt)
        if self._paired(dt):
            f64 = np.dtype(np.float64)
            whole = out[..., 0].astype(f64) + out[..., 1].astype(f64)
        else:
            whole = lax.bitcast_convert_type(out, np.float64 if dt.kind == "c" else dt)
        return lax.complex(whole[..., 0], whole[..., 1]) if dt.kind == "c" else whole

    # ---- on the host ----------------------------------------------------------------------
    def received(self, v, dt):
        """The host's value (dtype dt, wide) of words `send` made."""
        dt = np.dtype(dt)
        v = np.asarray(v)
        if self._paired(dt):
            whole = v[..., 0].astype(np.float64) + v[..., 1].astype(np.float64)
        else:
            whole = np.ascontiguousarray(v, np.uint32).view(np.float64 if dt.kind == "c" else dt)[..., 0]
        return (whole[..., 0] + 1j * whole[..., 1]).astype(dt) if dt.kind == "c" else whole

    def returned(self, value, shape, dt):
        """The words of a host result (dtype dt, wide) for `take`."""
        value = np.asarray(value, dtype=dt).reshape(shape)
        if np.dtype(dt).kind == "c":
            value = np.stack([value.real, value.imag], axis=-1)
        if self._paired(dt):
            with np.errstate(over="ignore", invalid="ignore"):  # beyond float32: what a TPU holds as inf
                hi = value.astype(np.float32)
                lo = np.where(np.isfinite(hi), value - hi.astype(np.float64), 0.0).astype(np.float32)
            return np.stack([hi, lo], axis=-1)
        return np.ascontiguousarray(value).view(np.uint32).reshape(self.spec(shape, dt).shape)
