"""Boolean-mask stores and reads, and npr_apart (buffers that must not overlap)."""

import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_check_run, npr_bounds_ok
from .casts import _npr_check_weak_int, _npr_errstated, npr_cast
from .compat import _npr_traced, _npr_weak_astype
from .core import _npr_above, npr_load, NprError, NprUnsupported
from .index import _npr_Idx
from .masked import NprMasked
from .promotion import _NPR_IOPS
from .stores import npr_at
from .views import _npr_overlap, npr_get, npr_sub
from .windows_more import (
    _npr_mask_fits, _npr_selected, _npr_selected_count, _npr_selected_guard, _npr_shape_of)


def npr_apart(x, *written):
    """Load `x` for a callee that writes `written`: NumPy would let the callee see its own
    writes through `x` if they shared memory, so they must be apart (checked at trace time)."""
    for w in written:
        if _npr_overlap(x, w):
            raise NprError("NPR201", "an argument a helper reads shares memory with one it "
                           "writes; pass a copy")
    return npr_load(x)


_NPR_INDEX_PAIRS = ("a store `a[idx] = f(a[idx], b)` at an index that is not a boolean mask, "
                    "with an array `b` that is not one value, is not translated (b pairs with a[idx] in "
                    "NumPy, with the whole a in the masked store it was planned as)")


def _npr_index_store(a, index, value, op, scalars, read_if_int=False):
    """npr_mask_store at an index tuple (a name bound to `(0, ...)`, `(i, slice(1, 3))`): NumPy's
    store at that index, the value selected from the whole-array one where it was computed so
    (not where its reads were NumPy's own, read_if_int)."""
    if scalars is not None and not read_if_int:
        _npr_check_scalars(scalars, _NPR_INDEX_PAIRS)
        whole = jnp.broadcast_to(jnp.asarray(npr_load(value)), a.shape)
        value = _npr_Idx(tuple(a.shape), index).get(whole)
    proxy = npr_at(a)
    if op is None:
        proxy[index] = value
    else:
        proxy[index] = _NPR_IOPS[op](proxy[index], value)


def npr_mask_store(a, mask, value, op=None, scalars=None, axis=0, lead=(), masked=(), selections=(),
                   read_if_int=False, trail=()):
    """`a[mask] = value` / `a[mask] op= value` with a boolean mask, on whole arrays.

    With `scalars=None`, `value` is what NumPy broadcasts over the selected elements: it must
    have size 1. With `scalars=(...)`, `value` was computed elementwise on whole arrays in
    place of their masked reads; the listed leaves must have size 1 for that to be exact.
    `lead`: integers between the `axis` full slices and the mask (`a[:, i, mask] = ...`), each
    one value (npr_mask_lead): the store is then a masked store into the view `a[:, i]`.
    `masked`: the whole arrays in place of the value's masked reads; `selections`: selection
    names in it (`v = x[mask]`, npr_select), which must have been made through this mask
    (npr_check_whole). `read_if_int`: the value's masked reads are npr_unmask's, NumPy's own
    reads where the mask is no boolean array, so that the value is then NumPy's as it is."""
    if trail:  # `a[m, d] op= v`: a masked store into the view a[:, d] (one value, checked)
        return _npr_trail_store(a, mask, value, op, axis, trail, scalars)
    if isinstance(a, _npr_above.NprWinView):  # a window that moves with the loop variable (win_views.py)
        return _npr_above.win_mask_store(a, mask, value, op, scalars, axis, lead, masked, selections, read_if_int)
    if isinstance(mask, tuple) and not axis and not lead:  # `idx = (0, ...)`, `a[idx] = a[idx] + 1`:
        return _npr_index_store(a, mask, value, op, scalars, read_if_int)  # an index tuple, no mask after all
    m = npr_load(mask)
    if isinstance(m, NprMasked) or isinstance(npr_load(value), NprMasked):
        # (its target would be a slice of that length too: a view with traced bounds, or a name
        # bound to such a slice and written, neither of which is translated)
        raise NprUnsupported("NPR111", "a masked store with a mask or value of a slice whose length "
                             "is known only at run time is not translated")
    if scalars is None and not (_npr_traced(m) and jnp.asarray(m).dtype == jnp.bool_):
        # a mask known when traced, or an integer array after all: NumPy's own store
        index = (slice(None),) * axis + tuple(lead) + (m,)
        proxy = npr_at(a)
        proxy[index] = value if op is None else _NPR_IOPS[op](proxy[index], value)
        return
    if lead:
        index = (slice(None),) * axis + _npr_lead_index(lead)
        view = jax.new_ref(npr_get(a)[index])
        npr_mask_store(view, mask, value, op, scalars, axis, masked=masked, selections=selections,
                       read_if_int=read_if_int)
        npr_at(a)[index] = view[...]
        return
    mask = npr_load(mask)
    value = npr_load(value)
    mask_arr = jnp.asarray(mask)
    index = (slice(None),) * axis + (mask,)
    if mask_arr.dtype == jnp.bool_ and scalars is not None:  # the value was computed on whole arrays
        npr_check_whole(mask, masked, selections, jnp.ndim(a), axis, value)
    if mask_arr.dtype != jnp.bool_:  # an integer index after all: select the same elements
        if scalars is not None and not read_if_int:
            _npr_check_scalars(scalars, _NPR_INDEX_PAIRS)
            value = jnp.broadcast_to(jnp.asarray(value), a.shape)[index]
        proxy = npr_at(a)
        if op is None:
            proxy[index] = value
        else:
            proxy[index] = _NPR_IOPS[op](proxy[index], value)
        return
    for leaf in (scalars or ()):
        if np.size(npr_load(leaf)) != 1:
            raise NprUnsupported("NPR104", "a masked store mixes masked arrays with an "
                                      "unmasked array; write it as a[m] = (expr)[m] on same-shaped arrays")
    if scalars is None and np.size(value) != 1:
        raise NprUnsupported("NPR104", "`a[mask] = values` with a mask known only at run time "
                                  "needs a scalar value or `b[mask]` of a same-shaped array")
    if mask_arr.shape != tuple(a.shape[axis:axis + mask_arr.ndim]):
        _npr_check_empty_mask(mask_arr.shape, a.shape[axis:])
        return  # a mask with an empty axis selects nothing
    full_mask = mask_arr.reshape((1,) * axis + mask_arr.shape + (1,) * (a.ndim - axis - mask_arr.ndim))
    current = a[...]
    if scalars is None:
        _npr_check_weak_int(npr_load(value), current.dtype)  # `u8[m] = i`, i beyond 255: OverflowError
        value = jnp.reshape(jnp.asarray(value), ())
    if op is not None:
        tmp = jax.new_ref(current)
        proxy = npr_at(tmp)
        proxy[...] = _NPR_IOPS[op](proxy[...], jnp.broadcast_to(value, current.shape)
                                   if scalars is not None else value)
        new = tmp[...]
    else:
        # floats into integers: NumPy's cast (x86-64's wraparound; XLA's convert saturates)
        new = npr_cast(jnp.broadcast_to(jnp.asarray(value), current.shape), current.dtype)
    npr_at(a)[...] = jnp.where(full_mask, new, current)


def npr_mask_lead(x, lead, axis=0):
    """`x[:, i, m]` read in a masked store's value, whole: the view `x[:, i]` the mask selects
    from, computed on in place of the selection (rules/mask_store.py)."""
    return npr_get(x)[(slice(None),) * axis + _npr_lead_index(lead)]


def npr_mask_newaxis(x, mask):
    """`x[mask][:, None]` (or `x[mask, None]`) in a value computed on whole arrays: x with a new
    axis after the mask's, where NumPy's selection has it after the selected one. A mask that is
    no boolean array is refused (NPR104)."""
    m, x = npr_load(mask), npr_load(x)
    if _npr_mask_dtype(m) != jnp.bool_:
        raise NprUnsupported("NPR104", "`x[m][:, None]` in a masked store or selection is "
                             "translated for a boolean mask only")
    k = len(_npr_shape_of(m))
    if isinstance(x, NprMasked):  # a slice of run-time length: its lengths and starts kept on its axes
        return NprMasked(jnp.expand_dims(x.data, k), x.lens[:k] + (None,) + x.lens[k:],
                         x.offs[:k] + (None,) + x.offs[k:])
    return jnp.expand_dims(jnp.asarray(x), k)


def npr_mask_guard(x, mask):
    """A masked read computed on whole arrays where a derivative can be infinite (`1.0 /
    r2[m]`, `np.log(x[m])`): x with the elements the mask leaves out replaced by the first
    element it selects. The selected elements are x's own, so every value the store or the
    reduction keeps is NumPy's; the others, which it discards, no longer meet the pole (an
    excluded self-pair's r2 == 0), whose infinite derivative times their zero cotangent made
    jax.grad NaN. A mask that is not a boolean array over x's leading axes leaves x as it is.
    Where x or the mask is a slice of run-time length, an NprMasked aligned with the mask
    (_npr_selected_guard: the elements outside the slices are guarded too)."""
    x, m = npr_load(x), npr_load(mask)
    if isinstance(x, NprMasked) or isinstance(m, NprMasked):
        return _npr_selected_guard(x, m) if _npr_mask_dtype(m) == jnp.bool_ else x
    if jnp.asarray(m).dtype != jnp.bool_ or jnp.ndim(m) == 0 or jnp.shape(x)[:jnp.ndim(m)] != jnp.shape(m):
        return x
    x, m = jnp.asarray(x), jnp.asarray(m)
    if m.size == 0:  # nothing selected, nothing to guard (and no first element to take)
        return x
    flat = jnp.reshape(m, -1)
    rows = jnp.reshape(x, (flat.size,) + x.shape[m.ndim:])
    first = jnp.argmax(flat)
    fill = jnp.where(flat[first], rows[first], jnp.ones_like(rows[first]))
    return jnp.where(jnp.reshape(m, m.shape + (1,) * (x.ndim - m.ndim)), x, fill)


def npr_unmask(x, mask, guard=False):
    """`x[mask]` in a value computed on whole arrays (a masked store's with selection names in
    it, a selection name's binding), `mask` a name that may hold an integer index: x whole for a
    boolean mask (npr_mask_guard'ed with `guard`), else NumPy's read x[mask] itself, which the
    store or the selection (read_if_int) then takes as NumPy's value."""
    m = npr_load(mask)
    if not isinstance(m, tuple) and _npr_mask_dtype(m) == jnp.bool_:
        return npr_mask_guard(x, m) if guard else npr_load(x)
    return npr_get(x)[m]  # (an index tuple too: `idx = (0, ...)`)


def npr_nonzero_mask(m, form=None):
    """`np.nonzero(m)` as an index (`x[np.nonzero(m)]`, rules/nonzero.py): the boolean mask
    `m != 0`, which selects the same elements in the same order (NumPy's `x[b]` is
    `x[b.nonzero()]`). `form`: 'first' for `np.nonzero(m)[0]` bound to an index name, the same
    as a 1-d mask over the first axis (a 2-d m's row numbers repeat: NPR107); 'flat' for
    np.flatnonzero(m), m raveled; 'tuple' for `a[np.where(m), d]` (rules/mask_trail.py), NumPy's
    array of shape (1, k) of a 1-d m's positions: the 1-d mask."""
    m = npr_load(m)
    m = m if isinstance(m, jax.Array) or isinstance(m, np.ndarray) else np.asarray(m)
    if np.ndim(m) == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
                         "instead. If the context of this error is of the form `arr[nonzero(cond)]`, just use "
                         "`arr[cond]`.")
    if form == "flat":
        m = m.reshape(-1)
    elif form == "tuple" and np.ndim(m) != 1:
        raise NprUnsupported("NPR104", f"np.where(m) of a {np.ndim(m)}-d m inside an index tuple "
                             "(`a[np.where(m), d]`): NumPy makes the tuple one integer array of shape "
                             "(m.ndim, k), every coordinate of every nonzero indexing one axis (repeats "
                             "included), which jit cannot compile; index with the mask (`a[m, d]`)", call="np.where")
    elif form == "first" and np.ndim(m) != 1:
        raise NprUnsupported("NPR107", f"np.nonzero(m)[0] of a {np.ndim(m)}-d m (each row's number "
                             "as often as it has nonzeros) has a data-dependent shape, which jit cannot "
                             "compile; index with the mask itself", call="np.nonzero")
    return m if m.dtype == np.bool_ else m != 0


def npr_mask_item(x, mask, k):
    """`x[m][k]` with an integer literal k (`cdf[cdf > 0][0]`, `x[x < t][-1]`): the k-th
    selected element (row, for a mask over x's leading axes), found without making NumPy's
    selection, whose length depends on the data. NumPy's IndexError ('index 0 is out of bounds
    for axis 0 with size 0') when the selection has no k-th element, raised when the call runs
    (never another element in its place). A mask that is no traced boolean array: NumPy's own
    read x[m], then [k]."""
    x, m = npr_load(x), npr_load(mask)
    if isinstance(x, NprMasked) or isinstance(m, NprMasked):
        raise NprUnsupported("NPR107", "an element of a masked read of a slice whose length is known "
                             "only at run time is not translated")
    if not (_npr_traced(m) and _npr_mask_dtype(m) == jnp.bool_):
        return npr_get(npr_get(x)[m])[k]
    x = jnp.asarray(x)
    if m.ndim == 0:
        raise NprUnsupported("NPR107", "an element of x[m] with a 0-d mask m is not translated")
    if m.shape != x.shape[:m.ndim]:
        _npr_check_empty_mask(m.shape, x.shape)  # NumPy's IndexError, or a mask that selects nothing:
        m = jnp.zeros(0, bool)  # no k-th element (_npr_kth_true raises)
    p = _npr_kth_true(m.reshape(-1), k)
    return x.reshape((m.size,) + x.shape[m.ndim:])[p]


def npr_nonzero_item(mask, k, form):
    """`np.nonzero(m)[j][k]` (form j; `np.where(m)[j][k]`, `m.nonzero()[j][k]`),
    `np.flatnonzero(m)[k]` ('flat') and `np.argwhere(m)[k]` ('argwhere'), k an integer literal:
    the position of m's k-th nonzero (C order), an int64 (its coordinates for argwhere), found
    without making NumPy's index arrays, whose length depends on the data (inverse-CDF sampling:
    `np.where(cdf > u)[0][0]`). NumPy's IndexError when there is no k-th nonzero, raised when
    the call runs; a mask known when traced is NumPy's own."""
    index, m = _npr_index_arrays(mask, form)
    if index is not None:
        return index[k]
    p = _npr_kth_true(m.reshape(-1), k)
    if form == "flat":
        return p
    coords = jnp.stack(jnp.unravel_index(p, m.shape)).astype(np.int64)
    return coords if form == "argwhere" else coords[form]


def npr_nonzero_count(mask, form):
    """`len(np.nonzero(m)[j])` (form j; np.where, m.nonzero()), `len(np.flatnonzero(m))`
    ('flat'), `len(np.argwhere(m))` ('argwhere'): the count of m's nonzeros, a Python int (weakly
    typed int64 when traced) as len() gives; NumPy's own for a mask known when traced."""
    index, m = _npr_index_arrays(mask, form)
    if index is not None:
        return len(index)
    return _npr_weak_astype(jnp.sum(m, dtype=np.int64), np.dtype(np.int64))


def _npr_index_arrays(mask, form):
    """(NumPy's own index array of `form`, None) for a mask known when traced; else (None,
    the traced boolean mask m != 0), NumPy's errors raised as its call would raise them."""
    m = npr_load(mask)
    if isinstance(m, NprMasked):
        raise NprUnsupported("NPR107", "np.nonzero of a slice whose length is known only at run time "
                             "is not translated")
    if not _npr_traced(m):
        m = np.asarray(m)
        return (np.argwhere(m) if form == "argwhere" else np.flatnonzero(m) if form == "flat"
                else np.nonzero(m)[form]), None
    if form == "argwhere" and jnp.ndim(m) == 0:
        raise NprUnsupported("NPR107", "np.argwhere of a 0-d array is not translated")
    m = npr_nonzero_mask(m)  # (NumPy's ValueError for a 0-d m)
    if isinstance(form, int) and form >= m.ndim:
        raise IndexError("tuple index out of range")
    return None, m


def _npr_kth_true(flat, k):
    """The position (int64) of the k-th True of the 1-d traced bool array `flat` (k < 0: from
    the end), checked when the call runs: NumPy's IndexError where there is none."""
    message = f"index {k} is out of bounds for axis 0 with size {{}}"
    if flat.size == 0:
        raise IndexError(message.format(0))
    counts = jnp.cumsum(flat, dtype=np.int64)
    count = counts[-1]
    _npr_check_run(count, (lambda c: c <= k) if k >= 0 else (lambda c: c < -k), IndexError, message)
    return jnp.argmax(counts > (k if k >= 0 else count + k)).astype(np.int64)


def _npr_trail_store(a, mask, value, op, axis, trail, scalars):
    """`a[:, m, i, j] = v` (`axis` full slices first): NumPy's selection is that of the view
    `a[:, :, i, j][:, m]`, elements and order alike, when m is a boolean array and each index
    after it one integer (checked: an array there would broadcast against the mask's positions).
    v is one value, or (`scalars`: its other leaves, one value each) computed on the whole views
    of its reads `b[m, d]` (npr_mask_trail). A mask that is no boolean array is NumPy's own
    store, where v is one value; with reads it is refused (NPR104)."""
    m = npr_load(mask)
    if np.dtype(getattr(m, "dtype", None) or np.result_type(m)) != np.bool_:
        if scalars is not None:
            raise NprUnsupported("NPR104", "`a[idx, d] = f(b[idx, d])` with an index that is no boolean "
                                 "mask: translated for a boolean mask only")
        index = (slice(None),) * axis + (m, *trail)
        proxy = npr_at(a)
        proxy[index] = value if op is None else _NPR_IOPS[op](proxy[index], value)
        return
    index = (slice(None),) * (axis + jnp.ndim(m)) + _npr_lead_index(trail)
    view = jax.new_ref(npr_get(a)[index])
    npr_mask_store(view, m, value, op, scalars, axis=axis)
    npr_at(a)[index] = view[...]


def npr_mask_trail(x, mask, trail, like, axis=0):
    """`x[m, d]` read in the value of a store `a[m, d] = ...` (rules/mask_trail.py), whole: the
    view `x[:, d]` the mask selects from. It must have the axes of a's view: NumPy pairs the two
    selections' axes after the selected one, the whole views would pair others (NPR104)."""
    m = npr_load(mask)
    view = npr_get(x)[(slice(None),) * (axis + jnp.ndim(m)) + _npr_lead_index(trail)]
    if jnp.ndim(view) != jnp.ndim(npr_load(like)) - len(trail):
        raise NprUnsupported("NPR104", "`a[m, d] = f(b[m, d])` with a and b of different numbers of axes: "
                             "NumPy pairs the selections' trailing axes; write it with arrays of one shape")
    return view


def _npr_lead_index(lead) -> tuple:
    """The integers before a mask, checked: NumPy pairs one integer with every selected element
    (`a[i, m]` is `a[i][m]`); an array there broadcasts against the mask's positions instead,
    which the whole-array form does not give."""
    out = []
    for k in lead:
        k = npr_load(k)
        if isinstance(k, int) and not isinstance(k, bool):
            out.append(k)
            continue
        dtype = np.dtype(getattr(k, "dtype", None) or np.result_type(k))
        if dtype.kind not in "iu" or np.ndim(k) != 0:
            if np.ndim(k) == 0 and dtype.kind != "b":
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
                                 "and integer or boolean arrays are valid indices")
            raise NprUnsupported("NPR104", "an index before a mask in a masked store must be one "
                                 f"integer (`a[i, m] = ...`); this one has shape {np.shape(k)} and dtype "
                                 f"{dtype}: write the store for each integer")
        out.append(k)
    return tuple(out)


def npr_mask_rank(mask, a, axis):
    """`np.arange(np.count_nonzero(mask))` in `a[mask] = ...`, on whole arrays: each selected
    element's position among the selected ones, in C order (what NumPy's store gives it)."""
    m = jnp.asarray(npr_load(mask))
    if m.dtype != jnp.bool_ or axis + m.ndim != np.ndim(a):
        raise NprUnsupported("NPR031", "np.arange(np.count_nonzero(m)) is translated in "
                                  "`a[m] = ...` only for a boolean mask over a's last axes", call="np.arange")
    return (jnp.cumsum(m.reshape(-1), dtype=jnp.int64) - 1).reshape(m.shape)


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


_NPR_EXTREMES = {"max": "maximum", "min": "minimum", "amax": "maximum", "amin": "minimum"}


class NprSelection:
    """`v = x[mask]` with a traced boolean mask, v only reduced afterwards (the rewrite proves
    it: rules/mask_store.py, selection_names): the values of x and of the mask when v was bound,
    whole; NumPy's selection, of a data-dependent length, is never made."""

    def __init__(self, x, mask, axis=0):
        self.x, self.mask, self.axis = x, mask, axis


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


def npr_masked_reduce(reduction, x, mask=None, scalars=(), axis=None, masked=(), slices=0):
    """`np.sum(x[mask])`, `x[mask].max()`, `np.any(x[mask])`... with a boolean mask: the same
    reduction over the selected elements, without materialising the data-dependent selection.
    max/min of an empty selection raise NumPy's ValueError (when the program runs, for a traced
    mask); mean of an empty one is nan, with NumPy's RuntimeWarnings (issued on the host when
    the compiled call runs: _npr_warn_empty_mean). `axis`: 0 where a 1-d mask selects rows
    (`X[labels == k].mean(axis=0)`: the selection's axis reduced away, a static shape).
    `slices`: full slices after the mask (`X[m, :]`, npr_select)."""
    if mask is not None:
        _npr_check_slices(npr_load(x), npr_load(mask), slices)
        _npr_check_scalars(scalars)
        if masked and _npr_mask_dtype(npr_load(mask)) == jnp.bool_:
            npr_check_whole(mask, masked)
    if mask is None:  # a selection name (npr_select), or an expression of selections already made: whole
        if isinstance(x, NprMasked):  # every element of a slice of run-time length
            x, mask = x, x._same(jnp.ones(x.data.shape, bool))
        elif not isinstance(x, NprSelection) and reduction in ("len", "size"):
            return len(npr_load(x)) if reduction == "len" else int(np.size(npr_load(x)))
        else:
            x, mask = (x.x, x.mask) if isinstance(x, NprSelection) else (x, np.ones(np.shape(x), bool))
    x, mask = npr_load(x), npr_load(mask)
    if isinstance(x, NprMasked) or isinstance(mask, NprMasked):
        return _npr_sliced_reduce(reduction, x, mask, axis)
    return _npr_reduce_selection(reduction, jnp.asarray(x), mask, axis)


def _npr_sliced_reduce(reduction, x, mask, axis):
    """npr_masked_reduce where x or the mask is a slice of run-time length (a pair loop's
    `np.sum(1.0 / r2[r2 < rc2])` over `pos[i + 1:]`): the same reduction over NumPy's selection,
    the slices' data under the mask and their own extent (_npr_selected, windows_more.py).
    Along axis 0 only where the rows it leaves have a static shape."""
    if _npr_mask_dtype(mask) != jnp.bool_:
        raise NprUnsupported("NPR111", "a reduction of a slice whose length is known only at run "
                             "time, indexed with integers, is not translated")
    if reduction in ("len", "size"):
        return _npr_selected_count(x, mask, reduction)
    if axis is not None and (len(_npr_shape_of(mask)) != 1 or len(_npr_shape_of(x)) < 2 or axis not in (
            0, -len(_npr_shape_of(x))) or isinstance(x, NprMasked) and any(n is not None for n in x.lens[1:])):
        raise NprUnsupported("NPR111", f"a reduction along axis {axis} of a masked read of a slice "
                             "whose length is known only at run time is not translated")
    data, selected, _, _ = _npr_selected(x, mask)
    return _npr_reduce_selection(reduction, data, selected, axis, rows=True)


def _npr_reduce_selection(reduction, x, mask, axis, rows=False):
    """npr_masked_reduce's reduction of x[mask], x a whole array (`rows`: a mask of x's shape,
    made by _npr_selected, which selects whole rows where `axis` is 0)."""
    m = jnp.asarray(mask)
    if reduction in ("len", "size"):  # `len(x[m])`, `x[m].size`: the selection's length, a Python int
        if m.dtype != jnp.bool_:
            return getattr(npr_get(x)[mask], "size") if reduction == "size" else len(npr_get(x)[mask])
        if m.shape != x.shape[:m.ndim]:
            _npr_check_empty_mask(m.shape, x.shape)
            return 0
        count = jnp.sum(m, dtype=np.int64) * (int(np.prod(x.shape[m.ndim:])) if reduction == "size" else 1)
        return _npr_weak_astype(count, np.dtype(np.int64))
    extreme = _NPR_EXTREMES.get(reduction)
    if extreme is not None and x.dtype.kind == "c":
        raise NprUnsupported("NPR107", f"{reduction} of a masked read of complex values is not "
                             f"translated (NumPy orders complex numbers lexicographically)")
    name = {"amax": "max", "amin": "min"}.get(reduction, reduction)
    kw = {"dtype": getattr(np, name)(np.zeros(1, x.dtype)).dtype} if name in ("sum", "mean", "prod") else {}
    if axis is not None:
        kw["axis"] = axis
    if m.dtype != jnp.bool_:  # an integer index (or a concrete one): the read itself
        selected = jnp.asarray(npr_get(x)[mask])
        if name in ("std", "var") and axis is None:
            return _npr_masked_var(selected, jnp.ones(selected.shape, bool), name)
        return getattr(jnp, name)(selected, **kw)
    if axis is not None and m.ndim == x.ndim and axis in (0, -1) and not rows:
        axis = None  # (`x[m].sum(axis=0)` of a 1-d selection: its one axis, the whole reduction)
        kw.pop("axis")
    if axis is not None and not rows and (m.ndim != 1 or x.ndim < 2 or axis not in (0, -x.ndim) or name == "median"):
        raise NprUnsupported("NPR107", f"{name} of a masked read along axis {axis} is not translated "
                             "(only axis 0 of rows selected by a 1-d mask has a static shape)")
    if m.shape != x.shape[:m.ndim]:
        _npr_check_empty_mask(m.shape, x.shape)
        m = jnp.zeros(x.shape, bool)  # a mask with an empty axis selects nothing
    else:
        m = jnp.broadcast_to(m.reshape(m.shape + (1,) * (x.ndim - m.ndim)), x.shape)
    if name == "count_nonzero":  # (NumPy's int64, an array along an axis)
        return jnp.sum((x != 0) & m, axis=axis, dtype=np.int64)
    if name in ("std", "var"):
        return _npr_masked_var(x, m, name, axis)
    if name == "median":
        return _npr_masked_median(x, m)
    if name == "mean":  # along axis 0: NumPy's warnings from an empty array of x's other axes
        _npr_warn_empty_mean(jnp.sum(m) == 0, x.dtype, np.mean if axis is None else
                             lambda e: np.mean(e.reshape((0,) + x.shape[1:]), axis=0))
    if name in ("argmax", "argmin"):
        return _npr_masked_arg_extreme(x, m, name, axis)
    if extreme is not None:
        _npr_check_nonempty(m, f"zero-size array to reduction operation {extreme} which has no identity")
        kw["initial"] = _npr_identity(name, x.dtype)
    return getattr(jnp, name)(x, where=m, **kw)


def _npr_check_nonempty(m, message):
    """NumPy's ValueError(message) where the mask selects nothing: now for a concrete mask,
    when the call runs for a traced one."""
    count = jnp.sum(m)
    if not _npr_traced(count):
        if int(count) == 0:
            raise ValueError(message)
    else:
        _npr_check_run(count, lambda c: c == 0, ValueError, (message,))


def _npr_masked_arg_extreme(x, m, name, axis):
    """`x[m].argmax()` / argmin (no axis): the position, in the selection's C order, of its
    first extreme (its first NaN where it holds one, as NumPy's argmax), an int64; NumPy's
    ValueError for an empty selection. `m` has x's shape."""
    if axis is not None or x.dtype.kind == "c":
        raise NprUnsupported("NPR107", f"{name} of a masked read along an axis, or of complex values, "
                             "is not translated")
    _npr_check_nonempty(m, f"attempt to get {name} of an empty sequence")
    xs, ms = x.reshape(-1), m.reshape(-1)
    extreme = "max" if name == "argmax" else "min"
    value = getattr(jnp, extreme)(xs, where=ms, initial=_npr_identity(extreme, x.dtype))
    hit = ms & (xs == value)
    if x.dtype.kind == "f":
        nan = ms & jnp.isnan(xs)
        hit = jnp.where(jnp.any(nan), nan, hit)
    return jnp.cumsum(ms, dtype=np.int64)[jnp.argmax(hit)] - 1


def _npr_masked_var(x, m, name, axis=None):
    """np.var / np.std of x[m] (ddof=0) as NumPy's _var computes it: the mean (the sum over
    the count, divided in float64 and rounded to the dtype: NumPy divides by an intp count),
    the squared deviations summed, over the count again. Integers and bools in float64.
    `axis`: 0 where a 1-d mask selects rows (`Xc.var(axis=0)`, naive Bayes), m then x's shape:
    the columns' spreads, nan with NumPy's warnings for an empty selection."""
    dtype = np.dtype(np.float64) if x.dtype.kind in "biu" else np.dtype(x.dtype)
    if dtype not in (np.float32, np.float64):
        raise NprUnsupported("NPR107", f"{name} of a masked read of {x.dtype} values is not translated")
    count = jnp.sum(m, axis=axis, dtype=np.int64, keepdims=axis is not None)
    _npr_warn_empty_mean(jnp.sum(m) == 0, x.dtype, np.var if axis is None else
                         lambda e: np.var(e.reshape((0,) + x.shape[1:]), axis=0))
    x = x.astype(dtype)
    mean = (jnp.sum(x, axis=axis, where=m, dtype=dtype, keepdims=axis is not None).astype(np.float64)
            / count).astype(dtype)
    var = (jnp.sum(jnp.square(x - mean), axis=axis, where=m, dtype=dtype, keepdims=axis is not None)
           .astype(np.float64) / count).astype(dtype)
    if axis is not None:
        var = var.reshape(x.shape[1:])
    return jnp.sqrt(var) if name == "std" else var


def _npr_masked_median(x, m):
    """np.median of x[m] as NumPy's _median takes it: the middle element of the sorted
    selection, or the mean of the middle two ((a + b) / 2, in float64 for integers); nan when a
    selected value is nan, and for an empty selection (with NumPy's warnings)."""
    if x.dtype.kind not in "biuf":
        raise NprUnsupported("NPR107", f"median of a masked read of {x.dtype} values is not translated")
    dtype = np.dtype(np.float64) if x.dtype.kind in "biu" else np.dtype(x.dtype)
    count = jnp.sum(m, dtype=np.int64)
    _npr_warn_empty_mean(count == 0, x.dtype, np.median)
    x = x.astype(dtype).reshape(-1)
    m = m.reshape(-1)
    ordered = jnp.sort(jnp.where(m, x, jnp.inf))  # the selection first (nan after inf)
    lo, hi = ordered[jnp.maximum((count - 1) // 2, 0)], ordered[jnp.minimum(count // 2, x.size - 1)]
    middle = jnp.where(count % 2 == 1, lo, (lo + hi) / dtype.type(2))
    return jnp.where((count == 0) | jnp.any(jnp.isnan(x) & m), dtype.type(np.nan), middle)


def _npr_warn_empty_mean(empty, dtype, reduction=np.mean):
    """NumPy's warnings for the mean of an empty selection ('Mean of empty slice', then 'invalid
    value encountered in scalar divide'): NumPy's own, from np.mean of an empty array of the
    same dtype, issued now (a concrete mask) or by a host callback when the compiled call runs
    and the selection is empty (unless a run-time check failed before: NumPy raised there)."""
    def warn(flag, dtype=np.dtype(dtype)):
        if np.any(flag):
            reduction(np.empty(0, dtype))
    warn = _npr_errstated(warn)
    if not _npr_traced(empty):
        warn(empty)
        return
    jax.debug.callback(warn, empty & npr_bounds_ok())


def _npr_identity(name, dtype):
    """The value a max (min) over where= starts from: never the result when something is selected."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return name == "min"
    if dtype.kind == "f":
        return -np.inf if name == "max" else np.inf
    info = np.iinfo(dtype)
    return dtype.type(info.min if name == "max" else info.max)


