"""Products of windows in an unrolled loop, as one product (a rewrite of the jitted call's
program, switched by peepholes._npr_PEEPHOLES["dots"]; off by default on a TPU, where it was slower).

A convolution written by shifted windows (`for i in range(kh): for j in range(kw): out +=
np.tensordot(w[:, :, i, j], x[:, i:i + h, j:j + wd], axes=1)`) is a short loop that XLA unrolls
(loops.py, `_npr_short`), and each of its nine copies multiplies a slice of `w` by a window of
`x`: nine small matrix products over copied windows, 1.3-2x the time of the hand port's one
`lax.conv_general_dilated` (benchmarks/suite.py). Where both operands are the same arrays in
every copy (loop-invariant: the loop's constants) and the window keeps the contracted axes
whole, each copy's product is a slice of one product of the whole arrays:

    dot(squeeze(dynamic_slice(W, s)), window(X))  ==  window'(squeeze(dynamic_slice(P, s')))
    with P = dot(W, X)

element for element: every element is the same sum of the same products over the contracted
axis, which XLA's dot adds in an order of its own either way (a dot product's rounding is not
NumPy's BLAS's: docs/semantics.md). Each copy names P = dot(W, X) of the same operands; once
XLA has unrolled the loop its common-subexpression pass leaves one (checked on the 3x3 layer:
one dot in the optimized module), a single large product in place of nine small ones. Taken
only inside loops unrolled in full (every enclosing scan's `unroll` covers its length: a rolled
loop would compute P on every trip) and only where P costs at most 1.25 times the products it
replaces (the windows cover most of X, the loop visits most slices of W).
"""

import jax
import numpy as np

from .compat_jaxpr import (
    _npr_aval, _npr_constvars, _npr_effects, _npr_eqn_name, _npr_eqns, _npr_invars, _npr_is_literal,
    _npr_literal_value, _npr_outvars, _npr_params, _npr_replace, _npr_rewrite_body, _npr_struct)


_NPR_WASTE = 1.25  # P's multiply-adds over the replaced products' (all copies), at most


def _npr_window_dots(jaxpr, invariant=None, copies=1):
    """jaxpr with each product of a loop-invariant slice and window, in a loop unrolled in full,
    taken from the product of the whole arrays; the same jaxpr when there is none. `invariant`:
    the vars whose values every copy of the enclosing unrolled loops shares (at the top: all)."""
    invariant = set(_npr_invars(jaxpr)) | set(_npr_constvars(jaxpr)) if invariant is None else invariant
    defs, eqns, changed = {}, [], False
    for eqn in _npr_eqns(jaxpr):
        name = _npr_eqn_name(eqn)
        if name == "scan" and _npr_unrolled_scan(eqn):
            params = _npr_params(eqn)
            n, body, length = params["num_consts"], params["jaxpr"], params["length"]
            inner = {b for b, o in zip(_npr_invars(body.jaxpr)[:n], _npr_invars(eqn)[:n])
                     if _npr_is_literal(o) or o in invariant} | set(_npr_constvars(body.jaxpr))
            new = _npr_rewrite_body(body, lambda j: _npr_window_dots(j, inner, copies * length))
            if new is not body:
                eqn, changed = _npr_replace(eqn, params={**params, "jaxpr": new}), True
        elif name == "dot_general" and copies > 1:
            spliced = _npr_window_dot(eqn, defs, invariant, copies)
            if spliced is not None:
                eqns.extend(spliced)
                changed = True
                continue
        if not _npr_effects(eqn) and all(_npr_is_literal(v) or v in invariant for v in _npr_invars(eqn)):
            invariant.update(_npr_outvars(eqn))
        defs.update((v, eqn) for v in _npr_outvars(eqn))
        eqns.append(eqn)
    return _npr_replace(jaxpr, eqns=eqns) if changed else jaxpr


def _npr_unrolled_scan(eqn):
    """A scan whose copies XLA lays out in full (no loop left to run P on every trip)."""
    params = _npr_params(eqn)
    unroll, length = params.get("unroll"), params.get("length")
    return unroll is True or isinstance(unroll, int) and not isinstance(unroll, bool) and unroll >= length >= 1


def _npr_window_dot(eqn, defs, invariant, copies):
    """The equations computing eqn's product from P (its result var kept), or None when its
    operands are not a slice and a window of loop-invariant arrays, or P would cost too much."""
    (lc, rc), (lb, rb) = _npr_params(eqn)["dimension_numbers"]
    if lb or rb:
        return None
    left, right = _npr_invars(eqn)
    taken = _npr_slice_of(left, defs, invariant)
    chain = _npr_window_of(right, defs, invariant, rc)
    if taken is None or chain is None:
        return None
    w, starts, squeezed = taken
    x = _npr_invars(chain[0])[0] if chain else right
    kept = [d for d in range(len(_npr_aval(w).shape)) if d not in squeezed]
    lc_w = tuple(kept[d] for d in lc)
    lhs, rhs = _npr_aval(left).shape, _npr_aval(right).shape
    whole = np.prod(_npr_aval(w).shape) * np.prod([k for d, k in enumerate(_npr_aval(x).shape) if d not in rc])
    parts = copies * np.prod(lhs) * np.prod([k for d, k in enumerate(rhs) if d not in rc])
    if whole > _NPR_WASTE * parts:
        return None
    return _npr_spliced(eqn, w, x, lc_w, rc, starts, squeezed, chain)


def _npr_slice_of(v, defs, invariant):
    """(W, the slice's start vars or ints, the squeezed axes) when v is squeeze(dynamic_slice(W))
    of an invariant W taking each axis whole or one element of it; else None."""
    sq = defs.get(v)
    if sq is None or _npr_eqn_name(sq) != "squeeze":
        return None
    ds = defs.get(_npr_invars(sq)[0])
    if ds is None or _npr_eqn_name(ds) != "dynamic_slice" or _npr_invars(ds)[0] not in invariant:
        return None
    w, squeezed = _npr_invars(ds)[0], frozenset(_npr_params(sq)["dimensions"])
    sizes, shape = _npr_params(ds)["slice_sizes"], _npr_aval(w).shape
    if any(sizes[d] != (1 if d in squeezed else shape[d]) for d in range(len(shape))):
        return None
    return w, [_npr_dot_start(s) for s in _npr_invars(ds)[1:]], squeezed


def _npr_window_of(v, defs, invariant, contracted):
    """The slicing equations (first to last) that take v from an invariant array, each keeping
    the contracted axes whole; [] when v is invariant itself, None otherwise."""
    chain = []
    while v not in invariant:
        e = defs.get(v)
        if e is None or _npr_eqn_name(e) not in ("dynamic_slice", "slice"):
            return None
        shape = _npr_aval(_npr_invars(e)[0]).shape
        if _npr_eqn_name(e) == "dynamic_slice":
            whole = all(_npr_params(e)["slice_sizes"][d] == shape[d] for d in contracted)
        else:
            p = _npr_params(e)
            whole = all(p["start_indices"][d] == 0 and p["limit_indices"][d] == shape[d]
                        and (p["strides"] is None or p["strides"][d] == 1) for d in contracted)
        if not whole:
            return None
        chain.append(e)
        v = _npr_invars(e)[0]
    return chain[::-1]


def _npr_dot_start(v):
    """A start index: the var, or a literal's Python int."""
    return int(np.asarray(_npr_literal_value(v))) if _npr_is_literal(v) else v


def _npr_spliced(eqn, w, x, lc_w, rc, starts, squeezed, chain):
    """eqn's product as P = dot(W, X), sliced as the operands were, traced by JAX itself (each
    release's own parameters), its last equation writing eqn's result var."""
    lax = jax.lax
    var_starts = [s for e in chain if _npr_eqn_name(e) == "dynamic_slice" for s in _npr_invars(e)[1:]
                  if not _npr_is_literal(s)]
    var_starts = [s for s in starts if not isinstance(s, int)] + var_starts
    w_shape, x_shape = _npr_aval(w).shape, _npr_aval(x).shape
    free_w = [d for d in range(len(w_shape)) if d not in lc_w]
    free_x = [d for d in range(len(x_shape)) if d not in rc]
    params = _npr_params(eqn)

    def product(wv, xv, *given):
        values = dict(zip(map(id, var_starts), given))

        def start(s, dtype):
            return values[id(s)] if id(s) in values else np.asarray(_npr_dot_start(s), dtype)

        p = lax.dot_general(wv, xv, ((lc_w, tuple(rc)), ((), ())), precision=params.get("precision"),
                            preferred_element_type=params.get("preferred_element_type"))
        dtype = next((_npr_aval(s).dtype for s in starts if not isinstance(s, int)), np.int32)
        zero = np.asarray(0, dtype)
        at = [start(starts[d], dtype) if d in squeezed else zero for d in free_w] + [zero] * len(free_x)
        sizes = [1 if d in squeezed else w_shape[d] for d in free_w] + [x_shape[d] for d in free_x]
        p = lax.dynamic_slice_p.bind(p, *at, slice_sizes=tuple(sizes))
        p = lax.squeeze(p, [i for i, d in enumerate(free_w) if d in squeezed])
        lead = p.ndim - len(free_x)
        for e in chain:
            if _npr_eqn_name(e) == "dynamic_slice":
                own = [start(s, _npr_aval(s).dtype) for s in _npr_invars(e)[1:]]
                z = np.asarray(0, own[0].dtype if own else np.int32)
                p = lax.dynamic_slice_p.bind(p, *[z] * lead, *[own[d] for d in free_x], slice_sizes=(
                    *p.shape[:lead], *(_npr_params(e)["slice_sizes"][d] for d in free_x)))
            else:
                q = _npr_params(e)
                strides = q["strides"] or (1,) * len(q["start_indices"])
                p = lax.slice(p, (0,) * lead + tuple(q["start_indices"][d] for d in free_x),
                              p.shape[:lead] + tuple(q["limit_indices"][d] for d in free_x),
                              (1,) * lead + tuple(strides[d] for d in free_x))
        return p

    closed = jax.make_jaxpr(product)(_npr_struct(w), _npr_struct(x),
                                     *(jax.ShapeDtypeStruct((), _npr_aval(s).dtype) for s in var_starts))
    (out,) = _npr_outvars(eqn)
    result, made = _npr_outvars(closed.jaxpr)[0], _npr_eqns(closed.jaxpr)
    got, want = _npr_aval(result), _npr_aval(out)
    if closed.consts or got.shape != want.shape or got.dtype != want.dtype \
            or not made or _npr_outvars(made[-1])[0] is not result:
        return None  # pragma: no cover (traced otherwise)
    names = dict(zip(_npr_invars(closed.jaxpr), [w, x, *var_starts]))
    spliced = [_npr_replace(e, invars=[names.get(u, u) if not _npr_is_literal(u) else u
                                 for u in _npr_invars(e)]) for e in made]
    spliced[-1] = _npr_replace(spliced[-1], outvars=[out])
    return spliced


