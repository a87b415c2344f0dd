"""A performance regression check: np2ref's translation against the hand ports, as ratios.

    python benchmarks/regress.py [--factor 2.0] [--only NAME,...] [--update] [--table PATH]

Times every program of benchmarks/programs.py at size S and every kernel of
benchmarks/npbench_style.py on this machine's default JAX device (the CPU in CI and on the
development VM): the jitted `np2ref.compile(fn).pure` and the jitted hand port on device arrays,
float64. A ratio, not a time, is compared, because this VM's speed drifts 2-3x within seconds
while both sides of one program drift together: per program, rounds alternate the two sides
(each a block of as many calls as fill ~20 ms), and the ratio is np2ref's fastest call over the
hand port's fastest call (load only slows a call down). The translation's result and mutated arguments are
also checked against NumPy's once (a fast wrong answer is no improvement).

The ratios are compared with the table committed in benchmarks/results/regress.json. A program
whose ratio is worse than its stored one by more than --factor (default 2) is timed once more
(a busy spell on a shared CPU is not a regression) and, still worse, fails the check: exit 1.
A program missing from the table, or whose answer disagrees with NumPy, fails too. `--update`
rewrites the table from this run (with --only, only those rows). Takes about 2-4 minutes
on a 2-core VM, most of it XLA compiles. Not a test: no pytest runs it; run it before committing
a change to the emitted loops or the runtime (docs/benchmarks.md, "Regression check").
"""

from __future__ import annotations

import argparse
import datetime
import inspect
import json
import math
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import jax
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import npbench_style as NB  # noqa: E402
import programs as P  # noqa: E402
from common import disagreement, run_numpy, split_static  # noqa: E402

import np2ref  # noqa: E402

TABLE = HERE / "results" / "regress.json"
BLOCK_S = 0.02  # a round times as many calls of each side as fill this (3 to 50)


@dataclass
class Case:
    """One program ready to time: both sides called without arguments (device arrays bound)."""
    name: str
    ours: Callable[[], object]
    hand: Callable[[], object]
    wrong: str | None  # None when the translation equals NumPy, else the first difference


def _warm(name, ours, hand, check):
    """The Case, after one call of each side (its compile); `check(out)` compares ours with NumPy."""
    out = jax.block_until_ready(ours())
    jax.block_until_ready(hand())
    return Case(name, ours, hand, check(out))


def program_case(name):
    """A program of benchmarks/programs.py at size S (keyword arguments, ints static)."""
    prog = P.PROGRAMS[name]()
    kw = prog.make("S")
    static, dynamic = split_static(kw)
    expected, after = run_numpy(prog.original, kw)
    dev = {k: jax.device_put(v) for k, v in dynamic.items()}
    pure = jax.jit(np2ref.compile(prog.original).pure, static_argnames=tuple(static))
    port = jax.jit(prog.hand, static_argnames=tuple(static))
    return _warm(name, lambda: pure(**dev, **static), lambda: port(**dev, **static),
                 lambda out: disagreement(expected, after, *out))


def npbench_case(name):
    """A kernel of benchmarks/npbench_style.py (positional arguments, ints static as there)."""
    original, args = getattr(NB, name), NB.inputs(name, np.random.default_rng(0))
    params = list(inspect.signature(original).parameters)
    expected, after = run_numpy(original, dict(zip(params, args)))
    static = tuple(k for k, x in enumerate(args) if isinstance(x, int))
    dev = [x if k in static else jax.device_put(x) for k, x in enumerate(args)]
    pure = jax.jit(np2ref.compile(original).pure, static_argnums=static)
    port = jax.jit(getattr(NB, "hand_" + name), static_argnums=static)
    return _warm("npbench:" + name, lambda: pure(*dev), lambda: port(*dev),
                 lambda out: disagreement(expected, after, *out))


def all_names():
    return sorted(P.PROGRAMS) + ["npbench:" + n for n in NB.NAMES]


def make_case(name):
    return npbench_case(name.split(":", 1)[1]) if name.startswith("npbench:") else program_case(name)


def ratio(case, rounds):
    """(fastest np2ref call, fastest hand call): each round times a block of calls of each side,
    alternating which goes first; load only ever slows a call, so the fastest is the steadiest."""
    sides = [case.ours, case.hand]
    calls = [max(3, min(50, int(BLOCK_S / max(NB.fastest(f, 2), 1e-7)))) for f in sides]
    best = [math.inf, math.inf]
    for r in range(rounds):
        for k in ((0, 1) if r % 2 == 0 else (1, 0)):
            best[k] = min(best[k], NB.fastest(sides[k], calls[k]))
    return best[0], best[1]


def load_table(path):
    return json.loads(path.read_text()) if path.exists() else {"ratios": {}}


def verdict(name, got, stored, factor):
    """'ok', 'worse', 'better' (stored / factor or less: --update may lower the bar) or 'new'."""
    if stored is None:
        return "new"
    if got > stored * factor:
        return "worse"
    return "better" if got * factor < stored else "ok"


def measure(names, rounds, factor, stored):
    """{name: (np2ref s, hand s, ratio, verdict, wrong)}, a worse ratio re-timed once."""
    rows = {}
    for name in names:
        t0 = time.perf_counter()
        case = make_case(name)
        ours, hand = ratio(case, rounds)
        v = verdict(name, ours / hand, stored.get(name), factor)
        if v == "worse":  # a second chance: a busy spell of the shared CPU is not a regression
            ours2, hand2 = ratio(case, 2 * rounds)
            if ours2 / hand2 < ours / hand:
                ours, hand = ours2, hand2
                v = verdict(name, ours / hand, stored.get(name), factor)
        rows[name] = (ours, hand, ours / hand, v, case.wrong)
        print(f"  {name}: {ours / hand:.2f} ({time.perf_counter() - t0:.1f} s)", file=sys.stderr, flush=True)
    return rows


def report(rows, stored, factor):
    out = [f"| program | np2ref | hand | np2ref / hand | stored | limit (x{factor:g}) | verdict |",
           "|---|---|---|---|---|---|---|"]
    for name, (ours, hand, r, v, wrong) in rows.items():
        s = stored.get(name)
        out.append(f"| {name} | {ours * 1e3:.3f} ms | {hand * 1e3:.3f} ms | {r:.2f} | "
                   f"{'-' if s is None else f'{s:.2f}'} | {'-' if s is None else f'{s * factor:.2f}'} | "
                   f"{('WRONG: ' + wrong) if wrong else v} |")
    ratios = [r for _, _, r, _, _ in rows.values()]
    out.append(f"\ngeomean np2ref/hand over {len(ratios)}: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}")
    return "\n".join(out)


def failures(rows):
    return [n for n, (_, _, _, v, wrong) in rows.items() if wrong or v in ("worse", "new")]


def write_table(path, rows, old):
    ratios = dict(old.get("ratios", {}))
    ratios.update({n: round(r, 3) for n, (_, _, r, _, _) in rows.items()})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({
        "about": "np2ref/hand port time ratios, benchmarks/regress.py --update",
        "date": datetime.date.today().isoformat(),
        "machine": f"{platform.machine()} {jax.devices()[0].device_kind} ({jax.default_backend()}), "
                   f"{__import__('os').cpu_count()} CPUs; jax {jax.__version__}, numpy {np.__version__}",
        "ratios": dict(sorted(ratios.items())),
    }, indent=1) + "\n")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--factor", type=float, default=2.0, help="fail when a ratio exceeds stored x this")
    p.add_argument("--only", default="", help="comma-separated names (npbench kernels as npbench:NAME)")
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--update", action="store_true", help="rewrite the stored ratios from this run")
    p.add_argument("--table", type=Path, default=TABLE)
    a = p.parse_args(argv)
    names = a.only.split(",") if a.only else all_names()
    unknown = sorted(set(names) - set(all_names()))
    if unknown:
        p.error(f"unknown programs: {', '.join(unknown)}")
    old = load_table(a.table)
    stored = old.get("ratios", {})
    with jax.enable_x64(True):  # (scoped: tests call main)
        rows = measure(names, a.rounds, a.factor, stored)
    print(report(rows, stored, a.factor))
    wrong = [n for n, row in rows.items() if row[4]]
    if a.update:
        if wrong:
            print(f"not updated: {', '.join(wrong)} disagree with NumPy", file=sys.stderr)
            return 1
        write_table(a.table, rows, old)
        print(f"written to {a.table}", file=sys.stderr)
        return 0
    bad = failures(rows)
    if bad:
        print(f"\nFAILED: {', '.join(bad)} (worse than stored x{a.factor:g}, new, or wrong); "
              f"`--update` stores this run's ratios once a change is meant", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
