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

from .checks import COMPARED, DISCARDED, MISMATCH, GradCheck, JitCheck, Target, VmapCheck
from .inputs import cases, specs_from_example
from .report import FAILED, PASSED, SKIPPED, UNVERIFIED, TransformResult, VerifyReport

CHECKS = {"jit": JitCheck, "vmap": VmapCheck, "grad": GradCheck}


def verify(fn, *args, transforms=("jit", "vmap", "grad"), examples: int = 50, seed: int | None = None,
           vary_shapes: bool = False, **kwargs) -> VerifyReport:
    """Check the translation of `fn` against `fn` itself on inputs generated from the example
    arguments `*args, **kwargs`, under each of `transforms` ("jit", "vmap", "grad").

    `fn` is a plain function (compiled here; an `Np2RefError` is raised if np2ref refuses it)
    or an `np2ref.compile` result, whose `.original` is then the specification. `examples`
    bounds the generated inputs per transform; `seed` makes the run reproducible (None: a
    random seed, kept in the report); `vary_shapes` also moves array lengths by one.
    Returns a `VerifyReport`; `report.ok` is False on any mismatch and whenever a requested
    transform compared nothing (fail closed)."""
    try:
        import hypothesis  # noqa: F401
    except ImportError as exc:  # pragma: no cover
        raise ImportError("np2ref.verify needs hypothesis: pip install hypothesis") from exc
    unknown = [t for t in transforms if t not in CHECKS]
    if isinstance(transforms, str) or unknown:
        raise ValueError(f"transforms must be a sequence of {', '.join(CHECKS)}; got {transforms!r}")
    seed = random.SystemRandom().randrange(2**32) if seed is None else int(seed)
    with jax.enable_x64(True):
        target = _target(fn, args, kwargs, seed)
        results = {}
        for name in transforms:
            results[name] = _run_transform(CHECKS[name](target), target, examples, seed, vary_shapes)
    return VerifyReport(target.compiled.__name__, results, examples, seed, vary_shapes)


def _target(fn, args, kwargs, seed) -> Target:
    from ..runtime.compile import Compiled, compile as np2ref_compile

    compiled = fn if isinstance(fn, Compiled) else np2ref_compile(fn)
    original = compiled.original
    signature = inspect.signature(original)
    example, specs = specs_from_example(signature, args, kwargs)
    policy = getattr(compiled._entry, "dtype_policy", "preserve")
    rtol = 1e-4 if policy == "float32" else None
    return Target(original, compiled, signature, example, specs, rtol, seed)


def _run_transform(check, target: Target, examples: int, seed: int, vary_shapes: bool) -> TransformResult:
    result = TransformResult(check.name, checks=check.describe(), seed=seed)
    reason = check.skip_reason()
    if reason:
        result.status, result.reason = SKIPPED, reason
        return result
    example_case = [dict(target.example) for _ in range(check.members)]
    strategy = cases(target.specs, check.members, check.batched, vary_shapes)
    search = _Search(check, result)
    search.run(strategy, example_case, examples, seed)
    _conclude(result, search)
    return result


class _Mismatch(Exception):
    pass


class _Search:
    """One hypothesis search; records counts until the first mismatch, then the shrunk case."""

    def __init__(self, check, result: TransformResult):
        self.check = check
        self.result = result
        self.failure = None  # (case, outcome) of the latest failing run
        self.unsatisfiable = False

    def body(self, case):
        from hypothesis import reject

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
            return
        if outcome.kind == DISCARDED:
            self.result.discards[outcome.detail] += 1
            reject()
        self.result.skipped_directions += outcome.skipped
        if outcome.kind == COMPARED:
            self.result.compared += 1

    def run(self, strategy, example_case, examples: int, seed: int) -> None:
        from hypothesis import HealthCheck, Phase, Verbosity, example, given, settings
        from hypothesis import seed as hypothesis_seed
        from hypothesis.errors import Flaky, Unsatisfiable

        test = given(strategy)(lambda case: self.body(case))
        test = example(example_case)(test)
        test = settings(max_examples=max(1, examples - 1), deadline=None, database=None,
                        derandomize=False, report_multiple_bugs=False, verbosity=Verbosity.quiet,
                        suppress_health_check=list(HealthCheck),
                        phases=(Phase.explicit, Phase.generate, Phase.shrink))(test)
        test = hypothesis_seed(seed)(test)
        try:
            test()
        except _Mismatch:
            pass
        except Flaky:
            if self.failure is None:
                raise
            self.result.reason = "(the failure did not reproduce on every run) "
        except Unsatisfiable:
            self.unsatisfiable = True


def _conclude(result: TransformResult, search: _Search) -> None:
    if search.failure is not None:
        case, outcome = search.failure
        result.status = FAILED
        result.reason = outcome.detail + (f" {result.reason}" if result.reason else "")
        result.failing_batch = case
        return
    if result.compared:
        result.status = PASSED
        return
    result.status = UNVERIFIED
    if result.tried and result.discarded >= result.tried:
        result.reason = f"every input was discarded ({', '.join(result.discards)})"
    elif result.transform == "grad" and result.skipped_directions:
        result.reason = "every direction crossed a kink of the original; no gradient was compared"
    else:
        result.reason = ("nothing to compare: the function returns nothing and writes no array "
                         "argument")

