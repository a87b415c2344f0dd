# ---- np2ref runtime ----------------------------------------------------------------------
# Gives stores into jax.Ref NumPy's exact semantics: the index kinds Refs lack (negative
# steps, None, lists, masks, mixed advanced), broadcasting and casting of stored values,
# last-wins duplicates, `op=` with same_kind casting, ufunc.at, out=, in-place methods, views.
# Pasted verbatim at the top of converted files, so it imports only jax, numpy and the stdlib
# and every top-level name starts with npr_ / _npr_. Where NumPy raises, these raise the same
# exception and message (NumPy itself fails on a zero-memory dummy or a scratch copy); where
# no exact translation exists they raise NotImplementedError("np2ref NPR1xx: ...").
# Out-of-range traced indices are checked when the program runs (_npr_Bounds: NumPy's
# IndexError after the call). Not reproduced, because NumPy decides on data values that JAX only
# sees at run time: traced scalars that do not fit (NumPy raises OverflowError; stores cast),
# out-of-range float->int casts (C-undefined; XLA saturates), and the summation order of
# ufunc.at duplicates on GPU (CPU scatters run in NumPy's order).
import operator as _npr_operator
import threading as _npr_threading
import weakref as _npr_weakref
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

class _npr_State(_npr_threading.local):
    """Trace-time state of the entry points (entry.py) and of chained stores, read and written
    like a dict, one per thread: two threads may trace converted functions at once."""

    def __init__(self):
        self.depth = 0

    def __getitem__(self, key):
        return self.__dict__[key]

    def __setitem__(self, key, value):
        self.__dict__[key] = value

    def get(self, key, default=None):
        return self.__dict__.get(key, default)

    def setdefault(self, key, default):
        return self.__dict__.setdefault(key, default)

    def pop(self, key, *default):
        return self.__dict__.pop(key, *default)


_npr_state = _npr_State()


def _npr_has_tracer(leaf, kinds):
    """Whether leaf is a tracer of one of `kinds` (type names), possibly wrapped in tracers of
    other transformations."""
    for _ in range(16):
        if not isinstance(leaf, jax.core.Tracer):
            return False
        if type(leaf).__name__ in kinds:
            return True
        leaf = getattr(leaf, "val", getattr(leaf, "primal", None))
    return False


_npr_TANGENT_TRACERS = ("JVPTracer", "LinearizeTracer")


def _npr_cast_error_type():
    """NumPy's exception for a same_kind violation in a ufunc's output."""
    try:
        from numpy._core._exceptions import _UFuncOutputCastingError
        return _UFuncOutputCastingError
    except ImportError:  # other numpy versions: the same message, still a TypeError
        class UFuncOutputCastingError(TypeError):
            def __init__(self, ufunc, casting, from_, to, i):
                super().__init__(f"Cannot cast ufunc {ufunc.__name__!r} output from {from_!r} to {to!r} "
                                 f"with casting rule {casting!r}")
        return UFuncOutputCastingError


_npr_CastError = _npr_cast_error_type()


def _npr_dummy(shape, dtype=np.bool_):
    """A zero-memory array of `shape` for NumPy to check shapes on (and raise)."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, dtype), tuple(shape), (0,) * len(shape))


_npr_Tracer = getattr(jax.core, 'Tracer', None) or jax._src.core.Tracer


def _npr_traced(x):
    return isinstance(x, _npr_Tracer)


def _npr_isbool(e):
    return getattr(e, 'dtype', None) == bool


def _npr_isarr(e):  # an advanced (array) entry of a normalised index
    return e is not None and e is not Ellipsis and not isinstance(e, (int, range)) and e.ndim > 0


def _npr_dt(v):
    return v.dtype if hasattr(v, 'dtype') else np.asarray(v).dtype


def _npr_has_jax(v):
    return any(isinstance(x, jax.Array) for x in jax.tree_util.tree_leaves(v))


def _npr_operand(v):
    """(v loaded, probe): probe stands for v in NumPy's dtype rules (NEP 50: Python scalars
    and weak-typed JAX values are weak); arrays become zeros of the same ndim and dtype."""
    v = npr_load(v)
    if isinstance(v, (list, tuple)) and _npr_has_jax(v):
        v = jnp.asarray(v)
    if isinstance(v, jax.Array) and jax.typeof(v).weak_type:
        return v, {'b': False, 'i': 0, 'u': 0, 'f': 0.0, 'c': 0j}[v.dtype.kind]
    return v, (v if type(v) in (bool, int, float, complex, list, tuple) else np.zeros((1,) * np.ndim(v), _npr_dt(v)))


def _npr_conv(v, dt, how='cast', nd=0):
    """v as dtype dt. JAX values: astype (NumPy's unsafe cast). Static values: NumPy itself
    stores them into a scratch array, so its conversions and errors are exact; `how` names
    the store: 'item' (one element of an nd-dim array), 'set' (basic index), 'adv' (advanced
    index), 'cast' (astype) or f(scratch, v) (np.put, np.putmask, ...)."""
    if isinstance(v, jax.Array) or (isinstance(v, (list, tuple)) and _npr_has_jax(v)):
        return jnp.asarray(v).astype(dt)
    if how == 'cast':
        return np.asarray(v).astype(dt)
    if how == 'item':
        t = np.empty((1,) * nd, dt)
        t[(0,) * nd] = v
        return t.reshape(())
    t = np.empty(np.shape(v) if how == 'set' else (1,) + np.shape(v) if how == 'adv' else np.shape(v) or (1,), dt)
    if how == 'set':
        t[...] = v
    elif how == 'adv':
        t[[0]] = v
        t = t[0]
    else:
        how(t, v)
    return t


def _npr_fit(val, sel, fail, strip=True):
    """val broadcast to sel; NumPy's setitem (strip) also drops leading length-1 dims. On a
    mismatch, fail() lets NumPy raise its own error."""
    shp, sel = tuple(np.shape(val)), tuple(sel)
    while strip and len(shp) > len(sel) and shp[0] == 1:
        shp = shp[1:]
    try:
        ok = np.broadcast_shapes(shp, sel) == sel
    except ValueError:
        ok = False
    if not ok:
        fail()
        raise ValueError(f"could not broadcast input array from shape {np.shape(val)} into shape {sel}")
    return jnp.broadcast_to(jnp.asarray(val).reshape(shp), sel)


def _npr_whole(cur, val):
    # All of cur replaced by a value that depends on cur: jax 0.10.2 gets the gradient of a
    # constant store into a ref wrong (jax issue #33987).
    return lax.dynamic_update_slice(cur, jnp.asarray(val, cur.dtype), (0,) * cur.ndim)


# ---- bounds: NumPy's IndexError for indices known only at run time --------------------------
# An index known at trace time is checked then, by NumPy (on a zero-memory dummy). A traced one
# is checked when the program runs: the NumPy-facing call (NprFunction) makes a _npr_Bounds, each
# check records into its slot, and the call raises NumPy's IndexError after the program ran and
# before anything is written back. Without one (`.pure`, bounds='unchecked', a caller's own jit)
# traced indices are not checked: reads clamp and stores drop or clamp them, as JAX does.

class _npr_Bounds:
    """The run-time index checks of one trace: the Ref `site` holds 0 until a check fails, then
    that check's number, and the Ref `value` the index that failed it; `sites` lists each
    check's (exception type, message with `{}` for the value), numbered from 1 in the order
    they were traced. (Two scalar Refs: in a
    loop body XLA:CPU updates them for about 0.2 ns a check, a 2-vector for 15 ns.)"""

    def __init__(self):
        it = jnp.asarray(0).dtype  # int64, or int32 without x64
        self.site, self.value = jax.new_ref(jnp.zeros((), it)), jax.new_ref(jnp.zeros((), it))
        self.sites = []
        self.done = {}  # (id(value), check, id(trace)) -> (value, trace): checked already there
        self.ranges = {}  # id(a loop variable) -> (its lowest value, its highest, the variable)


def _npr_note_range(i, lo, hi):
    """Note that the traced loop variable `i` runs from lo to hi (inclusive): an index check of
    i itself against an axis that holds that range is decided now."""
    bounds = _npr_state.get("bounds")
    if bounds is not None and _npr_traced(i):
        bounds.ranges[id(i)] = (lo, hi, i)


def _npr_current_trace():
    """The trace equations go into now (None when this JAX's internals differ)."""
    try:
        from jax._src import core as _npr_core
        return _npr_core.trace_ctx.trace
    except Exception:  # pragma: no cover
        return None


def _npr_bounds_error(sites, site, value):
    """NumPy's error for a run's record (`sites`: _npr_Bounds.sites), or None."""
    site = int(site)
    if not site:
        return None
    kind, message = sites[site - 1]
    return kind(*message) if isinstance(message, tuple) else kind(message.format(int(value)))


def _npr_check_bounds(e, axis, size):
    """NumPy's IndexError, when the program runs, for the traced integer index `e` (a scalar or
    an array) out of range of an axis of `size`."""
    bounds = _npr_state.get("bounds")
    known = None if bounds is None else bounds.ranges.get(id(e))
    if known is not None and known[2] is e and -size <= known[0] and known[1] < size:
        return
    out = (lambda x: x >= size) if _npr_dt(e).kind == 'u' else (lambda x: (x < -size) | (x >= size))
    _npr_check_run(e, out, IndexError, f"index {{}} is out of bounds for axis {axis} with size {size}")


def _npr_check_run(e, out, kind, message):
    """Check the traced integers `e` (a scalar or an array) when the program runs: `out(e)` is
    True where NumPy raises kind(message.format(that value)). The first check of a run that
    fails is what the call raises. An array costs one fused pass (any); which element failed
    is looked for only when one did."""
    bounds = _npr_state.get("bounds")
    if bounds is None or not _npr_traced(e) or e.size == 0:
        return
    # the same value checked the same way earlier in the same trace (a loop variable indexing
    # several arrays of one size) failed there first, if at all: once is enough
    trace = _npr_current_trace()
    key = (id(e), kind, message, id(trace))
    if trace is not None and key in bounds.done:
        return
    bounds.done[key] = (e, trace)
    if e.ndim:
        flat = e.reshape(-1)
        bad = jnp.any(out(flat))
        e = lax.cond(bad, lambda: flat[jnp.argmax(out(flat))], lambda: jnp.zeros((), flat.dtype))
    else:
        bad = out(e)
    _npr_record_check(bounds, bad, e, kind, message)


def _npr_record_check(bounds, bad, e, kind, message):
    """Add a run-time check to the record `bounds`: where the traced bool `bad` holds (and no
    earlier check failed), the call raises kind(message.format(e)), or kind(*message) when
    `message` is a tuple (the arguments of the exception itself)."""
    bounds.sites.append((kind, message))
    seen = bounds.site[...]
    hit = bad & (seen == 0)
    bounds.site[...] = jnp.where(hit, jnp.asarray(len(bounds.sites), seen.dtype), seen)
    bounds.value[...] = jnp.where(hit, e.astype(seen.dtype), bounds.value[...])


def npr_bounds_ok():
    """False (traced) once a run-time index check of this call has failed, else True: a loop
    whose test is data stops there (NumPy would have raised; its clamped data might never let
    it end). True when nothing is checked."""
    bounds = _npr_state.get("bounds")
    return True if bounds is None else bounds.site[...] == 0


def npr_assert(test, message=None):
    """`assert test, message()` (`message`: the message as a function, evaluated only when
    needed, as Python does; None without one). A concrete test is Python's assert. A traced one
    (array data) is checked when the program runs: the call raises AssertionError(message)
    after the program ran and before anything is written back (runtime checks, as for indices:
    `.pure` and bounds='unchecked' skip it). The rewrite keeps the `assert` statement around
    this call, so `python -O` drops it as it drops the original. Returns True."""
    ok = _npr_concrete_bool(test)  # a NumPy array of more than one element raises ValueError here
    if ok is not None:
        if not ok:
            raise AssertionError(message()) if message is not None else AssertionError()
        return True
    x = jnp.asarray(npr_load(test))
    if x.size != 1:
        bool(np.zeros(x.shape, bool))  # NumPy's ValueError for the truth of such an array
    args = () if message is None else (message(),)
    try:
        hash(args)
        text_only = not any(isinstance(a, (jax.core.Tracer, jax.Array)) for a in args)
    except TypeError:
        text_only = False
    if not text_only:
        raise NotImplementedError("np2ref NPR030: an assert on array data is checked when the program "
                                  "runs; its message must be a Python value known when it is traced "
                                  "(a string, not array data)")
    bounds = _npr_state.get("bounds")
    if bounds is not None:
        _npr_record_check(bounds, x.reshape(()) == 0, jnp.zeros((), jnp.int32), AssertionError, args)
    return True


class _npr_no_checks:
    """Around a trace made only to inspect a function (its effects, its types): its checks are
    not part of the program."""

    def __enter__(self):
        self.saved = _npr_state.get("bounds")
        _npr_state["bounds"] = None

    def __exit__(self, *exc):
        _npr_state["bounds"] = self.saved


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
    _npr_dummy(shape)[tuple((np.ones if _npr_isbool(e) else np.zeros)(e.shape, e.dtype)
                            if _npr_traced(e) else e for e in items)]
    used = sum(0 if e is None or e is Ellipsis or isinstance(e, (bool, np.bool_))
               else np.ndim(e) if _npr_isbool(e) else 1 for e in items)
    d = 0
    for e in items:
        if e is Ellipsis:
            d += len(shape) - used
        elif e is not None and not isinstance(e, (bool, np.bool_)):
            if _npr_traced(e) and e.dtype.kind in 'iu':
                _npr_check_bounds(e, d, shape[d])
            d += np.ndim(e) if _npr_isbool(e) else 1


class _npr_Get:
    __slots__ = ('x',)

    def __init__(self, x):
        self.x = x

    def __getitem__(self, idx):
        x = self.x
        if not isinstance(x, (jax.Array, np.ndarray, jax.Ref, NprView)) or isinstance(x, np.generic):
            return x[idx]  # a list, tuple, dict...: Python's and its own rules
        _npr_check_index(tuple(x.shape), idx)
        return npr_load(x)[idx]


def npr_get(x):
    """Read proxy: `npr_get(x)[idx]` is x[idx] (a Ref or view loaded first) with NumPy's
    IndexError for an out-of-range integer index: raised now when the index is known, checked
    when the program runs when it is traced. JAX itself clamps such an index."""
    return _npr_Get(x)


class _npr_Idx:
    """A NumPy index on an array of `shape`, checked by NumPy (IndexErrors) and normalised to
    `ents`: None, int, 0-d traced int, range (a slice) or int array, one per dim (plus an empty
    Ellipsis, which still parts advanced indices). `sel` is NumPy's result shape; a traced
    boolean mask is kept apart in `mask`. `vorder`, set only on an index composed through a
    transposed view (_npr_compose), lists the base dims of the selection in the view's order."""

    vorder = None

    def __init__(self, shape, idx):
        self.shape = shape = tuple(shape)
        items = [self._item(e) for e in (idx if isinstance(idx, tuple) else (idx,))]
        self.probe = tuple((np.ones if _npr_isbool(e) else np.zeros)(e.shape, e.dtype) if _npr_traced(e)
                           else e for e in items)
        self.sel = np.shape(_npr_dummy(shape)[self.probe])  # NumPy raises its IndexErrors here
        self.traced = any(_npr_traced(e) for e in items)
        used = sum(0 if e is None or e is Ellipsis else e.ndim if _npr_isbool(e) else 1 for e in items)
        ents, d, self.mask, full = [], 0, None, True
        for e in items:
            if e is Ellipsis:  # an empty one stays: it still parts advanced indices for NumPy
                ents += [range(n) for n in shape[d:d + len(shape) - used]] or [Ellipsis]
                d += len(shape) - used
            elif _npr_isbool(e) and _npr_traced(e) and e.size == 0:  # selects nothing, as in NumPy
                ents += list(np.nonzero(np.zeros(e.shape, bool)))
                d, full = d + e.ndim, False
            elif _npr_isbool(e) and _npr_traced(e):
                if tuple(e.shape) != tuple(shape[d:d + e.ndim]):
                    raise IndexError(f"boolean index did not match indexed array along axis {d}; size of "
                                     f"axis is {shape[d]} but size of corresponding boolean axis is {e.shape[0]}")
                if self.mask is not None:
                    raise NotImplementedError("np2ref NPR104: two traced boolean masks in one index")
                self.mask = jnp.reshape(e, (1,) * d + e.shape + (1,) * (len(shape) - d - e.ndim))
                d += e.ndim
            elif _npr_isbool(e):
                ents += list(np.nonzero(e))
                d, full = d + e.ndim, False
            elif isinstance(e, slice):
                ents.append(range(*e.indices(shape[d])))
                d, full = d + 1, full and ents[-1] == range(shape[d])
            elif e is None:
                ents.append(None)
                full = False
            else:
                n = shape[d]
                _npr_check_bounds(e, d, n)
                ents.append((e + n if e < 0 else e) if isinstance(e, int) else
                            (jnp if _npr_traced(e) else np).where(e < 0, e + n, e))
                d, full = d + 1, False
        if self.mask is not None and not full:
            raise NotImplementedError("np2ref NPR104: a traced boolean mask combined with other "
                                      "indices has a data-dependent shape")
        self.ents = ents + [range(n) for n in shape[d:]]
        self.adv = any(_npr_isarr(e) for e in self.ents)
        self.scalar = (self.mask is None and not any(e is None or e is Ellipsis for e in items)
                       and not any(e is None or isinstance(e, range) or _npr_isarr(e) for e in self.ents))
        self._lin = self._lin_last = None

    @staticmethod
    def _item(e):
        e = npr_load(e)
        if isinstance(e, (list, tuple, range)):  # a sequence inside an index is an array
            e = jnp.asarray(e) if _npr_has_jax(e) else np.asarray(e) if len(e) else np.zeros(0, np.intp)
        if isinstance(e, jax.Array) and not _npr_traced(e):
            e = np.asarray(e)
        if isinstance(e, slice) and any(_npr_traced(s) for s in (e.start, e.stop, e.step)):
            raise NotImplementedError("np2ref NPR106: slice bounds must be static (the size must be known)")
        if isinstance(e, (bool, np.bool_)) or (getattr(e, 'ndim', 1) == 0 and _npr_isbool(e)):
            raise NotImplementedError("np2ref NPR107: a 0-d boolean index is not supported")
        if isinstance(e, (np.ndarray, np.integer)) and e.ndim == 0 and e.dtype.kind in 'iu':
            e = int(e)
        return e

    def basic(self):
        return tuple((slice(e.start, e.stop if e.stop >= 0 else None, e.step) if len(e) else slice(0, 0))
                     if isinstance(e, range) else e for e in self.ents)

    def lin(self):
        if self._lin is None:
            self._lin = _npr_lin(self.shape, self.ents, self.sel)
        return self._lin

    def lin_last(self):
        """lin() with each index that occurs again later moved out of range (a scatter drops
        it), for few traced indices; else None."""
        if self._lin_last is None:
            self._lin_last = (_npr_last_only(self.lin(), int(np.prod(self.shape))),)
        return self._lin_last[0]

    def get(self, cur, update=False):
        """NumPy's cur[idx], as a copy. For an update (`cur[idx] op= v`) only the elements that
        put() keeps matter: it reads through put()'s index, so XLA keeps one index array."""
        if self.mask is not None:
            raise NotImplementedError("np2ref NPR104: x[mask] with a traced mask has a data-dependent shape")
        cur = jnp.asarray(cur)
        if self.adv:
            lin = self.lin_last() if update else None
            return cur.reshape(-1).at[self.lin() if lin is None else lin].get(mode='clip').reshape(self.sel)
        last = _npr_last_store(cur) if update else None
        flip, ents = self.ascending()
        out = None if last is None else _npr_region_value(last[0], _npr_region_key(ents))
        if out is not None:  # built from the values the last stores put (ascending)
            out = jnp.flip(out, flip) if flip else out
        else:
            out = cur[self.basic()]
        if self.vorder is not None:  # base order -> the transposed view's order
            out = jnp.transpose(out, np.argsort(np.argsort(self.vorder)))
        return out if out.shape == tuple(self.sel) else out.reshape(self.sel)  # composed: no None dims

    def ascending(self):
        """(the range dims, counted among ranges, that run backwards; ents with those ranges
        reversed and no None or Ellipsis): the region in ascending order, as put() stores it."""
        rng = [e for e in self.ents if isinstance(e, range)]
        return ([k for k, e in enumerate(rng) if e.step < 0],
                [e[::-1] if isinstance(e, range) and e.step < 0 else e for e in self.ents
                 if e is not None and e is not Ellipsis])

    def put(self, cur, val):
        """cur with cur[idx] = val (val cast, of shape sel), the last duplicate winning.
        Ints and slices become one dynamic_update_slice (in place in XLA)."""
        if self.mask is not None:
            return jnp.where(self.mask, val, cur)
        if self.adv:
            lin = self.lin_last()
            if lin is not None:
                return _npr_unflat(jnp.reshape(cur, -1).at[lin.reshape(-1)].set(jnp.reshape(val, -1), mode='drop'), cur.shape)
            return _npr_scatter(cur, self.lin(), val)
        rng = [e for e in self.ents if isinstance(e, range)]
        if self.vorder is not None:  # the transposed view's order -> base order
            val = jnp.transpose(jnp.reshape(val, [len(self.ents[p]) for p in self.vorder]), np.argsort(self.vorder))
        val = jnp.reshape(val, [len(e) for e in rng])
        if val.size == 0:
            return cur
        flip, ents = self.ascending()
        val = jnp.flip(val, flip) if flip else val
        key = _npr_region_key(ents)
        last, under = _npr_last_store(cur), cur
        prior = None if last is None else last[0]
        if last is not None and last[1] == 1 and _npr_within(prior.key, key) is not None:
            under, prior = prior.under, prior.prior  # the last store wrote within this region and
                                                     # nothing read the array since: store over
                                                     # what that one stored over
        if _npr_padwhere_pays(cur, ents, val):
            out = _npr_padwhere(under, ents, val)
        elif all(e.step == 1 for e in ents if isinstance(e, range)):
            it = jnp.int32 if max(self.shape, default=0) < 2 ** 31 else jnp.int64
            starts = [jnp.asarray(e.start if isinstance(e, range) else e).astype(it) for e in ents]
            block = val.reshape([len(e) if isinstance(e, range) else 1 for e in ents])
            out = lax.dynamic_update_slice(under, block, starts)
        else:
            idx = tuple(slice(e.start, e.stop, e.step) if isinstance(e, range) else e for e in ents)
            out = under.at[idx].set(val, unique_indices=True)
        _npr_state["put"] = (cur, out, key, val, under, prior)  # for _npr_update: _npr_remember
        return out


def _npr_region_key(ents):
    """A static region (ints and ascending ranges, one per dim) as a hashable key; None when an
    index is traced."""
    key = []
    for e in ents:
        if isinstance(e, range):
            key.append((e.start, len(e), e.step))
        elif isinstance(e, (int, np.integer)):
            key.append(int(e))
        else:
            return None
    return tuple(key)


def _npr_within(inner, outer):
    """The index into a value stored in the region `outer` (_npr_region_key; the value has a
    dim per range) that reads the region `inner`, when inner lies within outer; else None."""
    if inner is None or outer is None or len(inner) != len(outer):
        return None
    idx = []
    for i, o in zip(inner, outer):
        if isinstance(o, int):
            if i != o:
                return None
            continue
        start, n, step = o
        if isinstance(i, int):
            k, off = divmod(i - start, step)
            if off or not 0 <= k < n:
                return None
            idx.append(k)
            continue
        start2, n2, step2 = i
        k, off = divmod(start2 - start, step)
        stride, off2 = divmod(step2, step) if n2 > 1 else (1, 0)
        if not n2 or off or off2 or stride <= 0 or k < 0 or k + stride * (n2 - 1) > n - 1:
            return None
        idx.append(slice(k, k + stride * (n2 - 1) + 1, stride))
    return tuple(idx)


class _npr_Store:
    """A store _npr_remember noted: the Ref's array became `under` with the region `key` set to
    `val`; `prior` is the store that made `under` (None when not known)."""
    __slots__ = ('ref', 'swap', 'key', 'val', 'under', 'prior', 'depth')

    def __init__(self, ref, swap, key, val, under, prior):
        self.ref, self.swap, self.key, self.val, self.under = ref, swap, key, val, under
        self.prior = prior if prior is not None and prior.depth < 6 else None  # chains stay short
        self.depth = 0 if self.prior is None else self.prior.depth + 1


def _npr_remember(new, key, val, under, prior):
    """After `ref[...] = new`, new being `under` with the region `key` set to val: note the
    store (the jaxpr's last equation, a swap) for _npr_last_store."""
    try:
        from jax._src import core as _npr_core
        eqns = _npr_core.trace_ctx.trace.frame.tracing_eqns
        swap = eqns[-1]() if isinstance(eqns[-1], _npr_weakref.ReferenceType) else eqns[-1]
        ref = swap.in_tracers[0]
        if swap.primitive.name != 'swap' or swap.in_tracers[1] is not new or tuple(new.shape) != tuple(ref.aval.shape):
            return
        memo = _npr_state.setdefault("stores", {})
        memo.pop(id(ref), None)
        memo[id(ref)] = _npr_Store(ref, swap, key, val, under, prior)
        while len(memo) > 16:
            memo.pop(next(iter(memo)))
    except Exception:  # not tracing into a jaxpr, or another JAX's internals: nothing noted
        return


def _npr_may_be(x, ref):
    """Whether the traced value x may be the Ref `ref`: ref itself, or another Ref of its shape
    and dtype (the same buffer reached through another tracer, if a JAX made two)."""
    aval = getattr(x, 'aval', None)
    return x is ref or ('Ref' in type(aval).__name__ and getattr(aval, 'shape', None) == ref.aval.shape
                        and getattr(aval, 'dtype', None) == ref.aval.dtype)


def _npr_region_value(store, key):
    """The region `key` (_npr_region_key) of the array `store` made, built from the values the
    last stores put instead of sliced out of it; None when some of it was not stored by them,
    or a region overlaps a store's in a way not handled (strided ranges, for one)."""
    if store is None or key is None:
        return None
    idx = _npr_within(key, store.key)
    if idx is not None:
        return store.val[idx]
    meet = _npr_meet(key, store.key)
    if meet is None:
        return None
    base = _npr_region_value(store.prior, key)  # not a slice of the array before: reading it
    if base is None:                             # after the store updated it in place costs
        return None                              # XLA a copy of it
    if meet == 'disjoint':
        return base
    take, shape, starts = meet  # overlay the stored elements that fall in the region
    return lax.dynamic_update_slice(base, jnp.reshape(store.val[take], shape), starts)


def _npr_meet(key, stored):
    """How region `key` meets region `stored` (both of ints and unit-step ranges): 'disjoint',
    or (the index of the shared elements in the value stored, their shape in key's dims, their
    offsets in key's dims); None for other regions."""
    unit = lambda k: isinstance(k, int) or k[1] > 0 and (k[2] == 1 or k[1] == 1)  # noqa: E731
    if len(key) != len(stored) or not all(unit(k) for k in key + stored):
        return None
    take, shape, starts = [], [], []
    for k, s in zip(key, stored):
        lo_k, n_k = (k, 1) if isinstance(k, int) else k[:2]
        lo_s, n_s = (s, 1) if isinstance(s, int) else s[:2]
        lo, hi = max(lo_k, lo_s), min(lo_k + n_k, lo_s + n_s)
        if lo >= hi:
            return 'disjoint'
        if not isinstance(s, int):
            take.append(slice(lo - lo_s, hi - lo_s) if not isinstance(k, int) else lo - lo_s)
        if not isinstance(k, int):
            shape.append(hi - lo)
            starts.append(lo - lo_k)
    return tuple(take), shape, starts


def _npr_last_store(cur, window=256):
    """(the record of _npr_remember, how many loads of the Ref since) when `cur` is a whole load
    of a Ref whose latest store was noted and no equation since (within `window`) took the Ref
    except loads; else None. Then a read of a region within the stored one is part of the
    stored value itself, and a store into a region holding the stored one, with no other load
    in between (`a[s] = e; a[s] *= w`), can be made over the array the first store was made
    over, element for element the same: XLA:CPU sees through neither slice(dynamic-update-
    slice(x, v)) nor a dynamic-update-slice of one, and makes a pass over the array (or a
    copy of it) per chained store."""
    try:
        load = cur.parent
        if load is None or load.primitive.name != 'get':
            return None
        ref = load.in_tracers[0]
        rec = _npr_state.get("stores", {}).get(id(ref))
        if rec is None or rec.ref is not ref or tuple(cur.shape) != tuple(ref.aval.shape):
            return None
        eqns, loads = cur._trace.frame.tracing_eqns, 0
        for k in range(len(eqns) - 1, max(len(eqns) - 1 - window, -1), -1):
            e = eqns[k]() if isinstance(eqns[k], _npr_weakref.ReferenceType) else eqns[k]
            if e is None:  # collected: JAX 0.10 keeps every equation with effects, so this one
                return None  # wrote nothing; a JAX that did not would make this unsafe
            if e is rec.swap:
                return rec, loads
            if e.primitive.name == 'get' and e.in_tracers[0] is ref:
                loads += 1
            elif any(_npr_may_be(x, ref) for x in e.in_tracers):
                return None
        return None
    except Exception:  # another JAX's tracer internals: read the array
        return None


# The smallest share of the array a basic-index store must cover to be written as one select
# over the whole array (pad + where) instead of a dynamic-update-slice or strided scatter, when
# its value reads the same array at other positions; chosen by measurement
# (`python benchmarks/run.py --lowerings`, docs/benchmarks.md).
_npr_LOWERING = {'padwhere_min': 0.9, 'shifted_reads': 2}


def _npr_padwhere_pays(cur, ents, val):
    """Whether cur[ents] = val goes through _npr_padwhere: a static region (no traced ints)
    covering at least `padwhere_min` of cur but not all of it, whose value reads the array
    being written through `shifted_reads` or more windows other than the region itself (a
    stencil's shifted slices: XLA copies each of them before updating in place)."""
    if val.size == cur.size or any(_npr_traced(e) for e in ents):
        return False
    return (val.size >= _npr_LOWERING['padwhere_min'] * cur.size
            and _npr_reads_around(cur, ents, val) >= _npr_LOWERING['shifted_reads'])


def _npr_reads_around(cur, ents, val, limit=4000):
    """How many distinct reads of the Ref that `cur` was loaded from the traced `val` depends
    on, other than a slice of exactly the region `ents` (the same elements, which XLA updates
    in place). Walks the jaxpr being traced; 0 when it cannot tell."""
    try:
        load = cur.parent
        if load is None or load.primitive.name != 'get':
            return 0
        ref = load.in_tracers[0]
        region = ([e.start if isinstance(e, range) else e for e in ents],
                  [e[-1] + 1 if isinstance(e, range) else e + 1 for e in ents],
                  [e.step if isinstance(e, range) else 1 for e in ents])
        stack, seen, reads = [(val, None)], set(), set()
        while stack:
            tracer, child = stack.pop()
            eqn = getattr(tracer, 'parent', None)
            if eqn is None:
                continue
            if eqn.primitive.name == 'get':
                if eqn.in_tracers[0] is ref and not _npr_is_region(child, region):
                    reads.add(_npr_read_key(child))
                continue
            if id(eqn) in seen:
                continue
            seen.add(id(eqn))
            if len(seen) > limit:
                return 0
            stack.extend((t, eqn) for t in eqn.in_tracers)
        return len(reads)
    except Exception:  # another JAX's tracer internals: keep the plain lowering
        return 0


def _npr_read_key(eqn):
    if eqn is None:
        return None
    params = tuple((k, v) for k, v in sorted(eqn.params.items()) if isinstance(v, (tuple, int, type(None))))
    return eqn.primitive.name, params


def _npr_is_region(eqn, region):
    if eqn is None or eqn.primitive.name != 'slice':
        return False
    starts, limits, steps = region
    strides = eqn.params.get('strides') or (1,) * len(starts)
    return (list(eqn.params['start_indices']) == starts and list(eqn.params['limit_indices']) == limits
            and list(strides) == steps)


def _npr_padwhere(cur, ents, val):
    """cur with the region `ents` (ascending ranges and ints, one per dim) replaced by val, as
    one elementwise select over all of cur. XLA:CPU copies a buffer before a
    dynamic_update_slice into it when the update reads that buffer (a stencil's shifted
    slices: four copies a step); the select fuses with those reads instead. Bit for bit the
    same values, and the same gradients (the select's masked-out cotangent is zero)."""
    it = jnp.int32 if max(cur.shape, default=0) < 2 ** 31 else jnp.int64
    block = jnp.reshape(val, [len(e) if isinstance(e, range) else 1 for e in ents])
    pads, mask = [], True
    for d, (e, n) in enumerate(zip(ents, cur.shape)):
        if isinstance(e, range):
            last = e.start + (len(e) - 1) * e.step
            pads.append((e.start, n - 1 - last, e.step - 1))
            if e == range(n):
                continue
        else:
            pads.append((0, 0, 0))  # the size-1 block broadcasts along an int's dim
        i = lax.broadcasted_iota(it, cur.shape, d)
        m = (i == e) if not isinstance(e, range) else (i >= e.start) & (i <= last)
        if isinstance(e, range) and e.step > 1:
            m = m & ((i - e.start) % e.step == 0)
        mask = m if mask is True else mask & m
    full = lax.pad(block, jnp.zeros((), block.dtype), pads)
    return jnp.where(mask, full, cur)


def _npr_lin(shape, ents, sel):
    """Flat C-order positions of the elements `ents` selects, laid out as NumPy lays out the
    result (the advanced block where it stands if contiguous, else first). Out-of-range traced
    entries get position `size`, which scatters drop."""
    size = int(np.prod(shape))
    traced = any(_npr_traced(e) for e in ents)
    xp, it = (jnp, jnp.int32 if size < 2 ** 31 else jnp.int64) if traced else (np, np.intp)
    adv = [k for k, e in enumerate(ents) if e is not None and e is not Ellipsis and not isinstance(e, range)]
    bshape, b0 = (), 0
    if any(_npr_isarr(ents[k]) for k in adv):
        bshape = np.broadcast_shapes(*[np.shape(ents[k]) for k in adv])
        if adv[-1] - adv[0] + 1 == len(adv):
            b0 = sum(1 for e in ents[:adv[0]] if e is None or isinstance(e, range))
    nb, nd = len(bshape), len(sel)
    lin, ok, a, d = xp.zeros((), it), True, 0, 0
    for e in ents:
        if e is Ellipsis:
            continue
        if isinstance(e, range):
            ax = a + nb if a >= b0 else a
            c = xp.arange(e.start, e.stop, e.step, dtype=it).reshape((1,) * ax + (-1,) + (1,) * (nd - ax - 1))
        elif e is not None:
            c = xp.asarray(e).astype(it)
            c = c.reshape((1,) * (b0 + nb - c.ndim) + c.shape + (1,) * (nd - b0 - nb))
            if _npr_traced(e):
                ok = ok & (c >= 0) & (c < shape[d])
        if e is not None:
            lin, d = lin + c * int(np.prod(shape[d + 1:])), d + 1
        a += e is None or isinstance(e, range)
    lin = xp.broadcast_to(lin, sel)
    return lin if ok is True else jnp.where(ok, lin, size)


_npr_PAIRWISE_MAX = 128  # traced duplicate-index stores up to this many indices: pairwise, no sort


def _npr_last_only(lin, size):
    """Traced flat indices `lin` (at most _npr_PAIRWISE_MAX) with each one that occurs again later
    replaced by `size`, out of range, so that a scatter dropping those writes each target once,
    the last occurrence winning, on every backend. Compared pairwise: no sorted copies kept.
    None for static or many indices (_npr_scatter sorts those)."""
    if isinstance(lin, np.ndarray) or not 0 < lin.size <= _npr_PAIRWISE_MAX:
        return None
    flat = lin.reshape(-1)
    k = np.arange(flat.size)
    later = jnp.any((flat[None, :] == flat[:, None]) & (k[None, :] > k[:, None]), axis=1)
    return jnp.where(later, size, flat).reshape(lin.shape)


def _npr_unflat(flat, shape):
    """A flat scatter's result reshaped to `shape`, behind an optimization barrier: XLA:CPU
    (jaxlib 0.10.2) miscompiles a reshaped flat scatter whose result is then updated with a
    reversed or rolled read of itself (`a[:2] ^= a[:2, ::-1]` after `np.multiply.at(a, ...)`
    gave wrong values under jit; tests/regressions/fuzz_2f3d265977.py)."""
    return lax.optimization_barrier(jnp.reshape(flat, shape))


def _npr_scatter(cur, lin, val):
    """cur with cur.flat[lin] = val, the last occurrence of a duplicate winning. Deduplicated
    first, so the scatter is deterministic on every backend and its gradient is right."""
    shape, size = cur.shape, cur.size
    flat, lin, val = jnp.reshape(cur, -1), lin.reshape(-1), jnp.reshape(val, -1)
    if lin.size == 0:
        return cur
    if isinstance(lin, np.ndarray):
        keep = lin.size - 1 - np.unique(lin[::-1], return_index=True)[1]
        if keep.size < lin.size:
            lin, val = lin[keep], val[keep]
        return _npr_unflat(flat.at[lin].set(val, unique_indices=True, mode='promise_in_bounds'), shape)
    last = _npr_last_only(lin, size)
    if last is not None:
        return _npr_unflat(flat.at[last].set(val, mode='drop'), shape)
    order = jnp.argsort(lin, stable=True)
    sl = lin[order]
    last = jnp.append(sl[1:] != sl[:-1], True)
    return _npr_unflat(flat.at[jnp.where(last, sl, size)].set(val[order], mode='drop'), shape)


def _npr_update(t, f):
    """Replace all of t by f(current value of t); a view writes through to its base."""
    at = _npr_compose(t, _npr_Idx(t.shape, Ellipsis)) if isinstance(t, NprView) else None
    if at is not None:  # a view of a region of the base: read and store that region of it
        _npr_update(t.base, lambda cur: at.put(cur, f(at.get(cur, update=True))))
    elif isinstance(t, NprView):
        vals = [t.base[...]]
        for s in t.steps:
            vals.append(_npr_step(s, vals[-1]))
        new = f(vals[-1])
        for (kind, arg), parent in zip(reversed(t.steps), reversed(vals[:-1])):
            new = (arg.put(parent, new) if kind == 's' else new.reshape(parent.shape) if kind == 'r'
                   else jnp.transpose(new, np.argsort(arg)))
        if 0 not in t.base.shape:  # an empty array stays as it is (a store would be a constant
            t.base[...] = new       # one, whose gradient jax 0.10.2 cannot transpose: #33987)
    elif isinstance(t, jax.Ref):
        _npr_state.pop("put", None)
        cur = t[...]
        new = f(cur)
        put = _npr_state.pop("put", None)
        if 0 not in t.shape:
            t[...] = new
            if put is not None and put[0] is cur and put[1] is new and put[2] is not None:
                _npr_remember(new, *put[2:])
    else:
        raise TypeError(f"np2ref: cannot store into a {type(t).__name__}; expected a jax.Ref or NprView")


def _npr_step(s, val):
    kind, arg = s
    return arg.get(val) if kind == 's' else val.reshape(arg) if kind == 'r' else jnp.transpose(val, arg)


class NprView:
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

    def __repr__(self):
        return f"NprView(shape={self.shape}, dtype={self.dtype}, steps={''.join(s[0] for s in self.steps)})"


def _npr_view(x):
    return x if isinstance(x, NprView) else NprView(x) if isinstance(x, jax.Ref) else None


def _npr_derive(x, step, d):
    return NprView(x.base, x.steps + (step,), d)


# ---- loads and views ----------------------------------------------------------------------

def npr_load(x):
    """The current value of a Ref or NprView (seeing every earlier write); else x unchanged."""
    if isinstance(x, NprView):
        val = x.base[...]
        for s in x.steps:
            val = _npr_step(s, val)
        return val
    return x[...] if isinstance(x, jax.Ref) else x


def npr_int(x):
    """Python's int(x). Concrete values give a Python int; traced array data gives the traced
    integer (truncated toward zero, weakly typed as a Python int is), good as an index."""
    x = npr_load(x)
    if not isinstance(x, jax.core.Tracer):
        return int(x)
    if x.ndim != 0:
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    if x.dtype.kind in "fc":
        x = jnp.trunc(jnp.real(x))
    try:
        from jax._src.lax.lax import _convert_element_type
        return _convert_element_type(x, np.dtype(np.int64), weak_type=True)
    except (ImportError, TypeError):  # pragma: no cover
        return x.astype(np.int64)


def npr_float(x):
    """Python's float(x). Concrete values give a Python float; traced array data gives the traced
    value as float64 (weakly typed, as a Python float is in NumPy's promotion)."""
    x = npr_load(x)
    if not isinstance(x, jax.core.Tracer):
        return float(x)
    if x.size != 1:
        raise TypeError("only length-1 arrays can be converted to Python scalars")
    if x.dtype.kind == "c":
        raise TypeError("float() argument must be a string or a real number, not 'complex'")
    x = x.reshape(())
    try:
        from jax._src.lax.lax import _convert_element_type
        return _convert_element_type(x, np.dtype(np.float64), weak_type=True)
    except (ImportError, TypeError):  # pragma: no cover
        return x.astype(np.float64)


def npr_own(x):
    """x itself if it is a Ref or NprView (aliasing kept), else a new Ref holding x. None (a
    helper that returns nothing) raises the TypeError that writing into it raises in Python."""
    if x is None:
        raise TypeError("'NoneType' object does not support item assignment")
    return x if isinstance(x, (jax.Ref, NprView)) else jax.new_ref(jnp.asarray(x))


def npr_value(tree):
    """npr_load over tuples, lists and dicts (for return values)."""
    if isinstance(tree, (tuple, list)):
        return type(tree)(npr_value(x) for x in tree)
    if isinstance(tree, dict):
        return {k: npr_value(x) for k, x in tree.items()}
    return npr_load(tree)


def npr_sub(x, idx):
    """NumPy's x[idx]: an NprView where NumPy returns a view (a basic index that is not a full
    integer index), else the loaded copy. Plain arrays are indexed with NumPy's rules."""
    v = _npr_view(x)
    ix = _npr_Idx(np.shape(x) if v is None else v.shape, idx)
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


# ---- stores: a[idx] = v and a[idx] op= v --------------------------------------------------

class _npr_Aug:
    __slots__ = ('name', 'v')

    def __init__(self, name, v):
        self.name, self.v = name, v


class _npr_Pending:
    """What npr_at(t)[idx] gives: only `op=` on it means something."""
    __slots__ = ()


_npr_INPLACE = dict(add='iadd', subtract='isub', multiply='imul', divide='itruediv', floor_divide='ifloordiv',
                    remainder='imod', power='ipow', bitwise_and='iand', bitwise_or='ior', bitwise_xor='ixor',
                    left_shift='ilshift', right_shift='irshift')  # ufunc -> Python's in-place operator
for _npr_k, _npr_n in _npr_INPLACE.items():
    setattr(_npr_Pending, f"__{_npr_n}__", (lambda n: lambda self, v: _npr_Aug(n, v))(_npr_k))


class _npr_At:
    __slots__ = ('t',)

    def __init__(self, t):
        self.t = t

    def __getitem__(self, idx):
        return _npr_Pending()

    def __setitem__(self, idx, v):
        t = self.t
        if isinstance(t, (tuple, list, dict)):  # a container argument of a converted function
            raise NprError(f"np2ref NPR207: a {type(t).__name__} is written into; containers of "
                           "written arrays are not translated (pass each array as its own argument)")
        if not isinstance(t, (jax.Ref, NprView)):
            raise TypeError(f"np2ref: npr_at needs a jax.Ref or NprView, not a {type(t).__name__}")
        ix, dt = _npr_Idx(t.shape, idx), np.dtype(t.dtype)
        if isinstance(v, (jax.Ref, NprView)) and _npr_base(v) is _npr_base(t):
            moved = _npr_self_copy(t, ix, v)
            if moved is not None:  # NumPy's element-order result: a gather of the whole buffer
                base = _npr_base(t)
                base[...] = jnp.reshape(jnp.ravel(base[...])[moved.ravel()], base.shape)
                return
        at = _npr_compose(t, ix)  # into the base directly where the view's index composes
        f = _npr_aug(ix, dt, v.name, v.v, at) if isinstance(v, _npr_Aug) else _npr_set(ix, dt, v, at)
        _npr_update(t if at is None else t.base, f)


def _npr_compose(t, ix):
    """The index on t's base that selects what t[ix] selects, when t is a view reached by basic
    indices (ints, traced ints, slices with any step) and transposes, and ix is basic: a store
    through it then updates the touched elements of the base in place, instead of rewriting the
    view and putting it back (a copy of the view and of the base per store). None otherwise (a
    Ref, reshaped views, None axes, advanced indices, masks). Traced ints are clipped into their
    dim first, as the dynamic-update-slice through the view clamps them."""
    if not isinstance(t, NprView) or any(kind not in 'st' for kind, _ in t.steps):
        return None
    ents = [range(n) for n in t.base.shape]
    live = list(range(len(ents)))  # positions in ents of the view's dims, in order
    for kind, step in [*t.steps, ('s', ix)]:
        if kind == 't':
            live = [live[a] for a in step]
            continue
        if step.adv or step.mask is not None:
            return None
        keep = []
        for e in step.ents:
            if e is Ellipsis or (e is None and step is ix):
                continue
            if e is None:
                return None
            p = live.pop(0)
            r = ents[p]
            if isinstance(e, range):
                s = r.start + r.step * e.start
                ents[p] = range(s, s + r.step * e.step * len(e), r.step * e.step) if len(e) else range(s, s)
                keep.append(p)
            elif _npr_traced(e):
                if not len(r):
                    return None
                k = jnp.clip(e, 0, len(r) - 1)
                ents[p] = k if (r.start, r.step) == (0, 1) else r.start + r.step * k
            else:
                ents[p] = r[e]
        live = keep
    at = object.__new__(_npr_Idx)
    at.shape, at.ents, at.sel, at.mask, at.adv = tuple(t.base.shape), ents, ix.sel, None, False
    at.scalar, at.probe, at._lin, at._lin_last = ix.scalar, None, None, None
    at.traced = any(_npr_traced(e) for e in ents)
    if live != sorted(live):
        at.vorder = live
    return at


def _npr_base(x):
    return x.base if isinstance(x, NprView) else x


def _npr_np_view(arr, x):
    """The view x (a Ref or NprView) takes of its base, taken of the NumPy array arr."""
    for kind, arg in (x.steps if isinstance(x, NprView) else ()):
        arr = arr[_npr_view_probe(arg)] if kind == 's' else arr.transpose(arg) if kind == 't' else arr.reshape(arg)
    return arr


def _npr_view_probe(ix):
    """ix's probe with a traced int's stand-in as a Python int (a 0-d array would index as a copy)."""
    return tuple(int(p) if isinstance(p, np.ndarray) and p.ndim == 0 and p.dtype.kind in 'iu' else p
                 for p in ix.probe)


def _npr_self_copy(t, ix, v):
    """`t[idx] = v` with v a view of t's own buffer. NumPy buffers such a copy except in one
    layout: a 1-d copy whose strides differ but have the same sign (a row into a column), done
    element by element, so later elements read earlier writes. There NumPy itself runs the same
    copy on the buffer's element numbers: the numbers it leaves are the gather that gives its
    result (None when the copy is order-free). With a traced index the offsets are unknown and
    such a copy is refused."""
    numbers = np.arange(_npr_base(t).size).reshape(_npr_base(t).shape)
    dst, src = _npr_np_view(numbers, t)[_npr_view_probe(ix)], _npr_np_view(numbers, v)
    src = np.broadcast_to(src, dst.shape) if src.ndim <= dst.ndim else src
    if dst.ndim != 1 or dst.size <= 1 or src.shape != dst.shape:
        return None
    (d,), (r,) = dst.strides, src.strides
    if d == r or d * r <= 0:  # memmove order, a buffered copy (opposite signs), one source element
        return None
    if ix.traced or any(k == 's' and a.traced for x in (t, v) if isinstance(x, NprView) for k, a in x.steps):
        raise NotImplementedError("np2ref NPR125: a store of a view of the same array, at an index "
                                  "known only at run time, whose copy order NumPy may leave visible")
    moved = numbers.copy()
    _npr_np_view(moved, t)[ix.probe] = _npr_np_view(moved, v)
    buffered = numbers.copy()
    _npr_np_view(buffered, t)[ix.probe] = _npr_np_view(numbers, v)
    return None if np.array_equal(moved, buffered) else moved


def npr_at(target):
    """Store proxy for a Ref or NprView. `npr_at(t)[idx] = v` is NumPy's t[idx] = v for any
    index (negative steps, None, lists, int and bool arrays, mixed), v broadcast and converted
    as NumPy converts it, duplicates: the last wins. `npr_at(t)[idx] += v` (+ - * / // % ** &
    | ^ << >>) is NumPy's buffered op= with its same_kind output casting."""
    return _npr_At(target)


def _npr_set(ix, dt, v, at=None):
    """The update of `t[ix] = v` (checked and converted as NumPy does); `at`, where given, is
    ix composed onto the base of the view t (_npr_compose) and is where it stores."""
    at = ix if at is None else at
    v = npr_load(v)
    if ix.scalar and isinstance(v, jax.Array):  # one element: NumPy takes only 0-d values
        _npr_dummy(ix.shape, dt)[ix.probe] = _npr_dummy(v.shape, v.dtype)
    val = _npr_conv(v, dt, 'item' if ix.scalar else 'adv' if ix.adv or ix.mask is not None else 'set', len(ix.shape))
    if ix.mask is not None:
        if np.size(val) != 1:
            raise NotImplementedError("np2ref NPR104: a[mask] = v with a traced mask needs a single value")
        val = jnp.reshape(val, ())
    else:
        val = _npr_fit(val, ix.sel, lambda: _npr_dummy(ix.shape).__setitem__(ix.probe, _npr_dummy(np.shape(v))))
    return lambda cur: at.put(cur, val)


def _npr_divmod(div):
    def f(x, y):
        r = jnp.floor_divide(x, y) if div else jnp.remainder(x, y)
        if jnp.issubdtype(r.dtype, jnp.integer):
            return jnp.where(y == 0, jnp.zeros_like(r), r)  # NumPy: x // 0 == x % 0 == 0
        return jnp.where(r == 0, jnp.copysign(jnp.zeros_like(r), x / y if div else y), r)  # NumPy's signed 0
    return f


_npr_JNP = dict(add=jnp.add, subtract=jnp.subtract, multiply=jnp.multiply, divide=jnp.true_divide,
                floor_divide=_npr_divmod(True), remainder=_npr_divmod(False), power=jnp.power, bitwise_and=jnp.bitwise_and,
                bitwise_or=jnp.bitwise_or, bitwise_xor=jnp.bitwise_xor, left_shift=jnp.left_shift,
                right_shift=jnp.right_shift)


def _npr_rtype(name, dt, probe, scalar=False):
    """NumPy's result dtype of ufunc `name` on an array of dt and probe, or of Python's `op=` on a
    NumPy scalar; NumPy raises here for missing loops and out-of-range Python ints."""
    with np.errstate(all='ignore'):
        try:
            if scalar:
                return np.dtype(getattr(_npr_operator, _npr_INPLACE[name])(dt.type(0), probe).dtype)
            return np.dtype(getattr(np, name)(np.zeros((1,) * np.ndim(probe), dt), probe).dtype)
        except ValueError:  # "Integers to negative integer powers": NumPy checks the cast first
            if not (name == 'power' and type(probe) is int and probe < 0):
                raise
            return _npr_rtype(name, dt, -(probe + 1), scalar)


def _npr_aug(ix, dt, name, v, at=None):
    at = ix if at is None else at  # as in _npr_set
    v, probe = _npr_operand(v)
    fast = None  # NumPy's fast_scalar_power: a **= 2 is np.square, a **= -1 / 0.5 (inexact a) too
    if name == 'power' and not ix.scalar and type(v) in (int, float):
        fast = {(int, 2): 'square', (int, -1): 'reciprocal', (float, 0.5): 'sqrt'}.get((type(v), v))
        fast = fast if fast == 'square' or dt.kind in 'fc' else None
    uf, vshape = getattr(np, fast or name), np.shape(v)
    with np.errstate(all='ignore'):
        rt = np.dtype(uf(np.zeros(1, dt)).dtype) if fast else _npr_rtype(name, dt, probe, ix.scalar)
    if ix.mask is not None and np.size(v) != 1:
        raise NotImplementedError("np2ref NPR104: a[mask] op= v with a traced mask needs a single value")
    if ix.scalar:  # NumPy: (a NumPy scalar) op v, then a one-element store with an unsafe cast
        if vshape != ():
            _npr_dummy(ix.shape, dt)[ix.probe] = _npr_dummy(vshape, rt)
    else:  # NumPy: ufunc(tmp, v, out=tmp) with casting='same_kind'
        if not np.can_cast(rt, dt, 'same_kind'):
            raise _npr_CastError(uf, 'same_kind', rt, dt, 0)
        _npr_fit(np.zeros(vshape, bool), ix.sel, strip=False, fail=lambda: uf(
            _npr_dummy(ix.sel, dt), _npr_dummy(vshape, _npr_dt(v)), out=_npr_dummy(ix.sel, dt)))
    if name == 'power' and rt.kind in 'iu' and not isinstance(v, jax.Array) and np.any(np.asarray(v) < 0):
        raise ValueError("Integers to negative integer powers are not allowed.")

    def f(cur):
        x = (cur if ix.mask is not None else at.get(cur, update=True)).astype(rt)
        if fast:
            res = getattr(jnp, fast)(x)
        else:
            y = v.astype(rt) if isinstance(v, jax.Array) else np.asarray(v, dtype=rt)
            y = jnp.reshape(y, ()) if ix.mask is not None else y
            if name == 'divide':  # else XLA rewrites x / scalar as x * (1 / scalar): not IEEE
                y = lax.optimization_barrier(jnp.broadcast_to(y, np.broadcast_shapes(x.shape, np.shape(y))))
            res = _npr_JNP[name](x, y)
        return at.put(cur, res.astype(dt))  # res has shape sel (or cur's shape, for a mask)
    return f


def npr_ufunc_at(name, a, idx, b=None):
    """NumPy's unbuffered np.<name>.at(a, idx, b) for add, subtract, multiply, maximum and
    minimum: every occurrence of a duplicate index applies; b is broadcast strictly. NumPy
    computes in result_type(a, b) (Python scalars count as arrays here) and casts back after
    every element; that equals one scatter in a's dtype for wrapping ints, and for b's values
    that a's dtype holds exactly (double rounding is innocuous). Otherwise (floats into an int
    array, float64 values into float32) the elements are applied one at a time, in NumPy's
    order, each computed in that type and cast back: a sequential loop, exact but slow."""
    if name not in ('add', 'subtract', 'multiply', 'maximum', 'minimum'):
        raise NotImplementedError(f"np2ref NPR101: np.{name}.at is not translated")
    if b is None:
        raise ValueError("second operand needed for ufunc")
    ix, dt, uf = _npr_Idx(a.shape, idx), np.dtype(a.dtype), getattr(np, name)
    if ix.mask is not None:
        raise NotImplementedError(f"np2ref NPR104: np.{name}.at with a traced boolean mask")
    b = npr_load(b)
    b = jnp.asarray(b) if isinstance(b, (list, tuple)) and _npr_has_jax(b) else b
    rt = _npr_rtype(name, dt, np.zeros((1,) * np.ndim(b), _npr_dt(b)))
    ints = rt.kind in 'iu' and dt.kind in 'iu'
    held = not isinstance(b, jax.Array) and dt.kind != 'b' and np.array_equal(
        np.asarray(b).astype(dt).astype(rt), np.asarray(b).astype(rt), equal_nan=rt.kind in 'fc')
    scatter = rt == dt or (ints and (held or name not in ('maximum', 'minimum'))) or \
        (held and dt.kind in 'fc' and rt.kind in 'fc' and not (name == 'multiply' and rt.kind == 'c'))
    vals = _npr_fit(_npr_conv(b, dt if scatter else rt), ix.sel, strip=False, fail=lambda: uf.at(  # ints wrap
        _npr_dummy(a.shape, dt), ix.probe, _npr_dummy(np.shape(b), _npr_dt(b))))
    vals = -vals if name == 'subtract' else vals  # x - v is x + (-v), exactly, in every type
    if 0 in ix.sel:
        return
    if not scatter:
        _npr_ufunc_at_in_order(dict(subtract='add').get(name, name), a, ix, vals, rt, dt)
        return
    # (not into integer refs under differentiation: JAX 0.10 scatters their float0 tangents)
    if (isinstance(a, jax.Ref) and name in ('add', 'subtract') and dt != bool
            and not any(e is None or isinstance(e, range) and e.step < 0 for e in ix.ents)
            and (dt.kind in 'fc' or not (_npr_state.get("differentiating") or any(
                _npr_has_tracer(v, _npr_TANGENT_TRACERS) for v in (a, vals))))):
        if ix.adv:  # one coordinate array per dim, so the Ref's layout is NumPy's
            lin = ix.lin()
            xp = np if isinstance(lin, np.ndarray) else jnp
            coords = [jnp.asarray(xp.where(lin < a.size, c, n)) for c, n in zip(xp.unravel_index(lin, a.shape), a.shape)]
            jax.ref.addupdate(a, tuple(coords), vals)
        else:
            jax.ref.addupdate(a, ix.basic(), vals)
        return
    op = dict(add='add', subtract='add', multiply='multiply', maximum='max', minimum='min')[name]
    op = dict(add='max', multiply='min').get(op, op) if dt == bool else op
    lin = ix.lin().reshape(-1)
    vals = jnp.reshape(vals, -1)

    def one(k, flat):
        return flat.at[jnp.asarray(lin)[k]].multiply(vals[k], mode='drop', unique_indices=True)

    def update(cur):
        if op == 'multiply' and dt.kind in 'fc' and (_npr_state.get("differentiating") or any(
                _npr_has_tracer(v, _npr_TANGENT_TRACERS) for v in (cur, vals))):
            # JAX differentiates scatter_mul only with unique indices: one element at a time, as
            # NumPy itself applies them (a scan, which reverse mode goes through)
            return _npr_unflat(lax.fori_loop(0, lin.size, one, jnp.reshape(cur, -1)), cur.shape)
        return _npr_unflat(getattr(jnp.reshape(cur, -1).at[lin], op)(vals, mode='drop'), cur.shape)
    _npr_update(a, update)


def _npr_ufunc_at_in_order(name, a, ix, vals, rt, dt):
    """np.<name>.at one element at a time, as NumPy applies it: a[i] = dt(name(rt(a[i]), v))
    for each index in order (a fori_loop; duplicates see each other's casts)."""
    lin, vals, fn = ix.lin().reshape(-1), jnp.reshape(vals, -1), getattr(jnp, name)

    def one(k, flat):
        i = jnp.asarray(lin)[k]
        # the barrier keeps XLA from folding bool -> float then `* nan` into a select (0, not nan)
        x = lax.optimization_barrier(flat[i].astype(rt))
        return flat.at[i].set(fn(x, vals[k]).astype(dt), mode='drop')
    _npr_update(a, lambda cur: _npr_unflat(lax.fori_loop(0, lin.size, one, jnp.reshape(cur, -1)), cur.shape))


# ---- out= and in-place functions ----------------------------------------------------------

def npr_out(target, value, ufunc=None):
    """out=: value stored into all of target (broadcast). With `ufunc` (a ufunc's name) NumPy's
    same_kind output check applies, else the cast is unsafe. Returns target."""
    value, probe = _npr_operand(value)
    dt, tshape, vshape = np.dtype(target.dtype), tuple(target.shape), np.shape(value)
    vdt = np.asarray(probe).dtype
    if ufunc is not None and not np.can_cast(vdt, dt, 'same_kind'):
        raise _npr_CastError(getattr(np, ufunc), 'same_kind', vdt, dt, 0)
    fmt = lambda s: f"({','.join(map(str, s))}{',' if len(s) == 1 else ''})"  # noqa: E731 - NumPy's format
    try:
        bshape = np.broadcast_shapes(vshape, tshape)
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with shapes {fmt(vshape)} {fmt(tshape)} ") from None
    if bshape != tshape:
        raise ValueError(f"non-broadcastable output operand with shape {fmt(tshape)} doesn't match the "
                         f"broadcast shape {fmt(bshape)}")
    val = jnp.broadcast_to(_npr_conv(value, dt), tshape)
    _npr_update(target, lambda cur: _npr_whole(cur, val))
    return target


def npr_fill(a, v):
    """NumPy's a.fill(v): one scalar, converted as NumPy converts it, everywhere."""
    v, dt = npr_load(v), np.dtype(a.dtype)
    if isinstance(v, jax.Array):
        np.empty((), dt).fill(_npr_dummy(v.shape, v.dtype))  # NumPy's error for a non-scalar
        val = jnp.reshape(v, ()).astype(dt)
    else:
        val = np.empty((), dt)
        val.fill(v)
    _npr_update(a, lambda cur: _npr_whole(cur, jnp.broadcast_to(val, cur.shape)))


def npr_sort(a, axis=-1, kind=None):
    """NumPy's a.sort(axis) (NaNs last; `kind` cannot change the values)."""
    np.zeros((1,) * a.ndim, bool).sort(axis)  # NumPy's AxisError / TypeError
    _npr_update(a, lambda cur: jnp.sort(cur, axis=axis))


def npr_copyto(dst, src, casting='same_kind', where=True):
    """NumPy's np.copyto: casting checked by NumPy, src broadcast (leading 1-dims dropped),
    where broadcast strictly. An array copied onto itself is left alone, as NumPy does before
    any check."""
    if src is dst:
        return
    if isinstance(where, (jax.Ref, NprView)) and where is not dst and _npr_base(where) is _npr_base(dst):
        raise NotImplementedError("np2ref NPR126: np.copyto's where= is a view of the array it writes; "
                                  "NumPy reads that mask while writing, element by element")
    src, sprobe = _npr_operand(np.asarray(src) if isinstance(src, (list, tuple)) and not _npr_has_jax(src) else src)
    where, wprobe = _npr_operand(where)
    dt, shape = np.dtype(dst.dtype), tuple(dst.shape)
    np.copyto(np.zeros((1,) * max(np.ndim(src), np.ndim(where)), dt), sprobe, casting=casting, where=wprobe)
    fail = lambda: np.copyto(_npr_dummy(shape, dt), _npr_dummy(np.shape(src), _npr_dt(src)),  # noqa: E731
                             casting=casting, where=_npr_dummy(np.shape(where), _npr_dt(where)))
    val = _npr_fit(_npr_conv(src, dt, lambda t, s: np.copyto(t, s, casting='unsafe')), shape, fail)
    m = True if where is True else _npr_fit(jnp.asarray(where).astype(bool), shape, fail, strip=False)
    _npr_update(dst, lambda cur: _npr_whole(cur, val) if m is True else jnp.where(m, val, cur))


def _npr_cycle(val, n):
    """The flat values of val repeated cyclically (or cut) to n."""
    flat = jnp.asarray(val).reshape(-1)
    return flat if flat.size == n else flat[np.arange(n) % flat.size]


def npr_putmask(a, mask, values):
    """NumPy's np.putmask: a.flat[n] = values.flat[n % values.size] where mask.flat[n]."""
    (mask, _), (values, vprobe), dt = _npr_operand(mask), _npr_operand(values), np.dtype(a.dtype)
    if np.size(mask) != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    if np.ndim(vprobe) == 0 and isinstance(vprobe, np.ndarray):
        vprobe = vprobe[()]  # a 0-d value stands for the NumPy scalar it nearly always is (a[i], a.sum())
    np.putmask(np.zeros(1, dt), np.ones(1, _npr_dt(mask)), vprobe)
    if np.size(values) == 0:
        return
    vals = _npr_conv(values, dt, lambda t, v: np.putmask(t, np.ones(t.shape, bool), v))
    vals, m = _npr_cycle(vals, a.size).reshape(a.shape), jnp.reshape(jnp.asarray(mask), a.shape).astype(bool)
    _npr_update(a, lambda cur: jnp.where(m, vals, cur))


def npr_put(a, ind, v, mode='raise'):
    """NumPy's np.put: a.flat[ind] = v, v repeated to len(ind), the last duplicate winning;
    mode 'raise' (negative ints count from the end), 'wrap' or 'clip'."""
    (ind, _), (v, _), dt, n = _npr_operand(ind), _npr_operand(v), np.dtype(a.dtype), a.size
    np.put(np.zeros(n, dt), np.zeros(ind.shape, ind.dtype) if _npr_traced(ind) else ind,  # NumPy's errors
           _npr_dummy(v.shape, v.dtype) if isinstance(v, jax.Array) else v, mode=mode)
    if np.size(ind) == 0 or np.size(v) == 0:
        return
    xp = jnp if isinstance(ind, jax.Array) else np
    i = xp.reshape(xp.asarray(ind), -1)
    if mode == 'raise':
        _npr_check_bounds(i, 0, n)  # NumPy raises; the call does, after the run
    i = xp.where(i < 0, i + n, i) if mode == 'raise' else xp.mod(i, n) if mode == 'wrap' else xp.clip(i, 0, n - 1)
    if xp is jnp and mode == 'raise':
        i = jnp.where((i >= 0) & (i < n), i, n)
    vals = _npr_cycle(_npr_conv(v, dt, lambda t, w: np.put(t, np.arange(t.size), w)), i.size)
    _npr_update(a, lambda cur: _npr_scatter(cur, i, vals))


def npr_place(a, mask, vals):
    """NumPy's np.place: the k-th True position of mask takes vals.flat[k % vals.size]."""
    (mask, _), (vals, vprobe), dt = _npr_operand(mask), _npr_operand(vals), np.dtype(a.dtype)
    if np.size(mask) != a.size:
        raise ValueError("place: mask and data must be the same size")
    xp = jnp if isinstance(mask, jax.Array) else np
    m = xp.reshape(xp.asarray(mask), -1).astype(bool)
    if np.size(vals) == 0:
        if xp is jnp:
            raise NotImplementedError("np2ref NPR108: np.place with empty vals raises only if the "
                                      "traced mask has a True")
        if m.any():
            raise ValueError("Cannot insert from an empty array!")
        return
    np.place(np.zeros(1, dt), np.ones(1, _npr_dt(mask)), vprobe)
    flat = jnp.asarray(_npr_conv(vals, dt, lambda t, w: np.place(t, np.ones(t.shape, bool), w))).reshape(-1)
    g = flat[xp.mod(xp.cumsum(m) - 1, flat.size)]
    _npr_update(a, lambda cur: jnp.where(m, g, jnp.reshape(cur, -1)).reshape(cur.shape))


def npr_fill_diagonal(a, val, wrap=False):
    """NumPy's np.fill_diagonal: a.flat[:end:step] = val, val repeated cyclically; a tall
    2-D matrix wraps only with wrap=True."""
    shape, dt = tuple(a.shape), np.dtype(a.dtype)
    if len(shape) < 2:
        raise ValueError("array must be at least 2-d")
    if len(shape) == 2:
        step, end = shape[1] + 1, (a.size if wrap else min(a.size, shape[1] * shape[1]))
    elif any(n != shape[0] for n in shape):
        raise ValueError("All dimensions of input must be of equal length")
    else:
        step, end = 1 + int(np.cumprod(shape[:-1]).sum()), a.size
    val = _npr_conv(npr_load(val), dt, lambda t, w: t.flat.__setitem__(slice(None), w))
    pos = np.arange(0, end, step)
    if pos.size and np.size(val):
        vals = _npr_cycle(val, pos.size)
        _npr_update(a, lambda cur: _npr_unflat(jnp.reshape(cur, -1).at[pos].set(
            vals, unique_indices=True, indices_are_sorted=True), shape))


def npr_where_store(a, mask, value):
    """NumPy's a[mask] = value[mask] (or a value that broadcasts to a) for a boolean mask over
    a's leading dims, as jnp.where; value converted as NumPy's setitem converts it."""
    mask, value, shape = npr_load(mask), npr_load(value), tuple(a.shape)
    if not _npr_isbool(np.asarray(mask) if isinstance(mask, list) else mask):
        raise TypeError("np2ref: npr_where_store needs a boolean mask")
    _npr_dummy(shape)[np.ones(np.shape(mask), bool)]  # NumPy's mask-shape IndexError
    m = jnp.reshape(jnp.asarray(mask), np.shape(mask) + (1,) * (len(shape) - np.ndim(mask)))
    val = _npr_fit(_npr_conv(value, np.dtype(a.dtype), 'adv'), shape, lambda: None)
    _npr_update(a, lambda cur: jnp.where(m, val, cur))
# ---- end of np2ref runtime ----------------------------------------------------------------
