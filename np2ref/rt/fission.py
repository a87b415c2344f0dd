"""Work a loop's trips do not carry, done for all trips before the loop (a rewrite of the jitted
call's program; switched by _npr_FISSION["on"]).

`for i in range(n): trace += np.tanh(a[i, i])` carries `trace` from trip to trip, so it stays a
loop (the additions in NumPy's order), but `np.tanh(a[i, i])` reads only the loop variable and
values fixed before the loop. On an accelerator each trip of a lax loop is a round of the
device's scalar unit, and a TPU computes a 0-d float64 `tanh` as a formulation of a hundred
operations (accurate64.py): 1000 trips of that were 20x the hand port's `jnp.tanh(diagonal)`.

In a rolled `scan` (a `fori_loop` with static bounds), the equations that depend only on the
loop's constants, its existing scanned inputs and an induction carry (a carry whose trip updates
it as `i + c`, c a literal: its values are init + c * t) and have no effects are run once, under
vmap over the trips, before the loop; the loop scans over their results as new inputs. Each trip
then computes what it computed, from the same values, in the same order:

    scan(consts=(a,), carry=(i, trace))            t = vmap(lambda i: tanh(a[i, i]))(arange(n))
      trace += tanh(a[i, i]); i += 1       ->       scan(consts=(a,), carry=(i, trace), xs=(t,))
                                                      trace += t; i += 1

Exact: an elementwise operation under vmap computes each element as the scalar one does (the lanes
of rewrite/lanes.py rely on the same; tests/test_loop_fission.py holds it bit for bit on the CPU),
and a reduction's order inside one trip is XLA's either way. Taken only where it pays: some moved
equation is arithmetic beyond index computations (a transcendental, a division, a product, a
reduction), and the precomputed values of all trips fit in _NPR_FISSION_ELEMENTS.
"""

import jax
import jax.numpy as jnp
import numpy as np

from .compat import _npr_is_literal, _npr_replace, _npr_rewrite_body, _npr_run_jaxpr

_npr_FISSION = {"on": True}
_NPR_FISSION_ELEMENTS = 1 << 22  # the precomputed values of all trips, at most (32 MiB of float64)
_NPR_PAYS = frozenset({
    "exp", "exp2", "expm1", "log", "log1p", "tanh", "logistic", "sin", "cos", "tan", "asin", "acos", "atan",
    "atan2", "sinh", "cosh", "asinh", "acosh", "atanh", "sqrt", "rsqrt", "cbrt", "pow", "integer_pow", "div",
    "erf", "erfc", "erf_inv", "lgamma", "digamma", "dot_general", "reduce_sum", "reduce_max", "reduce_min",
    "reduce_prod", "cumsum", "cumprod", "cummax", "cummin", "argmax", "argmin"})


def _npr_fissioned(jaxpr):
    """_npr_loop_fission, or jaxpr as it was where JAX's internals are not the ones it reads."""
    try:
        return _npr_loop_fission(jaxpr)
    except (AttributeError, TypeError, ValueError, KeyError):  # pragma: no cover (an internal moved)
        return jaxpr


def _npr_loop_fission(jaxpr):
    """jaxpr (a core.Jaxpr) with each rolled scan's carry-free work done before it (module doc);
    jaxpr itself when there is none."""
    if not _npr_FISSION["on"]:
        return jaxpr
    eqns, changed = [], False
    for eqn in jaxpr.eqns:
        params = {k: _npr_rewrite_body(p, _npr_loop_fission) for k, p in eqn.params.items()}
        if any(params[k] is not eqn.params[k] for k in params):
            eqn, changed = _npr_replace(eqn, params=params), True
        split = _npr_split_scan(eqn) if eqn.primitive.name == "scan" else None
        if split is None:
            eqns.append(eqn)
            continue
        eqns.extend(split)
        changed = True
    return _npr_replace(jaxpr, eqns=eqns) if changed else jaxpr


def _npr_split_scan(eqn):
    """[the equations computing the hoisted values, the new scan], or None."""
    p = eqn.params
    length, closed = p["length"], p["jaxpr"]
    body, nc, ncarry = closed.jaxpr, p["num_consts"], p["num_carry"]
    if closed.consts or length < 2 or p.get("unroll", 1) >= length or p.get("reverse"):
        return None
    steps = _npr_induction_steps(body, nc, ncarry)
    used = {v for e in body.eqns for v in e.invars if not _npr_is_literal(v)}
    known = set(body.invars[:nc]) | set(body.invars[nc + ncarry:]) | set(steps)
    moved = []
    for e in body.eqns:  # (an equation only the carries read, `i + 1`, stays: it is the loop's own)
        if not e.effects and any(v in used for v in e.outvars) and \
                all(_npr_is_literal(v) or v in known for v in e.invars):
            moved.append(e)
            known.update(e.outvars)
    made = {v for e in moved for v in e.outvars}
    stay = [e for e in body.eqns if not any(v in made for v in e.outvars)]
    frontier = list(dict.fromkeys(v for e in stay for v in e.invars if not _npr_is_literal(v) and v in made))
    frontier += [v for v in dict.fromkeys(body.outvars) if not _npr_is_literal(v) and v in made and v not in frontier]
    needed = _npr_needed(moved, frontier)
    if not frontier or not any(e.primitive.name in _NPR_PAYS for e in needed) or \
            length * sum(max(1, int(np.prod(v.aval.shape))) for v in frontier) > _NPR_FISSION_ELEMENTS:
        return None
    pre = _npr_hoisted(body, needed, frontier, steps, eqn.invars, nc, ncarry, length)
    if pre is None:
        return None
    pre_eqns, outs = pre
    gone = {id(e) for e in needed}
    new_body = _npr_replace(body, invars=list(body.invars) + frontier, eqns=[e for e in body.eqns if id(e) not in gone])
    params = {**p, "jaxpr": _npr_replace(closed, jaxpr=new_body)}
    if "linear" in p:  # (a scan parameter of some JAX releases: one flag an operand)
        params["linear"] = tuple(p["linear"]) + (False,) * len(frontier)
    return pre_eqns + [_npr_replace(eqn, invars=list(eqn.invars) + outs, params=params)]


def _npr_induction_steps(body, nc, ncarry):
    """{carry invar: its literal step} for the carries each trip updates as `i + c` (integers)."""
    made = {v: e for e in body.eqns for v in e.outvars}
    steps = {}
    for k in range(ncarry):
        var, out = body.invars[nc + k], body.outvars[k]
        e = made.get(out)
        if e is None or e.primitive.name != "add" or np.dtype(var.aval.dtype).kind not in "iu" or var.aval.shape != ():
            continue
        a, b = e.invars
        if a is var and _npr_is_literal(b) or b is var and _npr_is_literal(a):
            steps[var] = int((b if a is var else a).val)
    return steps


def _npr_needed(moved, frontier):
    """The moved equations the frontier's values need (the others stay in the body)."""
    want, needed = set(frontier), []
    for e in reversed(moved):
        if any(v in want for v in e.outvars):
            needed.append(e)
            want.update(v for v in e.invars if not _npr_is_literal(v))
    return needed[::-1]


def _npr_hoisted(body, needed, frontier, steps, operands, nc, ncarry, length):
    """(equations computing the frontier's values for every trip, stacked on a leading axis, from
    the scan's operands; the vars holding them), or None."""
    sub = _npr_replace(body, eqns=needed, outvars=list(frontier), effects=frozenset())
    batched = [k >= nc + ncarry or body.invars[k] in steps for k in range(len(body.invars))]

    def trips(*values):
        inputs = list(values)
        for k in range(ncarry):  # an induction carry's value on trip t: init + step * t
            var = body.invars[nc + k]
            if var in steps:
                inputs[nc + k] = values[nc + k] + steps[var] * jnp.arange(length, dtype=var.aval.dtype)

        def one(*vals):
            return _npr_run_jaxpr(sub, (), *vals)
        return jax.vmap(one, in_axes=[0 if b else None for b in batched])(*inputs)

    args = [jax.ShapeDtypeStruct(v.aval.shape, v.aval.dtype) for v in operands]
    try:
        closed = jax.make_jaxpr(trips)(*args)
    except Exception:  # anything vmap cannot take: the loop as it was
        return None
    if closed.consts:
        return None
    names = dict(zip(closed.jaxpr.invars, operands))
    eqns = [_npr_replace(e, invars=[names.get(v, v) if not _npr_is_literal(v) else v for v in e.invars])
            for e in closed.jaxpr.eqns]
    return eqns, [names.get(v, v) for v in closed.jaxpr.outvars]
