"""NprView and the loads: npr_value, npr_get, npr_sub, views of Refs (transpose, reshape, ravel),
and whether two arrays overlap. Python's int(), float(), bool() of a loaded value: conversions.py."""

import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_check_bounds, _npr_index_wide
from .compat import _npr_producer, _npr_traced, _npr_Tracer
from .core import (
    _npr_above, _npr_dummy, _npr_has_jax, _npr_isbool, _npr_py_like, _npr_pyreturned, _npr_state, _NprLazy,
    npr_load, NprUnsupported)
from .index import _npr_Idx, _npr_within
from .lane_reads import _npr_lane_read
from .lowering import _npr_LOWERING, _npr_last_store, _npr_region_value, _npr_TKey


def _npr_step(s, val):
    kind, arg = s
    return arg.get(val) if kind == 's' else val.reshape(arg) if kind == 'r' else jnp.transpose(val, arg)


class NprView(_NprLazy):
    """A NumPy view of a jax.Ref: a base Ref and the steps (basic index, transpose, reshape)
    that lead from it. Reads load the base now; stores land in the base. `_d` is a zero-filled
    uint8 stand-in with the view's real strides, so NumPy itself decides view or copy."""
    __slots__ = ('base', 'steps', '_d')

    def __init__(self, base, steps=(), d=None):
        self.base, self.steps = base, tuple(steps)
        self._d = np.zeros(base.size, np.uint8).reshape(base.shape) if d is None else d

    shape = property(lambda self: self._d.shape)
    ndim = property(lambda self: self._d.ndim)
    size = property(lambda self: self._d.size)
    dtype = property(lambda self: self.base.dtype)
    T = property(lambda self: npr_transpose(self))

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __getitem__(self, idx):  # the current value, indexed with jnp's rules (bounds checked)
        return npr_get(self)[idx]

    def _npr_load(self):
        val = self.base[...]
        for s in self.steps:
            val = _npr_step(s, val)
        return val

    def __repr__(self):
        return f"NprView(shape={self.shape}, dtype={self.dtype}, steps={''.join(s[0] for s in self.steps)})"


def _npr_view(x):
    return x if isinstance(x, NprView) else NprView(x) if isinstance(x, jax.Ref) else None


def _npr_derive(x, step, d):
    return NprView(x.base, x.steps + (step,), d)


# ---- loads and views ----------------------------------------------------------------------

def npr_element(x, what):
    """A value put into a container (`vals.append(x[i])`) read from an array that is written
    later: a scalar is a copy, in NumPy as here; a row would be a view NumPy's container keeps
    seeing writes through (NPR207)."""
    if jnp.ndim(x) != 0:
        raise NprUnsupported("NPR207", f"{what} puts a view of an array that is written into a "
                             "container: NumPy's container sees every later write through it; put a "
                             "copy (`.copy()`) in the container if the values at this point are meant")
    return x


def npr_scalar_read(x, what, *index):
    """`m = x[i, j]` of an array that is written, `m` read as a value (rewrite: analysis/aliases.py
    _element_reads): exact when the read is NumPy's element, a scalar copy, or an advanced
    index's copy (an array among `index`, the names in the index); with axes left from basic
    indices, or through an Ellipsis, NumPy binds a view of x that later writes show through, so
    that is refused."""
    parts = [p for i in index for p in (i if isinstance(i, tuple) else (i,))]
    copied = any(isinstance(p, list) or jnp.ndim(p) > 0 for p in parts
                 if p is not None and p is not Ellipsis and not isinstance(p, slice))
    if not copied and (jnp.ndim(x) != 0 or any(p is Ellipsis for p in parts)):
        raise NprUnsupported("NPR205", f"`{what}` has axes left here, so NumPy binds a view of an "
                             "array that is written, which later writes show through; index every axis, "
                             "or bind a copy (`.copy()`) if the values at this point are meant")
    return x


def npr_unpack(s, n):
    """`u, v = s` where the storage of `s` is written: the items of a 1-D array are scalars,
    copies in NumPy too; rows of a 2-D array are views NumPy's `u` and `v` see and make writes
    through (NPR205). A Python tuple or list is unpacked as it is."""
    s = npr_load(s)
    if not isinstance(s, (jax.Array, np.ndarray)):
        return s
    if jnp.ndim(s) > 1:
        raise NprUnsupported("NPR205", "unpacks the rows of an array that is written: NumPy's "
                             "rows are views that see (and make) writes, where these would be copies; "
                             f"index it instead (`{', '.join(f's[{k}]' for k in range(n))}` is "
                             "translated as views)")
    if jnp.ndim(s) == 0:
        raise TypeError("iteration over a 0-d array")
    if s.shape[0] != n:
        raise ValueError(f"too many values to unpack (expected {n})" if s.shape[0] > n else
                         f"not enough values to unpack (expected {n}, got {s.shape[0]})")
    return tuple(s[k] for k in range(n))


def npr_own(x, scalar=False, held=None):
    """x itself if it is a Ref or NprView (aliasing kept), else a new Ref holding x.
    `scalar`: x is arithmetic bound to a name that `op=` may rebind (`dt = t_end - t`, then
    `dt *= 0.5`): a 0-d result is NumPy's scalar there, which `op=` rebinds, so it stays a value.
    None (a helper that returns nothing, or falls through its loop of `return`s) stays None: a
    write into it raises Python's TypeError there (npr_at), as in NumPy; a name never written
    through is just None (`r = h(a)` where h may return `a`).
    `held`: x is an object's attribute (`u = sim.u`), which a later write reaches in NumPy when it
    is an array: refused (a new Ref would leave the object's array as it was); a number is a value."""
    if x is None:
        return None
    if isinstance(x, (jax.Ref, NprView, _npr_above.NprWinView)):  # (`r = np.add(.., out=u[i:i + k])`)
        return x
    if held is not None and isinstance(x, (np.ndarray, jax.Array)):
        raise NprUnsupported(
            "NPR205", f"cannot translate a write into `{held}`, an array held by an object (bound to a name "
            "that is written): np2ref follows arrays through parameters and names, not through attributes; pass "
            f"the array itself as a parameter (`step({held}, ...)`)")
    if scalar and jnp.ndim(x) == 0 or _npr_pyreturned(x) or isinstance(x, jax.Array) and x.ndim == 0 \
            and not _npr_made0(x) and _npr_loaded_from(x) is x:
        return x  # (a helper's Python number, `rate` of `s, rate = chain(...)`; a traced Python float a
        # helper's `p *= 2` rebound and returned, `s = scale(t)`; NumPy's scalar a helper made, `p += 1` of
        # an np.float64 passed, `np.zeros(()) + a[0]`: a value, which NumPy's `op=` rebinds (a Ref took it
        # for a 0-d array: isinstance() said ndarray, `s = r; r += 1` wrote s). A 0-d array an array maker
        # made is noted (_npr_made0), one loaded from a Ref was that Ref's: their own Ref, as before)
    if isinstance(x, tuple):  # `r = h(a)`, h returning `(x, i)` with x an array it writes
        raise NprUnsupported(
            "NPR207", "a tuple returned by a function (`r = h(a)`, h returning `(x, i)` with x an array "
            "that is written) is bound to a name: containers of written arrays are not translated; return a "
            "copy (`return x.copy(), i`) or the values the caller needs")
    if isinstance(x, (list, dict)):  # `x = state.copy()`, state a list: its arrays are the caller's
        raise NprUnsupported(
            "NPR207", f"a Python {type(x).__name__} is written through (`x = state.copy()` or "
            "`dict(state)`, then `x[k] += v`): in NumPy the writes reach the arrays it holds, which np2ref does not "
            "translate; copy the arrays themselves (`x = [a.copy() for a in state]`) or pass each "
            "array as its own argument")
    return jax.new_ref(jnp.asarray(x))


def _npr_made0(x):
    """Whether an array maker made 0-d `x` (np.asarray(2.0): weakly typed, NumPy's 0-d array)."""
    noted = _npr_state.get("pyreturn", {}).get(id(x))
    return noted is not None and noted[0] is x and noted[1] is np.array


def npr_share(x):
    """`prev = total` of a name born a Python number and updated by `op=` (`total = 0.0` ...
    `total += a[i]`): NumPy's total is a scalar while it is 0-d, immutable, so prev holds its
    value and a later `total += v` (which rebinds it) does not reach prev; once an `op=` made
    it an array (`t += a[0]` of a 2-d a), prev shares it and sees its in-place writes."""
    if isinstance(x, jax.Ref) and jnp.ndim(x[...]) == 0:
        return x[...]
    return x


def npr_returned(value, same=None, items=None):
    """`x = f(x)` (`same` is x) or `e, x = f(x)` (`items`: per item, the object it returns as
    itself, or None: the items returned) where f returns its argument as itself (analysis/
    identity.py): the statement binds nothing but the other items, which are returned (one: as
    it is); an item given as Ellipsis is a parameter the callee only reads, passed loaded. A parameter f `op=`s is returned as itself when it holds an array (in place); a
    number is rebound there, which the statement would lose: refused (NPR203)."""
    if items is None:
        _npr_same(value, same)
        return None
    if not isinstance(value, tuple) or len(value) != len(items):
        raise NprUnsupported("NPR203", f"a helper returned {type(value).__name__} where every path "
                             f"of it returns a tuple of {len(items)} items")
    for v, s in zip(value, items):
        if s is not None and s is not Ellipsis:  # (Ellipsis: an item the callee only reads, passed loaded)
            _npr_same(v, s)
    kept = tuple(v for v, s in zip(value, items) if s is None)
    return kept[0] if len(kept) == 1 else kept


def _npr_same(v, x) -> None:
    if v is not x:
        raise NprUnsupported("NPR203", "a helper returned a new object where it returns its argument "
                             "itself when given an array (`p op= v; return p` of a number, which `op=` "
                             "rebinds): the caller's name would not be rebound; pass an array "
                             "(`np.asarray(x)`), or bind the result to another name")


def npr_value(tree):
    """npr_load over tuples, lists and dicts (for return values: a module function's call that
    may return one of its Refs). Inside a trace each Ref or view loaded is noted by the value's
    identity ("loads"): the helper returned that very array in NumPy (`return out`), so where the
    value reaches the compiled function's return, it is the caller's own array (jit.py)."""
    if isinstance(tree, (tuple, list)):
        items = [npr_value(x) for x in tree]
        if all(a is b for a, b in zip(items, tree)):  # nothing loaded: the very list (a helper's
            return tree  # `return lst`, appended to by the caller, is the caller's list in NumPy)
        return type(tree)(*items) if hasattr(tree, "_fields") else type(tree)(items)  # a namedtuple
    if isinstance(tree, dict):
        items = {k: npr_value(x) for k, x in tree.items()}
        return tree if all(items[k] is x for k, x in tree.items()) else items
    value = npr_load(tree)
    if value is not tree and _npr_state.depth and isinstance(tree, (jax.Ref, NprView)):
        _npr_state.setdefault("loads", {})[id(value)] = (value, tree)  # (value kept: its id stays its own)
        noted = _npr_state.get("pyreturn", {})
        if noted.get(("array0", id(tree))) is tree:  # a 0-d array made of a scalar (ops.npr_asarray)
            noted[id(value)] = (value, np.array)
    return value


def _npr_loaded_from(leaf):
    """The Ref or view npr_value loaded `leaf` from in this trace, else leaf itself."""
    got = _npr_state.get("loads", {}).get(id(leaf))
    return got[1] if got is not None and got[0] is leaf else leaf


def _npr_numpy_scalar(x) -> bool:
    """Whether x is a NumPy scalar in NumPy's program: a 0-d value, not weakly typed (a Python
    number), not a Ref or view, not noted a 0-d array (np_dtypes._npr_np_kind0: 'scalar')."""
    if isinstance(x, np.generic):
        return True
    noted = _npr_state.get("pyreturn", {})
    return isinstance(x, jax.Array) and x.ndim == 0 and not _npr_py_like(x) and not _npr_made0(x) \
        and noted.get(("open", id(x))) is not x


def _npr_array0_ref(value):
    """A new 0-d array NumPy makes of a scalar (`np.asarray(s)`, `s[...]`) bound to a name that is
    written: a Ref of its own (never written back: the caller's scalar stays), whose value
    returned is noted a 0-d array (npr_value)."""
    ref = jax.new_ref(value)
    _npr_state.setdefault("pyreturn", {})[("array0", id(ref))] = ref
    return ref


def npr_sub(x, idx):
    """NumPy's x[idx]: an NprView where NumPy returns a view (a basic index that is not a full
    integer index), else the loaded copy. Plain arrays are indexed with NumPy's rules."""
    v = _npr_view(x)
    if isinstance(x, _npr_above.NprWinView):
        raise NprUnsupported("NPR111", "a view of a window that moves with the loop variable "
                             "is not translated")
    if v is None and idx is Ellipsis and _npr_numpy_scalar(x):
        return _npr_array0_ref(jnp.array(x))  # `s[...]` of a NumPy scalar: a new 0-d array
    if _npr_above.windows_only(idx):  # a window at a traced start (win_views.py); of a value, its values
        return npr_get(x)[idx] if v is None else _npr_above.NprWinView(x, idx)
    shape = tuple(np.shape(x) if v is None else v.shape)
    if 0 in shape and isinstance(x, (jax.Array, jax.Ref, NprView)):
        empty = _npr_check_index(shape, idx)
        if empty is not None:  # a traced index into an empty axis: the call raises NumPy's
            return jnp.zeros(empty, x.dtype)  # IndexError (JAX refuses the gather itself)
    ix = _npr_Idx(shape, idx)
    if v is None or ix.adv or ix.scalar or ix.mask is not None:
        return ix.get(npr_load(x))
    return _npr_derive(v, ('s', ix), v._d[ix.probe])


def npr_transpose(x, axes=None):
    """NumPy's x.transpose(axes) and x.T: a view of a Ref or NprView."""
    v = _npr_view(x)
    nd = len(np.shape(x) if v is None else v.shape)
    np.transpose(_npr_dummy((1,) * nd), axes)  # NumPy's errors
    axes = tuple(range(nd))[::-1] if axes is None else tuple(int(k) % max(nd, 1) for k in axes)
    return jnp.transpose(jnp.asarray(x), axes) if v is None else _npr_derive(v, ('t', axes), v._d.transpose(axes))


def npr_swapaxes(x, axis1, axis2):
    """NumPy's np.swapaxes(x, axis1, axis2): a view of a Ref or NprView."""
    nd = len(np.shape(x) if _npr_view(x) is None else x.shape)
    np.swapaxes(_npr_dummy((1,) * nd), axis1, axis2)  # NumPy's errors
    perm = list(range(nd))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return npr_transpose(x, perm)


def _npr_nocopy(d, shape):
    try:
        return np.reshape(d, shape, copy=False)
    except ValueError:
        return None
    except TypeError:  # numpy < 2.1: no copy=
        e = d.view()
        try:
            e.shape = shape
            return e
        except AttributeError:
            return None


def npr_reshape(x, shape):
    """NumPy's x.reshape(shape): a view when NumPy can reshape without copying (given the
    view's strides), else the loaded copy."""
    v = _npr_view(x)
    shp = np.shape(x) if v is None else v.shape
    new = _npr_nocopy(_npr_dummy(shp), shape)
    new = (new if new is not None else np.reshape(_npr_dummy(shp), shape)).shape  # NumPy's errors
    d = None if v is None else _npr_nocopy(v._d, new)
    return jnp.reshape(jnp.asarray(npr_load(x)), new) if d is None else _npr_derive(v, ('r', new), d)


def npr_ravel(x):
    """NumPy's x.ravel(): a view when x is C-contiguous, else the loaded copy."""
    v = _npr_view(x)
    if v is None or not v._d.flags.c_contiguous:
        return jnp.ravel(jnp.asarray(npr_load(x)))
    return _npr_derive(v, ('r', (v.size,)), v._d.reshape(-1))


def npr_flat(x):
    """NumPy's `x.flat` indexed or iterated (`x.flat[k]`, `for v in x.flat`): what those read, the
    elements in C order, copied (a flatiter read copies; writes through `.flat` are NPR205)."""
    return jnp.ravel(jnp.asarray(npr_load(x)))


def _npr_range_array(e):
    """A range inside an index as NumPy reads it: the array of its ints."""
    return np.arange(e.start, e.stop, e.step) if type(e) is range else e


def _npr_index_items(idx):
    """The entries of a read's index, loaded, sequences as arrays, concrete JAX arrays as NumPy."""
    items = []
    for e in (idx if isinstance(idx, tuple) else (idx,)):
        e = npr_load(e)
        if isinstance(e, (list, tuple)):
            e = jnp.asarray(e) if _npr_has_jax(e) else np.asarray(e) if len(e) else np.zeros(0, np.intp)
        if isinstance(e, jax.Array) and not _npr_traced(e):
            e = np.asarray(e)
        items.append(e)
    return items


def _npr_check_index(shape, idx):
    """NumPy's checks of `x[idx]` for x of `shape`: now (NumPy's own IndexError, on a dummy, the
    traced entries standing in as zeros) and, for traced integer entries, when the program runs."""
    items = _npr_index_items(idx)
    used = sum(0 if e is None or e is Ellipsis or isinstance(e, (bool, np.bool_))
               else np.ndim(e) if _npr_isbool(e) else 1 for e in items)
    d, checks = 0, []
    for e in items:
        if e is Ellipsis:
            d += len(shape) - used
        elif e is not None and not isinstance(e, (bool, np.bool_)):
            if _npr_traced(e) and e.dtype.kind in 'iu':
                checks.append((e, d))
            d += np.ndim(e) if _npr_isbool(e) else 1
    # a traced index into an empty axis is out of range whatever it is: its run-time check says
    # which value (the dummy gets a length-1 axis there, so that its zero stand-in passes)
    dummy = list(shape)
    for _, axis in checks:
        if axis < len(dummy) and dummy[axis] == 0:
            dummy[axis] = 1
    out = _npr_dummy(tuple(dummy))[tuple((np.ones if _npr_isbool(e) else np.zeros)(e.shape, e.dtype)
                                         if _npr_traced(e) else e for e in items)]
    for e, axis in checks:
        _npr_check_bounds(e, axis, shape[axis])
    return None if tuple(dummy) == tuple(shape) else np.shape(out)


def _npr_element_read(ref, idx, feeds_store=False):
    """NumPy's ref[idx] for an index of one int or traced int per dim (checked in range by the
    caller), built from the last stores noted into ref when one was (`_npr_region_value`);
    None for other indices. `feeds_store`: the read is in the value of a store into ref itself
    (the translator's mark, rewrite/rules/store_reads.py). The whole load it
    makes is then read through the stores only: _npr_last_store does not count it, so a later
    store into the same element is still made over the array the first one was made over."""
    if not (_npr_LOWERING['peepholes'] and _npr_state.get("stores")):
        return None
    items = idx if isinstance(idx, tuple) else (idx,)
    if len(items) != ref.ndim or not all(isinstance(e, int) or _npr_traced(e) and jnp.ndim(e) == 0
                                         and jnp.issubdtype(e.dtype, jnp.integer) for e in items):
        return None
    cur = ref[...]
    last = _npr_last_store(cur)
    if last is None:
        return _npr_indexed(cur, items)
    key = []
    for e, n in zip(map(_npr_Idx._item, items), ref.shape):  # as _npr_Idx keys a store's index
        key.append(_npr_TKey(e, n) if _npr_traced(e) else e + n if e < 0 else e)
    if _npr_within(tuple(key), last[0].key) is not None and not feeds_store:
        # the element the last store set, for anything but a store into the same array: read
        # back from the array. Taken from the stored value, XLA computed that value twice, once
        # in the store's fusion and once in the reader's, the second reading the array the store
        # updates in place, and copied the array every trip: iir_filter's `y[n] = ...` then
        # `e += y[n] * y[n]` took 1.6 s for NumPy's 12 ms at 20,000 samples (0.6 ms so). Into a
        # store of the same array (Cholesky's `A[i, i] = np.sqrt(A[i, i])`) the stored value is
        # read: that store is then made over the array the last one was made over (index.py
        # put); read from the array, XLA fused the first store into the read and copied A twice
        # a step (2.4 ms for 1.2 at n = 128)
        return _npr_indexed(cur, items)
    val = _npr_region_value(last[0], tuple(key))
    if val is None:
        return _npr_indexed(cur, items)
    absorbed = _npr_state.setdefault("absorbed", set())
    if len(absorbed) > 4096:  # (ids of loads long gone: forgetting one only costs a copy)
        absorbed.clear()
    absorbed.add(id(_npr_producer(cur)))
    return jnp.reshape(val, ()).astype(ref.dtype)


class _npr_Get:
    __slots__ = ('x', 'feeds_store')

    def __init__(self, x, feeds_store=False):
        self.x, self.feeds_store = x, feeds_store

    def __getitem__(self, idx):
        x = self.x
        if not isinstance(x, (jax.Array, np.ndarray, jax.Ref, NprView)) or isinstance(x, np.generic):
            if isinstance(x, dict):  # `moves[int(s)]`: a traced key has no hash (NPR031, not JAX's TypeError)
                idx = npr_dict_key(idx)
            return x[idx]  # a list, tuple, dict...: Python's and its own rules
        if type(idx) is list:  # `x[[3, 1, 2]]`: NumPy indexes with the list as an array (jnp refuses it)
            idx = jnp.asarray(idx) if _npr_has_jax(idx) else np.asarray(idx)
        # `p[range(N), y]`: NumPy indexes with a range as with its array of ints (jnp refuses it)
        idx = tuple(map(_npr_range_array, idx)) if type(idx) is tuple else _npr_range_array(idx)
        if _npr_above.has_dyn(idx):  # a slice with traced bounds: a window or a masked slice
            return _npr_above.dyn_read(x, idx)
        empty = _npr_check_index(tuple(x.shape), idx)
        if empty is not None:  # a traced index into an empty axis: the call raises NumPy's
            return jnp.zeros(empty, x.dtype)  # IndexError (JAX refuses the gather itself)
        if isinstance(x, jax.Ref):
            stored = _npr_element_read(x, idx, self.feeds_store)  # an element an earlier store in this trace may have set
            if stored is not None:
                return stored
        x = npr_load(x)
        if isinstance(x, np.ndarray) and _npr_has_jax(idx):  # a module's table (`W[i]`) at a traced
            x = jnp.asarray(x)  # index: NumPy's own __getitem__ cannot take it
        return _npr_indexed(x, idx)


def _npr_indexed(x, idx):
    """x[idx] (x loaded), jnp's read with indices widened; `A[i - 1]` in lanes a slice (lane_reads.py)."""
    lanes = _npr_lane_read(x, idx) if isinstance(x, jax.Array) else None
    if lanes is not None:
        return lanes
    return x[tuple(_npr_index_wide(e) for e in idx) if isinstance(idx, tuple) else _npr_index_wide(idx)]


def npr_get(x, feeds_store=False):
    """Read proxy: `npr_get(x)[idx]` is x[idx] (a Ref or view loaded first) with NumPy's
    IndexError for an out-of-range integer index: raised now when the index is known, checked
    when the program runs when it is traced. JAX itself clamps such an index. `feeds_store=True`:
    the statement stores the value read into x itself (`npr_at(A)[i, i] =
    np.sqrt(npr_get(A, feeds_store=True)[i, i])`): an element just stored is then read as the
    stored value, not back from the array (_npr_element_read)."""
    return _npr_Get(x, feeds_store)


def npr_dict_key(key):
    """The key of `d[key] = v` into a local dict: a Python value, as NumPy code has it; one
    computed from array data (or from a list argument, which np2ref.compile traces) has no
    hash, so it is refused (NPR031) instead of failing with JAX's TypeError."""
    leaves = jax.tree_util.tree_leaves(key)
    if any(isinstance(leaf, _npr_Tracer) for leaf in leaves):
        raise NprUnsupported("NPR031", "a dict key is computed from array data (a list "
                             "argument is array data under np2ref.compile: pass a tuple; a Python "
                             "float argument is traced: name it in static_argnames=(...))")
    return key


def _npr_is_ref(x):
    return isinstance(x, (jax.Ref, NprView))


def _npr_footprint(x):
    """(base Ref, flat positions or None for all) of a Ref or view."""
    if isinstance(x, NprView):
        ids = np.arange(x.base.size).reshape(x.base.shape)
        try:
            for kind, arg in x.steps:  # NumPy on the host: the footprint is static
                if kind == "s":
                    if arg.mask is not None or arg.adv:
                        raise NotImplementedError
                    ids = ids[arg.basic()]
                else:
                    ids = np.transpose(ids, arg) if kind == "t" else ids.reshape(arg)
            return x.base, set(np.ravel(np.asarray(ids)).tolist())
        except Exception:  # a traced index: the footprint is unknown, assume it is everything
            return x.base, None
    return x, None


def _npr_overlap(a, b):
    if not (_npr_is_ref(a) and _npr_is_ref(b)):
        return False
    base_a, pos_a = _npr_footprint(a)
    base_b, pos_b = _npr_footprint(b)
    if base_a is not base_b:
        return False
    return pos_a is None or pos_b is None or bool(pos_a & pos_b)
