"""syrk in NumPy's sequential k order, three exact ways, against the hand port's one dot (issue 39:
"can the sequential-order translation touch only the triangle it writes each k?"):

    python benchmarks/tri_packed.py [--calls 200] [--n 50] [--m 70]

- np2ref: `np2ref.compile(npbench_style.syrk).pure` (the i lanes vmapped, a lax loop over k whose
  trip is a full-width masked update of C: 4-5 HLO instructions, the whole 50x50 C a trip);
- full-width select: the same by hand, `C = where(tril, C + (alpha * a[:, None]) * a[None, :], C)`;
- packed triangle: the lower triangle gathered once into a vector of n(n+1)/2 elements, the k
  loop adding `(alpha * A[i, k]) * A[j, k]` to it (no select, half the elements), scattered back
  once; the products made before the loop (each the same multiplication NumPy makes).

All three are NumPy's bits (checked here); the hand port (one dot, `A @ A.T`) is not, and is the
target. CPU timing, fastest of --calls; not a test.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

sys.path.insert(0, str(Path(__file__).resolve().parent))
import npbench_style as NB  # noqa: E402

import np2ref  # noqa: E402


def full_select(alpha, beta, C, A):
    tri = jnp.tril(jnp.ones(C.shape, bool))
    C = jnp.where(tri, C * beta, C)

    def trip(k, C):
        a = A[:, k]
        return jnp.where(tri, C + (alpha * a)[:, None] * a[None, :], C)
    return lax.fori_loop(0, A.shape[1], trip, C)


def packed(alpha, beta, C, A):
    i, j = np.tril_indices(C.shape[0])
    products = (alpha * A[i, :]) * A[j, :]  # (pairs, k): NumPy's `alpha * A[i, k] * A[:i + 1, k]`

    def trip(k, c):
        return c + lax.dynamic_index_in_dim(products, k, 1, keepdims=False)
    c = lax.fori_loop(0, A.shape[1], trip, C[i, j] * beta)
    return C.at[i, j].set(c)


def fastest(f, calls):
    jax.block_until_ready(f())
    best = math.inf
    for _ in range(calls):
        t = time.perf_counter()
        jax.block_until_ready(f())
        best = min(best, time.perf_counter() - t)
    return best


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=200)
    p.add_argument("--n", type=int, default=50)
    p.add_argument("--m", type=int, default=70)
    a = p.parse_args(argv)
    rng = np.random.default_rng(0)
    with jax.enable_x64(True):
        alpha, beta, C, A = 1.5, 1.2, rng.standard_normal((a.n, a.n)), rng.standard_normal((a.n, a.m))
        want = C.copy()
        NB.syrk(alpha, beta, want, A)
        dev = (jnp.asarray(C), jnp.asarray(A))
        ours = jax.jit(np2ref.compile(NB.syrk).pure)
        sides = {"np2ref (full-width masked lanes)": lambda: ours(alpha, beta, *dev),
                 "full-width select, by hand": jax.jit(lambda: full_select(alpha, beta, *dev)),
                 "packed triangle, by hand": jax.jit(lambda: packed(alpha, beta, *dev)),
                 "hand port (one dot; not NumPy's bits)": jax.jit(lambda: NB.hand_syrk(alpha, beta, *dev))}
        hand = fastest(sides["hand port (one dot; not NumPy's bits)"], a.calls)
        print(f"`python benchmarks/tri_packed.py` (syrk n={a.n}, k={a.m}, float64, {jax.default_backend()})\n")
        print("| variant | ms | / hand port | NumPy's bits |\n|---|---|---|---|")
        for name, f in sides.items():
            got = f()
            got = np.asarray(got[1]["C"] if isinstance(got, tuple) else got)  # (.pure: result, mutated)
            t = fastest(f, a.calls)
            print(f"| {name} | {t * 1e3:.3f} | {t / hand:.2f} | {'yes' if np.array_equal(got, want) else 'no'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
