"""What one fuzzed program comes to (`Outcome`), and the pieces of a verdict the runner and the
check of a raising program (raises.py) share: an exception as a refusal or a crash, where it came
from, and the random state every run starts from."""

from __future__ import annotations

import contextlib
import dataclasses
import random
import traceback
from pathlib import Path

import numpy as np

import np2ref
from .differences import caller_32

SEED = 1234  # NumPy's global generator is seeded with it before every run of a program
# the codes of a failure that is a difference in behaviour, not np2ref's crash: shrunk before it is
# judged, like "mismatch" (command.crash_kind); "no ValueError": np2ref returned where NumPy raised,
# "after ValueError": the arguments after it, "ValueError message": the text np2ref promises
RAISE_MISMATCH_PREFIXES = ("no ", "after ")
RAISE_MISMATCH_SUFFIX = " message"


def seed() -> None:
    """NumPy's global generator and Python's `random` (habit_families.py_draws) as every run starts."""
    np.random.seed(SEED)
    random.seed(SEED)


@dataclasses.dataclass(frozen=True)
class Outcome:
    kind: str          # "exact" | "refused" | "invalid" | "excluded" | "failed"
    code: str = ""     # the refusal's code, or what failed: "mismatch", an exception's type
    stage: str = ""    # "numpy", "compile", "call", "vmap"
    detail: str = ""   # what differed, or the error
    vmapped: bool = False  # the batched `.pure` check ran (and agreed)
    graded: bool = False   # the gradient check of `.pure` ran (and agreed)
    kernel: str = ""       # loops="pallas": "kernel" when a nest ran as one Pallas kernel, else "lax";
    #                        FISSION_MARK: "fission" when a loop's work moved before it, else "rolled"
    raised: str = ""       # the exception NumPy's run raised, which np2ref's was checked against (raises.py)

    @property
    def passed(self) -> bool:
        return self.kind in ("exact", "refused")

    @property
    def discarded(self) -> bool:
        """No test: the program is none (invalid) or NumPy's strict run has no value to compare (excluded)."""
        return self.kind in ("invalid", "excluded")

    @property
    def differs(self) -> bool:
        """A failure that is a difference in behaviour (a value, or how an exception was raised)."""
        return self.code == "mismatch" or self.code.startswith(RAISE_MISMATCH_PREFIXES) or \
            self.code.endswith(RAISE_MISMATCH_SUFFIX)

    @property
    def signature(self) -> str:
        """What a shrunk program must still show to count as the same failure."""
        return f"{self.kind}:{self.stage}:{self.code}"

    def describe(self) -> str:
        head = {"refused": f"refused {self.code}", "failed": f"FAILED ({self.stage}: {self.code})"}
        return head.get(self.kind, self.kind) + (f": {self.detail}" if self.detail else "")


def refused(exc: np2ref.Np2RefError, stage: str) -> Outcome:
    codes = [d.code for d in exc.diagnostics] or ["NPR???"]
    message = exc.diagnostics[0].message if exc.diagnostics else first_line(exc)
    return Outcome("refused", codes[0], stage, message)


def crash(exc: BaseException, stage: str) -> Outcome:
    return Outcome("failed", type(exc).__name__, stage, f"{first_line(exc)}{where(exc)}")


def where(exc: BaseException) -> str:
    """The innermost frames in np2ref or in the program: where the exception came from."""
    frames = [fr for fr in traceback.extract_tb(exc.__traceback__)
              if "np2ref" in fr.filename and "/fuzz/" not in fr.filename]
    return "".join(f"\n  at {Path(fr.filename).name}:{fr.lineno} in {fr.name}: {(fr.line or '').strip()}"
                   for fr in frames[-3:])


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}"


def x64_of(args):
    """A caller in 32 bits (float32 jax.Arrays passed) calls with x64 off, JAX's default, whatever
    another module of the process left on; other calls as the process is."""
    if not caller_32(args):
        return contextlib.nullcontext()
    import jax
    return jax.enable_x64(False)
