"""Radioactive decay chain: the rates come from a JAX set-up in float64, the solver is NumPy.

The set-up enables JAX's 64-bit mode for its arrays (`jax.enable_x64(True)`), so the
rate vector is a float64 jax.Array; the solver mixes it with a float32 initial inventory given
as a Python list of np.float32 scalars (float32 + float64 -> float64 as NumPy promotes), steps
with `N = N + dt * dN` (a rebinding each step) and `np.maximum(N, 0.0, out=N)`.
"""
import jax.numpy as jnp
import numpy as np
import jax

ENTRY = "decay"


def rates(k):
    with jax.enable_x64(True):
        return jnp.logspace(-1.0, 0.5, k, dtype=jnp.float64)


def decay(inventory, lam, dt, nsteps):
    N = np.array(inventory)
    lam = np.asarray(lam)
    totals = []
    for step in range(nsteps):
        dN = -lam * N
        dN[1:] += lam[:-1] * N[:-1]
        N = N + dt * dN
        np.maximum(N, 0.0, out=N)
        totals.append(N.sum())
    print("dtype", N.dtype, "last", repr(totals[-1]))
    return N, totals


def make_inputs(size="small"):
    k = 5 if size == "small" else 12
    inventory = [np.float32(100.0)] + [np.float32(0.0)] * (k - 1)
    return dict(inventory=inventory, lam=rates(k), dt=0.1, nsteps=15)


def float32_rates():
    return dict(make_inputs("small"), lam=jnp.linspace(0.1, 1.0, 5))


CHECKS = {"decay": lambda: make_inputs("small"), "decay#f32": float32_rates}

if __name__ == "__main__":
    N, totals = decay(**make_inputs("large"))
    print(repr(N.tolist()), repr(totals[::5]))
