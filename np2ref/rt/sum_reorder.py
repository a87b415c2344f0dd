"""npr_sum_for: a loop whose only carried dependence is a `+=` accumulation, summed in another
order (`np2ref.compile(fn, sums="reorder")`; rewrite/sum_reorder.py proves the form).

    for k in range(K):                               def _terms_k(k):
        C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]      return ((npr_get(A)[i, k], npr_get(A)[:i + 1, k]),)
                                             ->      def _sums_k(_sum_k):
                                                         npr_at(C)[i, :i + 1] += alpha * _sum_k[0]
                                                     npr_sum_for(npr_range(K), _loop_k, _terms_k, _sums_k)

Each statement's value is a sum of products; per product, the factors that change with k are
`_terms_k(k)`'s, the others stay in `_sums_k`. npr_sum_for runs `_terms_k` under vmap over every
k of the range, contracts each product's factors over k in one dot_general (a matrix product
where the hand port has one), and adds each statement's total once. NumPy's loop adds the K terms
one at a time, each rounded: this is the same sum in another order, so NOT NumPy's bits; within
K * eps * (|C| + sum |terms|) of them (docs/semantics.md, "Reordered sums"); a different order
may also overflow where NumPy's did not, or the reverse, and a zero's sign may differ.

The loop runs instead (npr_for, exact) when the range is not known at trace time, when a value is
not a float or complex, or when the terms cannot be traced under vmap (a length that changes with
k, a slice this cannot pair). With no trips nothing is added, as in NumPy.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .bounds import _npr_note_range
from .compat import _npr_weak_astype
from .lane_reads import _npr_note_lane
from .loops import _npr_is_concrete, npr_for
from .masked import NprMasked, _npr_masked, _npr_operands
from .refs import _npr_differentiated

NPR_SUM_REORDER = True  # False: npr_sum_for runs the loop (the tests compare the two)


class _NprNotSum(Exception):
    """The terms are not in a form npr_sum_for sums: the loop runs."""


def npr_sum_for(rng, loop, terms, sums):
    """`for k in range(...)` whose body only accumulates (module docstring): `loop(k)` the body as
    npr_for runs it, `terms(k)` the factors that change with k (per product, a tuple), `sums(s)`
    the body's stores with each product's sum over k as s[m]."""
    start, stop, step = rng.start, rng.stop, rng.step
    if not NPR_SUM_REORDER or not all(_npr_is_concrete(v) for v in (start, stop, step)):
        return npr_for(rng, loop)
    ks = range(int(start), int(stop), int(step))
    if not len(ks):
        return None  # no trips: NumPy adds nothing (not even a zero, which would change -0.0)
    try:
        totals = _npr_totals(terms, ks)
    except Exception:  # anything the vmapped trace cannot do: the loop, exact
        return npr_for(rng, loop)
    sums(totals)
    return None


def _npr_totals(terms, ks):
    """Per product of `terms`, the sum over ks of the product of its factors."""
    k0 = _npr_weak_astype(jnp.asarray(ks[0]), jnp.asarray(ks[0]).dtype)
    _npr_note_range(k0, min(ks), max(ks))
    probe = [_npr_pair(p) for p in terms(k0)]  # this trace's lengths and offsets (the stores' own)
    differentiated = _npr_differentiated(probe)
    shapes = []

    def lane(k):
        k = _npr_weak_astype(k, k.dtype)
        _npr_note_range(k, min(ks), max(ks))
        if not differentiated:  # `A[i, k]` a slice of A, not a gather (lane_reads.py)
            _npr_note_lane(k, ks.start, ks.step)
        pairs = [_npr_pair(p) for p in terms(k)]
        shapes.append([_npr_layout(d) for d, _ in pairs])
        return [d for d, _ in pairs]

    data = jax.vmap(lane)(jnp.asarray(np.asarray(ks)))
    if shapes[-1] != [_npr_layout(d) for d, _ in probe]:
        raise _NprNotSum("the terms' layout differs from the probe's")
    out = []
    for factors, (_, meta) in zip(data, probe):
        total = jnp.sum(factors[0], axis=0) if len(factors) == 1 else _npr_contract(*factors)
        out.append(_npr_masked(total, *meta) if meta is not None else total)
    return out


def _npr_pair(product):
    """(the data a product's sum contracts: (x,) or (x, y), the lengths and offsets of a masked
    value or None): the factors but the last multiplied (NumPy's own operators), the last kept
    apart, both laid out as _npr_operands pairs them."""
    *head, last = product
    left = None
    for f in head:
        left = f if left is None else left * f
    values = (last,) if left is None else (left, last)
    for v in values:
        dtype = v.dtype if isinstance(v, NprMasked) else jnp.result_type(v)
        if not jnp.issubdtype(dtype, jnp.inexact):
            raise _NprNotSum("an integer or boolean term: its sum's order is not reordered")
    if not any(isinstance(v, NprMasked) for v in values):
        return tuple(jnp.asarray(v) for v in values), None
    xs, lens, offs = _npr_operands(*values)
    return tuple(xs), (lens, offs)


def _npr_layout(data):
    return tuple((tuple(np.shape(d)), str(jnp.result_type(d))) for d in data)


def _npr_contract(x, y):
    """sum over axis 0 of x * y, the other axes broadcast NumPy's way, as one dot_general."""
    dtype = jnp.result_type(x, y)
    x, y = x.astype(dtype), y.astype(dtype)
    nd = max(x.ndim, y.ndim) - 1
    x = x.reshape(x.shape[:1] + (1,) * (nd + 1 - x.ndim) + x.shape[1:])
    y = y.reshape(y.shape[:1] + (1,) * (nd + 1 - y.ndim) + y.shape[1:])
    sx, sy = x.shape[1:], y.shape[1:]
    batch = [a for a in range(nd) if sx[a] == sy[a]]
    xfree = [a for a in range(nd) if sx[a] != sy[a] and sx[a] != 1]
    yfree = [a for a in range(nd) if sx[a] != sy[a] and sy[a] != 1]
    xs = x.reshape((x.shape[0],) + tuple(sx[a] for a in range(nd) if a in batch or a in xfree))
    ys = y.reshape((y.shape[0],) + tuple(sy[a] for a in range(nd) if a in batch or a in yfree))
    xpos = {a: 1 + p for p, a in enumerate(a for a in range(nd) if a in batch or a in xfree)}
    ypos = {a: 1 + p for p, a in enumerate(a for a in range(nd) if a in batch or a in yfree)}
    dims = (((0,), (0,)), (tuple(xpos[a] for a in batch), tuple(ypos[a] for a in batch)))
    r = lax.dot_general(xs, ys, dims, precision=lax.Precision.HIGHEST, preferred_element_type=dtype)
    order = batch + xfree + yfree  # dot_general's result axes: batch, then x's free, then y's free
    return jnp.transpose(r, np.argsort(order)) if order else r
