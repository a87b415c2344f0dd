"""Which of XLA's folds take signed integer arithmetic to not overflow, on the installed JAX, and
what rt/wrapping.py's way around them costs.

    python benchmarks/int_overflow_folds.py [--n N] [--repeat R]

Probe: each expression below on int8/int16/int32/int64 values whose squares wrap (INT_MIN,
INT_MAX, sqrt(INT_MAX) + 1 and its negative, small ones), jitted as jax.numpy writes it
(`lax`), through rt/wrapping.py's helpers (`wrapped`), under jax.jit, under jax.vmap and after
a lax.fori_loop (the fuzz program squares in a loop with out=), against NumPy's wrapped answer.
A row is printed for every expression; `lax` is NumPy's unless XLA folded something.

Cost: elementwise integer kernels on N int32 and int64 elements (the fastest of R calls), the
jax.numpy operators as written against the same kernels through the wrapping helpers (which is
what np2ref's runtime now traces for a product of two signed arrays, a square, a power, abs).
`--np2ref`: NumPy integer programs (NP2REF_KERNELS) through np2ref.compile, the jitted
translation's time a call (`.device`); run it with PYTHONPATH at two checkouts to compare.
A measurement, not a test.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # (after PYTHONPATH: --np2ref compares two checkouts)
import np2ref  # noqa: E402

try:
    from np2ref.rt.wrapping import _npr_wrap_abs, _npr_wrap_mul, _npr_wrap_pow
except ImportError:  # an np2ref before rt/wrapping.py (PYTHONPATH at another checkout): --np2ref only
    _npr_wrap_abs = _npr_wrap_mul = _npr_wrap_pow = None


def _lax_mul(a, b):
    return a * b


def _np_loop(x, n):
    for _ in range(n):
        x = x * x
    return x


# name -> f(mul, abs, pow, xp, x): the same expression for NumPy, jax.numpy and the helpers
EXPRESSIONS = {
    "x*x < 0": lambda M, A, P, xp, x: M(x, x) < 0,
    "x*x >= 0": lambda M, A, P, xp, x: M(x, x) >= 0,
    "0 > x*x": lambda M, A, P, xp, x: 0 > M(x, x),
    "x**2 < 0": lambda M, A, P, xp, x: P(x, 2) < 0,
    "x**4 < 0": lambda M, A, P, xp, x: P(x, 4) < 0,
    "abs(x) >= 0": lambda M, A, P, xp, x: A(x) >= 0,
    "abs(x) < 0": lambda M, A, P, xp, x: A(x) < 0,
    "abs(x*x)": lambda M, A, P, xp, x: A(M(x, x)),
    "(x*x) // 8": lambda M, A, P, xp, x: M(x, x) // 8,
    "(x*x) % 8": lambda M, A, P, xp, x: M(x, x) % 8,
    "abs(x) // 8": lambda M, A, P, xp, x: A(x) // 8,
    "where(x>5, x*x, abs(x)) < 0": lambda M, A, P, xp, x: xp.where(x > 5, M(x, x), A(x)) < 0,
    "max(x*x, 0)": lambda M, A, P, xp, x: xp.maximum(M(x, x), 0),
    "x + 1 > x": lambda M, A, P, xp, x: x + 1 > x,
    "(x + c) - c": lambda M, A, P, xp, x: (x + x.dtype.type(100)) - x.dtype.type(100),
    "(x * c) // c": lambda M, A, P, xp, x: M(x, x.dtype.type(100)) // 100,
    "x * 2 / 2": lambda M, A, P, xp, x: x * 2 / 2,
    "-x < 0": lambda M, A, P, xp, x: -x < 0,
    "sum(x*x) < 0": lambda M, A, P, xp, x: M(x, x).sum(keepdims=True) < 0,
    "x*x + y*y < 0 (y = x)": lambda M, A, P, xp, x: M(x, x) + M(x, x) < 0,
    "squares in a loop < 0": lambda M, A, P, xp, x: (
        _np_loop(x, 2) if xp is np else lax.fori_loop(0, 2, lambda i, y: M(y, y), x)) < 0,
    "einsum('i,i->i', x, x) < 0": lambda M, A, P, xp, x: (
        xp.einsum("i,i->i", x, x) if M is not _npr_wrap_mul else M(x, x)) < 0,
}
SIGNED = (np.int8, np.int16, np.int32, np.int64)


def wrapping_values(dt):
    info = np.iinfo(dt)
    root = int(np.sqrt(info.max)) + 1
    return np.array([info.min, info.max, root, -root, root + 7, 3, -3, 0], dtype=dt)


def _run(f, M, A, P, x, mode):
    g = lambda v: f(M, A, P, jnp, v)  # noqa: E731
    if mode == "jit":
        return np.asarray(jax.jit(g)(x))
    if mode == "vmap":  # each element alone (a reduction's own shape kept by the [None])
        return np.asarray(jax.jit(jax.vmap(lambda v: g(v[None])[0]))(x)).reshape(-1)
    return np.asarray(jax.jit(lambda v: g(lax.fori_loop(0, 1, lambda i, y: y + 0, v)))(x))  # a loop's value


def probe():
    lax_ops = (_lax_mul, lambda v: jnp.abs(v), lambda a, b: a ** b)
    wrapped = (_npr_wrap_mul, _npr_wrap_abs, _npr_wrap_pow)
    print(f"{'expression':32s} " + " ".join(f"{np.dtype(d).name:>14s}" for d in SIGNED))
    print(f"{'':32s} " + " ".join(f"{'lax  wrapped':>14s}" for _ in SIGNED))
    differs = []
    for name, f in EXPRESSIONS.items():
        cells = []
        for dt in SIGNED:
            x = wrapping_values(dt)
            with np.errstate(all="ignore"):
                want = np.asarray(f(_lax_mul, np.abs, lambda a, b: a ** b, np, x))
            marks = []
            for ops in (lax_ops, wrapped):
                bad = []
                for mode in ("jit", "vmap", "loop"):
                    if mode == "vmap" and want.shape != x.shape:
                        continue  # a reduction: not one element's own answer
                    got = _run(f, *ops, x, mode)
                    if got.shape != want.shape or not np.array_equal(got, want.astype(got.dtype)):
                        bad.append(mode[0])
                marks.append("ok" if not bad else "WRONG:" + "".join(bad))
                if bad and ops is lax_ops:
                    differs.append((name, np.dtype(dt).name))
            cells.append(f"{marks[0]:>8s} {marks[1]:>5s}")
        print(f"{name:32s} " + " ".join(f"{c:>14s}" for c in cells))
    print("\n(WRONG:jvl = differs from NumPy under jit / vmap / after a loop)")
    print(f"folded somewhere: {sorted({n for n, _ in differs})}")


KERNELS = {
    "x * y": (lambda M, A, P, x, y: M(x, y)),
    "x * x < 0 (mask)": (lambda M, A, P, x, y: M(x, x) < 0),
    "h * 31 + x (hash step)": (lambda M, A, P, x, y: M(y, x) * 31 + x),
    "abs(x - y)": (lambda M, A, P, x, y: A(x - y)),
    "x ** 2 + y ** 3": (lambda M, A, P, x, y: P(x, 2) + P(y, 3)),
    "sum(x * y)": (lambda M, A, P, x, y: M(x, y).sum()),
}


def _time(fn, *args, repeat):
    """The fastest of `repeat` calls, in seconds (on a loaded machine: the time without the load)."""
    fn(*args).block_until_ready()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args).block_until_ready()
        times.append(time.perf_counter() - t0)
    return min(times)


def _time_pair(f, g, *args, repeat):
    """The fastest of R calls of f and of g, their calls interleaved (on a loaded machine the
    minimum is the time without the others' load; the median swung 3x between runs)."""
    f(*args).block_until_ready(), g(*args).block_until_ready()
    tf, tg = [], []
    for _ in range(repeat):
        for fn, times in ((f, tf), (g, tg)):
            t0 = time.perf_counter()
            fn(*args).block_until_ready()
            times.append(time.perf_counter() - t0)
    return min(tf), min(tg)


def cost(n, repeat):
    rng = np.random.default_rng(0)
    lax_ops = (_lax_mul, jnp.abs, lambda a, b: a ** b)
    wrapped = (_npr_wrap_mul, _npr_wrap_abs, _npr_wrap_pow)
    print(f"\n{'kernel':26s} {'dtype':>6s} {'lax (ms)':>9s} {'wrapped (ms)':>13s} {'ratio':>6s}")
    for dt in (np.int32, np.int64):
        x = jnp.asarray(rng.integers(-2**20, 2**20, n).astype(dt))
        y = jnp.asarray(rng.integers(-2**20, 2**20, n).astype(dt))
        for name, k in KERNELS.items():
            a, b = _time_pair(jax.jit(lambda x, y: k(*lax_ops, x, y)), jax.jit(lambda x, y: k(*wrapped, x, y)),
                              x, y, repeat=repeat)
            print(f"{name:26s} {np.dtype(dt).name:>6s} {a * 1e3:9.3f} {b * 1e3:13.3f} {b / a:6.2f}")
    print("(`x * x < 0`: the lax column is XLA's constant False, the fold itself)")


NP2REF_KERNELS = """
import numpy as np


def squares(x, y):
    return np.sum((x * x) % 7) + np.sum(np.abs(x - y))


def hash_rows(x):
    h = np.zeros(x.shape[1], dtype=x.dtype)
    for i in range(x.shape[0]):
        h = h * 31 + x[i]
    return h


def power_mix(x, y):
    z = x ** 2 + y * y
    z[z < 0] = 0
    return z


def index_products(x, w):
    out = np.zeros_like(x)
    for i in range(1, x.shape[0] - 1):
        out[i] = x[i - 1] * w + x[i] * x[i + 1]
    return out
"""


def np2ref_cost(n, repeat, tmp):
    path = Path(tmp) / "np2ref_int_kernels.py"
    path.write_text(NP2REF_KERNELS)
    spec = importlib.util.spec_from_file_location("np2ref_int_kernels", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    rng = np.random.default_rng(1)
    print(f"\n{'np2ref kernel':26s} {'dtype':>6s} {'jitted (ms)':>12s}   (np2ref at {Path(np2ref.__file__).parent.parent})")
    for dt in (np.int32, np.int64):
        x = rng.integers(-2**20, 2**20, n).astype(dt)
        y = rng.integers(-2**20, 2**20, n).astype(dt)
        rows = x[: (n // 1000) * 1000].reshape(1000, -1)[:64]
        cases = {"squares": (x, y), "hash_rows (64-trip loop)": (rows,), "power_mix": (x, y),
                 "index_products (loop)": (x[:20000], dt(3))}
        for name, args in cases.items():
            fn = getattr(module, name.split(" ")[0])
            c = np2ref.compile(fn, host_below=0)
            dev = [jnp.asarray(a) for a in args]
            t = _time(lambda *a: jax.tree_util.tree_leaves(c.device(*a))[0], *dev, repeat=repeat)
            print(f"{name:26s} {np.dtype(dt).name:>6s} {t * 1e3:12.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--np2ref", action="store_true", help="only the np2ref.compile kernels")
    args = parser.parse_args()
    print(f"jax {jax.__version__}, {jax.devices()[0].platform}")
    if not args.np2ref:
        with jax.enable_x64(True):
            probe()
            cost(args.n, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        np2ref_cost(args.n, args.repeat, tmp)


if __name__ == "__main__":
    main()
