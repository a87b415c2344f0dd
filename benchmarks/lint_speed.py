"""`np2ref check` and `np2ref convert` at a linter's speed (issue 43): a table of wall times for
a generated module of 600 small functions (6,000 lines), corpus/, and a re-check from the cache.

    python benchmarks/lint_speed.py            # the table
    python benchmarks/lint_speed.py --profile  # and the top of a profile of the cold check

Each row runs the CLI in a fresh interpreter (what pre-commit pays), cold (`--no-cache`) unless it
says cached; medians of --repeat runs. One module is checked and converted in --jobs parts at
once (np2ref/split.py); the -j 1 rows say what one process takes.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_FUNCTION = '''
def step_{k}(u, idx, w, m):
    """Function {k}: a slice +=, np.add.at, a mask store, a copy, a strided *=."""
    u[1:-1] += 0.25 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    np.add.at(u, idx, w)
    u[m] = 0.0
    v = u.copy()
    v[::2] *= {k}.0
    total = np.sum(v)
    return total
'''


def generated_module(n: int = 600) -> str:
    """A module of n small functions, 10 lines each."""
    return "import numpy as np\n\n" + "".join(_FUNCTION.format(k=k) for k in range(n))


def _cli(*args, cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its workers): on a loaded machine the CPU
    time says more than the wall time."""
    # bytecode written and read, as an installed package has it (PYTHONDONTWRITEBYTECODE=1 made
    # every run compile np2ref's modules again: 0.2 s of CPU a run)
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "np2ref.cli", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # (exit 1 is `check`'s "diagnostics found"; a traceback is a crash timed as a row: main's
    # "convert gen600.py, unchanged (cache)" row timed a conversion and an UnboundLocalError)
    if done.returncode not in (0, 1) or "Traceback (most recent call last)" in done.stderr:
        raise SystemExit(f"np2ref {' '.join(map(str, args))} failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def _median(fn, repeat: int) -> tuple[float, float]:
    runs = [fn() for _ in range(repeat)]
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--only", action="append", default=[], metavar="TEXT",
                    help="only the rows whose name holds TEXT (repeatable): a loaded machine's quicker table")
    args = ap.parse_args(argv)

    def selected(what: str) -> bool:
        return not args.only or any(text in what for text in args.only)

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "np2ref")], check=False)  # (the bytecode)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "gen600.py").write_text(generated_module())
        rows = [
            ("check gen600.py (6,000 lines), cold", lambda: _cli("check", "--no-cache", "gen600.py", cwd=tmp)),
            ("check gen600.py, cold, -j 1", lambda: _cli("check", "--no-cache", "-j", "1", "gen600.py", cwd=tmp)),
            ("convert gen600.py, cold", lambda: _cli("convert", "--no-cache", "gen600.py", "-o", "out.py", "--force", cwd=tmp)),
            ("convert gen600.py, cold, -j 1",
             lambda: _cli("convert", "--no-cache", "-j", "1", "gen600.py", "-o", "out.py", "--force", cwd=tmp)),
            (f"check corpus/ ({len(list((ROOT / 'corpus').glob('*.py')))} files), cold, -j 1",
             lambda: _cli("check", "--no-cache", "-j", "1", ROOT / "corpus", cwd=tmp)),
            ("check corpus/, cold, -j 2", lambda: _cli("check", "--no-cache", "-j", "2", ROOT / "corpus", cwd=tmp)),
        ]
        cached = [  # (row, what fills the cache first, the run)
            ("check corpus/, unchanged (cache)", ("check", ROOT / "corpus"), ("check", ROOT / "corpus")),
            ("check gen600.py, unchanged (cache)", ("check", "gen600.py"), ("check", "gen600.py")),
            ("convert gen600.py, unchanged (cache)", ("convert", "gen600.py", "-o", "out.py", "--force"),
             ("convert", "gen600.py", "-o", "out.py", "--force")),
        ]
        for what, fill, run in cached:
            if selected(what):
                _cli(*fill, cwd=tmp)
                rows.append((what, lambda run=run: _cli(*run, cwd=tmp)))
        print(f"{'what':42} {'wall s':>8} {'CPU s':>8}   (medians of {args.repeat}; load {os.getloadavg()[0]:.1f})")
        for what, fn in rows:
            if not selected(what):
                continue
            wall, cpu = _median(fn, args.repeat)
            print(f"{what:42} {wall:8.2f} {cpu:8.2f}", flush=True)
        if args.profile:
            sys.path.insert(0, str(ROOT))
            from np2ref import command_process

            command_process.command()  # (as in the command's process: np2ref/command_process.py)
            command_process.ready()
            from np2ref.pipeline import convert_source
            text = (tmp / "gen600.py").read_text()
            prof = cProfile.Profile()
            prof.enable()
            convert_source(text, "gen600.py")
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
