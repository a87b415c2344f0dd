"""float64 roundings on a TPU against NumPy (docs/tpu.md): rint, floor, ceil, trunc, the casts
to integers, and np.round(x, d) through np2ref with the accurate64 rewrite on and off. A TPU
rounds the float32 pair's leading part: np.round(x, 3) came back 0.001 off for 8 of 320 values.

    python benchmarks/tpu_roundings.py      # prints, per operation, the values unlike NumPy's
"""
import jax
import jax.numpy as jnp
import numpy as np

import np2ref
from np2ref.rt import accurate64

jax.config.update("jax_enable_x64", True)
rng = np.random.default_rng(0)
X = np.concatenate([rng.uniform(-1e3, 1e3, 4000) * 1000, rng.uniform(-1e6, 1e6, 4000),
                    np.arange(-2000, 2000) + 0.5, rng.uniform(-3, 3, 4000)])
OPS = {"rint": (jnp.rint, np.rint), "floor": (jnp.floor, np.floor), "ceil": (jnp.ceil, np.ceil),
       "trunc": (jnp.trunc, np.trunc), "astype int64": (lambda v: v.astype(jnp.int64), lambda v: v.astype(np.int64)),
       "astype int32": (lambda v: v.astype(jnp.int32), lambda v: v.astype(np.int32)),
       "x % 1.0": (lambda v: v % 1.0, lambda v: v % 1.0), "x // 1.0": (lambda v: v // 1.0, lambda v: v // 1.0)}


def rounded(x):
    return np.round(x, 3), np.floor(x * 10.0), np.ceil(x / 7.0), np.rint(x * 1000.0), (x * 1000.0).astype(np.int64)


def main():
    print("backend", jax.default_backend())
    for name, (j, n) in OPS.items():
        small = X[np.abs(X) < 2e9]
        got, want = np.asarray(jax.jit(j)(small)), n(small)
        g0 = np.array([np.asarray(jax.jit(j)(v)) for v in small[:300]])
        print(f"{name:14s} arrays: {int((got != want).sum())} of {small.size} unlike NumPy; "
              f"0-d: {int((g0 != want[:300]).sum())} of 300", flush=True)
    x = X / 1000.0
    want = rounded(x)
    for on in (False, None):
        accurate64._npr_ACCURATE64["on"] = on
        got = np2ref.compile(rounded, host_below=0)(x)
        diffs = [(int((np.asarray(g) != w).sum()), int((np.abs(np.asarray(g) - w) > 1e-12 * np.maximum(1, np.abs(w))).sum()))
                 for g, w in zip(got, want)]  # (unlike, and off by more than the pair's last bits)
        print(f"np2ref accurate64 {'off' if on is False else 'default'}: round3, floor, ceil, rint, int64 unlike NumPy (of x * 1000 for the last two): {diffs}",
              flush=True)


if __name__ == "__main__":
    main()
