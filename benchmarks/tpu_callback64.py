"""What a host callback receives from, and hands back to, a jitted program's float64 and int64
values on this device (a TPU emulates float64 with a pair of float32s). Prints one line a form.

    python benchmarks/tpu_callback64.py
"""
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback

X = np.array([0.0125, 1.0 / 3.0, -2.5e-7, 1e30], np.float64)
I = np.array([2**40 + 3, -(2**35) - 1], np.int64)
seen = {}


def keep(name):
    def cb(*args):
        seen[name] = [np.asarray(a) for a in args]
        return None
    return cb


def show(name, want):
    got = seen.get(name)
    if got is None:
        print(f"{name}: no call")
        return
    for g, w in zip(got, want):
        same = g.dtype == w.dtype and np.array_equal(g.astype(w.dtype), w)
        err = np.max(np.abs(g.astype(np.float64) - w.astype(np.float64)) / np.maximum(np.abs(w.astype(np.float64)), 1e-300))
        print(f"{name}: dtype {g.dtype} (want {w.dtype}) same={same} max rel err {err:.3g} values {g.tolist()}")


@jax.jit
def f_io(x, i):
    io_callback(keep("io_callback ordered"), None, x, i, ordered=True)
    io_callback(keep("io_callback unordered"), None, x * 1.0, i + 0)
    jax.debug.callback(keep("debug.callback"), x, i)
    y = jax.pure_callback(lambda a: (a * 2.0).astype(np.float64), jax.ShapeDtypeStruct(x.shape, jnp.float64), x)
    return y


def split(x):  # float64 -> two float32 whose sum is x (exact for a pair of float32s)
    hi = x.astype(jnp.float32)
    lo = (x - hi.astype(jnp.float64)).astype(jnp.float32)
    return hi, lo


@jax.jit
def f_split(x):
    hi, lo = split(x)
    io_callback(keep("split hi/lo"), None, hi, lo, ordered=True)
    return x


@jax.jit
def f_bits(x):
    b = lax.bitcast_convert_type(x, jnp.uint32)
    io_callback(keep("bitcast u32x2"), None, b, ordered=True)
    return x


print("device:", jax.devices()[0].device_kind, "jax", jax.__version__)
y = f_io(jnp.asarray(X), jnp.asarray(I))
jax.effects_barrier()
for name in ("io_callback ordered", "io_callback unordered", "debug.callback"):
    show(name, [X, I])
print("pure_callback result:", np.asarray(y).dtype, np.asarray(y).tolist(), "want", (X * 2).tolist())
f_split(jnp.asarray(X)); jax.effects_barrier()
if "split hi/lo" in seen:
    hi, lo = seen["split hi/lo"]
    back = hi.astype(np.float64) + lo.astype(np.float64)
    print("split hi/lo back:", back.tolist(), "same", np.array_equal(back, X), "max rel", np.max(np.abs(back - X) / np.abs(X)))
try:
    f_bits(jnp.asarray(X)); jax.effects_barrier()
    b = seen["bitcast u32x2"][0]
    back = np.ascontiguousarray(b).view(np.float64).reshape(X.shape)
    print("bitcast back:", back.tolist(), "same", np.array_equal(back, X))
except Exception as e:  # noqa: BLE001
    print("bitcast failed:", type(e).__name__, str(e)[:200])


# inside a loop and a branch, with the values read from Refs (rt/histories.py's hand-over)
def in_loop(x):
    buf = jax.new_ref(jnp.zeros((4,), jnp.float64))
    count = jax.new_ref(jnp.zeros((), jnp.int32))

    def body(i, _):
        buf[i % 4] = x[i % 4] * 1.0
        full = i % 4 == 3
        lax.cond(full, lambda: io_callback(keep("cond in loop, refs"), None, count[...], buf[...], ordered=True), lambda: None)
        lax.cond(full, lambda: io_callback(keep("cond in loop, values"), None, x * 1.0, ordered=True), lambda: None)
        return None
    lax.fori_loop(0, 4, body, None)
    io_callback(keep("after loop, refs"), None, buf[...], ordered=True)
    return jax.freeze(buf)


out = jax.jit(in_loop)(jnp.asarray(X))
jax.effects_barrier()
for name in ("cond in loop, refs", "cond in loop, values", "after loop, refs"):
    got = seen.get(name)
    print(f"{name}:", None if got is None else [(g.dtype, g.tolist()) for g in got])
print("loop result:", np.asarray(out).dtype, np.asarray(out).tolist())
