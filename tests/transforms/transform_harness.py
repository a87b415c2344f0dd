"""A whole program's function under the CALLER's transforms of `compiled.pure`, against NumPy:

- `jit`: `jax.jit(.pure)` on the inputs, the result and every array argument's final value
  against the original's (compare.first_difference, kinds=False: `.pure` returns arrays);
- `vmap`: `jax.jit(jax.vmap(.pure))` over 3 members (the float arrays batched, each member
  moved by its own small noise; everything else shared), each member against a Python loop of
  the original;
- `grad` / `jit_grad` / `jvp` / `jacfwd`: the derivative of F = sum(w * out) (out: every float leaf of the result
  and the final value of every float array argument) with respect to every float array
  argument, `jax.grad` and `jax.jacfwd` of `.pure` in float64, against central differences of
  the original along 2 random directions per argument. A direction along which the original
  has a kink within the step (the differences at h and h/2 disagree) is not compared.

Each way gives "exact" (agrees), the NPR code of a refusal, or the first difference. Python
numbers and None are closed over (static, as verify keeps Python ints); arrays are traced."""

from __future__ import annotations

import copy
import functools
import inspect
import warnings

import jax
import jax.numpy as jnp
import numpy as np

import np2ref
from np2ref.compare import first_difference, run_on_copies
from np2ref.fuzz.runner import _trace_gap

WAYS = ("jit", "vmap", "grad", "jvp", "jacfwd")


@functools.cache
def compiled(fn):
    return np2ref.compile(fn, host_below=0)


def _code(exc) -> str | None:
    return _trace_gap(exc)


def _quiet():
    w = warnings.catch_warnings()
    w.__enter__()
    warnings.simplefilter("ignore")
    return w


class Program:
    """fn and one input (positional or keyword), split into traced arrays and static others."""

    def __init__(self, fn, args=(), kwargs=None):
        self.fn, self.sig = fn, inspect.signature(fn)
        self.arguments = dict(self.sig.bind(*args, **(kwargs or {})).arguments)
        self.arrays = [n for n, v in self.arguments.items() if isinstance(v, np.ndarray)]
        self.floats = [n for n in self.arrays if self.arguments[n].dtype.kind == "f"]
        self.static = {n: v for n, v in self.arguments.items() if n not in self.arrays}

    def numpy(self, arrays: dict):
        """The original on copies: (result, the arguments after the call)."""
        return run_on_copies(self.fn, self.sig, {**self.arguments, **arrays})

    def pure(self, arrays: dict):
        return compiled(self.fn).pure(**self.static, **arrays)

    def given(self) -> dict:
        return {n: self.arguments[n] for n in self.arrays}

    # -- comparisons ---------------------------------------------------------------------------
    def difference(self, arrays: dict, result, finals, where: str, state=None) -> str | None:
        if state is not None:  # the original draws what the translation drew (NumPy's global stream)
            np.random.set_state(state)
        want, after = self.numpy(arrays)
        got = jax.tree_util.tree_map(np.asarray, result)
        diff = first_difference(want, got, f"{where} result", kinds=False)
        for n in self.arrays:
            if diff is None:
                mine = finals.get(n, arrays[n]) if isinstance(finals, dict) else arrays[n]
                diff = first_difference(after[n], np.asarray(mine), f"{where} argument `{n}`", kinds=False)
        return diff

    # -- the ways ------------------------------------------------------------------------------
    def jit(self) -> str:
        state = np.random.get_state()
        try:
            with jax.enable_x64(True):
                w = _quiet()
                try:
                    result, finals = jax.jit(lambda a: self.pure(a))(self.given())
                finally:
                    w.__exit__(None, None, None)
        except Exception as exc:  # noqa: BLE001 - a refusal has its code
            return _refused(exc)
        return self.difference(self.given(), result, finals, "jit", state) or "exact"

    def members(self, n=3) -> list[dict]:
        rng = np.random.default_rng(7)
        batched = self.floats or [m for m in self.arrays]
        out = []
        for k in range(n):
            member = dict(self.given())
            for name in batched:
                x = member[name]
                if k and x.dtype.kind == "f":
                    scale = max(float(np.max(np.abs(x))) if x.size else 1.0, 1e-3)
                    x = x + (1e-3 * scale * rng.standard_normal(x.shape)).astype(x.dtype)
                member[name] = x
            out.append(member)
        return out

    def vmap(self) -> str:
        members = self.members()
        batched = self.floats or self.arrays
        shared = {n: self.arguments[n] for n in self.arrays if n not in batched}
        stacked = {n: np.stack([m[n] for m in members]) for n in batched}
        state = np.random.get_state()
        try:
            with jax.enable_x64(True):
                w = _quiet()
                try:
                    result, finals = jax.jit(jax.vmap(lambda b, s: self.pure({**s, **b}), in_axes=(0, None)))(stacked, shared)
                finally:
                    w.__exit__(None, None, None)
        except Exception as exc:  # noqa: BLE001
            return _refused(exc)
        for k, member in enumerate(members):
            one = jax.tree_util.tree_map(lambda v: v[k], result)
            mine = {n: v[k] for n, v in finals.items()}  # (out_axes=0: every final is batched)
            diff = self.difference(member, one, mine, f"vmap member {k}", state if k == 0 else None)
            if diff:
                return diff
        return "exact"

    # -- derivatives ---------------------------------------------------------------------------
    def _weights(self):
        want, after = self.numpy(self.given())
        leaves = [np.asarray(x) for x in jax.tree_util.tree_leaves(want)]
        rng = np.random.default_rng(11)
        self.leaf_ids = [i for i, x in enumerate(leaves) if x.dtype.kind == "f"]
        self.finals_f = list(self.floats)
        w = {f"r{i}": rng.standard_normal(np.shape(leaves[i])) for i in self.leaf_ids}
        w.update({n: rng.standard_normal(np.shape(after[n])) for n in self.finals_f})
        return w

    def objective_numpy(self, arrays, w) -> float:
        want, after = self.numpy(arrays)
        leaves = jax.tree_util.tree_leaves(want)
        total = sum(float(np.nansum(w[f"r{i}"] * np.asarray(leaves[i], np.float64))) for i in self.leaf_ids)
        return total + sum(float(np.nansum(w[n] * np.asarray(after[n], np.float64))) for n in self.finals_f)

    def objective_pure(self, diff, w):
        result, finals = self.pure({**self.given(), **diff})
        leaves = jax.tree_util.tree_leaves(result)
        total = sum(_finite_sum(w[f"r{i}"] * leaves[i]) for i in self.leaf_ids)  # (NaN: missing data)
        return total + sum(_finite_sum(w[n] * finals.get(n, diff[n])) for n in self.finals_f)

    def derivative(self, how: str, tol=1e-6) -> str:
        if not self.floats:
            return "no float argument"
        w = self._weights()
        x0 = {n: self.arguments[n].astype(np.float64) for n in self.floats}
        state = np.random.get_state()
        try:
            with jax.enable_x64(True):
                q = _quiet()
                try:
                    f = functools.partial(self.objective_pure, w=w)
                    x = {n: jnp.asarray(v) for n, v in x0.items()}
                    if how == "jvp":  # forward mode along each direction the differences take
                        g = {d: float(jax.jvp(f, (x,), ({n: jnp.asarray(v) for n, v in t.items()},))[1])
                             for d, t in self.directions(x0).items()}
                    else:  # (jit_grad: verify's own jax.jit(jax.grad(...)))
                        made = {"grad": jax.grad, "jacfwd": jax.jacfwd, "jit_grad": lambda h: jax.jit(jax.grad(h))}
                        g = made[how](f)(x)
                        g = {n: np.asarray(v) for n, v in g.items()}
                finally:
                    q.__exit__(None, None, None)
        except Exception as exc:  # noqa: BLE001
            return _refused(exc)
        finally:
            np.random.set_state(state)
        return self.against_differences(g, x0, w, tol)

    def directions(self, x0) -> dict:
        """(argument, k) -> the direction (zero in the other arguments), 2 per float argument."""
        rng = np.random.default_rng(3)
        out = {}
        for n in self.floats:
            for k in range(2):
                d = np.where(np.isfinite(x0[n]), rng.standard_normal(x0[n].shape), 0.0)  # (NaN: missing data)
                out[n, k] = {m: d if m == n else np.zeros_like(x0[m]) for m in self.floats}
        return out

    def against_differences(self, g, x0, w, tol) -> str:
        compared = 0
        for (n, k), t in self.directions(x0).items():
            d = t[n]
            h = 1e-6 * max(float(np.nanmax(np.abs(x0[n]))) if x0[n].size else 1.0, 1.0)
            vals = {s: self.objective_numpy({**x0, n: x0[n] + s * d}, w) for s in (h, -h, h / 2, -h / 2)}
            fd_h, fd = (vals[h] - vals[-h]) / (2 * h), (vals[h / 2] - vals[-h / 2]) / h
            f0 = self.objective_numpy(x0, w)  # h F'' doubles from h/2 to h where F is smooth, not at a kink
            curve_h, curve_h2 = (vals[h] - 2 * f0 + vals[-h]) / h, (vals[h / 2] - 2 * f0 + vals[-h / 2]) / (h / 2)
            if abs(curve_h - 2 * curve_h2) > 1e-4 * max(abs(fd), 1.0):
                continue
            gd = g[n, k] if (n, k) in g else float(np.sum(g[n] * d))
            if not np.isfinite(fd) or abs(fd_h - fd) > 1e-4 * max(abs(fd), 1.0):
                continue  # a kink of the original within h
            compared += 1
            if not np.isfinite(gd) or abs(gd - fd) > tol * max(abs(fd), 1.0) + 1e-7:
                return f"d/d{n}: {gd!r}, central differences {fd!r}"
        return "exact" if compared else "not compared (kinks)"


def _finite_sum(v):
    v = jnp.asarray(v)
    return jnp.sum(jnp.where(jnp.isnan(v), 0.0, v))


def _refused(exc) -> str:
    code = _code(exc)
    if code is None:
        return f"raised {type(exc).__name__}: {str(exc).splitlines()[0][:160] if str(exc) else ''}"
    return code


def outcomes(fn, args=(), kwargs=None, ways=WAYS) -> dict:
    """Each way's verdict for fn on one input."""
    p = Program(fn, copy.deepcopy(args), copy.deepcopy(kwargs))
    try:
        compiled(fn)
    except np2ref.Np2RefError as exc:
        return dict.fromkeys(ways, _code(exc))
    out = {}
    for way in ways:
        out[way] = getattr(p, way)() if way in ("jit", "vmap") else p.derivative(way)
    return out
