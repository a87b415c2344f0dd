"""Two rewrites of the jitted call's program (its jaxpr, loop and branch bodies included), each
giving the same values, that spare XLA:CPU work it does badly.

Reads of regions no store since has touched read the array from before those stores:
`slice(x)` where x is `dynamic_update_slice(u, v, starts)` (or a whole load of a Ref whose last
store was such an array) and the slice's box is disjoint from the update's becomes `slice(u)`,
and one within the update's box a slice of `v`. XLA:CPU sees through neither
`slice(dynamic-update-slice(u, v))` nor the next dynamic-update-slice of the same buffer, and
copies the whole buffer once per store: a loop over planes that reads each plane before
storing it (`fout[i, m] = fin[8 - i, m]`, Latt's bounce-back, or `f[i] = np.where(m, g[8 - i],
f[i])`) made nine copies of a 9x420x180 array a step. Exact by construction: the forwarded
slice names the same elements of an array that holds the same values there. Only static boxes
are compared (slice bounds; update starts that are literals or integer arithmetic of literals,
clamped as dynamic_update_slice clamps them); an equation that takes the Ref other than a
whole load or a whole store ends what is known of it; the walk stops (and nothing changes)
where a slice meets a store's box only in part, since reading an array in the middle of a
chain of stores keeps it alive beside the next store (XLA copies it).

Only a slice whose value is then reshaped (`f[i]`, an integer index: slice and squeeze) is
forwarded. A read of the same shape as the region a store then writes (`ey[0] = e;
ey[1:] -= d`) is, read from the current array, an elementwise update XLA:CPU makes in place;
forwarded to the array before `ey[0] = e`, that array had to outlive the store into it: a copy
of it a step (fdtd_2d, 3x its hand port). Through the squeeze XLA:CPU sees no such update and
copies either way, and the forwarding spares the copy per store. Into the value stored, only
when some later equation updates the array that store made (_npr_untouched).

A sum, max or min over a short leading axis (`np.sum(f, axis=0)` of a 9x420x180 array, an
LBM density) is added up slice by slice, `((f[0] + f[1]) + f[2]) + ...`: XLA:CPU's reduction
over a leading axis (its YNNPACK fusion, jax 0.10) took 52 ms where NumPy takes 1.6 ms and
the chain of adds 0.7 ms (measured). That order is NumPy's own for a C-ordered array (its
reduction over axis 0 adds row after row), where XLA's reduce adds in an order of its own.
"""

import jax
import numpy as np

from .compat import _npr_is_ref_aval
from .compat_jaxpr import (
    _npr_aval, _npr_eqn_name, _npr_eqns, _npr_holds_body, _npr_invars, _npr_is_literal,
    _npr_literal_value, _npr_outvars, _npr_params, _npr_replace, _npr_rewritable, _npr_rewrite_body,
    _npr_struct)
from .dots import _npr_window_dots


# False: as traced (benchmarks); "dots" None: on but on a TPU, where the one large product of a
# convolution's windows took 1.9x the nine small ones (3x3 conv + ReLU, 32->64 channels, 128x128:
# 10.9 ms on, 5.7 ms off; benchmarks/device_worst.py on the chip, 2026-12-06)
_npr_PEEPHOLES = {"slices": True, "reductions": True, "dots": None}


def _npr_dots_on() -> bool:
    on = _npr_PEEPHOLES["dots"]
    return jax.default_backend() != "tpu" if on is None else on
_NPR_LEADING = {"reduce_sum": "add", "reduce_max": "max", "reduce_min": "min"}
_NPR_WHOLE = jax.tree_util.tree_structure(())
_NPR_INT_OPS = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
    "neg": lambda a: -a, "max": max, "min": min,
}


def _npr_peephole_jaxpr(jaxpr):
    """jaxpr (a core.Jaxpr) with the module doc's rewrites made."""
    known = {}   # var -> the Python int (or bool) a scalar integer var holds
    held = {}    # Ref var -> the var its last whole store put (until another use of the Ref)
    same = {}    # var of a whole load -> the var that Ref held
    updates = {}  # var -> (operand var, starts, update shape): a dynamic_update_slice's result
    rewritten, reshaped = _npr_uses(jaxpr)
    eqns, changed = [], False

    def value(v):
        if _npr_is_literal(v):
            return _npr_int(_npr_literal_value(v))
        return known.get(v)

    for eqn in _npr_eqns(jaxpr):
        name, invars = _npr_eqn_name(eqn), _npr_invars(eqn)
        params = _npr_peephole_bodies(_npr_params(eqn))
        if params is not _npr_params(eqn):
            eqn, changed = _npr_replace(eqn, params=params), True
        _npr_track(eqn, held, same)
        if name == "slice" and _npr_PEEPHOLES["slices"] and not _npr_is_literal(invars[0]) \
                and _npr_outvars(eqn)[0] in reshaped:  # (why only these: the module doc)
            start, limit = params["start_indices"], params["limit_indices"]
            found = _npr_untouched(invars[0], start, limit, same, updates, rewritten)
            if found is not None:
                source, offsets = found
                eqn = _npr_replace(eqn, invars=[source], params={
                    **params, "start_indices": tuple(a - o for a, o in zip(start, offsets)),
                    "limit_indices": tuple(a - o for a, o in zip(limit, offsets))})
                changed = True
        elif name == "dynamic_update_slice" and not _npr_is_literal(invars[0]):
            starts = [value(v) for v in invars[2:]]
            if all(isinstance(s, int) and not isinstance(s, bool) for s in starts):
                shape, size = _npr_aval(invars[0]).shape, _npr_aval(invars[1]).shape
                starts = tuple(min(max(s, 0), n - k) for s, n, k in zip(starts, shape, size))
                updates[_npr_outvars(eqn)[0]] = (invars[0], invars[1], starts)
        elif name in _NPR_LEADING and _npr_PEEPHOLES["reductions"] and _npr_short_leading(eqn):
            _npr_splice_reduction(eqns, eqn)
            changed = True
            continue
        elif name in _NPR_INT_OPS or name in ("select_n", "convert_element_type"):
            args = [value(v) for v in invars]
            out = _npr_outvars(eqn)[0]
            if all(a is not None for a in args) and getattr(_npr_aval(out), "shape", None) == () \
                    and np.dtype(_npr_aval(out).dtype).kind in "iub":
                if name == "select_n":
                    known[out] = args[1 + int(args[0])] if len(args) > 1 else None
                elif name == "convert_element_type":
                    known[out] = bool(args[0]) if np.dtype(_npr_aval(out).dtype).kind == "b" else int(args[0])
                else:
                    known[out] = _NPR_INT_OPS[name](*args)
        eqns.append(eqn)
    return _npr_replace(jaxpr, eqns=eqns) if changed else jaxpr


def _npr_track(eqn, held, same):
    """Note what `eqn` does to the Refs: `held` maps a Ref var to the var its last whole store
    (or new_ref) put, until another use of the Ref; `same` maps a whole load's var to that var."""
    name, invars = _npr_eqn_name(eqn), _npr_invars(eqn)
    whole = name in ("get", "swap") and _npr_params(eqn).get("tree") == _NPR_WHOLE
    if name == "new_ref" and len(invars) == 1 and not _npr_is_literal(invars[0]) \
            and _npr_is_ref_var(_npr_outvars(eqn)[0]) \
            and tuple(_npr_aval(invars[0]).shape) == tuple(_npr_aval(_npr_outvars(eqn)[0]).shape):
        held[_npr_outvars(eqn)[0]] = same.get(invars[0], invars[0])
    elif name == "get" and whole and len(invars) == 1 and invars[0] in held:
        same[_npr_outvars(eqn)[0]] = held[invars[0]]
    elif name == "swap" and whole and len(invars) == 2 and _npr_is_ref_var(invars[0]) \
            and not _npr_is_literal(invars[1]) \
            and tuple(_npr_aval(invars[1]).shape) == tuple(_npr_aval(invars[0]).shape):
        held[invars[0]] = same.get(invars[1], invars[1])
    else:
        for v in invars:
            if not _npr_is_literal(v):
                held.pop(v, None)  # a store through an index, addupdate, a loop or call taking it


def _npr_uses(jaxpr):
    """(the vars, seen through whole loads, of the arrays an equation of jaxpr may update in
    place: the operand of a dynamic_update_slice or a scatter, or anything a loop, branch or
    call takes, whose body may; the vars a reshape or squeeze takes). An array no equation
    updates is final in this body."""
    held, same, rewritten, reshaped = {}, {}, set(), set()
    for eqn in _npr_eqns(jaxpr):
        _npr_track(eqn, held, same)
        name = _npr_eqn_name(eqn)
        if name in ("reshape", "squeeze"):
            reshaped.update(v for v in _npr_invars(eqn)[:1] if not _npr_is_literal(v))
            continue
        if name == "dynamic_update_slice" or name.startswith("scatter"):
            takes = _npr_invars(eqn)[:1]
        elif any(_npr_holds_body(p) for p in _npr_params(eqn).values()):
            takes = _npr_invars(eqn)
        else:
            continue
        rewritten.update(same.get(v, v) for v in takes if not _npr_is_literal(v))
    return rewritten, reshaped


def _npr_short_leading(eqn):
    """A reduction over axis 0 alone, of at most 32 slices of 1024 elements or more."""
    x = _npr_invars(eqn)[0]
    shape = getattr(_npr_aval(x), "shape", ())
    return tuple(_npr_params(eqn).get("axes", ())) == (0,) and len(shape) >= 2 and 1 <= shape[0] <= 32 \
        and int(np.prod(shape[1:])) >= 1024 and not _npr_params(eqn).get("out_sharding")


def _npr_splice_reduction(eqns, eqn):
    """Append to `eqns` the slice-by-slice form of the reduction `eqn` (its result var kept),
    traced by JAX itself (each release's own parameters)."""
    op = getattr(jax.lax, _NPR_LEADING[_npr_eqn_name(eqn)])
    x, (out,) = _npr_invars(eqn)[0], _npr_outvars(eqn)

    def chain(a):
        acc = jax.lax.index_in_dim(a, 0, keepdims=False)
        if op is jax.lax.add and np.dtype(a.dtype).kind in "fc":  # NumPy's sum starts from 0.0: its
            acc = acc + jax.lax.select(acc != acc, acc, jax.numpy.zeros_like(acc))  # sum of -0.0s is 0.0
        for k in range(1, a.shape[0]):
            acc = op(acc, jax.lax.index_in_dim(a, k, keepdims=False))
        return acc
    closed = jax.make_jaxpr(chain)(_npr_struct(x))
    made, result = _npr_eqns(closed.jaxpr), _npr_outvars(closed.jaxpr)[0]
    if closed.consts or not made or result is not _npr_outvars(made[-1])[0] \
            or _npr_aval(result).shape != _npr_aval(out).shape:  # pragma: no cover (traced otherwise)
        raise ValueError("reduction")
    (inner,) = _npr_invars(closed.jaxpr)
    for e in made:
        e = _npr_replace(e, invars=[x if u is inner else u for u in _npr_invars(e)])
        eqns.append(_npr_replace(e, outvars=[out]) if e is not None and _npr_outvars(e)[0] is result else e)


def _npr_untouched(x, start, limit, same, updates, rewritten):
    """(the array, the offsets) the box [start, limit) of x can be sliced from without reading
    an array some store made in place: through whole loads (`same`) and past the
    dynamic_update_slices whose box it does not meet, to the array they were made over or
    into the value one of them stored (its box holding the slice's); None when it meets a
    store's box only in part, or nothing is passed. Stopping at an array in the middle of a
    chain of stores would keep it alive beside the next store: XLA copies it.

    Into the value stored only when some equation updates the array that store made in place
    (`rewritten`, a chain of stores): where none does, that array is final here and a slice of
    it costs nothing, while the value, a producer XLA fuses into each reader, is recomputed
    there from its own operands. A time loop of whole-slice stores (`B[1:-1] = f(A); A[1:-1] =
    g(B)`) then computed f(A) again inside the fusion that updates A in place, reading A at
    shifted offsets, so XLA:CPU copied each shifted slice of A apart first: 2.6x the hand
    port's time (jacobi_2d), 1.0x without."""
    first, offsets = x, (0,) * len(start)
    while True:
        x = same.get(x, x)
        update = updates.get(x)
        if update is None:
            return (x, offsets) if x is not first else None
        operand, value, starts = update
        size = _npr_aval(value).shape
        if all(s <= lo and hi <= s + k for lo, hi, s, k in zip(start, limit, starts, size)):
            if x not in rewritten:
                return (x, (0,) * len(start)) if x is not first else None
            return value, starts
        if not any(hi <= s or lo >= s + k for lo, hi, s, k in zip(start, limit, starts, size)):
            return None  # the slice reads some stored elements and some older ones
        x = operand


def _npr_peephole_bodies(params):
    """params with each body (a Jaxpr or ClosedJaxpr, or a tuple of them) forwarded; the same
    dict when nothing changed."""
    new = None
    for k, p in params.items():
        q = _npr_rewrite_body(p, _npr_peephole_jaxpr)
        if q is not p:
            new = dict(params) if new is None else new
            new[k] = q
    return params if new is None else new


def _npr_int(v):
    """A literal's value as a Python int or bool when it is an integer or boolean scalar."""
    try:
        a = np.asarray(v)
    except Exception:
        return None
    if a.shape != () or a.dtype.kind not in "iub":
        return None
    return bool(a) if a.dtype.kind == "b" else int(a)


def _npr_is_ref_var(v):
    return _npr_is_ref_aval(_npr_aval(v))


def _npr_peepholed(jaxpr):
    """The rewrites, when any is switched on and JAX's internals are the ones they read; else
    jaxpr."""
    dots = _npr_dots_on()
    if not (dots or _npr_PEEPHOLES["slices"] or _npr_PEEPHOLES["reductions"]) or not _npr_rewritable():
        return jaxpr
    try:
        jaxpr = _npr_window_dots(jaxpr) if dots else jaxpr  # dots.py
        return _npr_peephole_jaxpr(jaxpr)
    except (AttributeError, TypeError, ValueError, KeyError):  # pragma: no cover (an internal moved)
        return jaxpr


