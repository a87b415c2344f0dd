"""What float64 on this device holds of a zero's sign (docs/tpu.md, "What float64 on a TPU
cannot hold"): -0.0 sent to the device and back, 0.0 / -3.0, -0.0 * 1.0, negation, and five ways
of reading a zero's sign (a reciprocal, a 64-bit bitcast, a float32 bitcast, atan2, a select of
constants). On IEEE float64 (a CPU) every row shows the sign; on a TPU v5e (jax 0.10.2,
2026-12-06) -0.0 came back 0.0 and only negation made a negative zero.

    python benchmarks/tpu_zero_sign.py
"""
import jax, jax.numpy as jnp, numpy as np
from jax import lax
jax.config.update("jax_enable_x64", True)
v = np.array([0.0, -0.0, 3.0, -3.0])
b = np.array([-3.0, -3.0, -3.0, 3.0])
def probes(v, b):
    f32 = lax.convert_element_type(v, jnp.float32)
    return {
        "roundtrip": v,
        "div v/b": v / b,
        "mul v*1": v * 1.0,
        "neg": -v,
        "recip<0": (1.0 / jnp.where(v == 0, v, 1.0)) < 0,
        "bitcast64<0": lax.bitcast_convert_type(v, jnp.int64) < 0,
        "f32 bitcast<0": lax.bitcast_convert_type(f32, jnp.int32) < 0,
        "f32 recip<0": (1.0 / jnp.where(f32 == 0, f32, 1.0)) < 0,
        "atan2<0": jnp.arctan2(v, -1.0) < 0,
        "where const": jnp.where(v == 0, -0.0, 0.0),
        "select(-0)": jnp.where(b < 0, -0.0 * jnp.ones_like(v), 0.0),
    }
for name, fn in [("jit", jax.jit(probes))]:
    try:
        out = fn(v, b)
        for k, x in out.items():
            x = np.asarray(x)
            print(f"{k:14s}", x if x.dtype == bool else np.signbit(x), x)
    except Exception as e:
        print("ERR", type(e).__name__, str(e)[:300])
for k in ["bitcast64<0"]:
    try:
        print(k, "text", "shift" in jax.jit(lambda v: lax.bitcast_convert_type(v, jnp.int64) < 0).lower(v).as_text())
    except Exception as e:
        print("ERR", e)
