"""Products with a slice of run-time length (NprMasked, masked.py) among the operands: matmul, dot,
inner, vdot, outer, einsum. The contracted axes are zero-filled outside the slices, so every
product NumPy does not form is 0 * 0 (the data there may be inf or nan); in lanes, one matrix
product where that is exact (lane_dots.py). NprMasked's `@` is set here, beside the products
it runs."""

import jax.numpy as jnp
import numpy as np

from .compat import _npr_traced
from .core import _npr_above, NprUnsupported
from .lane_dots import _npr_one_product
from .masked import _npr_common_offs, _npr_lengths_equal, _npr_masked, NprMasked
from .np_linalg import npr_np_matmul


def _npr_masked_product(fn, a, b):
    """matmul, dot, inner: the contracted axes zero-filled outside the slices, so that every
    product that NumPy does not form is 0 * 0 (the data there may be inf or nan)."""
    if isinstance(a, NprMasked) and isinstance(b, NprMasked) and a.ndim == 1 and b.ndim == 1:
        _npr_lengths_equal(a.lens[0], b.lens[0])
    if any(isinstance(x, NprMasked) and x.ndim > 2 for x in (a, b)):
        raise NprUnsupported("NPR111", "a product of slices whose lengths are known only at "
                             "run time, of more than 2 dimensions, is not translated")
    ka = -1
    kb = 0 if np.ndim(b.data if isinstance(b, NprMasked) else b) == 1 else -2
    la = a.lens[ka] if isinstance(a, NprMasked) else None
    lb = b.lens[kb] if isinstance(b, NprMasked) else None
    if (la is None) != (lb is None):
        raise NprUnsupported("NPR111", "a product of a slice whose length is known only at run "
                             "time with an array axis of a static length")
    if la is not None and not (isinstance(a, NprMasked) and isinstance(b, NprMasked) and a.ndim == 1 and b.ndim == 1):
        _npr_lengths_equal(la, lb)
    if la is not None:  # in lanes, one matrix product where that is exact (lane_dots.py)
        out = _npr_lane_product(fn, a, b, kb, lambda: _npr_filled_product(fn, a, b, la, ka, kb))
        if out is not None:
            return out
    return _npr_filled_product(fn, a, b, la, ka, kb)


def _npr_lane_product(fn, a, b, kb, filled):
    """The product of two slices whose contracted axes are masked and whose other axes are not,
    in lanes: the left one zero-filled, the right one as it is, where its data is finite and the
    two start at the same place (else `filled()`, both zero-filled); None outside lanes."""
    if not (isinstance(a, NprMasked) and isinstance(b, NprMasked)) or a.data.shape[-1] != b.data.shape[kb] \
            or any(n is not None for n in a.lens[:-1]) or any(n is not None for k, n in enumerate(b.lens) if k != kb % b.ndim):
        return None
    oa, ob = (0 if o is None else o for o in (a.offs[-1], b.offs[kb]))
    same = jnp.equal(oa, ob) if _npr_traced(oa) or _npr_traced(ob) else int(oa) == int(ob)
    if same is False:
        return None
    return _npr_one_product(fn, a.filled(0), b.data, filled, same)


def _npr_filled_product(fn, a, b, la, ka, kb):
    """The product with every contracted element outside the slices zero on both sides (the
    contracted axes must start at the same place, or both go first)."""
    a0, b0 = a, b
    nda, ndb = (np.ndim(x.data if isinstance(x, NprMasked) else x) for x in (a, b))
    _, (a, b) = _npr_common_offs([a, b], lambda x, ax: 'k' if (x is a0 and ax == nda - 1) or (
        x is b0 and ax == kb % ndb) else None)
    xa, xb = _npr_filled_on(a, ka), _npr_filled_on(b, kb)
    if la is not None and xa.shape[ka] != xb.shape[kb]:
        w = max(xa.shape[ka], xb.shape[kb])
        xa = jnp.pad(xa, [(0, 0)] * (xa.ndim - 1) + [(0, w - xa.shape[ka])])
        padb = [(0, 0)] * xb.ndim
        padb[kb] = (0, w - xb.shape[kb])
        xb = jnp.pad(xb, padb)
    return _npr_masked(fn(xa, xb), *_npr_product_axes(a, b, np.ndim(xa), np.ndim(xb)))


def _npr_filled_on(x, axis):
    """x's data, zero outside the slice on `axis` (a product's contracted axis) only: what lies
    outside its other masked axes reaches only the result's elements outside them (covariance's
    `d[:, i] @ d[:, i:M]` in lanes: d itself, one matrix product, not a filled copy per lane)."""
    if not isinstance(x, NprMasked):
        return x
    axis %= x.ndim
    if x.lens[axis] is None:
        return x.data
    return NprMasked(x.data, [n if k == axis else None for k, n in enumerate(x.lens)], x.offs).filled(0)


def _npr_product_axes(a, b, nda, ndb):
    """(lengths, starts) of the axes of a product of a and b (nda, ndb dimensions) the slices keep."""
    rest = (list(a.lens[:-1]) if isinstance(a, NprMasked) else [None] * (nda - 1)) + \
        ([] if ndb == 1 else [b.lens[-1] if isinstance(b, NprMasked) else None])
    offs = (list(a.offs[:-1]) if isinstance(a, NprMasked) else [None] * (nda - 1)) + \
        ([] if ndb == 1 else [b.offs[-1] if isinstance(b, NprMasked) else None])
    return rest, offs


def _npr_masked_outer(fn, a, b):
    """np.outer of slices: the flattened operands' lengths are the result's."""
    if any(isinstance(x, NprMasked) and x.ndim != 1 for x in (a, b)):
        raise NprUnsupported("NPR111", "np.outer of a 2-d slice whose length is known only at "
                             "run time is not translated")
    la = a.lens[0] if isinstance(a, NprMasked) else None
    lb = b.lens[0] if isinstance(b, NprMasked) else None
    oa = a.offs[0] if isinstance(a, NprMasked) else None
    ob = b.offs[0] if isinstance(b, NprMasked) else None
    out = fn(a.data if isinstance(a, NprMasked) else a, b.data if isinstance(b, NprMasked) else b)
    return _npr_masked(out, [la, lb], [oa, ob])


def _npr_masked_einsum(fn, subscripts, *ops):
    """np.einsum with explicit subscripts (`'ij,ij->i'`: a pair loop's squared distances)
    of operands among which slices of run-time length: a masked axis kept in the output is the
    result's (its length, its offset), one summed over is zero-filled outside the slices (every
    product NumPy does not form is 0 * 0). An axis masked in one operand meets the same letter
    masked, or of length 1, in the others: NPR111 otherwise (NumPy's length unknown)."""
    spec = subscripts.replace(" ", "") if isinstance(subscripts, str) else ""
    ins, arrow, out = spec.partition("->")
    letters = ins.split(",")
    if not arrow or "." in spec or len(letters) != len(ops) or \
            any(len(t) != np.ndim(x.data if isinstance(x, NprMasked) else x) for t, x in zip(letters, ops)):
        raise NprUnsupported("NPR111", "np.einsum of a slice whose length is known only at run time "
                             "is translated with explicit subscripts ('ij,ij->i') only")
    which = {id(x): t for x, t in zip(ops, letters)}
    offs, ops = _npr_common_offs(list(ops), lambda x, a: which[id(x)][a])
    lens = {}
    for x, t in zip(ops, letters):
        for a, letter in enumerate(t):
            n = x.lens[a] if isinstance(x, NprMasked) else None
            if n is not None:
                if letter in lens:
                    _npr_lengths_equal(lens[letter], n)
                lens.setdefault(letter, n)
    widths = {letter: set() for letter in lens}
    for x, t in zip(ops, letters):
        for a, letter in enumerate(t):
            if letter in lens:
                masked = isinstance(x, NprMasked) and x.lens[a] is not None
                widths[letter].add(x.data.shape[a] if masked else None)
    if any(None in w or len(w) > 1 for w in widths.values()):
        raise NprUnsupported("NPR111", "np.einsum pairs a slice whose length is known only at run "
                             "time with an axis of a static length")
    datas = [x.filled(0) if isinstance(x, NprMasked) and any(
        n is not None and letter not in out for n, letter in zip(x.lens, t)) else
        (x.data if isinstance(x, NprMasked) else x) for x, t in zip(ops, letters)]
    r = fn(subscripts, *datas)
    return _npr_masked(r, [lens.get(letter) for letter in out], [offs.get(letter) for letter in out])


def _npr_masked_call(name, fn, args):
    """npr_np_dot/inner/outer/vdot with an NprMasked operand."""
    if name == "einsum":
        return _npr_masked_einsum(fn, *args)
    if len(args) != 2:
        raise NprUnsupported("NPR111", f"np.{name} of a slice whose length is known only at run "
                             "time with these arguments is not translated")
    if name == "outer":
        return _npr_masked_outer(fn, *args)
    if name in ("dot", "matmul", "inner", "vdot") and all(np.ndim(x.data if isinstance(x, NprMasked) else x) <= 2
                                                          for x in args):
        if name in ("inner", "vdot") and any(np.ndim(x.data if isinstance(x, NprMasked) else x) != 1 for x in args):
            raise NprUnsupported("NPR111", f"np.{name} of a 2-d slice whose length is known only "
                                 "at run time is not translated")
        return _npr_masked_product(fn, *args)
    raise NprUnsupported("NPR111", f"np.{name} of a slice whose length is known only at run "
                         "time is not translated")


def _npr_matmul(self, other):
    return _npr_masked_product(npr_np_matmul, self, other)


def _npr_rmatmul(self, other):
    return _npr_masked_product(npr_np_matmul, other, self)


# NprMasked's `@`, and the NumPy functions' products (np_linalg.py, a floor below) of slices of
# run-time length
NprMasked.__matmul__, NprMasked.__rmatmul__ = _npr_matmul, _npr_rmatmul
_npr_above.masked_call = _npr_masked_call
