"""Boolean-mask stores and reads (`a[m] = v`, `a[m] += v`, np.nonzero's indices, one selected
element), and npr_apart (buffers that must not overlap). The masks' other parts: mask_checks.py
(what they check of the pairing of selected elements), mask_selections.py (selection names),
mask_reductions.py (reductions of a selection)."""

import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_check_run
from .casts import _npr_check_weak_int, npr_cast
from .compat import _npr_traced, _npr_weak_astype
from .core import _npr_above, npr_load, NprError, NprUnsupported
from .index import _npr_Idx
from .inplace import npr_ufunc_at
from .masked import NprMasked
from .wrapping import _NPR_IOPS
from .stores import npr_at
from .views import _npr_overlap, npr_get
from .windows_more import _npr_selected_guard, _npr_shape_of
from .mask_checks import _npr_check_empty_mask, _npr_check_scalars, _npr_mask_dtype, npr_check_whole


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


def _npr_at_identity(name, dt):
    """The value `v` for which np.<name>.at(a, i, v) leaves a[i] as it is, bit for bit, in
    dtype dt (x + -0.0 is x, -0.0 included; x - 0.0 likewise; NaN stays NaN), or None."""
    kind = dt.kind
    if kind == "b":
        return {"add": False, "multiply": True, "maximum": False, "minimum": True}.get(name)
    if kind in "iu":
        info = np.iinfo(dt)
        return {"add": 0, "subtract": 0, "multiply": 1, "maximum": info.min, "minimum": info.max}.get(name)
    if kind == "f":
        return {"add": -0.0, "subtract": 0.0, "multiply": 1.0, "maximum": -np.inf, "minimum": np.inf}.get(name)
    if kind == "c":  # (complex maximum/minimum order lexicographically: no identity kept here)
        return {"add": complex(-0.0, -0.0), "subtract": 0j, "multiply": 1 + 0j}.get(name)
    return None


def npr_ufunc_at_masked(name, a, idx, mask, b, paired=False):
    """`np.<name>.at(a, X[m], v)` (rules/ufunc_at.py): idx is X whole and b the value computed
    on whole arrays (`paired`: its masked reads `Y[m]` unmasked, its other leaves checked to be
    scalars), or NumPy's own reads when `m` is an integer index. Under a 1-d boolean mask the
    entries m leaves out go to index 0 with the ufunc's identity, which changes nothing there:
    every selected entry applies in NumPy's order, an out-of-range selected index still raises,
    and an unselected one (out of range, as a binning mask leaves it) is never read."""
    m = npr_load(mask)
    if isinstance(m, tuple) or _npr_mask_dtype(m) != jnp.bool_:
        return npr_ufunc_at(name, a, idx, b)
    ix, b = npr_load(idx), npr_load(b)
    b = b if isinstance(b, (jax.Array, np.ndarray)) else np.asarray(b)  # (a Python scalar: NumPy's array of it)
    rtype = np.result_type(np.dtype(a.dtype), np.dtype(b.dtype))
    if rtype.kind in "fc" and np.dtype(b.dtype).kind in "biu":  # NumPy computes in rtype: the identity
        b = b.astype(rtype)  # must be rtype's (an int 0 is +0.0 there: -0.0 + 0 is 0.0), as b is
    ident = _npr_at_identity(name, np.dtype(b.dtype))
    rest = tuple(a.shape[1:])
    lead = np.ndim(b) - len(rest)  # b's axes beside the index axis: must not pair with it
    if ident is None or np.ndim(m) != 1 or np.shape(ix) != np.shape(m) or not a.shape or a.shape[0] == 0 \
            or not paired and (lead > 1 or lead == 1 and np.shape(b)[0] != 1):
        raise NprUnsupported("NPR107", f"np.{name}.at with a masked index array of this shape or value "
                             "is not translated")
    full = (np.shape(m)[0],) + rest
    keep = jnp.reshape(m, full[:1] + (1,) * len(rest))
    vals = jnp.where(keep, jnp.broadcast_to(b, full), np.asarray(ident, b.dtype))
    return npr_ufunc_at(name, a, jnp.where(m, ix, 0), vals)


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


def npr_mask_trail(x, mask, trail, like, axis=0, like_trail=None):
    """`x[m, d]` read in the value of a store `a[m, d] = ...` (rules/mask_trail.py) or `a[m] =
    ...` (like_trail=0: the integers after a's mask), whole: the view `x[:, d]` the mask selects
    from. It must have the axes of a's view: NumPy pairs the two selections' axes after the
    selected one, the whole views would pair others (NPR104)."""
    m = npr_load(mask)
    view = npr_get(x)[(slice(None),) * (axis + jnp.ndim(m)) + _npr_lead_index(trail)]
    if jnp.ndim(view) != jnp.ndim(npr_load(like)) - (len(trail) if like_trail is None else like_trail):
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
