"""Why a TPU's int16 `(x * x) // 8` came back truncated (docs/tpu.md, tenth session): NumPy's
floor against np2ref's translation and against plain jax.numpy / lax forms, each printed with
its result, and the optimised HLO of np2ref's program. One chip call, a few seconds:
`python benchmarks/tpu_int16_floor.py` (on a CPU every row prints `same`)."""

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "programs"))
import np2ref  # noqa: E402
import wrapping_ints  # noqa: E402

X = np.array([-32768, 32767, 182, -182, 189, 3, -3, 0, -100, 100], dtype=np.int16)


def _floor_by_hand(s, d):
    q = lax.div(s, d)
    fix = (lax.rem(s, d) != 0) & ((s < 0) != (d < 0))
    return jnp.where(fix, q - 1, q)


def _unsigned_square(x):
    u = lax.bitcast_convert_type(x, jnp.uint16)
    return u * u


def _sign_extended(u16):
    """The uint16 bits as int16 through int32 arithmetic: (w ^ 0x8000) - 0x8000, then a narrowing convert."""
    w = u16.astype(jnp.uint32).astype(jnp.int32)
    return ((w ^ 0x8000) - 0x8000).astype(jnp.int16)


FORMS = {
    "jnp (x * x) // 8": lambda x: (x * x) // 8,
    "jnp floor_divide(square)": lambda x: jnp.floor_divide(jnp.square(x), jnp.int16(8)),
    "lax.div + fix": lambda x: _floor_by_hand(x * x, jnp.int16(8)),
    "unsigned square, bitcast, // 8": lambda x: lax.bitcast_convert_type(
        lax.bitcast_convert_type(x, jnp.uint16) * lax.bitcast_convert_type(x, jnp.uint16), jnp.int16) // 8,
    "shift right arithmetic 3": lambda x: lax.shift_right_arithmetic(x * x, jnp.int16(3)),
    "int32 square wrapped, // 8": lambda x: (x.astype(jnp.int32) * x.astype(jnp.int32)).astype(jnp.int16) // 8,
    "unsigned square, int32 sign-extended, // 8": lambda x: _sign_extended(_unsigned_square(x)) // 8,
    "unsigned square, bitcast, int32 // 8": lambda x: (lax.bitcast_convert_type(_unsigned_square(x), jnp.int16)
                                                      .astype(jnp.int32) // 8).astype(jnp.int16),
    "unsigned square, bitcast, sign": lambda x: jnp.sign(lax.bitcast_convert_type(_unsigned_square(x), jnp.int16)),
    "unsigned square, bitcast, < 0": lambda x: lax.bitcast_convert_type(_unsigned_square(x), jnp.int16) < 0,
    "unsigned square, bitcast, rem 8": lambda x: lax.rem(lax.bitcast_convert_type(_unsigned_square(x), jnp.int16),
                                                         jnp.int16(8)),
    "x * x (the square)": lambda x: x * x,
    "(x * x) < 0": lambda x: (x * x) < 0,
    "(x * x) % 8": lambda x: (x * x) % 8,
    "lax.div(x * x, 8)": lambda x: lax.div(x * x, jnp.int16(8)),
    "lax.rem(x * x, 8)": lambda x: lax.rem(x * x, jnp.int16(8)),
}


def main():
    print("devices", jax.devices())
    want_sq = X * X
    numpys = {"jnp (x * x) // 8": want_sq // 8, "jnp floor_divide(square)": want_sq // 8,
              "lax.div + fix": want_sq // 8, "unsigned square, bitcast, // 8": want_sq // 8,
              "shift right arithmetic 3": want_sq >> 3, "int32 square wrapped, // 8": want_sq // 8,
              "unsigned square, int32 sign-extended, // 8": want_sq // 8,
              "unsigned square, bitcast, int32 // 8": want_sq // 8,
              "unsigned square, bitcast, sign": np.sign(want_sq), "unsigned square, bitcast, < 0": want_sq < 0,
              "unsigned square, bitcast, rem 8": np.fmod(want_sq, 8),
              "x * x (the square)": want_sq, "(x * x) < 0": want_sq < 0, "(x * x) % 8": want_sq % 8,
              "lax.div(x * x, 8)": (np.trunc(want_sq / 8)).astype(np.int16),
              "lax.rem(x * x, 8)": np.fmod(want_sq, 8)}
    for name, form in FORMS.items():
        got = np.asarray(jax.jit(form)(X))
        ok = np.array_equal(got, numpys[name])
        print(f"{name:44s} {'same' if ok else 'DIFFERS'} {got.tolist()}" + ("" if ok else f" numpy {numpys[name].tolist()}"))
    compiled = np2ref.compile(wrapping_ints.operators, host_below=0)
    got = compiled(X.copy())[3]
    print(f"{'np2ref operators()[3]':34s} {'same' if np.array_equal(got, want_sq // 8) else 'DIFFERS'} {np.asarray(got).tolist()}")
    with jax.enable_x64(True):
        print(jax.make_jaxpr(compiled.pure)(X))
        lowered = jax.jit(compiled.pure).lower(X)
        print(lowered.compile().as_text())
        print("--- plain jnp (x * x) // 8 HLO ---")
        print(jax.jit(FORMS["jnp (x * x) // 8"]).lower(X).compile().as_text())


if __name__ == "__main__":
    main()
