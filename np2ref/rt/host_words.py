"""64-bit values across the host boundary (print, opaque calls, draws): how a float64 or int64
operand leaves the program for a host callback, and how a host result comes back.

JAX converts a callback's operands and results with the x64 setting of the thread that runs
it (XLA's, not the caller's jax.enable_x64): float64 would cross as float32, int64 as int32
(a printed energy 3e-6 off, `rng.normal(mu)` drawn about a rounded mu). So a 64-bit value
crosses as two 32-bit words:

- IEEE float64 (CPU, GPU) and every 64-bit integer: its bits, as two uint32 words
  (`bitcast_convert_type` in the program, `.view` on the host);
- a float64 operand on a TPU: the float32 pair the TPU computes with (hi, lo), summed in IEEE
  float64 on the host. A TPU has no float64 unit: XLA emulates float64 as a pair of float32
  values, and its bitcast of a float64 to words gives the pair's float32 bits, not IEEE's
  (benchmarks/tpu_host_words.py on the chip, 2026-12-06: a printed 31.5 came out 7516192768.0,
  the float32 bits of 31.5 read as a float64's high word). The pair (hi = float32(v),
  lo = float32(v - hi)) is the value the TPU computes with. Words bitcast *to* a float64 are
  read right there, so results come back as IEEE bits everywhere (a draw keeps all 53 bits).

And when a host effect is over: a compiled call returns once its prints, warnings and host calls
have run (NumPy's order: a print inside the call shows before the caller's next line), though
dispatch is asynchronous on an accelerator (a TPU ran a program whose results were Python
values only after the call had returned, its print escaping the caller's capture).
"""

import jax
from jax import lax
import jax.numpy as jnp
import numpy as np


# whether any program traced in this process holds a host callback (print, warning, host call,
# draw): until one does, a call waits for nothing (jax.effects_barrier costs 3 us a call)
_npr_HOST_EFFECTS = {"traced": False}


def _npr_note_callback():
    """Note, while tracing, that the program holds a host callback."""
    _npr_HOST_EFFECTS["traced"] = True


def _npr_settled(out):
    """out, once the host callbacks of the programs called so far have run."""
    if _npr_HOST_EFFECTS["traced"]:
        jax.effects_barrier()
    return out


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
            lo = jnp.where(jnp.isfinite(hi), v - hi.astype(v.dtype), 0.0)  # inf's own: no inf - inf
            return jnp.stack([hi, lo.astype(np.float32)], axis=-1)
        if jnp.ndim(v) == 0:  # jax 0.10.2's XLA:CPU crashed (SIGSEGV) on a 0-d bitcast of a reduction
            # of 4,096 or more float64 values (`jit(lambda u: bitcast_convert_type(u.max(), uint32))`): as 1-d
            return lax.bitcast_convert_type(jnp.reshape(v, (1,)), np.uint32).reshape(2)
        return lax.bitcast_convert_type(v, np.uint32)

    @staticmethod
    def spec(shape, dt):
        """The ShapeDtypeStruct of a callback result of `shape` and dtype dt (wide) as words."""
        words = (2, 2) if np.dtype(dt).kind == "c" else (2,)
        return jax.ShapeDtypeStruct(tuple(shape) + words, np.uint32)

    @staticmethod
    def take(out, dt):
        """The value of dtype dt whose words (IEEE bits: a TPU reads them right) a callback returned."""
        dt = np.dtype(dt)
        whole = lax.bitcast_convert_type(out, np.float64 if dt.kind == "c" else dt)
        return lax.complex(whole[..., 0], whole[..., 1]) if dt.kind == "c" else whole

    # ---- on the host ----------------------------------------------------------------------
    def received(self, v, dt):
        """The host's value (dtype dt, wide) of words `send` made."""
        dt = np.dtype(dt)
        v = np.asarray(v)
        if self._paired(dt):  # (a 0-d sum is NumPy's scalar: an array, as the IEEE path's view)
            whole = np.asarray(v[..., 0].astype(np.float64) + v[..., 1].astype(np.float64))
        else:
            whole = np.ascontiguousarray(v, np.uint32).view(np.float64 if dt.kind == "c" else dt)[..., 0]
        return np.asarray(whole[..., 0] + 1j * whole[..., 1], dt) if dt.kind == "c" else whole

    @classmethod
    def returned(cls, value, shape, dt):
        """The words of a host result (dtype dt, wide) for `take`."""
        value = np.ascontiguousarray(np.asarray(value, dtype=dt).reshape(shape))
        return value.view(np.uint32).reshape(cls.spec(shape, dt).shape)


def _npr_host_operands(operands):
    """(what to send, how the host gets the values back): 64-bit values cross as two 32-bit
    words (the module docstring says why and how)."""
    dtypes = [np.dtype(v.dtype) for v in operands]
    wide = [_npr_wide(dt) for dt in dtypes]
    words = NprWords()

    def received(values):
        return [words.received(v, dt) if w else np.asarray(v) for v, dt, w in zip(values, dtypes, wide)]
    return [words.send(v, dt) if w else v for v, dt, w in zip(operands, dtypes, wide)], received
