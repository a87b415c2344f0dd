"""Selection names: `v = x[mask]` with a traced boolean mask, kept as an NprSelection (x's values and
the mask, whole) where the rewrite proved v is only reduced, reindexed or stored back, so NumPy's
selection of data-dependent length is never made (rules/mask_store.py, rules/kept.py,
rules/selections.py)."""

import jax.numpy as jnp
import numpy as np

from .compat import _npr_traced
from .core import npr_load, NprUnsupported
from .mask_checks import (
    _npr_check_empty_mask, _npr_check_scalars, _npr_check_slices, _npr_mask_dtype, _npr_whole_value,
    npr_check_whole, NprSelection)
from .masked import NprMasked
from .stores import npr_at
from .views import npr_get, npr_sub
from .windows_more import _npr_mask_fits
from .masks import npr_mask_guard, npr_mask_store


def npr_select(x, mask, slices=0):
    """`x[mask]`: an NprSelection for a traced boolean mask, else the read itself. `slices`:
    the full slices after the mask (`X[y == c, :]`), the same selection where x has the axes
    for them (NumPy's IndexError otherwise)."""
    x, mask = npr_load(x), npr_load(mask)
    _npr_check_slices(x, mask, slices)
    if isinstance(x, NprMasked) or isinstance(mask, NprMasked):  # a slice of run-time length
        if _npr_mask_dtype(mask) == jnp.bool_:
            _npr_mask_fits(mask, x)
            return NprSelection(x, mask)
    elif jnp.asarray(mask).dtype == jnp.bool_ and (_npr_traced(mask) or np.shape(mask) == np.shape(x)[:np.ndim(mask)]):
        return NprSelection(jnp.asarray(x), mask)  # (a concrete one too: a store may take it whole)
    return npr_get(x)[mask]


def npr_keep(x, mask, axis=0):
    """`v = x[:, mask]`, v only reindexed and stored back (rules/kept.py): an NprSelection of
    x's values now and the mask, for a traced boolean mask; else the read itself."""
    mask = npr_load(mask)
    index = (slice(None),) * axis + (mask,)
    if mask is None or isinstance(mask, (slice, int, np.integer, type(Ellipsis))):
        return npr_sub(x, index)  # `col = A[:, j]`: NumPy's view of x, which sees later writes to x
    x = npr_load(x)
    if not (_npr_traced(mask) and jnp.asarray(mask).dtype == jnp.bool_):
        return npr_get(x)[index]
    if jnp.shape(mask) != tuple(jnp.shape(x)[axis:axis + jnp.ndim(mask)]):
        _npr_check_empty_mask(jnp.shape(mask), jnp.shape(x)[axis:])
        raise NprUnsupported("NPR104", "a selection through a mask with an empty axis, kept "
                             "to be stored back, is not translated")
    return NprSelection(jnp.asarray(x), mask, axis)


def npr_reselect(v, index):
    """`v[:, perm]` of a kept selection: the same reindexing of its whole values, which leaves
    the selected axis whole (a full slice there; slices and at most one integer array on the
    other axes: NumPy keeps each axis where it was). Anything else is refused (NPR104)."""
    if not isinstance(v, NprSelection):
        return npr_get(v)[index]
    index = index if isinstance(index, tuple) else (index,)
    whole, arrays = [], 0
    for k, e in enumerate(index):
        if k == v.axis and e == slice(None):
            whole += [slice(None)] * jnp.ndim(v.mask)
        elif isinstance(e, slice) and k != v.axis:
            whole.append(e)
        elif k != v.axis and e is not None and e is not Ellipsis \
                and jnp.ndim(e := jnp.asarray(npr_load(e))) == 1 and e.dtype.kind in "iu":
            whole.append(e)
            arrays += 1
        else:
            arrays = 2
    if arrays > 1 or len(index) > jnp.ndim(v.x) - jnp.ndim(v.mask) + 1:
        raise NprUnsupported("NPR104", "a selection kept to be stored back is reindexed only with "
                             "slices and one integer array beside its selected axis (`v[:, perm]`)")
    return NprSelection(npr_get(v.x)[tuple(whole)], v.mask, v.axis)


def npr_keep_store(y, mask, v, axis=0):
    """`y[:, mask] = v` of a kept selection: y's elements under the mask the selection was made
    with take its values (npr_mask_store on the whole arrays). A different mask, or whole
    shapes that differ (NumPy would pair the selections by position), is refused (NPR104)."""
    mask = npr_load(mask)
    if not isinstance(v, NprSelection):
        npr_at(y)[(slice(None),) * axis + (mask,)] = npr_load(v)
        return
    if v.mask is not mask or v.axis != axis or jnp.shape(v.x) != jnp.shape(npr_load(y)):
        raise NprUnsupported("NPR104", "a selection is stored back only under the mask it was "
                             "made with, into an array of the shape it was selected from")
    npr_mask_store(y, mask, v.x, scalars=(), axis=axis)


def npr_select_whole(values, mask, scalars=(), selections=(), masked=(), read_if_int=False):
    """`w = 1.0 / x[mask]` (`w` a selection name, rules/selections.py): `values` computed on the
    whole arrays in place of the masked reads (`masked`) and selection names (`selections`)
    through `mask`, an NprSelection under it. A mask that is no boolean array is refused
    (NPR104): the whole-array form holds only for a selection; with `read_if_int` the masked
    reads were then NumPy's own (npr_unmask), and `values` is NumPy's value."""
    m = npr_load(mask)
    if read_if_int and _npr_mask_dtype(m) != jnp.bool_:
        return values
    if _npr_mask_dtype(m) != jnp.bool_:
        raise NprUnsupported("NPR104", "an elementwise expression of masked reads kept in a name "
                             "is translated for a boolean mask only")
    _npr_check_scalars(scalars)
    npr_check_whole(m, masked, selections)
    return NprSelection(_npr_whole_value(values), m)


def npr_unselect(v, guard=False):
    """A selection name inside an elementwise expression that is reduced (`np.sum(v ** 2)`):
    its array as a whole (x of `v = x[m]`), where npr_masked_reduce reduces under the mask;
    the selection itself where npr_select made one (a mask known when traced). `guard`: the
    name meets a pole there (`v ** -12`, `1.0 / v`): npr_mask_guard'ed, so that an element the
    mask leaves out gives jax.grad no NaN."""
    if not isinstance(v, NprSelection):
        return v
    return npr_mask_guard(v.x, v.mask) if guard and v.axis == 0 else v.x


def npr_select_values(values, mask, scalars=()):
    """`w = v ** 2` of selection names (rules/mask_store.py): an NprSelection of the values
    computed on the whole arrays, under the selections' mask (npr_selection_mask); the values
    themselves where no selection was made (a mask known when traced)."""
    if mask is None:
        return values
    _npr_check_scalars(scalars)
    return NprSelection(_npr_whole_value(values), mask)
