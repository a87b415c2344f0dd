"""Issue 39's element loop nest: `for x in range(nx): for y in range(ny): grid[x, y] = ...` with
boundary `if`s on the indices, through np2ref.compile's NumPy-facing call (the call users make:
run-time index checks on) and through the jitted `.pure` (no index checks).

    python benchmarks/element_nest.py [--n 1000] [--relax-n 200]

`grid` (benchmarks/loop_shapes_kernels.py: the branches read only the element they store) at n x n;
`relax` (below: a branch reads a neighbour that lies outside the array in lanes another branch
takes, `old[x, y + 1]` under `elif y == 0`) at --relax-n: the index check of `old[x, y + 1]` counts
only in the lanes that take its branch (each lane's own check record, rt/bounds.py), so the
NumPy-facing call runs the lanes too (before: a lax loop with a lax.cond per element copying both
arrays, 6.3 s at 200x200). Prints first call (compile included) and steady call times and whether
the results equal NumPy's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import loop_shapes_kernels as K  # noqa: E402

import np2ref  # noqa: E402


def relax(new, old, nx, ny):
    for x in range(nx):
        for y in range(ny):
            if x == 0 or x == nx - 1:
                new[x, y] = 0.0
            elif y == 0:
                new[x, y] = old[x, y + 1]
            elif y == ny - 1:
                new[x, y] = old[x, y - 1]
            else:
                new[x, y] = 0.25 * (old[x - 1, y] + old[x + 1, y] + old[x, y - 1] + old[x, y + 1])


def _timed(f):
    t = time.perf_counter()
    jax.block_until_ready(f())
    return time.perf_counter() - t


def row(name, fn, make):
    """| kernel | NumPy s | first call s | call s | .pure call s | equal |"""
    want = make()
    t_np = _timed(lambda: fn(*want))
    comp = np2ref.compile(fn)
    got = make()
    first = _timed(lambda: comp(*got))
    equal = all(np.array_equal(a, b) for a, b in zip(got, want) if isinstance(a, np.ndarray))
    call = min(_timed(lambda: comp(*make())) for _ in range(2))
    args = make()
    static = tuple(k for k, a in enumerate(args) if isinstance(a, int))
    with jax.enable_x64(True):
        pure = jax.jit(comp.pure, static_argnums=static)
        dev = [a if k in static else jax.device_put(a) for k, a in enumerate(args)]
        _timed(lambda: pure(*dev))
        t_pure = min(_timed(lambda: pure(*dev)) for _ in range(3))
    return f"| {name} | {t_np:.3f} | {first:.3f} | {call:.4f} | {t_pure:.4f} | {equal} |"


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=1000)
    p.add_argument("--relax-n", type=int, default=200)
    a = p.parse_args(argv)
    rng = np.random.default_rng(0)
    g = rng.standard_normal((a.n, a.n))
    old = rng.random((a.relax_n, a.relax_n))
    print("| kernel | NumPy s | first call s | call s | .pure call s | equal |\n|---|---|---|---|---|---|")
    print(row(f"grid {a.n}x{a.n}", K.grid, lambda: [g.copy(), a.n, a.n]), flush=True)
    print(row(f"relax {a.relax_n}x{a.relax_n}", relax,
              lambda: [np.zeros_like(old), old.copy(), a.relax_n, a.relax_n]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
