"""A batch of Gray-Scott simulations, one per (feed, kill) pair, run at once
with jax.vmap of the np2ref-compiled NumPy simulation of gray_scott.py.

`np2ref.compile(simulate).pure(u, v, feed, kill, steps)` returns
(mean_v, {"u": final u, "v": final v}); jax.vmap maps it over a batch of
parameters (and initial states), with `steps` closed over as a static
Python int. The NumPy original would need a Python loop over the batch.

    python examples/batch_gray_scott.py
"""
import sys
import time
from pathlib import Path

import jax
import numpy as np

import np2ref

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gray_scott as model  # noqa: E402

# (feed, kill) pairs from the classic Pearson map: spots, stripes, mazes, waves
PARAMS = np.array([[0.030, 0.062], [0.035, 0.065], [0.040, 0.060], [0.026, 0.051],
                   [0.022, 0.059], [0.029, 0.057]])


def run_batch(n=model.N, steps=model.STEPS, params=PARAMS):
    """All pairs at once with jax.vmap; returns (mean_v, u, v) stacked on
    the first axis, as NumPy arrays."""
    sim = np2ref.compile(model.simulate)
    u0, v0 = model.initial_state(n)
    batch = params.shape[0]
    us = np.broadcast_to(u0, (batch, n, n)).copy()
    vs = np.broadcast_to(v0, (batch, n, n)).copy()

    def one(u, v, feed, kill):
        return sim.pure(u, v, feed, kill, steps)

    with jax.enable_x64(True):             # float64, as the NumPy original
        mean_v, finals = jax.jit(jax.vmap(one))(us, vs, params[:, 0], params[:, 1])
        return np.asarray(mean_v), np.asarray(finals["u"]), np.asarray(finals["v"])


def run_numpy(n=model.N, steps=model.STEPS, params=PARAMS):
    """The same batch with a Python loop of the NumPy original."""
    out = []
    for feed, kill in params:
        u, v = model.initial_state(n)
        mean_v = model.simulate(u, v, feed, kill, steps)
        out.append((mean_v, u, v))
    return tuple(np.stack(a) for a in zip(*out))


if __name__ == "__main__":
    t0 = time.perf_counter()
    got = run_batch()
    t1 = time.perf_counter()
    want = run_numpy()
    t2 = time.perf_counter()
    print(f"vmap batch of {len(PARAMS)}: {t1 - t0:.2f} s (with compile); NumPy loop: {t2 - t1:.2f} s")
    for name, a, b in zip(("mean_v", "u", "v"), got, want):
        print(f"{name:6s} max |vmap - NumPy| = {np.max(np.abs(a - b)):.1e}")
