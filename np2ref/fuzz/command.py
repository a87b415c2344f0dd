"""`np2ref fuzz --count N --seed S [--max-statements K] [--save-dir DIR]`.

Draws programs with hypothesis (seeded, so a seed replays a run), skips duplicates, checks
each one (runner.py), shrinks and saves every failure, and prints the tally; the last line is
always `fuzz: N programs, P exact, R refused, F failed`. Exit 0 only when nothing failed.
"""

from __future__ import annotations

import argparse
import collections
import re
import resource
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from . import regressions
from .generate import FAMILY_NAMES, programs
from .program import Program
from .runner import Outcome, Runner
from .shrink import shrink


class Tally:
    def __init__(self):
        self.kinds: collections.Counter = collections.Counter()
        self.codes: collections.Counter = collections.Counter()   # refusals by code (and stage)
        self.invalid: collections.Counter = collections.Counter() # NumPy's exception types: no program
        self.excluded: collections.Counter = collections.Counter()  # the strict run's own (raises.py)
        self.raised: collections.Counter = collections.Counter()  # compared: NumPy raised, by type and kind
        self.duplicates = 0
        self.vmapped = 0
        self.graded = 0
        self.kernels: collections.Counter = collections.Counter()  # loops="pallas": kernel or lax loop
        self.start = time.perf_counter()

    @property
    def checked(self) -> int:
        return self.kinds["exact"] + self.kinds["refused"] + self.kinds["failed"]

    def add(self, outcome: Outcome) -> None:
        if outcome.discarded:
            (self.invalid if outcome.kind == "invalid" else self.excluded)[outcome.code] += 1
            return
        self.kinds[outcome.kind] += 1
        if outcome.raised:
            self.raised[outcome.raised, outcome.kind] += 1
        self.vmapped += outcome.vmapped
        self.graded += outcome.graded
        if outcome.kernel:
            self.kernels[outcome.kernel] += 1
        if outcome.kind == "refused":
            self.codes[outcome.code + ("" if outcome.stage not in ("vmap", "grad") else f" (under {outcome.stage})")] += 1

    def rate(self) -> float:
        return self.checked / max(time.perf_counter() - self.start, 1e-9)

    def line(self) -> str:
        k = self.kinds
        return f"fuzz: {self.checked} programs, {k['exact']} exact, {k['refused']} refused, {k['failed']} failed"

    @property
    def mostly_discarded(self) -> bool:
        """More than one program in ten NumPy's run made no test of (raises.py): a generator that
        writes programs that are none, or that only overflow, would otherwise pass unseen."""
        discarded = sum(self.invalid.values()) + sum(self.excluded.values())
        return discarded * 10 > discarded + self.checked

    def report(self) -> list[str]:
        def listed(counter):
            return ", ".join(f"{n} {c}" for c, n in counter.most_common()) or "none"
        invalid, excluded = sum(self.invalid.values()), sum(self.excluded.values())
        refused = self.kinds["refused"]
        codes = ", ".join(f"{c} {n} ({100 * n / max(self.checked, 1):.1f}%)" for c, n in self.codes.most_common())
        raised, verdicts = collections.Counter(), collections.Counter()
        for (name, kind), n in self.raised.items():
            raised[name] += n
            verdicts[kind] += n
        return [f"discarded: {invalid} invalid (NumPy raises: {listed(self.invalid)}), {excluded} excluded by the "
                f"strict run ({listed(self.excluded)}), {self.duplicates} duplicates",
                *([f"warning: NumPy's run made no test of {invalid + excluded} of {invalid + excluded + self.checked} "
                   "programs (more than one in ten): the run fails"] * self.mostly_discarded),
                f"NumPy raised on {sum(raised.values())} programs ({listed(raised)}): np2ref raised the same on "
                f"{verdicts['exact']}, refused {verdicts['refused']}, failed {verdicts['failed']}",
                f"refused: {refused} ({100 * refused / max(self.checked, 1):.1f}%) by code: {codes or 'none'}",
                f"vmap of .pure checked on {self.vmapped} of {self.kinds['exact']} exact programs "
                "(not when arguments share memory or the perturbed inputs make NumPy raise)",
                f"grad of .pure checked (forward and reverse mode, jacfwd, jacrev, NumPy's differences where "
                f"differentiable: fuzz/gradients.py) on {self.graded} of {self.kinds['exact']} exact programs "
                "(those with float arguments)",
                *([f"loops='pallas': one Pallas kernel ran in {self.kernels['kernel']} of "
                   f"{self.kernels['kernel'] + self.kernels['lax']} exact programs (the lax loop in the others)"]
                  * bool(self.kernels['kernel'] + self.kernels['lax'])),
                *([f"loop fission forced on: work moved before a loop in {self.kernels['fission']} of "
                   f"{self.kernels['fission'] + self.kernels['rolled']} exact programs, the same bits as without"]
                  * bool(self.kernels['fission'] + self.kernels['rolled'])),
                f"time: {time.perf_counter() - self.start:.1f} s, {self.rate():.2f} programs/s, "
                f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"]


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="np2ref fuzz", description="differential fuzzing of np2ref.compile against NumPy")
    p.add_argument("--count", type=int, default=100, help="programs to check (duplicates and invalid ones do not count)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-statements", type=int, default=6, help="statements in f's body, at most")
    p.add_argument("--save-dir", default="tests/regressions", help="where minimal failing programs are saved")
    p.add_argument("--no-vmap", action="store_true", help="skip the jax.vmap check of .pure")
    p.add_argument("--no-grad", action="store_true", help="skip the reverse-mode check of .pure")
    p.add_argument("--show-refused", metavar="CODE", default=None,
                   help="print each program refused with this code (NPR031, say): where the gaps are")
    p.add_argument("--no-shrink", action="store_true", help="save failing programs as generated")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds a program may take (a timeout ends the run); raise it on a loaded machine")
    p.add_argument("--saves-per-kind", type=int, default=2,
                   help="failures of one kind shrunk and saved, at most (the rest are counted and printed)")
    p.add_argument("--family", default=None, choices=sorted(FAMILY_NAMES),
                   help="put a statement of this family in every program (fresh_loop, mask_lead, kept, list_join, ...)")
    p.add_argument("--progress", type=int, default=100, help="print a progress line every N programs (0: never)")
    args = p.parse_args(argv)
    if args.count < 0 or args.max_statements < 1:
        p.error("--count must be >= 0 and --max-statements >= 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    fuzz = Fuzz(args)
    try:
        fuzz.run()
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    for line in fuzz.tally.report():
        print(line)
    print(fuzz.tally.line(), flush=True)
    return 0 if fuzz.tally.kinds["failed"] == 0 and fuzz.complete and not fuzz.tally.mostly_discarded else 1


class Fuzz:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.runner = Runner(vmap=not args.no_vmap, grad=not args.no_grad, timeout_s=args.timeout)
        self.tally = Tally()
        self.seen: set[str] = set()
        self.saved = collections.Counter(regressions.saved_kinds(Path(args.save_dir)))
        self.shrunk: collections.Counter = collections.Counter()  # mismatches shrunk, by rough kind
        self.complete = False
        self.stopped = False

    def run(self) -> None:
        rounds_without_progress = 0
        round_ = 0
        while self.tally.checked < self.args.count and rounds_without_progress < 5 and not self.stopped:
            before = self.tally.checked
            self._round(self.args.seed * 1_000_003 + round_, self.args.count - self.tally.checked)
            round_ += 1
            rounds_without_progress = 0 if self.tally.checked > before else rounds_without_progress + 1
        self.complete = self.tally.checked >= self.args.count

    def _round(self, seed: int, remaining: int) -> None:
        @hypothesis_seed(seed)
        @settings(max_examples=remaining + remaining // 2 + 20, database=None, deadline=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck), print_blob=False)
        @given(programs(self.args.max_statements, self.args.family))
        def one(program: Program) -> None:
            if self.tally.checked < self.args.count and not self.stopped:
                self.visit(program, seed)
        one()

    def visit(self, program: Program, seed: int) -> None:
        source = program.source()
        if source in self.seen:
            self.tally.duplicates += 1
            return
        self.seen.add(source)
        outcome = self.runner.check(source)
        self.tally.add(outcome)
        if outcome.kind == "refused" and self.args.show_refused == outcome.code:
            print(f"\nREFUSED {outcome.describe()} ({outcome.stage})\n{source}", flush=True)
        if outcome.kind == "failed":
            self.failure(program, outcome, f"np2ref fuzz --seed {self.args.seed} (round seed {seed}), "
                                               f"program {self.tally.checked}")
        n = self.tally.checked
        if n % 500 == 0 and not outcome.discarded:
            _clear_jax_caches()
        if self.args.progress and n % self.args.progress == 0 and not outcome.discarded:
            print(f"{self.tally.line()} ({self.tally.rate():.2f}/s)", flush=True)

    def failure(self, program: Program, outcome: Outcome, origin: str) -> None:
        """Print the failure; shrink and save it unless one like it is saved already.

        A crash is known by where it was raised, so it is judged before shrinking; a mismatch
        only by the minimal program that shows it, so every mismatch is shrunk first."""
        print(f"\nFAILURE {self.tally.kinds['failed']} ({origin}): {outcome.describe()}", flush=True)
        kind = crash_kind(outcome)
        if outcome.code == "timeout":
            # An exception raised into JAX mid-trace may leave its state inconsistent, and a
            # runaway program is slow to shrink: save it as it is and stop this run.
            path = regressions.save(program, outcome, origin, Path(self.args.save_dir), kind)
            print(f"--- saved unshrunk as {path}; stopping: a timeout leaves JAX in an unknown state ---\n"
                  f"{program.source()}", flush=True)
            self.stopped = True
            return
        if kind and self.saved[kind] >= self.args.saves_per_kind:
            print(f"(not shrunk: {self.saved[kind]} of this kind saved already: {kind})", flush=True)
            return
        rough = _BLUR.sub("_", f"{outcome.signature} {outcome.detail.splitlines()[0] if outcome.detail else ''}")
        if not kind and self.shrunk[rough] >= 3 * self.args.saves_per_kind:
            print(f"(not shrunk: {self.shrunk[rough]} mismatches like it were shrunk already)", flush=True)
            return
        self.shrunk[rough] += 1
        checks = 0
        if not self.args.no_shrink:
            program, outcome, checks = shrink(program, outcome, self.runner.check)
        kind = kind or mismatch_kind(outcome, program)
        print(f"--- minimal program ({checks} shrink checks) ---\n{program.source()}"
              f"--- it gives: {outcome.describe()}", flush=True)
        if self.saved[kind] >= self.args.saves_per_kind:
            print(f"(not saved: {self.saved[kind]} of this kind saved already)\n", flush=True)
            return
        path = regressions.save(program, outcome, origin, Path(self.args.save_dir), kind)
        self.saved[kind] += 1
        print(f"saved as {path}\n", flush=True)


_BLUR = re.compile(r"`\w+`|\[[^\]]*\]|Ref\{[^}\s]*\}?|-?\d+(\.\d+)?(e-?\d+)?|array\(.*")


def crash_kind(outcome: Outcome) -> str | None:
    """An exception's kind: stage, type, message and the np2ref frames it came through, with
    numbers and names blurred. None for a mismatch (a value, or how an exception was raised)."""
    if outcome.differs:
        return None
    lines = outcome.detail.splitlines() or [""]
    where = [ln.split(" in ", 1)[-1].split(":", 1)[0] for ln in lines[1:]
             if ln.strip().startswith("at ") and "np2ref_fuzz_" not in ln]
    return _BLUR.sub("_", f"{outcome.signature} {lines[0][:120]} {' '.join(where[-1:])}")


def mismatch_kind(outcome: Outcome, program: Program) -> str:
    """A mismatch's kind: where it differs and the minimal program's statements, blurred."""
    shape = "; ".join(_BLUR.sub("_", ln.strip()) for ln in program.main.source().splitlines()[1:])
    shape = re.sub(r"\b([vwmrhk])\d+\b", r"\1", shape)
    shape = re.sub(r"\b[abc]\b", "p", shape)  # the parameters
    where = outcome.detail.split(":", 1)[0]
    return f"{outcome.signature} {_BLUR.sub('_', where)} | {shape[:200]}"


def _clear_jax_caches() -> None:
    """Thousands of one-off programs: drop JAX's compilation caches now and then."""
    import jax

    jax.clear_caches()
