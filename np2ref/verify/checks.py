"""The three differential checks. Each takes a generated case (a list of argument dicts, one per
batch member) and returns an `Outcome`: compared (with the worst error), discarded (the
original raised, so the input is outside the function's domain), a mismatch, or empty (nothing
carried information, which the harness must not count as a pass).

- jit: `compiled(...)` against the original, both on copies: the result and the final state of
  every array argument, dtypes included.
- vmap: `jax.vmap(compiled.pure)` over a batch against a Python loop of the original, once with
  every float array argument batched and once with only the first.
- grad (grad.py): `jax.grad` of a fixed random projection of the float outputs against central
  finite differences of the original in float64, along a few random directions per argument.
"""

from __future__ import annotations

import dataclasses
import inspect

import jax
import numpy as np

from ..compare import compare_outputs, differs_only_where_not_finite, run_on_copies
from .inputs import FLOAT, KEPT, ArgSpec

COMPARED, DISCARDED, MISMATCH, EMPTY = "compared", "discarded", "mismatch", "empty"


@dataclasses.dataclass
class Outcome:
    kind: str
    error: float = 0.0
    detail: str = ""
    outputs: tuple[str, ...] = ()
    skipped: int = 0  # grad: directions along which the original is not smooth
    nonfinite: bool = False  # grad: the mismatch is a NaN or infinite gradient


def _mismatch(detail: str, error: float = float("inf")) -> Outcome:
    return Outcome(MISMATCH, error, detail)


def describe_exception(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    if type(exc).__name__ == "Np2RefError":
        return f"np2ref's refusal {text[0]}" if text else "np2ref's refusal"
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


ILL_CONDITIONED = "ill-conditioned: the original's own output moves under rounding-level input noise"
NOT_FINITE = "the original's output is not finite"


def unexplained(target: "Target", args: dict, expected, final_expected, got, final_got) -> str | None:
    """None when a difference is a mismatch; else why the input cannot show one: every
    differing element is NaN or inf on one side, or the input is ill-conditioned."""
    if differs_only_where_not_finite((expected, final_expected), (got, final_got), target.rtol):
        return NOT_FINITE
    if ill_conditioned(target, args, expected, final_expected):
        return ILL_CONDITIONED
    return None


def ill_conditioned(target: "Target", args: dict, expected, final_expected) -> bool:
    """Whether rounding-level noise on the float inputs (relative 1e-13 in float64, 8 ulps in
    narrower floats) moves the original's own outputs
    beyond the comparison tolerance. On such an input (a tie in argmax, a chaotic orbit, an
    iteration on rounding noise) NumPy and XLA rounding differently is not a mistranslation."""
    for k in range(2):
        rng = np.random.default_rng([target.seed, 4, k])
        noisy = {}
        for name, value in args.items():
            if isinstance(value, np.ndarray) and value.dtype.kind in "fc":
                size = max(1e-13, 8 * float(np.finfo(value.dtype).eps))
                noise = rng.uniform(-1.0, 1.0, value.shape) * size
                noisy[name] = (value * (1.0 + noise)).astype(value.dtype)
            elif isinstance(value, float) and not isinstance(value, bool):
                noisy[name] = type(value)(value * (1.0 + 1e-13 * rng.uniform(-1.0, 1.0)))
            else:
                noisy[name] = value
        try:
            result, finals = run_on_copies(target.original, target.signature, noisy)
        except Exception:
            return True
        cmp = compare_outputs(expected, result, final_expected, finals, args, (), target.rtol)
        if cmp.difference:
            return True
    return False


@dataclasses.dataclass
class Target:
    """What is verified: the original (the specification) and its translation."""
    original: object
    compiled: object
    signature: inspect.Signature
    example: dict  # the example's arguments by name, in parameter order
    specs: list[ArgSpec]
    rtol: float | None = None  # None: by dtype (see compare.RTOL)
    seed: int = 0

    @property
    def mutated(self) -> tuple[str, ...]:
        return tuple(self.compiled.mutated)

    def static(self) -> dict:
        return {s.name: s.example for s in self.specs if s.kind == KEPT}

    def call_pure(self, values: dict):
        """compiled.pure on arguments by name (positional-only parameters work too)."""
        ordered = {n: values[n] for n in self.example}
        bound = inspect.BoundArguments(self.signature, ordered)
        return self.compiled.pure(*bound.args, **bound.kwargs)


class JitCheck:
    name = "jit"
    members = 1
    batched: tuple[str, ...] = ()

    def __init__(self, target: Target):
        self.t = target

    def skip_reason(self) -> str | None:
        return None

    def describe(self) -> str:
        return "compiled(...) vs the original: result and every array argument, dtypes exact"

    def __call__(self, case: list[dict]) -> Outcome:
        args = case[0]
        try:
            expected, final_expected = run_on_copies(self.t.original, self.t.signature, args)
        except Exception as exc:
            return Outcome(DISCARDED, detail=f"the original raised {type(exc).__name__}")
        try:
            got, final_got = run_on_copies(self.t.compiled.call_jit, self.t.signature, args)
        except Exception as exc:
            return _mismatch(f"the translation raised {describe_exception(exc)}, where NumPy returned")
        cmp = compare_outputs(expected, got, final_expected, final_got, args, self.t.mutated, self.t.rtol)
        if cmp.difference:
            why = unexplained(self.t, args, expected, final_expected, got, final_got)
            return Outcome(DISCARDED, detail=why) if why else _mismatch(cmp.difference, cmp.worst_error)
        return Outcome(COMPARED if cmp.outputs else EMPTY, cmp.worst_error, outputs=cmp.outputs)


class VmapCheck:
    """Batch of 3. Float array arguments are batched (or, when there are none, the array
    arguments the function writes); every other argument is shared by the batch."""
    name = "vmap"
    members = 3

    def __init__(self, target: Target):
        self.t = target
        floats = [s.name for s in target.specs if s.kind == FLOAT]
        written = [s.name for s in target.specs if s.is_array and s.name in target.mutated]
        self.batched = tuple(floats or written)
        self.subsets = [self.batched] + ([self.batched[:1]] if len(self.batched) > 1 else [])
        self._functions: dict[tuple, object] = {}

    def skip_reason(self) -> str | None:
        if not self.batched:
            return "no float array argument and no written array argument to batch"
        return None

    def describe(self) -> str:
        subsets = " and ".join("(" + ", ".join(s) + ")" for s in self.subsets)
        return f"jax.vmap(.pure), batch of {self.members}, batched {subsets}, vs a loop of the original"

    def _function(self, subset: tuple[str, ...]):
        if subset not in self._functions:
            static = self.t.static()

            def batch(batched, shared):
                return self.t.call_pure({**static, **shared, **batched})

            self._functions[subset] = jax.jit(jax.vmap(batch, in_axes=(0, None)))
        return self._functions[subset]

    def __call__(self, case: list[dict]) -> Outcome:
        worst, outputs = 0.0, ()
        for subset in self.subsets:
            outcome = self._check_subset(case, subset)
            if outcome.kind in (DISCARDED, MISMATCH):
                return outcome
            worst, outputs = max(worst, outcome.error), outputs or outcome.outputs
        return Outcome(COMPARED if outputs else EMPTY, worst, outputs=outputs)

    def _check_subset(self, case: list[dict], subset: tuple[str, ...]) -> Outcome:
        members = [{**case[0], **{n: m[n] for n in subset}} for m in case]
        expected = []
        for m in members:
            try:
                expected.append(run_on_copies(self.t.original, self.t.signature, m))
            except Exception as exc:
                return Outcome(DISCARDED, detail=f"the original raised {type(exc).__name__}")
        static = self.t.static()
        batched = {n: np.stack([m[n] for m in members]) for n in subset}
        shared = {n: v for n, v in case[0].items() if n not in subset and n not in static}
        try:
            result, finals = self._function(subset)(batched, shared)
            result = jax.tree_util.tree_map(np.asarray, result)
            finals = {n: np.asarray(v) for n, v in finals.items()}
        except Exception as exc:
            return _mismatch(f"jax.vmap(.pure) with ({', '.join(subset)}) batched raised "
                             f"{describe_exception(exc)}")
        worst, outputs = 0.0, ()
        for i, (m, (want, final_want)) in enumerate(zip(members, expected)):
            got = jax.tree_util.tree_map(lambda x: x[i], result)
            final_got = {n: finals[n][i] if n in finals else m[n] for n in m}
            cmp = compare_outputs(want, got, final_want, final_got, m, self.t.mutated, self.t.rtol,
                                  kinds=False)  # (a member of jax.vmap's arrays: no Python numbers)
            if cmp.difference:
                why = unexplained(self.t, m, want, final_want, got, final_got)
                if why:
                    return Outcome(DISCARDED, detail=why)
                return _mismatch(f"batch member {i} with ({', '.join(subset)}) batched: {cmp.difference}",
                                 cmp.worst_error)
            worst, outputs = max(worst, cmp.worst_error), outputs or cmp.outputs
        return Outcome(COMPARED, worst, outputs=outputs)
