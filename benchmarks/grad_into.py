"""Sparse-read gradients: `np2ref.grad_into` (in place) vs `jax.grad` (a fresh dense gradient).

    python benchmarks/grad_into.py [--quick]

loss(x, idx) = sum(sin(x[idx])) with x of 1e7 float64 and 1e3 reads. Prints one table: the
median time per call (after a warm-up) and, from `memory_analysis()`, the bytes each call
writes fresh (output + temp - aliased). Timing, not a test: the numbers go in notes.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import np2ref  # noqa: E402
from np2ref.compiled import grad as grad_module  # noqa: E402


def sparse_loss(x, idx):
    return np.sum(np.sin(x[idx]))


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        jax.block_until_ready(fn())
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def fresh_bytes(lowered):
    m = lowered.compile().memory_analysis()
    if m is None:
        return float("nan"), float("nan")
    return m.output_size_in_bytes + m.temp_size_in_bytes - m.alias_size_in_bytes, m.temp_size_in_bytes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1e6 elements, fewer repeats")
    opts = parser.parse_args(argv)
    n, reads, repeats = (10**6, 10**3, 20) if opts.quick else (10**7, 10**3, 30)
    loss = np2ref.compile(sparse_loss)
    rng = np.random.default_rng(0)
    x_np, idx_np = rng.random(n), rng.integers(0, n, reads)
    expected = np.zeros(n)
    np.add.at(expected, idx_np, np.cos(x_np[idx_np]))  # the hand-derived gradient

    rows = []
    with jax.enable_x64(True):
        x, idx = jnp.asarray(x_np), jnp.asarray(idx_np)
        dense = jax.jit(jax.grad(lambda x, idx: loss.pure(x, idx)[0]))
        assert np.allclose(dense(x, idx), expected, rtol=1e-12, atol=0)
        rows.append(("jax.grad (fresh dense gradient)", median_time(lambda: dense(x, idx), repeats),
                     *fresh_bytes(dense.lower(x, idx))))

        for label, with_refs in (("vjp.with_refs", None), ("g + ct, XLA-folded", False)):
            if with_refs is None and not grad_module.has_with_refs():
                continue
            grad_module.USE_WITH_REFS = with_refs
            state = {"g": jnp.zeros(n)}

            def donated(state=state):
                _, state["g"] = np2ref.grad_into(loss, "x", state["g"], x, idx)
                return state["g"]

            donated()
            rows.append((f"grad_into, donated Array ({label})", median_time(donated, repeats),
                         *fresh_bytes(grad_module.lower_grad_into(loss, "x", jnp.zeros(n), x, idx))))
        grad_module.USE_WITH_REFS = None

        g_ref = jax.new_ref(jnp.zeros(n))
        np2ref.grad_into(loss, "x", g_ref, x, idx)
        rows.append(("grad_into, jax.Ref", median_time(lambda: np2ref.grad_into(loss, "x", g_ref, x, idx)[0],
                                                         repeats),
                     *fresh_bytes(grad_module.lower_grad_into(loss, "x", g_ref, x, idx))))
        g_check = np2ref.grad_into(loss, "x", jnp.zeros(n), x, idx)[1]
        assert np.array_equal(g_check, dense(x, idx)), "grad_into from zeros must equal jax.grad"

    g_host = np.zeros(n)
    rows.append(("grad_into, NumPy buffer (copies both ways)",
                 median_time(lambda: np2ref.grad_into(loss, "x", g_host, x_np, idx_np)[0], max(3, repeats // 5)),
                 float("nan"), float("nan")))
    g_np = np.zeros(n)
    rows.append(("NumPy np.add.at into g (hand-derived)",
                 median_time(lambda: np.add.at(g_np, idx_np, np.cos(x_np[idx_np])), repeats),
                 float("nan"), float("nan")))

    print(f"jax {jax.__version__}, {jax.devices()[0].platform}, x: {n:.0e} float64, {reads} reads, "
          f"with_refs available: {grad_module.has_with_refs()}")
    print("| variant | time per call | fresh bytes per call | XLA temp |")
    print("|---|---|---|---|")
    for label, t, fresh, temp in rows:
        print(f"| {label} | {_time(t)} | {_bytes(fresh)} | {_bytes(temp)} |")


def _time(t):
    return f"{t * 1e3:.2f} ms" if t >= 1e-3 else f"{t * 1e6:.0f} µs"


def _bytes(b):
    if math.isnan(b):  # not an XLA computation
        return "–"
    for unit, size in (("MB", 1e6), ("KB", 1e3)):
        if abs(b) >= size:
            return f"{b / size:.1f} {unit}"
    return f"{b:.0f} B"


if __name__ == "__main__":
    main()
