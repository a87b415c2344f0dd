"""Particle swarm optimisation of the Rastrigin and Rosenbrock functions in float32: positions
and velocities float32, inertia decreasing linearly (a Python float each iteration), cognitive
and social pulls with draws from a Generator cast to float32, velocity clamped with
np.clip(..., out=v), personal bests updated through a mask (`pbest[better] = x[better]`), the
global best by np.argmin copied with `gbest[:] = ...`, stagnation counted in an int32 array,
the objective passed by name from a dict.
"""
import numpy as np

DIM = 4
N_PART = 24
VMAX = np.float32(1.0)
C1, C2 = 1.5, 1.5


def rastrigin(x):
    return 10.0 * x.shape[1] + (x * x - 10.0 * np.cos(2.0 * np.pi * x)).sum(axis=1)


def rosenbrock(x):
    return (100.0 * (x[:, 1:] - x[:, :-1] ** 2) ** 2 + (1.0 - x[:, :-1]) ** 2).sum(axis=1)


def evaluate(x, which):
    if which == "rastrigin":
        return rastrigin(x)
    return rosenbrock(x)


def swarm(x, v, iters, seed, which="rastrigin", lo=-5.12, hi=5.12):
    rng = np.random.default_rng(seed)
    f = evaluate(x, which)
    pbest = x.copy()
    pbest_f = f.copy()
    g = np.argmin(pbest_f)
    gbest = pbest[g].copy()
    stale = np.zeros(x.shape[0], dtype=np.int32)
    trace = np.zeros(iters, dtype=np.float32)
    for it in range(iters):
        w = 0.9 - 0.5 * it / iters
        r1 = rng.random(x.shape).astype(np.float32)
        r2 = rng.random(x.shape).astype(np.float32)
        v *= np.float32(w)
        v += C1 * r1 * (pbest - x) + C2 * r2 * (gbest - x)
        np.clip(v, -VMAX, VMAX, out=v)
        x += v
        np.clip(x, lo, hi, out=x)
        f = evaluate(x, which)
        better = f < pbest_f
        pbest[better] = x[better]
        pbest_f[better] = f[better]
        stale[better] = 0
        stale[~better] += 1
        g = np.argmin(pbest_f)
        gbest[:] = pbest[g]
        trace[it] = pbest_f[g]
    return gbest, pbest_f.min(), trace, stale


def start(n, dim, seed, lo=-5.12, hi=5.12):
    rng = np.random.default_rng(seed)
    x = rng.uniform(lo, hi, (n, dim)).astype(np.float32)
    v = np.zeros((n, dim), dtype=np.float32)
    return x, v


CHECKS = {
    "swarm": lambda: (*start(12, 3, 1), 6, 2),
    "swarm#rosen": lambda: {"x": start(10, 2, 4, -2.0, 2.0)[0], "v": start(10, 2, 4)[1], "iters": 5, "seed": 7,
                            "which": "rosenbrock", "lo": -2.0, "hi": 2.0},
    "rastrigin": lambda: (np.array([[0.0, 0.0], [0.5, -1.0], [1.0, 2.0]]),),
    "rosenbrock": lambda: (np.array([[1.0, 1.0, 1.0], [0.0, 0.5, -0.5]], dtype=np.float32),),
}

if __name__ == "__main__":
    for which in ("rastrigin", "rosenbrock"):
        x, v = start(N_PART, DIM, 0)
        gbest, fbest, trace, stale = swarm(x, v, 30, 3, which)
        print(which, gbest.dtype, trace.dtype, stale.dtype, x.dtype, v.dtype)
        print(f"  best {fbest:.4g} stale max {stale.max()} trace {trace[9]:.4g} {trace[-1]:.4g}")
        print(f"  |v| max {np.abs(v).max():.4g}", type(fbest).__name__)
