"""`np2ref.verify`: drive hypothesis over generated inputs, one search per transform.

Each search starts with the example itself, then generated inputs (see inputs.py). An input on
which the original raises is rejected (hypothesis draws another) and counted. The first
mismatch stops the search and hypothesis shrinks the input; its last failing run is the
smallest input that still fails, and the report keeps it.
"""

from __future__ import annotations

import inspect
import random

import jax
import numpy as np

from .checks import COMPARED, DISCARDED, MISMATCH, JitCheck, Target, VmapCheck
from .grad import GradCheck, Unsupported
from .inputs import cases, specs_from_example
from .report import FAILED, PASSED, SKIPPED, UNVERIFIED, TransformResult, VerifyReport

CHECKS = {"jit": JitCheck, "vmap": VmapCheck, "grad": GradCheck}


def run(fn, args: tuple, kwargs: dict, *, transforms=("jit", "vmap", "grad"), examples: int = 50,
        seed: int | None = None, vary_shapes: bool = False) -> VerifyReport:
    """`np2ref.verify` with the example's arguments as a tuple and a dict (no name clashes)."""
    try:
        import hypothesis  # noqa: F401
    except ImportError as exc:  # pragma: no cover
        raise ImportError("np2ref.verify needs hypothesis: pip install hypothesis") from exc
    if isinstance(transforms, str) or any(t not in CHECKS for t in transforms):
        raise ValueError(f"transforms must be a sequence of {', '.join(map(repr, CHECKS))}; "
                         f"got {transforms!r}")
    seed = random.SystemRandom().randrange(2**32) if seed is None else int(seed)
    with jax.enable_x64(True):
        target = _target(fn, args, kwargs, seed)
        results = {name: _run_transform(CHECKS[name](target), target, examples, seed, vary_shapes)
                   for name in transforms}
    return VerifyReport(target.compiled.__name__, results, examples, seed, vary_shapes)


def _target(fn, args, kwargs, seed) -> Target:
    from ..compiled.compile import Compiled, compile as np2ref_compile

    compiled = fn if isinstance(fn, Compiled) else np2ref_compile(fn, host_below=0)
    original = compiled.original
    signature = inspect.signature(original)
    example, specs = specs_from_example(signature, args, kwargs)
    return Target(original, compiled, signature, example, specs, compiled.dtype_policy.rtol, seed)


def _run_transform(check, target: Target, examples: int, seed: int, vary_shapes: bool) -> TransformResult:
    result = TransformResult(check.name, checks=check.describe(), seed=seed)
    reason = check.skip_reason()
    if reason:
        result.status, result.reason = SKIPPED, reason
        return result
    example_case = [dict(target.example) for _ in range(check.members)]
    strategy = cases(target.specs, check.members, check.batched, vary_shapes)
    search = _Search(check, result)
    try:
        search.run(strategy, example_case, examples, seed)
    except Unsupported as exc:
        result.status, result.reason = SKIPPED, str(exc)
        return result
    _conclude(result, search)
    return result


class _Mismatch(Exception):
    pass


class _GiveUp(Exception):
    """Ten times `examples` inputs discarded and none compared: stop generating."""


class _Search:
    """One search: the example first, then hypothesis. Counts are kept until the first
    mismatch; after it, every failing run replaces the kept case, so the last one is the case
    hypothesis shrank to."""

    def __init__(self, check, result: TransformResult):
        self.check = check
        self.result = result
        self.failure = None  # (case, outcome) of the latest failing run
        self.example_failure = None
        self.stopped = False
        self.give_up = 20

    def body(self, case) -> str:
        """Run the check on one case; returns the outcome's kind (raises _Mismatch)."""
        shrinking = self.failure is not None
        if shrinking:
            self.result.shrink_steps += 1
        else:
            self.result.tried += 1
        outcome = self.check(case)
        self.result.worst_error = max(self.result.worst_error, outcome.error)
        if outcome.kind == MISMATCH:
            self.failure = (case, outcome)
            raise _Mismatch(outcome.detail)
        if shrinking:
            return outcome.kind
        if outcome.kind == DISCARDED:
            self.result.discards[outcome.detail] += 1
        self.result.skipped_directions += outcome.skipped
        if outcome.kind == COMPARED:
            self.result.compared += 1
        return outcome.kind

    def _generated(self, case) -> None:
        from hypothesis import reject

        kind = None
        if not self.stopped:
            kind = self.body(case)
            self.stopped = kind == DISCARDED and self.result.discarded >= self.give_up \
                and not self.result.compared
        if self.stopped:  # hypothesis takes this for a failure and replays it: raise again
            raise _GiveUp
        if kind == DISCARDED:
            reject()

    def run(self, strategy, example_case, examples: int, seed: int) -> None:
        self.give_up = 10 * max(examples, 2)
        try:
            self.body(example_case)
        except _Mismatch:
            # keep looking: a generated input that fails can be shrunk, the example cannot
            self.example_failure, self.failure = self.failure, None
        if examples > 1:
            self._hypothesis(strategy, examples - 1, seed)
        if self.failure is None and self.example_failure is not None:
            self.failure = self.example_failure
        if self.failure is not None:
            self._round_values()

    def _round_values(self) -> None:
        """After hypothesis: round each float argument of the failing case to 1, then 3
        decimals, keeping the rounding when the case still fails (a shorter printout)."""
        for name in list(self.failure[0][0]):
            for decimals in (1, 3):
                case = [dict(m) for m in self.failure[0]]
                changed = False
                for member in case:
                    value = member[name]
                    if isinstance(value, np.ndarray) and value.dtype.kind == "f" or \
                            isinstance(value, float) and not isinstance(value, bool):
                        rounded = np.round(value, decimals).astype(value.dtype) \
                            if isinstance(value, np.ndarray) else type(value)(round(value, decimals))
                        changed |= not np.array_equal(rounded, value)
                        member[name] = rounded
                if not changed:
                    break
                self.result.shrink_steps += 1
                outcome = self.check(case)
                if outcome.kind == MISMATCH:
                    self.failure = (case, outcome)
                    break

    def _hypothesis(self, strategy, examples: int, seed: int) -> None:
        from hypothesis import HealthCheck, Phase, Verbosity, given, settings
        from hypothesis import seed as hypothesis_seed
        from hypothesis.errors import Flaky, Unsatisfiable

        test = given(strategy)(self._generated)
        test = settings(max_examples=examples, deadline=None, database=None, derandomize=False,
                        report_multiple_bugs=False, verbosity=Verbosity.quiet,
                        suppress_health_check=list(HealthCheck),
                        phases=(Phase.generate, Phase.shrink))(test)
        test = hypothesis_seed(seed)(test)
        try:
            test()
        except (_Mismatch, _GiveUp):
            pass
        except Flaky:
            if self.failure is None:
                raise
            self.result.reason = "(this failure did not reproduce on every run)"
        except Unsatisfiable:
            pass  # every generated input was discarded: the counts say so


def _conclude(result: TransformResult, search: _Search) -> None:
    if search.failure is not None:
        case, outcome = search.failure
        result.status = FAILED
        result.reason = outcome.detail + (f" {result.reason}" if result.reason else "")
        if search.failure is search.example_failure:
            result.reason += " (on the example itself; no generated input failed)"
        result.failing_batch = case
        return
    if result.compared:
        result.status = PASSED
        return
    result.status = UNVERIFIED
    if result.tried and result.discarded >= result.tried:
        result.reason = "every input was discarded"
    elif result.transform == "grad" and result.skipped_directions:
        result.reason = "every direction crossed a kink of the original; no gradient was compared"
    else:
        result.reason = ("nothing was compared: on every input the function returned nothing "
                         "and wrote no array argument (or only NaN)")

