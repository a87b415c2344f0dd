"""Shrinking a failing program: delete what is not needed for the failure to show.

Greedy, to a fixpoint: drop the return, drop a statement (a whole loop or branch first, then
what is inside), unwrap a loop or branch into its body, drop an unused parameter. An edit is
kept when the smaller program still fails with the same signature (stage and kind: a
mismatch stays a mismatch, a TypeError a TypeError), so the minimal program shows the same
bug, not a different one. Every check compiles a program, so the number of checks is bounded.
"""

from __future__ import annotations

from typing import Callable, Iterator

from .program import Program
from .runner import Outcome


def candidates(program: Program) -> Iterator[Program]:
    """Smaller variants of `program`, the biggest cuts first."""
    fns = program.functions()
    for fi, fn in enumerate(fns):
        if fn.ret is not None:
            yield program.with_ret(fi, None)
    paths = sorted(program.paths(), key=lambda p: (len(p[1]), -p[0]))
    for fi, path in paths:
        yield program.without(fi, path)
    for fi, path in paths:
        unwrapped = program.unwrapped(fi, path)
        if unwrapped is not None:
            yield unwrapped
    for param in program.params:
        smaller = program.without_param(param.name)
        if smaller is not None:
            yield smaller


def shrink(program: Program, outcome: Outcome, check: Callable[[str], Outcome],
           max_checks: int = 300) -> tuple[Program, Outcome, int]:
    """(the smallest program found that fails like `outcome`, its outcome, checks used)."""
    checks = 0
    improved = True
    while improved and checks < max_checks:
        improved = False
        seen = {program.source()}
        for smaller in candidates(program):
            source = smaller.source()
            if source in seen:
                continue
            seen.add(source)
            checks += 1
            result = check(source)
            if result.kind == "failed" and result.signature == outcome.signature:
                program, outcome, improved = smaller, result, True
                break
            if checks >= max_checks:
                break
    return program, outcome, checks
