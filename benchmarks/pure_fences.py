"""What `.pure` under the caller's jax.vmap and jax.grad costs now that it runs the fenced program
(rt/pure_fences.py; docs/semantics.md, "Divisions that decide are NumPy's divisions"): for a few
kernels, the first call of `jax.jit(jax.vmap(f.pure))` and of `jax.jit(jax.value_and_grad(...))`
(trace, fence, compile) and the median later call, with the route on (the default) and off
(`.pure` traced by the transformation directly, as before session 13), in one process.

    python benchmarks/pure_fences.py [--repeats N]

A measurement, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import np2ref  # noqa: E402
from np2ref.rt import pure_fences  # noqa: E402


def diffusion(u, dx, steps):
    for _ in range(steps):
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + 0.1 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:]
                                               + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1]) / (dx * dx)
    return u.sum()


def particle_cells(x, dx):
    cell = (x / dx).astype(np.int64)
    return (x * (cell % 2 == 0)).sum()


def masked_energy(x, keep):
    with np.errstate(all="ignore"):
        e = np.zeros(x.shape)
        for i in range(3):
            e += np.log(np.exp(x)) * keep
    return e.sum()


def cases():
    rng = np.random.default_rng(0)
    return [("diffusion 256x256, 20 steps", diffusion, (rng.random((256, 256)),), (0.7, 20)),
            ("particle cells 1M", particle_cells, (rng.random(1_000_000) * 0.999,), (0.001,)),
            ("masked energy 1M", masked_energy, (rng.standard_normal(1_000_000),), (rng.random(1_000_000) > 0.5,))]


def _timed(fn, args, repeats):
    start = time.perf_counter()
    jax.block_until_ready(fn(*args))
    first = time.perf_counter() - start
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append(time.perf_counter() - start)
    return first, statistics.median(times)


def measure(name, fn, data, rest, repeats, on):
    original = pure_fences._npr_pure_transform
    if not on:
        pure_fences._npr_pure_transform = lambda leaves: None
    try:
        pure = np2ref.compile(fn, host_below=0).pure  # (a fresh one: nothing cached from the other run)
        batch = [jnp.stack([jnp.asarray(d), jnp.asarray(d)]) for d in data]
        vmapped = jax.jit(jax.vmap(lambda *d: pure(*d, *rest)[0]))
        graded = jax.jit(jax.value_and_grad(lambda d: pure(d, *rest)[0]))
        return _timed(vmapped, batch, repeats), _timed(graded, [jnp.asarray(data[0])], repeats)
    finally:
        pure_fences._npr_pure_transform = original


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=10)
    args = p.parse_args(argv)
    jax.config.update("jax_enable_x64", True)
    print(f"jax {jax.__version__}, {jax.default_backend()}; seconds: first call (trace + compile), median later call")
    print(f"{'kernel':32} {'way':6} {'first off':>10} {'first on':>10} {'call off':>10} {'call on':>10}")
    for name, fn, data, rest in cases():
        off = measure(name, fn, data, rest, args.repeats, False)
        on = measure(name, fn, data, rest, args.repeats, True)
        for k, way in enumerate(("vmap", "grad")):
            print(f"{name:32} {way:6} {off[k][0]:10.3f} {on[k][0]:10.3f} {off[k][1]:10.4f} {on[k][1]:10.4f}")


if __name__ == "__main__":
    main()
