"""Which construct makes XLA's TPU compiler say `HLO transpose is not implemented on TPU`
(syrk's lanes with its k loop in order, docs/tpu.md): the program itself in each policy, then
the pad-and-gather window of rt/windows.py alone, by element type and index type."""
import sys
import traceback

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)
sys.path.insert(0, "tests")


def attempt(name, fn, *args):
    try:
        out = jax.block_until_ready(jax.jit(fn)(*args))
        print(f"{name}: ok {np.asarray(out).ravel()[:2]}", flush=True)
    except Exception as e:  # noqa: BLE001 (a probe: every failure reported)
        msg = str(e).splitlines()[0][:200]
        print(f"{name}: FAIL {type(e).__name__}: {msg}", flush=True)


def window(dt, it):
    def f(x, starts):
        def one(s):
            return lax.dynamic_slice_in_dim(jnp.pad(x, ((0, 0), (20, 20))), s, 20, 1)
        return jax.vmap(one)(starts).sum(0)
    x = jnp.asarray(np.random.default_rng(0).standard_normal((20, 20)), dt)
    return f, x, jnp.arange(20, dtype=it)


def unbatched(dt, it):
    def f(x, s):
        return jax.vmap(lambda r: lax.dynamic_slice_in_dim(jnp.pad(r, ((0, 0), (20, 20))), s, 20, 1))(x)
    x = jnp.asarray(np.random.default_rng(0).standard_normal((4, 20, 20)), dt)
    return f, x, jnp.asarray(20, it)


for maker in (window, unbatched):
    for dt in (jnp.float32, jnp.float64):
        for it in (jnp.int32, jnp.int64):
            f, *a = maker(dt, it)
            attempt(f"{maker.__name__} {jnp.dtype(dt).name} {jnp.dtype(it).name}", f, *a)

import np2ref  # noqa: E402
from test_loop_sum_reorder import syrk, syr2k, outer_lax  # noqa: E402

r = np.random.default_rng(1).standard_normal
for policy in ("preserve", "float32"):
    for fn in (syrk, syr2k):
        c = np2ref.compile(fn, host_below=0, dtype_policy=policy)
        args = [1.5, 1.2, r((20, 20)), r((20, 30))] + ([r((20, 30))] if fn is syr2k else [])
        try:
            c(*args)
            print(f"{fn.__name__} {policy}: ok", flush=True)
        except Exception as e:  # noqa: BLE001
            print(f"{fn.__name__} {policy}: FAIL {str(e).splitlines()[0][:200]}", flush=True)
            if policy == "preserve" and fn is syrk:
                traceback.print_exc(limit=3)
