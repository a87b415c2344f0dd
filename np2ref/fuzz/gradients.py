"""The runner's gradient check of `.pure` (fuzz14): what an exact gradient is, and how it is checked.

F is the function of the float array arguments to every float output and final argument of
`.pure` (flattened, in float64). Its primal values are NumPy's (the runner compared them first), so
finite differences of F are finite differences of the NumPy program. On random directions `t` (of
the inputs) and `c` (of the outputs):

1. Forward and reverse mode agree: <c, J t> = <J^T c, t> (the dot-product test), whenever both are
   finite; and the Jacobians `jax.jacfwd` (vmap of jvp) and `jax.jacrev` (vmap of vjp) build, their
   batching rules run through np2ref's runtime, give the same J t and J^T c (the jvp/jacfwd member).
2. Where the program is differentiable at the point along t, the gradient is NumPy's derivative:
   float64 arguments, central differences of F at two step sizes agreeing with each other and with
   both one-sided differences (no kink, jump or pole within the step), every one finite. There J t
   and <J^T c, t> must be finite (a NaN gradient of `np.where(x > 0, np.sqrt(x), 0.0)` at x < 0,
   JAX's double-where problem, is a finding) and agree with the differences to 1e-5 relative to
   the derivative's size (the differences' own error: O(h^2) truncation, O(eps / h) rounding).
3. Where the differences say nothing (float32 arguments, a kink at the point, a value that is not
   finite), only (1) is checked, and only where the values are finite.
"""

from __future__ import annotations

import copy

import numpy as np

from .differences import _shares_memory
from .verdicts import Outcome, seed as _seed

# Jacobians of at most this many entries are built (jacfwd, jacrev); the directions check bigger ones
JACOBIAN_ENTRIES = 4096
STEPS = (1e-5, 2.5e-6)  # relative to an input's scale: central differences at both must agree


def check_grad(module, compiled, trace_gap, crash) -> Outcome:
    import jax
    import jax.numpy as jnp

    base = module.make_args()
    floats = [i for i, v in enumerate(base) if isinstance(v, np.ndarray) and v.dtype.kind == "f" and v.size]
    if not floats or _shares_memory([v for v in base if isinstance(v, np.ndarray)]):
        return Outcome("exact")

    def flat(*xs):  # a Generator argument copied per trace: the jvp and vjp runs draw alike
        full = [copy.deepcopy(v) if isinstance(v, np.random.Generator) else v for v in base]
        for i, x in zip(floats, xs):
            full[i] = x
        leaves = [jnp.ravel(leaf).astype(jnp.float64) for leaf in jax.tree_util.tree_leaves(compiled.pure(*full))
                  if not isinstance(leaf, str) and jnp.issubdtype(jnp.result_type(leaf), jnp.floating)]
        return jnp.concatenate(leaves) if leaves else jnp.zeros(0)

    rng = np.random.default_rng(len(floats) * 7919 + sum(base[i].size for i in floats))
    xs = [base[i] for i in floats]
    ts = [rng.standard_normal(x.shape).astype(x.dtype) for x in xs]
    try:
        with jax.enable_x64(True):  # both runs draw the same numbers: the same function
            _seed()
            y, jt = jax.jit(lambda xs, ts: jax.jvp(flat, xs, ts))(xs, ts)
            c = rng.standard_normal(jt.shape)
            _seed()
            ct = jax.jit(lambda xs, c: jax.vjp(flat, *xs)[1](c))(xs, c)
            jt, ct = np.asarray(jt), [np.asarray(v, np.float64) for v in ct]
            jacobians = _jacobians(flat, xs, jt.size, trace_gap) if jt.size else None
            slopes = _differences(flat, xs, ts, np.asarray(y))
    except Exception as exc:  # noqa: BLE001
        code = trace_gap(exc)
        if code:
            return Outcome("refused", code, "grad", _first(exc))
        return crash(exc, "grad")
    dtypes = {x.dtype.name for x in xs} | {np.dtype(v.dtype).name for v in base if type(v).__module__.startswith("jax")}
    # (a float32 jax.Array argument, not differentiated, rounds the float64 ones it meets alike)
    eps = 1e-2 if "float16" in dtypes else 1e-6 if "float32" in dtypes else 1e-13
    found = _against_differences(slopes, jt, ct, ts, c, jacobians) if dtypes == {"float64"} else None
    found = found or _dot_product(jt, ct, ts, c, eps) or _jacobian_members(jacobians, jt, ct, ts, c, eps)
    return Outcome("failed", "mismatch", "grad", found) if found else Outcome("exact", graded=True)


def _first(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}"


def _jacobians(flat, xs, outputs: int, trace_gap):
    """(jacfwd's, jacrev's) Jacobians of F, one block per input, or None when too big to build or
    refused (a gap np2ref codes: a history under vmap, NPR034, where jvp and vjp alone ran)."""
    import jax

    if outputs * sum(x.size for x in xs) > JACOBIAN_ENTRIES:
        return None
    argnums = tuple(range(len(xs)))
    try:
        _seed()
        fwd = jax.jit(jax.jacfwd(flat, argnums=argnums))(*xs)
        _seed()
        rev = jax.jit(jax.jacrev(flat, argnums=argnums))(*xs)
    except Exception as exc:  # noqa: BLE001
        if trace_gap(exc):
            return None
        raise
    return ([np.asarray(b, np.float64).reshape(outputs, -1) for b in fwd],
            [np.asarray(b, np.float64).reshape(outputs, -1) for b in rev])


def _differences(flat, xs, ts, y0):
    """F's derivative along ts by central differences at STEPS, and the one-sided ones at the
    first step: None where F is not finite near the point (float64 programs only: float32's
    rounding swamps the step)."""
    import jax

    if any(x.dtype != np.float64 for x in xs) or not np.all(np.isfinite(y0)):
        return None
    run = jax.jit(flat)
    scale = max(1.0, max(float(np.max(np.abs(x))) for x in xs))
    values = {}
    for h in STEPS:
        for sign in (1, -1):
            _seed()
            try:  # (a moved input may make the program raise: an index read from the data)
                values[sign * h] = np.asarray(run(*[x + sign * h * scale * t for x, t in zip(xs, ts)]))
            except Exception:  # noqa: BLE001 - no differences there
                return None
    central = [(values[h] - values[-h]) / (2 * h * scale) for h in STEPS]
    h = STEPS[0]
    sides = ((values[h] - y0) / (h * scale), (y0 - values[-h]) / (h * scale))
    if not all(np.all(np.isfinite(v)) for v in (*central, *sides)):
        return None
    return central, sides


def _close(a, b, size) -> np.ndarray:
    return np.abs(a - b) <= 1e-5 * size + 1e-8


def _against_differences(slopes, jt, ct, ts, c, jacobians) -> str | None:
    """Where F is differentiable along t (the differences agree), J t is its derivative, and so is
    each row of jacrev's Jacobian (every entry finite: the output does not move with an input at a
    pole it does not read) or, without one, <J^T c, t> where every output is."""
    if slopes is None:
        return None
    (fine, coarse), (right, left) = slopes
    size = np.abs(fine) + np.abs(coarse) + 1.0
    # a kink, jump or pole within the step shows as one-sided differences that disagree
    smooth = _close(fine, coarse, size) & (np.abs(right - left) <= 1e-3 * size)
    if not np.any(smooth):
        return None
    if not np.all(np.isfinite(jt[smooth])) or not np.all(_close(jt[smooth], fine[smooth], size[smooth])):
        k = int(np.flatnonzero(smooth & ~(np.isfinite(jt) & _close(jt, fine, size)))[0])
        return (f"forward mode is not NumPy's derivative where the program is differentiable: (J t)[{k}] = "
                f"{jt[k]!r}, central differences {fine[k]!r}")
    if jacobians is not None:
        J = np.concatenate(jacobians[1], axis=1)
        t = np.concatenate([np.ravel(v).astype(np.float64) for v in ts])
        with np.errstate(all="ignore"):
            rows = J @ t
        bad = smooth & ~(np.all(np.isfinite(J), axis=1) & _close(rows, fine, size))
        if np.any(bad):
            k = int(np.flatnonzero(bad)[0])
            return (f"reverse mode (jacrev) is not NumPy's derivative where the program is differentiable: row {k} "
                    f"of J^T is {J[k].tolist()!r}: (J t)[{k}] = {rows[k]!r}, central differences {fine[k]!r}")
        return None
    if not np.all(smooth):
        return None  # <J^T c, t> mixes every output: only where all are smooth
    reverse = sum(float(np.sum(g * t)) for g, t in zip(ct, ts))
    want = float(c @ fine)
    if not np.isfinite(reverse) or abs(reverse - want) > 1e-5 * float(np.abs(c) @ size) + 1e-8:
        return (f"reverse mode is not NumPy's derivative where the program is differentiable: <J^T c, t> = "
                f"{reverse!r}, central differences <c, dF> = {want!r}")
    return None


def _dot_product(jt, ct, ts, c, eps) -> str | None:
    """<c, J t> = <J^T c, t>, where every term is finite."""
    forward = float(c @ jt)
    terms = [c * jt] + [g * t for g, t in zip(ct, ts)]
    if not all(np.all(np.isfinite(v)) for v in terms):
        return None
    reverse = sum(float(np.sum(g * t)) for g, t in zip(ct, ts))
    scale = sum(float(np.sum(np.abs(v))) for v in terms)
    # rounding inside the program is relative to its intermediate values, which a cancelling
    # sum hides from `scale`: |c| |t| bounds them for these small programs
    tol = 100 * eps * scale + eps * float(np.sum(np.abs(c))) * sum(float(np.sum(np.abs(t))) for t in ts) + 1e-12
    if abs(forward - reverse) > tol:
        return f"reverse mode disagrees with forward mode: <c, J t> = {forward!r}, <J^T c, t> = {reverse!r}"
    return None


def _jacobian_members(jacobians, jt, ct, ts, c, eps) -> str | None:
    """jacfwd's J t is jvp's, jacrev's J^T c is vjp's (NaN where the other is NaN)."""
    if jacobians is None:
        return None
    t = np.concatenate([np.ravel(v).astype(np.float64) for v in ts])
    for name, blocks, want, got_of in (
            ("jacfwd", jacobians[0], jt, lambda J: J @ t),
            ("jacrev", jacobians[1], np.concatenate([np.ravel(g) for g in ct]), lambda J: c @ J)):
        J = np.concatenate(blocks, axis=1)
        with np.errstate(all="ignore"):
            got = got_of(J)
            scale = (np.abs(J) @ np.abs(t) if name == "jacfwd" else np.abs(c) @ np.abs(J)) + 1.0
        finite = np.isfinite(got) & np.isfinite(want)
        if not np.array_equal(np.isfinite(got), np.isfinite(want)) and np.all(np.isfinite(J)):
            k = int(np.flatnonzero(~finite)[0])
            return f"{name} disagrees with {'jvp' if name == 'jacfwd' else 'vjp'}: [{k}] = {got[k]!r}, not {want[k]!r}"
        bad = finite & (np.abs(got - want) > 100 * eps * scale + 1e-12)
        if np.any(bad):
            k = int(np.flatnonzero(bad)[0])
            return f"{name} disagrees with {'jvp' if name == 'jacfwd' else 'vjp'}: [{k}] = {got[k]!r}, not {want[k]!r}"
    return None
