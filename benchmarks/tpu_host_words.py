"""What a device does with a float64 or int64 value's bits and with inf in float64 products
(docs/tpu.md): a bitcast to uint32 words (how np2ref's host calls once sent 64-bit values),
at three shapes, against NumPy's view of the same values; then a print through np2ref.compile.

    python benchmarks/tpu_host_words.py        # on the device (benchmarks/tpu_lane.sh's machine)
"""
import io
from contextlib import redirect_stdout

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)


def bitcasts():
    for dt in (np.float64, np.int64, np.uint64):
        v = np.array([31.5, 1.0, -2.25], dt) if dt == np.float64 else np.array([31, -(2 ** 40) - 3, 7], np.int64).astype(dt)
        for shape, x in (("0-d", v[0]), ("(1,)", v[:1]), ("(3,)", v)):
            want = np.ascontiguousarray(np.asarray(x)).view(np.uint32).reshape(np.shape(x) + (2,))
            got = np.asarray(jax.jit(lambda a: lax.bitcast_convert_type(a, np.uint32))(jnp.asarray(x)))
            back = np.asarray(jax.jit(lambda w: lax.bitcast_convert_type(w, dt))(jnp.asarray(want)))
            print(f"| {np.dtype(dt).name} {shape} to words | {'ok' if np.array_equal(got, want) else 'DIFFERS'} "
                  f"| {got.ravel()[:2]} for {want.ravel()[:2]} | from words {'ok' if np.array_equal(back, x) else 'DIFFERS: ' + str(back)} |")


def infinities():
    a = jnp.array([2.0, 0.0, -3.0, 1e300])
    inf = jnp.array([np.inf, np.inf, np.inf, np.inf])
    for name, fn, want in (("x * inf", lambda: a * inf, np.array([2.0, 0.0, -3.0, 1e300]) * np.inf),
                           ("x + inf", lambda: a + inf, np.array([2.0, 0.0, -3.0, 1e300]) + np.inf),
                           ("dot([1, 2], [inf, 1])", lambda: jnp.dot(jnp.array([1.0, 2.0]), jnp.array([np.inf, 1.0]),
                                                                      precision="highest"), np.array(np.inf))):
        with np.errstate(all="ignore"):
            got = np.asarray(jax.jit(fn)())
        print(f"| {name} | {got} | NumPy {want} | {'ok' if np.array_equal(got, want, equal_nan=True) else 'DIFFERS'} |")


def printed():
    import np2ref

    def f(x):
        total = x.sum()
        print("total", total, x.max(), np.int64(x.shape[0]) * 2 ** 40)
        return total
    x = np.array([31.5, 0.25, -2.0])
    out = io.StringIO()
    with redirect_stdout(out):
        f(x.copy())
        np2ref.compile(f, host_below=0)(x.copy())
    lines = out.getvalue().splitlines()
    print(f"| print through np2ref.compile | {'ok' if lines[0] == lines[1] else 'DIFFERS'} | {lines} |")


if __name__ == "__main__":
    print(jax.__version__, jax.devices())
    bitcasts()
    infinities()
    printed()
