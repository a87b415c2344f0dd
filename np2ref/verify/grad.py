"""The grad check: `jax.grad` through `compiled.pure` against central finite differences of
the original, in float64, along a few fixed random directions per float argument."""

from __future__ import annotations

import zlib

import jax
import jax.numpy as jnp
import numpy as np

from .checks import (COMPARED, DISCARDED, EMPTY, ILL_CONDITIONED, MISMATCH, NOT_FINITE, Outcome,
                     Target, _mismatch, describe_exception, ill_conditioned)
from ..compare import run_on_copies
from .inputs import FLOAT, ArgSpec

GRAD_RTOL = {np.dtype(np.float64): 1e-5, np.dtype(np.float32): 1e-3, np.dtype(np.float16): 5e-2}


class Unsupported(Exception):
    """The transform cannot apply to this function, for a documented reason (a code)."""


class GradCheck:
    """F = sum(w * out) over the float results and the final values of written float arrays,
    with w fixed random weights; jax.grad(F) . d against (F(x + h d) - F(x - h d)) / 2h of the
    original, for `directions` random d per float array argument (one for a float scalar).

    Where the one-sided differences disagree the original has a kink (clip, where, a pivot
    choice) along d: that direction is skipped and counted, not compared."""
    name = "grad"
    members = 1
    batched: tuple[str, ...] = ()

    def __init__(self, target: Target, directions: int = 2):
        self.t = target
        self.directions = directions
        self.inputs = [s for s in target.specs if s.differentiable]
        self.float_finals = [s.name for s in target.specs if s.kind == FLOAT and s.name in target.mutated]
        self.float_leaves, self.n_leaves, self._example_error = self._float_leaves()
        narrow = [s.dtype for s in self.inputs if s.kind == FLOAT and s.dtype.itemsize < 8]
        self.rtol = max((GRAD_RTOL.get(d, 5e-2) for d in narrow), default=GRAD_RTOL[np.dtype(np.float64)])
        self._grad = None

    def _float_leaves(self):
        try:
            result, _ = run_on_copies(self.t.original, self.t.signature, self.t.example)
        except Exception as exc:
            return [], 0, describe_exception(exc)
        leaves = jax.tree_util.tree_leaves(result)
        return [i for i, x in enumerate(leaves) if np.asarray(x).dtype.kind == "f"], len(leaves), None

    def skip_reason(self) -> str | None:
        if self._example_error:
            return f"the original raises on the example ({self._example_error})"
        if not self.inputs:
            return "no float argument to differentiate with respect to"
        if not self.float_leaves and not self.float_finals:
            return "no float output (float result or written float array) to differentiate"
        return None

    def describe(self) -> str:
        outs = [f"result[{i}]" for i in self.float_leaves] if self.n_leaves > 1 else \
            ["result"] * bool(self.float_leaves)
        outs += self.float_finals
        return (f"jax.grad of sum(w * ({', '.join(outs)})) w.r.t. ({', '.join(s.name for s in self.inputs)}) "
                f"vs central differences of the original, {self.directions} directions per array")

    # -- the two objectives --------------------------------------------------------------------
    def _weights(self, expected, final_expected) -> dict:
        leaves = jax.tree_util.tree_leaves(expected)
        weights = {}
        for i in self.float_leaves:
            shape = np.shape(leaves[i])
            weights[f"result{i}"] = np.random.default_rng([self.t.seed, 1, i, *shape]).standard_normal(shape)
        for k, n in enumerate(self.float_finals):
            shape = np.shape(final_expected[n])
            weights[n] = np.random.default_rng([self.t.seed, 2, k, *shape]).standard_normal(shape)
        return weights

    def _numpy_objective(self, result, finals, weights) -> tuple[float, float]:
        """(F, sum of |terms|): the size of the terms bounds F's rounding error."""
        leaves = jax.tree_util.tree_leaves(result)
        terms = [weights[f"result{i}"] * np.asarray(leaves[i], np.float64) for i in self.float_leaves]
        terms += [weights[n] * np.asarray(finals[n], np.float64) for n in self.float_finals]
        with np.errstate(all="ignore"):
            return float(sum(np.sum(t) for t in terms)), float(sum(np.sum(np.abs(t)) for t in terms))

    def _grad_function(self):
        if self._grad is None:
            static = self.t.static()
            leaves_expected = self.n_leaves

            def objective(diff, other, weights):
                result, finals = self.t.call_pure({**static, **other, **diff})
                leaves = jax.tree_util.tree_leaves(result)
                if len(leaves) != leaves_expected:
                    raise ValueError(f".pure returned {len(leaves)} values, the original {leaves_expected}")
                total = 0.0
                for i in self.float_leaves:
                    total = total + jnp.sum(weights[f"result{i}"] * leaves[i])
                for n in self.float_finals:
                    total = total + jnp.sum(weights[n] * finals[n])
                return total

            self._grad = jax.jit(jax.grad(objective))
        return self._grad

    # -- one case ------------------------------------------------------------------------------
    def __call__(self, case: list[dict]) -> Outcome:
        args = case[0]
        try:
            expected, final_expected = run_on_copies(self.t.original, self.t.signature, args)
        except Exception as exc:
            return Outcome(DISCARDED, detail=f"the original raised {type(exc).__name__}")
        weights = self._weights(expected, final_expected)
        base = self._float64_case(args)
        if any(base[n] is not args[n] for n in args):  # narrow floats: F in float64 as well
            try:
                expected, final_expected = run_on_copies(self.t.original, self.t.signature, base)
            except Exception as exc:
                return Outcome(DISCARDED, detail=f"the original raised {type(exc).__name__}")
        f0, size = self._numpy_objective(expected, final_expected, weights)
        if not np.isfinite(f0):
            return Outcome(DISCARDED, detail=NOT_FINITE)
        names = {s.name for s in self.inputs}
        static = self.t.static()
        diff = {n: args[n] for n in names}
        other = {n: v for n, v in args.items() if n not in names and n not in static}
        state = np.random.get_state()  # host draws (npr_random) take what the original took
        try:
            grads = {n: np.asarray(g) for n, g in self._grad_function()(diff, other, weights).items()}
        except NotImplementedError as exc:
            if getattr(exc, "code", None) == "NPR124":  # the documented limit, not a wrong gradient
                raise Unsupported("NPR124: reverse mode cannot go through a loop whose trip count is data "
                                  "(np2ref explain NPR124); forward mode (jax.jvp) works") from None
            return _mismatch(f"jax.grad(.pure) raised {describe_exception(exc)}")
        except Exception as exc:
            return _mismatch(f"jax.grad(.pure) raised {describe_exception(exc)}")
        finally:
            np.random.set_state(state)
        outcomes = [self._compare_direction(spec, k, d, base, grads[spec.name], f0, size, weights)
                    for spec in self.inputs
                    for k, d in enumerate(self._directions(spec, np.shape(args[spec.name])))]
        skipped = sum(o.kind == EMPTY for o in outcomes)
        for o in outcomes:
            # A NaN gradient at a point where the original has a kink (norm at 0, |x| at 0) is
            # JAX's answer at a non-differentiable point, not a mistranslation.
            if o.kind == MISMATCH and not (o.nonfinite and skipped):
                if ill_conditioned(self.t, base, expected, final_expected):
                    return Outcome(DISCARDED, detail=ILL_CONDITIONED)
                return o
        compared = [o for o in outcomes if o.kind == COMPARED]
        skipped += sum(o.kind == MISMATCH for o in outcomes)
        return Outcome(COMPARED if compared else EMPTY, max((o.error for o in compared), default=0.0),
                       outputs=("grad",) if compared else (), skipped=skipped)

    def _float64_case(self, args: dict) -> dict:
        """Finite differences run the original in float64: narrower float arrays are widened."""
        return {n: v.astype(np.float64) if isinstance(v, np.ndarray) and v.dtype.kind == "f" else v
                for n, v in args.items()}

    def _directions(self, spec: ArgSpec, shape: tuple):
        if spec.kind != FLOAT:
            return [1.0]
        out = []
        for k in range(self.directions):
            rng = np.random.default_rng([self.t.seed, 3, zlib.crc32(spec.name.encode()), k, *shape])
            d = rng.standard_normal(shape)
            out.append(d / max(float(np.max(np.abs(d))), 1e-300) if d.size else d)
        return out

    def _compare_direction(self, spec, k, d, base, grad, f0, size, weights) -> Outcome:
        """gd = grad . d against the central difference at step h/2, where the original is
        smooth along d: the central differences at h and h/2 agree, and so do the second
        differences (h F'' doubles from h/2 to h when smooth, stays a slope jump at a kink).
        Between them the two tests bound the error a kink within h can cause."""
        x = np.asarray(base[spec.name], np.float64)
        scale = max(float(np.max(np.abs(x))) if x.size else 0.0, abs(spec.low), abs(spec.high))
        h = 1e-6 * scale
        values = {}
        for step in (h, -h, h / 2, -h / 2):
            moved = dict(base)
            moved[spec.name] = x + step * d if spec.kind == FLOAT else type(spec.example)(float(x) + step)
            try:
                result, finals = run_on_copies(self.t.original, self.t.signature, moved)
            except Exception:
                return Outcome(EMPTY)
            values[step] = self._numpy_objective(result, finals, weights)[0]
        if not all(np.isfinite(v) for v in values.values()):
            return Outcome(EMPTY)
        fd_h = (values[h] - values[-h]) / (2 * h)
        fd = (values[h / 2] - values[-h / 2]) / h
        curve_h = (values[h] - 2 * f0 + values[-h]) / h
        curve_h2 = (values[h / 2] - 2 * f0 + values[-h / 2]) / (h / 2)
        gd = float(np.sum(grad * d))
        noise = 1e-14 * max(1.0, size) / (h / 2)  # rounding in F, magnified by 2/h
        bound = max(abs(gd) if np.isfinite(gd) else 0.0, abs(fd))
        tol = self.rtol * bound + noise
        if abs(fd_h - fd) > tol / 8 + noise or abs(curve_h - 2 * curve_h2) > tol / 8 + 8 * noise:
            return Outcome(EMPTY)  # a kink (clip, where, abs, a pivot choice) within h
        err = abs(gd - fd)
        if not np.isfinite(gd) or err > tol:
            where = f"d/d{spec.name}" + (f" along random direction {k}" if spec.kind == FLOAT else "")
            outcome = _mismatch(f"{where}: jax.grad gives {gd:.10g}, central differences of the "
                                f"original give {fd:.10g}", err / max(bound, 1e-300))
            outcome.nonfinite = not np.isfinite(gd)
            return outcome
        # relative error, measured against the noise floor where the derivative is below it
        return Outcome(COMPARED, err / max(bound, noise / self.rtol, 1e-300))
