"""How well np2ref's route choice on a CPU matches what is faster (np2ref/compiled/routes.py).

    python benchmarks/routes.py [--rounds N] [--size S|L]

For each kernel of benchmarks/suite.py, each program of benchmarks/run.py and a few elementwise
chains at the model's boundary: the cost model's estimates (NumPy running the original, the
jitted call), the route np2ref.compile takes, and the two routes timed end to end with NumPy
arrays (NumPy itself; np2ref.compile with host_below=0, always the translation) in interleaved
rounds. "right" says whether the route taken is the faster one measured; "cost" is the time
a wrong choice costs (its route over the faster one). Timing, not a test.
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import programs  # noqa: E402
import suite  # noqa: E402
import suite_kernels as K  # noqa: E402

import np2ref  # noqa: E402
from np2ref.compiled import routes  # noqa: E402
from np2ref.compiled.hostcall import host_key  # noqa: E402


def chain2(x):
    return 1.0 / x + 1.0


def chain3(x):
    return (1.0 / x + 1.0) * 2.0


def chain4(x):
    return (1.0 / x + 1.0) * 2.0 - x


def relax(x):
    for _ in range(20):
        x = 0.5 * (x + 2.0 / x)
    return x


def cases(size):
    """label -> (NumPy function, positional arguments)."""
    out = {label: (getattr(K, name), args) for label, (name, args, _) in suite.cases(size).items()}
    for name, make in programs.PROGRAMS.items():
        program = make()
        kwargs = program.make(size)
        names = list(inspect.signature(program.original).parameters)
        out[f"run.py {name}"] = (program.original, tuple(kwargs[n] for n in names if n in kwargs))
    x = np.random.default_rng(1).random(1_000_000) + 0.5
    for fn in (chain2, chain3, chain4):
        out[f"{fn.__name__}, 1e6"] = (fn, (x,))
    for n in (1000, 100_000):
        out[f"relax (20 trips), {n}"] = (relax, (x[:n].copy(),))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", default="S", choices=("S", "L"))
    args = parser.parse_args(argv)
    rows = []
    for label, (fn, arguments) in cases(args.size).items():
        compiled, jitted = np2ref.compile(fn), np2ref.compile(fn, host_below=0)
        numpy_args, np2ref_args, jitted_args = (suite.copies(arguments) for _ in range(3))
        compiled(*np2ref_args)
        jitted(*jitted_args)
        written = {i for i, n in enumerate(inspect.signature(fn).parameters) if n in jitted.mutated}
        est_numpy, est_jit = compiled._estimates.get(host_key(np2ref_args)) or routes.estimate(
            jitted._entry.trace_numpy(*suite.copies(arguments)).jaxpr, suite.copies(arguments), written)
        route = compiled.route(*np2ref_args)  # "measuring" after one call, where both are timed (choice.py)
        variants = {"NumPy": lambda: fn(*numpy_args), "jitted": lambda: jitted(*jitted_args)}
        samples = {v: [] for v in variants}
        for k in range(args.rounds):
            for v in (list(variants) if k % 2 == 0 else list(variants)[::-1]):
                samples[v].append(suite.batch(variants[v]))
        t_numpy, t_jit = (statistics.median(samples[v]) for v in variants)
        faster = "host" if t_numpy <= t_jit else "jit"
        taken, best = (t_numpy, t_jit) if route == "host" else (t_jit, t_numpy)
        rows.append((label, est_numpy, est_jit, route, t_numpy, t_jit, route == faster, taken / min(taken, best)))
        print(rows[-1], flush=True)
    print(f"\n`python benchmarks/routes.py --size {args.size}`: medians of {args.rounds} rounds\n")
    print("| kernel | estimate NumPy | estimate jitted | route | NumPy | jitted | right | taken / faster |")
    print("|---|---|---|---|---|---|---|---|")
    for label, en, ej, route, tn, tj, right, cost in rows:
        print(f"| {label} | {suite.fmt(en * 1e-6)} | {suite.fmt(ej * 1e-6)} | {route} | {suite.fmt(tn)} | "
              f"{suite.fmt(tj)} | {'yes' if right else 'no'} | {cost:.2f} |")
    print(f"\nRight on {sum(r[6] for r in rows)} of {len(rows)}; worst taken/faster "
          f"{max(r[7] for r in rows):.2f}.")


if __name__ == "__main__":
    main()
