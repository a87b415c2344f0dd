"""A program on which NumPy raises: what np2ref must do, and which exceptions are no test at all.

NumPy's run raising is a verdict to check, not a discarded program, except where the program says
nothing about NumPy's semantics:

- *invalid*: NameError (not its subclass UnboundLocalError, which np2ref promises), SyntaxError,
  ImportError: the generator's or the shrinker's own mistakes;
- *excluded*: what the strict run (shadow.strict) adds to NumPy: a FloatingPointError of
  np.errstate(all="raise"), a warning raised as an error. NumPy without them returns inf or nan with
  a warning, a value the fuzzer does not compare.

Both are counted, by type, on the tally's `discarded:` line (and a run where they are many fails:
command.py). Every other exception is compared. The compiled call must raise an exception of the
same *public* type: NumPy's private subclasses count as their first public base (`int_array +=
0.5` raises numpy._core's _UFuncOutputCastingError, a TypeError, which np2ref may raise as
UFuncTypeError or TypeError); LinAlgError is itself, not a ValueError. The message is compared
where np2ref promises NumPy's (docs/semantics.md): IndexError (an index out of range), UnboundLocalError,
LinAlgError, and an exception of the program's own `raise` or `assert` (the innermost frame of
NumPy's traceback is a line of the program starting with `raise` or `assert`); elsewhere (the
ValueError of a broadcast, ZeroDivisionError, the OverflowError of a store, the TypeError of a
cast) the type alone, the text being the library's. A refusal with a coded diagnostic, at compile
or call time, passes as for any program, provided it left the arguments as they were.

After the exception every array argument must be as it was (np2ref checks before it writes
anything back) or as NumPy's run left it (a call np2ref.compile hands to the original function),
a Generator argument where NumPy left it (the draws made before the error are made, those after
a failed run-time check are not, a loop's draws made in advance are put back: docs/semantics.md),
and the call must print what NumPy's run printed before it raised, no more (a print after a
failed check is not made). A second call
on fresh arguments (the per-signature plan) must raise the same. Host code (converted.py) is compared on the exception
alone: its host loop writes the arguments step by step, where nothing promises either state.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import traceback
from pathlib import Path

import numpy as np

import np2ref
from . import converted
from .differences import _compare_args, _printed_difference
from .verdicts import Outcome, crash, first_line, refused, seed, where, x64_of, SEED

INVALID = (SyntaxError, ImportError)  # and NameError, but for UnboundLocalError
PROMISED = (IndexError, UnboundLocalError, np.linalg.LinAlgError)  # NumPy's (Python's) message promised


def numpy_verdict(error: BaseException, program: Path) -> str:
    """"invalid", "excluded" or "compared": what NumPy's run raising `error` makes of the program
    (the program's own `raise FloatingPointError(...)` is compared)."""
    if own_statement(error, program):
        return "compared"
    if isinstance(error, INVALID) or type(error) is NameError:
        return "invalid"
    if isinstance(error, (FloatingPointError, Warning)):
        return "excluded"
    return "compared"


def own_statement(error: BaseException, program: Path) -> bool:
    """Whether the program's own `raise` or `assert` raised `error`: the innermost frame of its
    traceback is a line of the program that starts so."""
    frames = traceback.extract_tb(error.__traceback__)
    return bool(frames) and frames[-1].filename == str(program) and \
        (frames[-1].line or "").lstrip().startswith(("raise", "assert"))


def public_type(kind: type) -> type:
    """The first class of `kind`'s MRO that is not private to NumPy (numpy._core's UFuncTypeError and
    its casting subclasses are TypeErrors to a caller)."""
    return next(t for t in kind.__mro__ if not t.__module__.startswith("numpy._"))


def message_promised(error: BaseException, program: Path) -> bool:
    """Whether np2ref promises NumPy's (Python's) message for `error`: the types of PROMISED (an
    IndexError when it is an index out of range, the run-time check's: not "too many indices", a
    shape error JAX words when traced), and the program's own `raise` or `assert`."""
    if isinstance(error, IndexError) and not own_statement(error, program):
        return "out of bounds" in str(error)
    return isinstance(error, PROMISED) or own_statement(error, program)


def exception_difference(expected: BaseException, got: BaseException, program: Path) -> tuple[str, str] | None:
    """(code, detail) of how np2ref's exception `got` differs from NumPy's `expected`, or None."""
    name = type(expected).__name__
    if public_type(type(got)) is not public_type(type(expected)):
        return type(got).__name__, f"NumPy raises {first_line(expected)}; np2ref raises {first_line(got)}{where(got)}"
    if message_promised(expected, program) and str(got) != str(expected):
        return f"{name} message", f"{name}: NumPy says {str(expected)!r}, np2ref says {str(got)!r}"
    return None


def check_raised(module, names: list[str], error: BaseException, after_numpy: list, compile_module,
                 shown: str = "") -> Outcome:
    """The compiled call (`compile_module(module)`) against NumPy's run, which raised `error`, left
    the arguments `after_numpy` and printed `shown`; tagged with the exception's type (the tally
    counts them)."""
    outcome = _check(module, names, error, after_numpy, compile_module, shown)
    return dataclasses.replace(outcome, raised=type(error).__name__)


def _check(module, names, error, after_numpy, compile_module, shown) -> Outcome:
    program = Path(module.__file__)
    try:
        compiled = compile_module(module)
    except np2ref.Np2RefError as exc:
        refusal = refused(exc, "compile")
        if converted.wants_convert(program.read_text(), refusal.code):  # a host loop: convert's graph breaks
            return converted_raises(module, error)
        return refusal
    except Exception as exc:  # noqa: BLE001 - a crash, not the end of the run
        return crash(exc, "compile")
    name = type(error).__name__
    for stage in ("call", "second call"):
        args_c = module.make_args()
        seed()
        try:
            with x64_of(args_c), contextlib.redirect_stdout(io.StringIO()) as printed:
                compiled(*args_c)
        except np2ref.Np2RefError as exc:
            changed = _compare_args(names, module.make_args(), args_c)
            return Outcome("failed", "refusal changed arguments", stage, changed) if changed else refused(exc, stage)
        except Exception as exc:  # noqa: BLE001
            differs = exception_difference(error, exc, program)
            if differs:
                return Outcome("failed", differs[0], stage, differs[1])
            changed = _changed_after(names, module.make_args(), after_numpy, args_c) or \
                (_printed_before(printed.getvalue(), shown) if stage == "call" else None)
            if changed:
                return Outcome("failed", f"after {name}", stage, f"after the {name}, {changed}")
            continue
        return Outcome("failed", f"no {name}", stage, f"NumPy raises {first_line(error)}; np2ref returned")
    return Outcome("exact")


def _printed_before(got: str, expected: str) -> str | None:
    """What NumPy's run printed before it raised, np2ref's call must print, no more (the compiled
    program runs on past a `for` loop's failing trip, but a print after a failed check is not made)."""
    return _printed_difference(got, expected)


def _changed_after(names, initial, after_numpy, args_c) -> str | None:
    """How the arguments after np2ref's exception differ from both states allowed: as they were
    but a Generator, where NumPy left it, or as NumPy's run left them (a call np2ref.compile hands
    to the original)."""
    before = [n if isinstance(n, np.random.Generator) else v for n, v in zip(after_numpy, initial)]
    return _compare_args(names, before, args_c) and _compare_args(names, after_numpy, args_c)


def converted_raises(module, error: BaseException) -> Outcome:
    """NumPy raised in host code: the converted module's f raises the same (converted.py)."""
    program = Path(module.__file__)
    failed, *_ = converted.run_converted(program, SEED, module.make_args)
    name = type(error).__name__
    if failed is None:
        return Outcome("failed", f"no {name}", "convert", f"NumPy raises {first_line(error)}; the converted f returned")
    if failed[0] != "failed" or failed[3] is None:
        return Outcome(failed[0], failed[1], "convert", failed[2])
    differs = exception_difference(error, failed[3], program)
    return Outcome("failed", differs[0], "convert", differs[1]) if differs else Outcome("exact")
