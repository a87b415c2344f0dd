"""Differential program fuzzing: random mutating NumPy programs through NumPy and np2ref.

    generate.py    the hypothesis strategy `programs(max_statements, family)` (families:
                   statements.py, families.py; expressions: exprs.py; NumPy run as the program
                   is written: shadow.py)
    program.py     a program as data, rendered to one module (`f`, helpers, `make_args`)
    runner.py      one program: exact, refused, invalid or excluded (no test) or failed
    raises.py      a program NumPy raises on: np2ref's exception against NumPy's
    verdicts.py    `Outcome`, and the pieces of a verdict runner.py and raises.py share
    shrink.py      a failing program cut down to what still fails the same way
    regressions.py minimal failing programs saved under tests/regressions/
    command.py     `np2ref fuzz`: `main(argv) -> exit code`

See docs/fuzzing.md.
"""

from .command import main
from .generate import programs
from .program import Block, Function, Line, Param, Program
from .runner import Outcome, Runner
from .shrink import shrink

__all__ = ["Block", "Function", "Line", "Outcome", "Param", "Program", "Runner", "main", "programs", "shrink"]
