"""Work a loop's trips do not carry, done for all trips before the loop (a rewrite of the jitted
call's program; on a TPU, or as _npr_FISSION["on"] forces it).

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
of rewrite/lanes.py rely on the same; tests/loops/test_loop_fission.py compares the two programs bit for
bit on the CPU), and a reduction's order inside one trip is XLA's either way. What XLA itself
rounds differently may differ in the last bit, as between any two programs: a product it
contracted with the loop's addition into one FMA is now rounded first, as NumPy rounds it; an
array division by a broadcast value it may make a product by the reciprocal (where the quotient
decides, the division fence, run after this, fences it as it fences any array division).

Taken only where it pays: some moved
equation is float arithmetic (a product, a transcendental, a reduction: not index computations,
reads or reshapes), and the precomputed values of all trips fit in _NPR_FISSION_ELEMENTS. A Ref
the trips only load from (a helper's parameter its caller writes) is loaded whole before the loop
for the moved loads.
"""

import jax
import jax.numpy as jnp
import numpy as np

from .compat import _npr_discharged, _npr_is_ref_aval
from .compat_jaxpr import (
    _npr_aval, _npr_effects, _npr_effects_moved, _npr_eqn_name, _npr_eqns, _npr_invars, _npr_is_literal,
    _npr_literal_value, _npr_outvars, _npr_params, _npr_replace, _npr_rewrite_body, _npr_run_jaxpr,
    _npr_struct)

# None: on where the default backend is a TPU (each trip of a rolled loop there computes the
# 0-d float64 formulations of accurate64.py, a hundred scalar operations a tanh); True/False forces
_npr_FISSION = {"on": None}
_NPR_FISSION_ELEMENTS = 1 << 22  # the precomputed values of all trips, at most (32 MiB of float64)
# what moving an equation gains nothing by: index arithmetic, and reading or reshaping values
_NPR_MOVES_ONLY = frozenset({
    "dynamic_slice", "slice", "squeeze", "reshape", "broadcast_in_dim", "expand_dims", "convert_element_type",
    "transpose", "gather", "get", "select_n", "copy", "copy_p", "concatenate", "rev", "iota", "pjit", "jit"})


# a reduction or product whose order vmap may change: a sum the loop made one row at a time in
# NumPy's order (rt/comprehensions.py) batched over all trips is XLA's batched reduction, not that
_NPR_ORDERED = frozenset({"reduce_sum", "reduce_prod", "cumsum", "cumprod", "cumlogsumexp", "dot_general",
                          "conv_general_dilated"})


def _npr_fission_on() -> bool:
    on = _npr_FISSION["on"]
    return jax.default_backend() == "tpu" if on is None else on


def _npr_fissioned(jaxpr):
    """_npr_loop_fission where it is on, or jaxpr as it was where JAX's internals are not the
    ones it reads."""
    if not _npr_fission_on():
        return jaxpr
    try:
        return _npr_loop_fission(jaxpr)
    except (AttributeError, TypeError, ValueError, KeyError):  # pragma: no cover (an internal moved)
        return jaxpr


def _npr_loop_fission(jaxpr):
    """jaxpr (a core.Jaxpr) with each rolled scan's carry-free work done before it (module doc);
    jaxpr itself when there is none."""
    eqns, changed = [], False
    for eqn in _npr_eqns(jaxpr):
        params = {k: _npr_rewrite_body(p, _npr_loop_fission) for k, p in _npr_params(eqn).items()}
        if any(params[k] is not _npr_params(eqn)[k] for k in params):
            eqn, changed = _npr_replace(eqn, params=params), True
        split = _npr_split_scan(eqn) if _npr_eqn_name(eqn) == "scan" else None
        if split is None:
            eqns.append(eqn)
            continue
        eqns.extend(split)
        changed = True
        _npr_FISSION["split"] = _npr_FISSION.get("split", 0) + 1  # (counted: the fuzzer's fission_loop)
    return _npr_replace(jaxpr, eqns=eqns) if changed else jaxpr


def _npr_split_scan(eqn):
    """[the equations computing the hoisted values, the new scan], or None."""
    p = _npr_params(eqn)
    length, closed = p["length"], p["jaxpr"]
    body, nc, ncarry = closed.jaxpr, p["num_consts"], p["num_carry"]
    if closed.consts or length < 2 or p.get("unroll", 1) >= length or p.get("reverse"):
        return None
    steps = _npr_induction_steps(body, nc, ncarry)
    body_eqns, inputs, operands = _npr_eqns(body), _npr_invars(body), _npr_invars(eqn)
    used = {v for e in body_eqns for v in _npr_invars(e) if not _npr_is_literal(v)}
    known = set(inputs[:nc]) | set(inputs[nc + ncarry:]) | set(steps)
    readonly = _npr_read_only_refs(body, operands, nc)
    moved = []
    for e in body_eqns:  # (an equation only the carries read, `i + 1`, stays: it is the loop's own)
        name, ins, outs = _npr_eqn_name(e), _npr_invars(e), _npr_outvars(e)
        loads = name == "get" and ins[0] in readonly
        if (not _npr_effects(e) or loads) and name not in _NPR_ORDERED and any(v in used for v in outs) and \
                all(_npr_is_literal(v) or v in known for v in ins):
            moved.append(e)
            known.update(outs)
    # what differs from trip to trip (the scanned inputs, the induction carries, what they feed):
    # only that is precomputed stacked over the trips. A value the same on every trip (`power * dt`,
    # an index array's wrap) stays in the body, where XLA computes it once before the loop (its
    # loop-invariant code motion); stacked, each trip read its copy from a [trips, ...] array
    # (heat1d on a TPU: 1.48 of the hand port with fission, 1.07 without)
    varying = set(inputs[nc + ncarry:]) | set(steps)
    for e in moved:
        if any(not _npr_is_literal(v) and v in varying for v in _npr_invars(e)):
            varying.update(_npr_outvars(e))
    # nor an index made from the trip counter alone (`n - 1`, its wrap, its cast, `[n]`): a trip
    # computes it in a few scalar operations, where stacked, each trip loaded it from an array
    # before it could address with it (iir_filter on a TPU: five index arrays, 2.68 of the hand port)
    counted = set(steps)
    for e in moved:
        if all(_npr_is_literal(v) or v in counted for v in _npr_invars(e)) and \
                all(_npr_is_index(v) for v in _npr_outvars(e)):
            counted.update(_npr_outvars(e))
    made = {v for e in moved for v in _npr_outvars(e) if v in varying and v not in counted}
    stay = [e for e in body_eqns if not any(v in made for v in _npr_outvars(e))]
    frontier = list(dict.fromkeys(v for e in stay for v in _npr_invars(e) if not _npr_is_literal(v) and v in made))
    frontier += [v for v in dict.fromkeys(_npr_outvars(body))
                 if not _npr_is_literal(v) and v in made and v not in frontier]
    needed = _npr_needed(moved, frontier)
    if not frontier or not any(_npr_pays(e) for e in needed if any(v in made for v in _npr_outvars(e))) or \
            length * sum(max(1, int(np.prod(_npr_aval(v).shape))) for v in frontier) > _NPR_FISSION_ELEMENTS:
        return None
    pre = _npr_hoisted(closed, needed, frontier, steps, operands, nc, ncarry, length)
    if pre is None:
        return None
    pre_eqns, outs = pre
    gone = {id(e) for e in needed if any(v in made for v in _npr_outvars(e))}  # (an invariant one stays too)
    new_body = _npr_replace(body, invars=list(inputs) + frontier, eqns=[e for e in body_eqns if id(e) not in gone])
    params = {**p, "jaxpr": _npr_replace(closed, jaxpr=new_body)}
    if "linear" in p:  # (a scan parameter of some JAX releases: one flag an operand)
        params["linear"] = tuple(p["linear"]) + (False,) * len(frontier)
    return pre_eqns + [_npr_replace(eqn, invars=list(operands) + outs, params=params)]


def _npr_pays(e):
    """Arithmetic on floats (a product, a tanh, a reduction), not index computations or moves."""
    return _npr_eqn_name(e) not in _NPR_MOVES_ONLY and \
        any(np.dtype(getattr(_npr_aval(v), "dtype", np.int32)).kind in "fc" for v in _npr_outvars(e))


def _npr_is_index(v):
    """An integer or boolean scalar, or an index vector of a few (a scatter's `[n]`, `[i, j]`)."""
    aval = _npr_aval(v)
    return int(np.prod(aval.shape)) <= 8 and np.dtype(getattr(aval, "dtype", np.float32)).kind in "iub"


def _npr_read_only_refs(body, operands, nc):
    """The loop's constant Refs that its trips only load from (every equation taking one is a
    `get` of the body itself, and the scan is passed that Ref once): what a trip loads from one
    is what it held before the loop."""
    refs = {v for v, o in zip(_npr_invars(body)[:nc], operands[:nc])
            if _npr_is_ref_aval(_npr_aval(v)) and sum(x is o for x in operands) == 1}
    for e in _npr_eqns(body):
        taken = [v for v in _npr_invars(e) if not _npr_is_literal(v) and v in refs]
        if _npr_eqn_name(e) != "get" or taken[1:] or taken and _npr_invars(e)[0] is not taken[0]:
            refs.difference_update(taken)
    return refs


def _npr_induction_steps(body, nc, ncarry):
    """{carry invar: its literal step} for the carries each trip updates as `i + c` (integers)."""
    made = {v: e for e in _npr_eqns(body) for v in _npr_outvars(e)}
    steps = {}
    for k in range(ncarry):
        var, out = _npr_invars(body)[nc + k], _npr_outvars(body)[k]
        e, aval = made.get(out), _npr_aval(var)
        if e is None or _npr_eqn_name(e) != "add" or np.dtype(aval.dtype).kind not in "iu" or aval.shape != ():
            continue
        a, b = _npr_invars(e)
        if a is var and _npr_is_literal(b) or b is var and _npr_is_literal(a):
            steps[var] = int(_npr_literal_value(b if a is var else a))
    return steps


def _npr_needed(moved, frontier):
    """The moved equations the frontier's values need (the others stay in the body)."""
    want, needed = set(frontier), []
    for e in reversed(moved):
        if any(v in want for v in _npr_outvars(e)):
            needed.append(e)
            want.update(v for v in _npr_invars(e) if not _npr_is_literal(v))
    return needed[::-1]


def _npr_hoisted(closed, needed, frontier, steps, operands, nc, ncarry, length):
    """(equations computing the frontier's values for every trip, stacked on a leading axis, from
    the scan's operands; the vars holding them), or None. `closed`: the scan's body."""
    body = closed.jaxpr
    inputs = _npr_invars(body)
    read = {v for e in needed for v in _npr_invars(e) if not _npr_is_literal(v)}
    taken = [k for k, v in enumerate(inputs) if v in read]  # the body's inputs the work reads
    sub = _npr_replace(body, invars=[inputs[k] for k in taken], eqns=needed, outvars=list(frontier))
    pre, values = [], [operands[k] for k in taken]
    if any(_npr_is_ref_aval(_npr_aval(v)) for v in _npr_invars(sub)):  # Refs it loads from: loaded whole first
        sub = _npr_discharged(_npr_replace(closed, jaxpr=sub))
        for at, k in enumerate(taken):
            if _npr_is_ref_aval(_npr_aval(inputs[k])):
                pre.append(_npr_whole_load(operands[k]))
                values[at] = _npr_outvars(pre[-1])[0]
        sub_jaxpr, sub_consts = sub.jaxpr, sub.consts
    else:
        sub_jaxpr, sub_consts = _npr_replace(sub, effects=frozenset()), ()
    lanes = [k >= nc + ncarry or inputs[k] in steps for k in taken]

    def trips(*vals):
        values_now = list(vals)
        for at, k in enumerate(taken):  # an induction carry's value on trip t: init + step * t
            var = inputs[k]
            if var in steps:
                values_now[at] = vals[at] + steps[var] * jnp.arange(length, dtype=_npr_aval(var).dtype)

        def one(*lane):
            return _npr_run_jaxpr(sub_jaxpr, sub_consts, *lane)[:len(frontier)]
        return jax.vmap(one, in_axes=[0 if b else None for b in lanes])(*values_now)

    args = [_npr_struct(v) for v in values]
    try:
        traced = jax.make_jaxpr(trips)(*args)
    except Exception:  # anything vmap cannot take: the loop as it was
        return None
    if traced.consts:
        return None
    names = dict(zip(_npr_invars(traced.jaxpr), values))
    eqns = [_npr_replace(e, invars=[names.get(v, v) if not _npr_is_literal(v) else v for v in _npr_invars(e)])
            for e in _npr_eqns(traced.jaxpr)]
    return pre + eqns, [names.get(v, v) for v in _npr_outvars(traced.jaxpr)]


def _npr_whole_load(ref):
    """An equation `value <- ref[...]` for the outer program's Ref var `ref` (JAX's own, traced
    on a Ref of the same type, its Ref then replaced)."""
    traced = jax.make_jaxpr(lambda x: jax.new_ref(x)[...])(_npr_struct(ref))
    load = next(e for e in _npr_eqns(traced.jaxpr) if _npr_eqn_name(e) == "get")
    return _npr_effects_moved(_npr_replace(load, invars=[ref, *_npr_invars(load)[1:]]), _npr_invars(load)[0], ref)
