"""Loops with random draws in each step: NumPy against np2ref with one host callback per draw
(before) and with the loop's draws made in advance (rt/draws.py).

    python benchmarks/loop_draws.py [--steps N] [--rounds R]

Columns: NumPy (the original), per-draw (np2ref.compile with rt.draws.NPR_DRAWS_IN_ADVANCE off:
one ordered io_callback per draw), in advance (the default), uncounted (in advance with
rt.draws.NPR_DRAWS_REPLAY off: the body does not count the draws it takes, so none are put back
after a failed run-time check: the counter's cost), each the median of R calls after a warm-up
call (compile excluded); "same" says they agree in values, returned and written arrays, and the
generator's state afterwards. Timing, not a test: no assertions on numbers.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import np2ref  # noqa: E402
from np2ref.rt import draws  # noqa: E402


def metropolis(x, n, rng):
    """A Metropolis walk: a normal proposal and a uniform acceptance draw per step."""
    e = np.sum(x ** 2)
    acc = 0
    for i in range(n):
        prop = x + rng.normal(0.0, 0.1, size=x.shape)
        u = rng.random()
        en = np.sum(prop ** 2)
        if u < np.exp(e - en):
            x[...] = prop
            e = en
            acc += 1
    return acc


def ising(s, n, beta):
    """A single-spin-flip Ising sweep with the legacy global generator (np.random.*)."""
    L = s.shape[0]
    for t in range(n):
        ij = np.random.randint(0, L, size=2)
        u = np.random.random_sample()
        i, j = ij[0], ij[1]
        nb = s[(i + 1) % L, j] + s[(i - 1) % L, j] + s[i, (j + 1) % L] + s[i, (j - 1) % L]
        d = 2.0 * s[i, j] * nb
        if u < np.exp(-beta * d):
            s[i, j] = -s[i, j]
    return s


def langevin(x, n, dt, rng):
    """One Gaussian kick per step (one site: a single NumPy call for the whole loop)."""
    shape = x.shape
    for t in range(n):
        x += np.sqrt(2 * dt) * rng.standard_normal(shape)
    return x


RNG = np.random.default_rng(7)
START = RNG.bit_generator.state


def g():
    """One generator object, set back to its start: a new Generator each call would compile the
    program anew each call (a generator argument is static), which is not what is measured here."""
    RNG.bit_generator.state = START
    return RNG


def cases(steps):
    yield "metropolis (Generator.normal + random)", metropolis, lambda: (np.ones(8), steps, g()), None
    yield "ising (legacy randint + random_sample)", ising, \
        lambda: (np.where(np.random.RandomState(1).rand(16, 16) < 0.5, -1.0, 1.0), steps, 0.4), 3
    yield "langevin (Generator.standard_normal)", langevin, lambda: (np.zeros(64), steps, 0.01, g()), None


def state(args, seed):
    if seed is not None:
        return str(np.random.get_state()[1][:4]) + str(np.random.get_state()[2])
    return str([a.bit_generator.state for a in args if isinstance(a, np.random.Generator)])


def timed(fn, make, seed, rounds):
    times, out = [], None
    for _ in range(rounds + 1):
        if seed is not None:
            np.random.seed(seed)
        args = make()
        t = time.perf_counter()
        r = fn(*args)
        times.append(time.perf_counter() - t)
        out = (r, [np.array(a) for a in args if isinstance(a, np.ndarray)], state(args, seed))
    return statistics.median(times[1:] or times), out


def same(a, b):
    """'exact', 'close' (values within 1e-12: XLA's FMA contraction, docs/semantics.md) or 'NO';
    the generators' states must be equal either way."""
    pairs = [(np.asarray(a[0]), np.asarray(b[0]))] + list(zip(a[1], b[1]))
    if a[2] != b[2] or not all(np.allclose(p, q, rtol=1e-12, atol=1e-12) for p, q in pairs):
        return "NO"
    return "exact" if all(np.array_equal(p, q) for p, q in pairs) else "close"


def measure(mode, steps, rounds):
    """{program: (seconds, same as NumPy)} in this process: `numpy`, `before` or `after` (one mode
    a process: compiled programs are cached per function, so a second mode would reuse the first's)."""
    draws.NPR_DRAWS_IN_ADVANCE = mode in ("after", "uncounted")
    draws.NPR_DRAWS_REPLAY = mode == "after"
    out = {}
    for name, fn, make, seed in cases(steps):
        ref = timed(fn, make, seed, 0)[1]
        t, got = timed(fn if mode == "numpy" else np2ref.compile(fn), make, seed, rounds)
        out[name] = (t, same(ref, got))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--mode", choices=("numpy", "before", "after", "uncounted"))
    a = ap.parse_args(argv)
    if a.mode:
        print(json.dumps(measure(a.mode, a.steps, a.rounds)))
        return
    runs = {m: json.loads(subprocess.run([sys.executable, __file__, "--mode", m, "--steps", str(a.steps),
                                          "--rounds", str(a.rounds)], capture_output=True, text=True,
                                         check=True).stdout.splitlines()[-1]) for m in ("numpy", "before", "after", "uncounted")}
    print(f"steps={a.steps}")
    print(f"{'program':42s} {'NumPy':>9s} {'per-draw':>9s} {'advance':>9s} {'uncounted':>9s} {'vs NumPy':>9s}"
          "  per-draw/advance/uncounted")
    for name in runs["numpy"]:
        (t_np, _), (t_b, ok_b), (t_a, ok_a), (t_u, ok_u) = (runs[m][name] for m in ("numpy", "before", "after", "uncounted"))
        print(f"{name:42s} {t_np * 1e3:8.1f}ms {t_b * 1e3:8.1f}ms {t_a * 1e3:8.1f}ms {t_u * 1e3:8.1f}ms "
              f"{t_np / t_a:8.2f}x  {ok_b}/{ok_a}/{ok_u}")


if __name__ == "__main__":
    main()
