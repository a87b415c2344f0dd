"""The verification report: one `TransformResult` per transform, and the table the CLI prints.

A transform's status is one of
- passed: at least one input was compared and every comparison agreed;
- failed: a comparison disagreed (or the translation raised); the shrunk input is kept;
- skipped: the transform does not apply (no float output for grad, ...), with the reason;
- not verified: it applies but nothing was compared (every input discarded, nothing returned or
  written). The harness fails closed: "not verified" is never "passed".
"""

from __future__ import annotations

import collections
import dataclasses

import numpy as np

from .inputs import format_case

PASSED, FAILED, SKIPPED, UNVERIFIED = "passed", "failed", "skipped", "not verified"


@dataclasses.dataclass
class TransformResult:
    transform: str
    status: str = UNVERIFIED
    reason: str = ""               # why it failed, was skipped or was not verified
    checks: str = ""               # what is compared
    compared: int = 0              # inputs on which something was compared
    tried: int = 0                 # inputs generated (the example first), shrinking not counted
    discards: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    skipped_directions: int = 0    # grad: directions along which the original has a kink
    shrink_steps: int = 0
    worst_error: float = 0.0
    failing_batch: list[dict] | None = None  # the shrunk failing case, one dict per batch member
    seed: int | None = None

    @property
    def discarded(self) -> int:
        return sum(self.discards.values())

    @property
    def checked(self) -> bool:
        return self.compared > 0

    @property
    def passed(self) -> bool:
        return self.status == PASSED

    @property
    def failing_input(self) -> dict | None:
        """The shrunk failing arguments (the first batch member for vmap)."""
        return self.failing_batch[0] if self.failing_batch else None

    def notes(self) -> str:
        parts = []
        if self.discards:
            parts.append("discarded: " + ", ".join(f"{n} ({why})" for why, n in self.discards.items()))
        if self.skipped_directions:
            parts.append(f"{self.skipped_directions} directions at kinks of the original not compared")
        if self.status in (SKIPPED, UNVERIFIED):
            parts.insert(0, self.reason)
        return "; ".join(parts)

    def failure_text(self) -> str:
        lines = [f"{self.transform}: {self.reason}"]
        if self.failing_batch:
            shrunk = f" (shrunk in {self.shrink_steps} steps)" if self.shrink_steps else ""
            if len(self.failing_batch) == 1:
                lines.append(f"  failing input{shrunk}:")
                lines.append(format_case(self.failing_batch[0]))
            else:
                lines.append(f"  failing batch{shrunk}: member 0")
                lines.append(format_case(self.failing_batch[0]))
                first = self.failing_batch[0]
                for i, member in enumerate(self.failing_batch[1:], 1):
                    changed = {n: v for n, v in member.items() if not _same(v, first[n])}
                    if not changed:
                        lines.append(f"  member {i}: the same as member 0")
                        continue
                    lines.append(f"  member {i} (the other arguments as member 0):")
                    lines.append(format_case(changed))
        return "\n".join(lines)


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype \
            and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    return a is b or a == b


@dataclasses.dataclass
class VerifyReport:
    function: str
    results: dict[str, TransformResult]
    examples: int
    seed: int
    vary_shapes: bool = False

    @property
    def ok(self) -> bool:
        """True when nothing failed, nothing requested went unverified, and at least one
        transform passed."""
        statuses = [r.status for r in self.results.values()]
        return PASSED in statuses and FAILED not in statuses and UNVERIFIED not in statuses

    @property
    def failures(self) -> list[TransformResult]:
        return [r for r in self.results.values() if r.status == FAILED]

    def __getitem__(self, transform: str) -> TransformResult:
        return self.results[transform]

    def table(self) -> str:
        header = ("transform", "result", "worst error", "compared", "tried", "discarded", "notes")
        rows = [header]
        for r in self.results.values():
            error = "-" if not r.compared and r.status != FAILED else f"{r.worst_error:.1e}"
            result = r.status if r.status in (PASSED, SKIPPED) else r.status.upper()
            rows.append((r.transform, result, error, str(r.compared), str(r.tried), str(r.discarded),
                         r.notes()))
        widths = [max(len(row[i]) for row in rows) for i in range(len(header) - 1)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)) + "  " + row[-1] for row in rows]
        return "\n".join(line.rstrip() for line in lines)

    def summary(self) -> str:
        if self.ok:
            done = [r.transform for r in self.results.values() if r.passed]
            return f"verified: {', '.join(done)}"
        bad = [f"{r.transform} {r.status}" for r in self.results.values() if r.status in (FAILED, UNVERIFIED)]
        return "NOT verified: " + (", ".join(bad) if bad else "no transform was checked")

    def __str__(self) -> str:
        shapes = ", shapes varied" if self.vary_shapes else ""
        parts = [f"np2ref verify {self.function}: up to {self.examples} inputs per transform, "
                 f"seed {self.seed}{shapes}", self.table()]
        for r in self.results.values():
            if r.status == FAILED:
                parts += ["", r.failure_text()]
        parts += ["", self.summary()]
        return "\n".join(parts)
