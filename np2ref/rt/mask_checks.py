"""What a boolean-mask store, selection or reduction checks before it computes on whole arrays in
place of NumPy's data-dependent selections: that the selected elements pair as NumPy pairs them
(one mask, arrays of one shape, leaves that hold one value), NumPy's IndexError for a mask of
another shape, and NprSelection, the value a selection name holds (mask_selections.py)."""

import jax.numpy as jnp
import numpy as np

from .core import npr_load, NprUnsupported
from .masked import NprMasked
from .windows_more import _npr_mask_fits, _npr_shape_of


def _npr_check_empty_mask(mask_shape, shape):
    """NumPy's check of a boolean index against the axes it covers: each size must match,
    except that a mask with a zero-length axis may differ there (it selects nothing)."""
    for d, (m, n) in enumerate(zip(mask_shape, shape)):
        if m != n and m != 0:
            raise IndexError(f"boolean index did not match indexed array along axis {d}; size of "
                             f"axis is {n} but size of corresponding boolean axis is {m}")
    if len(mask_shape) > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, but "
                         f"{len(mask_shape)} were indexed")
    if 0 not in mask_shape:
        raise IndexError("boolean index did not match indexed array")


class NprSelection:
    """`v = x[mask]` with a traced boolean mask, v only reduced afterwards (the rewrite proves
    it: rules/mask_store.py, selection_names): the values of x and of the mask when v was bound,
    whole; NumPy's selection, of a data-dependent length, is never made."""

    def __init__(self, x, mask, axis=0):
        self.x, self.mask, self.axis = x, mask, axis


def npr_check_whole(mask, masked=(), selections=(), ndim=None, axis=0, value=None):
    """That values computed on whole arrays in place of NumPy's selections through `mask` pair
    their elements as the selections do. Each selection name must have been made through this
    very mask (npr_select keeps it), and each whole array (a masked read's `x`, a selection's
    values) must have as many axes as the others (and as a store's target, `ndim`, and its whole
    `value`; the mask from its `axis` on): NumPy aligns the selected axis of each, while the
    whole arrays would align the mask's axes with another array's trailing ones. Anything else
    is refused (NPR104). Where the mask or an array is a slice of run-time length (NprMasked), its
    axes are checked as _npr_selected pairs them (_npr_mask_fits)."""
    raw = npr_load(mask)
    arrays = [npr_load(x) for x in masked] + [v.x for v in selections if isinstance(v, NprSelection)]
    sliced = any(isinstance(x, NprMasked) for x in [raw, value] + arrays)
    shape = _npr_shape_of(raw)
    for v in selections:
        if not isinstance(v, NprSelection) or v.mask is not raw or v.axis != axis \
                or not sliced and v.x.shape[axis:axis + len(shape)] != shape:
            raise NprUnsupported("NPR104", "a selection (`v = x[m]`) is used in a masked store or "
                                 "selection under another mask, or as NumPy's selection itself: store "
                                 "under the mask it was made with")
    whole = [_npr_shape_of(x) for x in arrays]
    for x in arrays:
        if sliced:
            _npr_mask_fits(raw, x, axis)
        elif jnp.shape(x)[axis:axis + len(shape)] != shape:  # NumPy's IndexError for a mask of another shape
            _npr_check_empty_mask(shape, jnp.shape(x)[axis:])
            return  # a mask with an empty axis: it selects nothing (the caller's own case)
    ndims = {len(s) for s in whole} | ({ndim} if ndim is not None else set())
    if value is not None:
        whole.append(_npr_shape_of(value))
        ndims.add(len(_npr_shape_of(value)))
    if len(ndims) > 1:
        raise NprUnsupported("NPR104", "masked reads of arrays with different numbers of axes "
                             f"({', '.join(str(s) for s in whole)} under a mask of shape {shape}"
                             + (f", stored into an array of {ndim} axes" if ndim is not None else "")
                             + "): NumPy pairs the selected elements along the selection's one axis, "
                             "which the whole arrays do not; index the trailing axes the same way "
                             "(`r2[m][:, None]` beside `d[m]` of a 2-d d)")


def _npr_mask_dtype(m):
    """The dtype of a mask or index (the data's, for a slice of run-time length)."""
    return (m.data if isinstance(m, NprMasked) else jnp.asarray(m)).dtype


def _npr_whole_value(values):
    """A selection's values computed on whole arrays: an array, or a slice of run-time length."""
    return values if isinstance(values, NprMasked) else jnp.asarray(values)


def _npr_same_whole(a, b):
    """Whether two selections' whole values have one shape: the same static axes, and a slice's
    masked axis where the other has one (their lengths are compared where they combine)."""
    sa, sb = _npr_shape_of(a), _npr_shape_of(b)
    la = a.lens if isinstance(a, NprMasked) else (None,) * len(sa)
    lb = b.lens if isinstance(b, NprMasked) else (None,) * len(sb)
    return len(sa) == len(sb) and all((p is None) == (q is None) and (p is not None or m == n)
                                      for m, n, p, q in zip(sa, sb, la, lb))


_NPR_LEAF_PAIRS = ("NPR104", "an array beside masked reads (`b` in `a[m] = a[m] + b`, `np.sum(x[m] * b)`, "
                   "`v = x[m] * b`) pairs with the selected elements in NumPy, and with the whole arrays in the "
                   "translation, which computes on them in place of the selections",
                   "give b the shape of the arrays and select it under the same mask, `a[m] = a[m] + b[m]`, or "
                   "write `np.where(m, a + b, a)`")


def npr_mask_leaf(b, mask=True, as_read=False):
    """A leaf of a value computed on whole arrays in place of masked reads (`b` of
    `a[m] = a[m] + b`, of `np.sum(x[m] * b)`, of `w = v * b` with v = x[m]): b itself where it
    holds one value (it pairs with every selected element, in NumPy as on the whole arrays),
    where no selection was made (`mask` None: npr_selection_mask of NumPy's own arrays), or
    where the masked reads were NumPy's own (`as_read`, and `mask` no boolean array: npr_unmask
    under an integer index). Anything else is refused (NPR104) before the whole-array
    arithmetic meets it: NumPy pairs b with the selection, the whole arrays would pair it with
    themselves (a raw broadcasting error, or another pairing)."""
    value = npr_load(b)
    if not isinstance(value, (NprSelection, NprMasked)) and np.size(value) == 1:
        return b
    m = npr_load(mask)
    if m is None or as_read and (isinstance(m, tuple) or _npr_mask_dtype(m) != jnp.bool_):
        return b
    raise NprUnsupported(*_NPR_LEAF_PAIRS)


def _npr_check_scalars(scalars, message="a reduction of a masked read mixes it with an unmasked array; "
                       "write (expr)[m] on same-shaped arrays"):
    """NPR104 unless each leaf computed beside whole arrays (in place of their masked reads)
    holds one value: an array would pair with the whole array, not with the selection."""
    for leaf in scalars:
        if isinstance(leaf, (NprSelection, NprMasked)) or np.size(npr_load(leaf)) != 1:
            raise NprUnsupported("NPR104", message)


def npr_selection_mask(*selections):
    """The one mask of the selection names in a reduced elementwise expression, or None where
    none is a traced selection (they are NumPy's plain arrays). NumPy pairs the selected
    elements by position: only the same mask over arrays of one shape pairs them as the whole
    arrays do, so anything else is refused (NPR104)."""
    made = [isinstance(v, NprSelection) for v in selections]
    if not any(made):
        return None
    first = selections[0]
    if not all(made) or any(v.mask is not first.mask or not _npr_same_whole(v.x, first.x) for v in selections[1:]):
        raise NprUnsupported("NPR104", "a reduced expression combines selections made through "
                             "different masks (or of arrays of different shapes): their elements pair "
                             "by position in NumPy; select once from one expression, (x * y)[m]")
    return first.mask


def _npr_check_slices(x, mask, slices):
    """NumPy's IndexError for `x[m, :]` where x has too few axes for the mask and the slices."""
    if slices and not isinstance(mask, tuple):
        wanted = len(_npr_shape_of(mask)) + slices
        if len(_npr_shape_of(x)) < wanted:
            raise IndexError(f"too many indices for array: array is {len(_npr_shape_of(x))}-dimensional, "
                             f"but {wanted} were indexed")
