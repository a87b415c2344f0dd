"""What one trip of a rolled loop costs on this device, and what unrolling buys (issue 38 item 5,
issue 39): a lax.fori_loop of n trips over a tiny body, unrolled by 1, 2, 4, 8, 16 (the same
operations in the same order: unrolling changes no bit), for three bodies:

- `scalar`: `s += tanh(a[i, i])` (suite.py's diagonal loop: a carried scalar),
- `element`: `x[i] = x[i - 1] * c + b[i]` through a Ref (a recurrence: a dynamic index store),
- `row`: `A[i, :] -= A[i - 1, :] * c` through a Ref (a row update of a 256-wide matrix).

    python benchmarks/loop_trips.py [--n 2000] [--repeat 30]

Prints microseconds per trip (the fastest of --repeat calls, over n) and the compile time.
"""

from __future__ import annotations

import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def _scalar(unroll):
    def run(a):
        return lax.fori_loop(0, a.shape[0], lambda i, s: s + jnp.tanh(a[i, i]), jnp.zeros((), a.dtype),
                             unroll=unroll)
    return run


def _element(unroll):
    def run(x, b):
        r = jax.new_ref(x)

        def body(i, c):
            r[i] = r[i - 1] * 0.5 + b[i]
            return c
        lax.fori_loop(1, x.shape[0], body, 0, unroll=unroll)
        return jax.freeze(r) if hasattr(jax, "freeze") else r[...]
    return run


def _row(unroll):
    def run(m):
        r = jax.new_ref(m)

        def body(i, c):
            r[i, :] = r[i, :] - r[i - 1, :] * 0.5
            return c
        lax.fori_loop(1, m.shape[0], body, 0, unroll=unroll)
        return r[...]
    return run


def _time(fn, args, repeat):
    start = time.perf_counter()
    jax.block_until_ready(fn(*args))
    compile_s = time.perf_counter() - start
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        best = min(best, time.perf_counter() - start)
    return best, compile_s


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--unrolls", default="1,2,4,8,16", help="comma-separated unroll factors")
    args = parser.parse_args(argv)
    if args.dtype == "float64":
        jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(0)
    n, dt = args.n, np.dtype(args.dtype)
    cases = {
        "scalar": (_scalar, (jnp.asarray(rng.random((n, n)), dt),)),
        "element": (_element, (jnp.asarray(rng.random(n), dt), jnp.asarray(rng.random(n), dt))),
        "row": (_row, (jnp.asarray(rng.random((n, 256)), dt),)),
    }
    print(f"{jax.devices()[0].device_kind}, jax {jax.__version__}, {dt}, n = {n}: us per trip (compile s)")
    unrolls = tuple(int(u) for u in args.unrolls.split(","))
    print("| body | " + " | ".join(f"unroll {u}" for u in unrolls) + " |")
    print("|---|" + "---|" * len(unrolls))
    for name, (make, inputs) in cases.items():
        cells, base = [], None
        for u in unrolls:
            fn = jax.jit(make(u))
            best, compile_s = _time(fn, inputs, args.repeat)
            out = np.asarray(fn(*inputs))
            base = out if base is None else base
            same = "" if np.array_equal(out, base) else " DIFFERS"
            cells.append(f"{best / n * 1e6:.3f} ({compile_s:.2f}){same}")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
