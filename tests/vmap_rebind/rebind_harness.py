"""Run one program of tests/programs/vmap_rebinds.py four ways against NumPy: the compiled call
and jax.jit(.pure) on each member, jax.jit(jax.vmap(.pure)) on the members stacked, and (float
arguments) jax.grad of .pure against NumPy's central differences. Each way either agrees with
NumPy (results and every argument) or refuses with an NPR code; `outcomes` says which."""

from __future__ import annotations

import copy
import inspect
import warnings

import jax
import jax.numpy as jnp
import numpy as np

import np2ref
from conftest import central_differences, program
from np2ref.fuzz.runner import _trace_gap
from np2ref.verify.compare import first_difference

MODULE = program("vmap_rebinds")
_COMPILED = {}


def compiled(name):
    if name not in _COMPILED:
        _COMPILED[name] = np2ref.compile(getattr(MODULE, name), host_below=0)
    return _COMPILED[name]


def _code(exc) -> str | None:
    """The NPR code of a refusal: np2ref's error, a runtime NprError, or a trace-time gap JAX
    raised under a transformation (`if` on a tracer: NPR030, as compiled calls report it)."""
    return _trace_gap(exc)


def _numpy(name, args):
    fn = getattr(MODULE, name)
    args = copy.deepcopy(args)
    return fn(*args), args


def _compare(name, args, result, finals, where) -> str | None:
    want, after = _numpy(name, args)
    names = list(inspect.signature(getattr(MODULE, name)).parameters)
    kinds = where == "call"  # (.pure and jax.vmap's members hold arrays: no Python numbers)
    diff = first_difference(want, result, f"{where} result", kinds=kinds) if want is not None else None
    for n, before, arg in zip(names, args, after):
        if isinstance(arg, np.ndarray) and diff is None:
            got = finals.get(n, before) if isinstance(finals, dict) else finals[names.index(n)]
            diff = first_difference(arg, np.asarray(got), f"{where} argument `{n}`")
    return diff


def call(name, members):
    for args in members:
        mine = copy.deepcopy(args)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = compiled(name)(*mine)
        except np2ref.Np2RefError as exc:
            return _code(exc)
        diff = _compare(name, args, got, mine, "call")
        if diff:
            return diff
    return "exact"


def pure(name, members):
    c = compiled(name)
    for args in members:
        try:
            with jax.enable_x64(True), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result, finals = jax.jit(c.pure)(*args)
        except Exception as exc:  # noqa: BLE001 - a refusal has its code
            if _code(exc) is None:
                raise
            return _code(exc)
        diff = _compare(name, args, None if result is None else np.asarray(result), finals, "pure")
        if diff:
            return diff
    return "exact"


def vmapped(name, members):
    c = compiled(name)
    stacked = [np.stack([m[i] for m in members]) for i in range(len(members[0]))]
    try:
        with jax.enable_x64(True), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result, finals = jax.jit(jax.vmap(c.pure))(*stacked)
    except Exception as exc:  # noqa: BLE001
        if _code(exc) is None:
            raise
        return _code(exc)
    for k, args in enumerate(members):
        one = None if result is None else np.asarray(result[k])
        diff = _compare(name, args, one, {n: np.asarray(v[k]) for n, v in finals.items()}, f"vmap member {k}")
        if diff:
            return diff
    return "exact"


def _loss(outputs):
    leaves = [x for x in jax.tree_util.tree_leaves(outputs) if jnp.issubdtype(jnp.result_type(x), jnp.floating)]
    return sum(jnp.sum(jnp.asarray(x) * (1.0 + 0.1 * jnp.arange(jnp.size(x)).reshape(jnp.shape(x))))
               for x in leaves)


def grad(name, members):
    """d/d(first argument) of a weighted sum of every float result and final argument."""
    c = compiled(name)
    names = list(inspect.signature(getattr(MODULE, name)).parameters)
    for args in members:
        rest = list(args[1:])

        def numpy_loss(x):
            want, after = _numpy(name, (x, *rest))
            outs = [want] if want is not None else []
            outs += [a for a in after if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
            return float(_loss([jnp.asarray(o) for o in outs]))

        def ours(x):
            result, finals = c.pure(x, *rest)
            outs = [result] if result is not None else []
            outs += [finals[n] if n in finals else a for n, a in zip(names, (x, *rest))
                     if isinstance(a, (np.ndarray, jax.Array)) and jnp.issubdtype(jnp.result_type(a), jnp.floating)]
            return _loss(outs)
        try:
            with jax.enable_x64(True), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = np.asarray(jax.grad(ours)(jnp.asarray(args[0])))
                want = central_differences(numpy_loss, args[0])
        except Exception as exc:  # noqa: BLE001
            if _code(exc) is None:
                raise
            return _code(exc)
        if not np.allclose(got, want, rtol=1e-6, atol=1e-6):
            return f"grad: got {got}, central differences {want}"
    return "exact"


def outcomes(name, members, floats=True):
    try:
        compiled(name)
    except np2ref.Np2RefError as exc:  # refused when converted: every way
        return dict.fromkeys(("call", "pure", "vmap", "grad") if floats else ("call", "pure", "vmap"), _code(exc))
    out = {"call": call(name, members), "pure": pure(name, members), "vmap": vmapped(name, members)}
    if floats:
        out["grad"] = grad(name, members)
    return out
