# np2ref: converted from examples/particle_deposition.py by np2ref. Arrays that are written are jax.Ref buffers;
# every read is an explicit load (`u[...]`). 64-bit JAX types are turned on below so that
# float64/int64 stay as in NumPy. Functions marked @npr_jit take NumPy arrays from host code,
# run jit-compiled, and write back the arrays they mutate.
"""Particle deposition: cloud-in-cell (CIC) charge deposition of drifting
particles onto a periodic 2-D grid with np.add.at.

Domain: the deposition step of a 2-D particle-in-cell code. Each particle
spreads its charge over the four grid nodes around it with bilinear
weights; many particles share a node, so the deposit must accumulate every
contribution (np.add.at, unbuffered), not keep only the last one as the
buffered `rho[ix, iy] += w` would. Between deposits the particles move in a
fixed rotating velocity field and wrap around the periodic box. The density
is time-averaged in place.
"""
import numpy as np
import jax
import jax.numpy as jnp
jax.config.update("jax_enable_x64", True)

# ---- np2ref runtime: exact NumPy semantics for stores into jax.Ref (generated) ----
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

def npr_load(x):
    """The current value of a Ref or NprView (seeing every earlier write); else x unchanged."""
    if isinstance(x, NprView):
        val = x.base[...]
        for s in x.steps:
            val = _npr_step(s, val)
        return val
    return x[...] if isinstance(x, jax.Ref) else x

def npr_value(tree):
    """npr_load over tuples, lists and dicts (for return values)."""
    if isinstance(tree, (tuple, list)):
        return type(tree)(npr_value(x) for x in tree)
    if isinstance(tree, dict):
        return {k: npr_value(x) for k, x in tree.items()}
    return npr_load(tree)

def npr_transpose(x, axes=None):
    """NumPy's x.transpose(axes) and x.T: a view of a Ref or NprView."""
    v = _npr_view(x)
    nd = len(np.shape(x) if v is None else v.shape)
    np.transpose(_npr_dummy((1,) * nd), axes)  # NumPy's errors
    axes = tuple(range(nd))[::-1] if axes is None else tuple(int(k) % max(nd, 1) for k in axes)
    return jnp.transpose(jnp.asarray(x), axes) if v is None else _npr_derive(v, ('t', axes), v._d.transpose(axes))

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

import jax

import jax.numpy as jnp

import numpy as np

_npr_np_PY_SCALARS = (bool, int, float, complex)

def _npr_np_is_py(a):
    # Python scalars are "weak" in NumPy 2 (NEP 50); NumPy scalars are not.
    return type(a) in _npr_np_PY_SCALARS

def _npr_np_dtype_of(a):
    # The dtype NumPy gives np.asarray(a) (lists by NumPy's own inference).
    if hasattr(a, "dtype"):
        return np.dtype(a.dtype)
    if isinstance(a, (list, tuple)):
        if not a:
            return np.dtype(np.float64)
        return np.result_type(*[_npr_np_dtype_of(e) for e in a])
    return np.asarray(a).dtype

def _npr_np_weak_kind(a):
    # A weak-typed JAX value is a Python scalar traced (an argument, or arithmetic on one):
    # the Python type it stands for, else None.
    if isinstance(a, jax.Array) and a.ndim == 0 and jax.typeof(a).weak_type:
        return {"b": bool, "i": int, "u": int, "f": float, "c": complex}[a.dtype.kind]
    return None

def _npr_np_rdt(a):
    # Operand for ufunc.resolve_dtypes: a Python int/float/complex type stays
    # weak (a Python bool is just bool, the lowest kind).
    kind = _npr_np_weak_kind(a)
    if type(a) is bool or kind is bool:
        return np.dtype(np.bool_)
    if _npr_np_is_py(a):
        return type(a)
    return kind or _npr_np_dtype_of(a)

def _npr_np_asarray(a, dtype=None):
    # A jax array with NumPy's dtype (NumPy's inference when dtype is None).
    if dtype is None:
        dtype = _npr_np_dtype_of(a)
    dtype = np.dtype(dtype)
    if isinstance(a, jax.Array):  # NumPy's results are never weak: convert makes them strong
        return a if a.dtype == dtype and not jax.typeof(a).weak_type else jax.lax.convert_element_type(a, dtype)
    return jax.lax.convert_element_type(jnp.asarray(a, dtype=dtype), dtype)

def _npr_np_check_out(out):
    if out is not None:
        raise NotImplementedError("np2ref: out= must be rewritten by the translator")

def _npr_np_ufunc_outer(uf):
    # NumPy converts both operands with asarray first (Python scalars are not weak here:
    # np.add.outer(int8 array, 2) is int64), then broadcasts a.shape + b.shape.
    def outer(A, B, /, **kwargs):
        a, b = _npr_np_asarray(A), _npr_np_asarray(B)
        return uf(jnp.reshape(a, a.shape + (1,) * b.ndim), b, **kwargs)

    outer.__name__ = outer.__qualname__ = uf.__name__ + "_outer"
    return outer

def _npr_np_ufunc(npf, jf, body=None):
    # A NumPy ufunc on jnp: NumPy's loop dtypes (ufunc.resolve_dtypes, NEP 50
    # weak Python scalars, dtype= as the output signature), inputs cast to
    # the loop's input dtypes, result cast to the loop's output dtype(s).
    nin, nout = npf.nin, npf.nout
    impl = body if body is not None else jf

    def f(*args, out=None, dtype=None, casting="same_kind"):
        _npr_np_check_out(out)
        if len(args) != nin:
            raise TypeError(f"{npf.__name__} takes {nin} positional arguments")
        sig = None if dtype is None else (None,) * nin + (np.dtype(dtype),) * nout
        if all(_npr_np_is_py(a) for a in args):
            ops = tuple(np.asarray(a).dtype for a in args) + (None,) * nout
        else:
            ops = tuple(_npr_np_rdt(a) for a in args) + (None,) * nout
        if sig is None:
            dts = npf.resolve_dtypes(ops, casting=casting)
        else:
            dts = npf.resolve_dtypes(ops, signature=sig, casting=casting)
        xs = [_npr_np_asarray(a, d) for a, d in zip(args, dts[:nin])]
        r = impl(*xs)
        if nout == 1:
            return _npr_np_asarray(r, dts[nin])
        return tuple(_npr_np_asarray(o, d) for o, d in zip(r, dts[nin:]))

    f.__name__ = "npr_np_" + npf.__name__
    f.__qualname__ = f.__name__
    f.__doc__ = f"numpy.{npf.__name__} with NumPy's dtype rules."
    if nin == 2 and nout == 1:
        f.outer = _npr_np_ufunc_outer(f)  # np.add.outer -> npr_np_add.outer
    return f

npr_np_floor = _npr_np_ufunc(np.floor, jnp.floor)

npr_np_sin = _npr_np_ufunc(np.sin, jnp.sin)

import functools as _npr_functools

import inspect as _npr_inspect

import operator as _npr_operator

import types as _npr_types

_NPR_IOPS = {
    "+": _npr_operator.iadd, "-": _npr_operator.isub, "*": _npr_operator.imul,
    "/": _npr_operator.itruediv, "//": _npr_operator.ifloordiv, "%": _npr_operator.imod,
    "**": _npr_operator.ipow, "&": _npr_operator.iand, "|": _npr_operator.ior,
    "^": _npr_operator.ixor, "<<": _npr_operator.ilshift, ">>": _npr_operator.irshift,
    "@": _npr_operator.imatmul,
}

_NPR_BINOPS = {
    "+": _npr_operator.add, "-": _npr_operator.sub, "*": _npr_operator.mul,
    "/": _npr_operator.truediv, "//": _npr_operator.floordiv, "%": _npr_operator.mod,
    "**": _npr_operator.pow, "&": _npr_operator.and_, "|": _npr_operator.or_,
    "^": _npr_operator.xor, "<<": _npr_operator.lshift, ">>": _npr_operator.rshift,
    "@": _npr_operator.matmul,
}

class NprError(Exception):
    """A call that np2ref cannot run exactly (e.g. overlapping buffers passed to a writer)."""

def _npr_is_ref(x):
    return isinstance(x, (jax.Ref, NprView))

def npr_iop(x, op, value, maybe_scalar=False):
    """`x op= value` on a name: in place (NumPy's same_kind casting, shape kept) when `x` is an
    array, a plain rebinding when it is a Python or NumPy scalar (`maybe_scalar`: a 0-d value
    may be a NumPy scalar, the analysis could not tell)."""
    if _npr_is_ref(x):
        proxy = npr_at(x)
        proxy[...] = _NPR_IOPS[op](proxy[...], value)
        return x
    if isinstance(x, (jax.Array, np.ndarray)) and not isinstance(x, np.generic) \
            and not (maybe_scalar and np.ndim(x) == 0):
        ref = jax.new_ref(jnp.asarray(x))
        proxy = npr_at(ref)
        proxy[...] = _NPR_IOPS[op](proxy[...], value)
        return ref[...]
    return _NPR_BINOPS[op](x, npr_load(value))

_NPR_STATIC_TYPES = frozenset({bool, int, str, type(None)})

_NPR_TRACED_TYPES = frozenset({float, complex, np.ndarray})

def _npr_is_static(value):
    """Python ints, bools, strings and None (they size arrays and pick branches), tuples of
    static values, and everything that is not array data: modules, dtypes, types, callables,
    random generators... (JAX could not take those as traced arguments anyway)."""
    if isinstance(value, (bool, int, str, type(None))) and not isinstance(value, np.generic):
        return True
    if isinstance(value, tuple):
        return all(_npr_is_static(v) for v in value)
    return not _npr_is_data(value)

def _npr_is_data(value):
    """Arrays, numbers and the containers jit takes as pytrees of them."""
    return isinstance(value, (float, complex, np.ndarray, np.generic, jax.Array, list, tuple, dict)) \
        or hasattr(value, "__jax_array__")

_NPR_REPR_KEYED = frozenset({bool, int, float, complex, str, type(None)})

class _NprByIdentity:
    """A static argument that cannot be hashed by value, keyed by its identity. The key holds
    the object, so its id is not reused while a trace that closes over it is cached."""
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self):
        return id(self.obj)

    def __eq__(self, other):
        return isinstance(other, _NprByIdentity) and other.obj is self.obj

def _npr_static_key(v):
    """The cache key of a static argument: two calls share a trace only when it computes the
    same thing for both. By value where the value is hashable (a dtype, a type, a module, a
    function: those hash by identity or by what they mean), by identity where it is not."""
    kind = type(v)
    if kind in _NPR_REPR_KEYED or isinstance(v, np.generic):  # NumPy scalars: -0.0 == 0.0 too
        return repr(v)
    if kind is tuple:
        return (tuple, tuple(_npr_static_key(e) for e in v))
    try:
        hash(v)
    except TypeError:
        return _NprByIdentity(v)
    return (kind, v)

def _npr_any_traced(values):
    return any(isinstance(v, (jax.Ref, NprView, jax.core.Tracer)) for v in values)

def _npr_to_numpy(tree):
    if isinstance(tree, tuple):
        return tuple(_npr_to_numpy(v) for v in tree)
    if isinstance(tree, list):
        return [_npr_to_numpy(v) for v in tree]
    if isinstance(tree, dict):
        return {k: _npr_to_numpy(v) for k, v in tree.items()}
    if isinstance(tree, jax.Array):
        out = np.asarray(tree)  # on CPU a read-only view of JAX's buffer: NumPy's results are writable
        return out[()] if out.ndim == 0 else out if out.flags.writeable else out.copy()
    return tree

def _npr_check_written(fname, name, v):
    """A container passed for a parameter the function writes into: refused (NPR207), since
    np2ref writes back into NumPy arrays only."""
    if isinstance(v, list):
        raise TypeError(f"{fname}(): argument `{name}` is a list, which the function "
                        "writes; np2ref writes back into NumPy arrays only (a list's item and "
                        f"slice assignment differ from an array's): pass np.array({name})")
    if isinstance(v, (tuple, dict)):
        raise NprError(f"np2ref NPR207: {fname}() writes into its argument `{name}`, a "
                       f"{type(v).__name__}; containers of written arrays are not translated (pass "
                       "each array as its own argument)")

class NprFunction:
    """A converted function. Called from host code with NumPy values, it runs jit-compiled and
    writes back every array argument the original mutates; called from converted code (refs,
    tracers), it is the plain ref program."""

    def __init__(self, fn, mutated=(), static_argnames=None, dtype_policy="preserve", bounds="checked"):
        _npr_functools.update_wrapper(self, fn)
        self.fn = fn
        self.mutated = tuple(mutated)
        self.signature = _npr_inspect.signature(fn)
        self.static_argnames = None if static_argnames is None else frozenset(
            (static_argnames,) if isinstance(static_argnames, str) else static_argnames)
        if dtype_policy not in ("preserve", "float32"):
            raise ValueError(f"dtype_policy must be 'preserve' or 'float32', not {dtype_policy!r}")
        self.dtype_policy = dtype_policy
        if bounds not in ("checked", "unchecked"):
            raise ValueError(f"bounds must be 'checked' or 'unchecked', not {bounds!r}")
        self.bounds = bounds
        self._jitted = {}
        self._plans = {}  # _plan_key(arguments in parameter order) -> _NprPlan
        kinds = [p.kind for p in self.signature.parameters.values()]
        # the parameter names when every one is an ordinary positional-or-keyword one, else None:
        # a call passing all of them by position then needs no Signature.bind
        self._positional = tuple(self.signature.parameters) if all(
            k == _npr_inspect.Parameter.POSITIONAL_OR_KEYWORD for k in kinds) else None
        self._defaults = {n: p.default for n, p in self.signature.parameters.items()
                          if p.default is not _npr_inspect.Parameter.empty}
        self._layout = None  # _npr_uses_layout(fn), found on the first NumPy call
        # (dynamic names, mutated names) -> keyword arguments for jax.jit (np2ref.compile's shardings)
        self.jit_options = None

    def __call__(self, *args, **kwargs):
        if _npr_state["depth"] or _npr_any_traced(args) or (kwargs and _npr_any_traced(kwargs.values())):
            return self.fn(*args, **kwargs)
        return self.call_numpy(*args, **kwargs)

    def __get__(self, obj, objtype=None):
        return self

    # -- the pure JAX function -------------------------------------------------------------
    def pure(self, *args, **kwargs):
        """(result, {name: final value}) for the mutated array parameters; traceable by the
        user's jax.jit / jax.vmap / jax.grad (keep ints that size arrays static)."""
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        values = dict(bound.arguments)
        for name in self.mutated:
            _npr_check_written(self.__name__, name, values.get(name))
        aliases = {n: n for n in self.mutated if _npr_arraylike(values.get(n))}
        result, finals, *_ = self._run(values, aliases)
        return result, finals

    def _run(self, values, aliases):
        _npr_state["depth"] += 1
        try:
            refs = {}
            call = dict(values)
            for name, leader in aliases.items():
                if leader not in refs:
                    refs[leader] = jax.new_ref(jnp.asarray(values[leader]))
                call[name] = refs[leader]
            bound = _npr_inspect.BoundArguments(self.signature, call)
            out = self.fn(*bound.args, **bound.kwargs)
            # which returned leaves are an argument itself or a view of one: NumPy returns that
            # very object, or a view of it, which the caller's writes show through
            leaves = jax.tree_util.tree_leaves(out, is_leaf=_npr_is_ref)
            returned = {i: (n, ()) for i, leaf in enumerate(leaves) for n, v in call.items() if leaf is v}
            owners = {id(refs[leader]): n for n, leader in aliases.items()}
            for i, leaf in enumerate(leaves):
                if i not in returned and isinstance(leaf, NprView) and id(leaf.base) in owners:
                    steps = _npr_numpy_steps(leaf)
                    if steps is not None:
                        returned[i] = (owners[id(leaf.base)], steps)
            # a view returned twice is one object twice, as in NumPy (`return b, b`); not for
            # traced values, where a no-op (`b.astype(b.dtype)`, `+b`) hands back its input
            first, same = {}, {}
            for i, leaf in enumerate(leaves):
                if _npr_is_ref(leaf) and first.setdefault(id(leaf), i) != i:
                    same[i] = first[id(leaf)]
            result = npr_value(out)
            finals = {n: refs[leader][...] for n, leader in aliases.items()}
        finally:
            _npr_state["depth"] -= 1
        return result, finals, returned, same

    # -- the NumPy-facing call -------------------------------------------------------------
    def _in_order(self, args, kwargs):
        """The call's arguments in parameter order, defaults filled in, without Signature.bind;
        None when only bind can tell (other parameter kinds, or a call bind would reject)."""
        names = self._positional
        if names is None or len(args) > len(names):
            return None
        if not kwargs and len(args) == len(names):
            return args
        ordered, used = list(args), 0
        for name in names[len(args):]:
            if name in kwargs:
                ordered.append(kwargs[name])
                used += 1
            elif name in self._defaults:
                ordered.append(self._defaults[name])
            else:
                return None
        return tuple(ordered) if used == len(kwargs) else None

    def _split(self, args, kwargs):
        ordered = self._in_order(args, kwargs)
        if ordered is not None:
            values = dict(zip(self._positional, ordered))
        else:
            bound = self.signature.bind(*args, **kwargs)
            bound.apply_defaults()
            values = dict(bound.arguments)
        static, dynamic = {}, {}
        for name, v in values.items():
            is_static = (name in self.static_argnames) if self.static_argnames is not None \
                else _npr_is_static(v)
            if name in self.mutated:
                _npr_check_written(self.__name__, name, v)
            if not is_static:
                v = self._device_ready(name, np.asarray(v) if isinstance(v, list) else v)
            (static if is_static else dynamic)[name] = v
        return values, static, dynamic

    def _device_ready(self, name, v):
        """A NumPy array as JAX can take it: in native byte order (data read from big-endian
        files), and of a dtype JAX holds (numbers and booleans), else a TypeError naming it.
        Subclasses that change what operators mean (np.matrix's `*`, masked arrays, arrays
        with units) are refused the same way; np.memmap is plain storage and passes."""
        if not isinstance(v, np.ndarray):
            return v
        if type(v) is not np.ndarray and not isinstance(v, np.memmap):
            raise TypeError(f"{self.__name__}(): argument `{name}` is a {type(v).__module__}."
                            f"{type(v).__qualname__}, whose operations np2ref does not model; pass "
                            f"np.asarray({name}) if plain array semantics are what you want")
        if not _npr_jax_dtype(v.dtype):
            raise TypeError(f"{self.__name__}(): argument `{name}` has dtype {v.dtype}, which JAX "
                            "arrays cannot hold; np2ref compiles numeric and boolean arrays")
        return v if v.dtype.isnative else v.astype(v.dtype.newbyteorder("="))

    def _aliases(self, values):
        """Mutated array arguments, each mapped to the argument whose buffer it shares. Arrays
        inside tuple, list and dict arguments are checked too (`f(a, (a,))`)."""
        arrays = {}
        for n, v in values.items():
            if isinstance(v, np.ndarray):
                arrays[n] = v
            elif isinstance(v, (tuple, list, dict)):
                flat, _ = jax.tree_util.tree_flatten_with_path(v)
                arrays.update({n + jax.tree_util.keystr(path): leaf for path, leaf in flat
                               if isinstance(leaf, np.ndarray)})
        if self._layout is None:
            self._layout = _npr_uses_layout(self.fn)
        if self._layout:
            for name in self.mutated:
                v = values.get(name)
                if isinstance(v, np.ndarray) and not _npr_layout_ok(v):
                    raise NprError(f"{self.__name__}(): `{name}` is not C-contiguous, and whether its "
                                   "reshape/ravel is a view depends on memory layout; pass "
                                   f"np.ascontiguousarray({name})")
        aliases = {}
        for name in self.mutated:
            v = values.get(name)
            if not isinstance(v, np.ndarray):
                continue
            aliases[name] = name
            for other, w in arrays.items():
                if other == name or not _npr_shares(v, w):
                    continue
                if w is v and other in self.mutated:
                    aliases[name] = min(name, other)
                    continue
                raise NprError(f"{self.__name__}(): the arguments `{name}` and `{other}` share memory "
                               f"and `{name}` is written; pass separate arrays (e.g. `{other}.copy()`)")
        return aliases

    def _compiled(self, static, aliases, dynamic_names):
        key = (tuple(sorted((k, _npr_static_key(v)) for k, v in static.items())), tuple(sorted(aliases.items())),
               dynamic_names)
        if key not in self._jitted:
            # The mutated arrays' device copies are donated: their final values (written back)
            # reuse those buffers. Only NumPy arrays reach here as aliases, so no caller-visible
            # buffer is ever donated.
            donated = tuple(sorted(n for n in set(aliases.values()) if n in dynamic_names))

            def run(dynamic, written):
                saved = _npr_state.get("bounds")  # the run-time index checks (see _npr_Bounds)
                checks = _npr_state["bounds"] = _npr_Bounds() if self.bounds == "checked" else None
                try:
                    result, finals, returned, same = self._run({**static, **dynamic, **written}, aliases)
                finally:
                    _npr_state["bounds"] = saved
                leaves, tree = jax.tree_util.tree_flatten(result)
                # Python values computed from static inputs stay Python values (an int stays an int)
                fixed = {i: v for i, v in enumerate(leaves) if _npr_is_python_value(v)}
                sites = tuple(checks.sites) if checks is not None else ()
                shape = _NprResultShape(tree, tuple(fixed.items()), tuple(returned.items()),
                                        tuple(same.items()), sites)
                return ([v for i, v in enumerate(leaves) if i not in fixed], finals, shape,
                        jnp.stack([checks.site[...], checks.value[...]]) if sites else None)
            options = self.jit_options(dynamic_names, tuple(aliases)) if self.jit_options else {}
            if "in_shardings" in options:  # the plan shards run(dynamic): split it as run's arguments
                (ins,) = options["in_shardings"]
                options["in_shardings"] = ({n: s for n, s in ins.items() if n not in donated},
                                           {n: ins[n] for n in donated})
            self._jitted[key] = (jax.jit(run, donate_argnums=(1,) if donated else (), **options), donated)
        return key, self._jitted[key]

    def _x64(self):
        return jax.enable_x64(self.dtype_policy == "preserve")

    def _plan_key(self, args):
        """What decides a call's jitted function and checks, read from its arguments in
        parameter order (_in_order): each static argument's _npr_static_key, _NprPlan.ARRAY for a NumPy
        array, None for another traced value. None when only the general path can tell
        (containers, whose arrays _aliases checks; subclasses and arrays JAX cannot take as they
        are: _device_ready)."""
        key = []
        for name, v in zip(self._positional, args):
            kind = type(v)
            if self.static_argnames is not None:
                static = name in self.static_argnames
            else:  # _npr_is_static(v), with the common types answered without a call
                static = kind in _NPR_STATIC_TYPES or (kind not in _NPR_TRACED_TYPES and _npr_is_static(v))
            if static:
                key.append(repr(v) if kind in _NPR_REPR_KEYED else _npr_static_key(v))
            elif kind is np.ndarray and v.dtype.isnative and _npr_jax_dtype(v.dtype):
                key.append(_NprPlan.ARRAY)
            elif isinstance(v, (list, tuple, dict, np.ndarray)):
                return None
            else:
                key.append(None)
        return tuple(key)

    def call_numpy(self, *args, **kwargs):
        ordered = self._in_order(args, kwargs)
        plan_key = None if ordered is None else self._plan_key(ordered)
        plan = self._plans.get(plan_key)
        if plan is None or not plan.admits(ordered, self._layout):
            return self._call_bound(args, kwargs, plan_key)
        args = ordered
        with self._x64():
            result, finals, shape, slot = plan.jitted(
                {n: args[i] for n, i in plan.kept}, {n: args[i] for n, i in plan.donated})
            shape.check_bounds(slot)
            finals = [(args[i], np.asarray(finals[n])) for n, i in plan.written]
        _npr_write_back(finals)
        return shape.numpy(result, dict(zip(self._positional, args)) if shape.returned else {})

    def _call_bound(self, args, kwargs, plan_key):
        """call_numpy for any call: binds the arguments, checks their aliasing, and leaves a plan
        under `plan_key` (None: none) for the next call like it."""
        values, static, dynamic = self._split(args, kwargs)
        aliases = self._aliases(values)
        key, (jitted, donated) = self._compiled(static, aliases, tuple(sorted(dynamic)))
        with self._x64():
            result, finals, shape, slot = jitted(*_npr_donation_split(dynamic, donated))
            if plan_key is not None and all(leader == n for n, leader in aliases.items()):
                self._plans[plan_key] = _NprPlan(self._positional, plan_key, jitted, dynamic, donated, aliases)
            shape.check_bounds(slot)
            finals = [(values[n], np.asarray(v)) for n, v in finals.items()]
        _npr_write_back(finals)
        return shape.numpy(result, values)

    def lower(self, *args, **kwargs):
        values, static, dynamic = self._split(args, kwargs)  # noqa: F841
        key, (jitted, donated) = self._compiled(static, self._aliases(values), tuple(sorted(dynamic)))
        with self._x64():
            return jitted.lower(*_npr_donation_split(dynamic, donated))

class _NprResultShape:
    """How a jitted run's leaves make the converted function's result: its tree, the Python
    values fixed at trace time, and which leaves are an argument itself. It is a leafless pytree
    whose aux data is all of that, so each compiled executable hands back the shape it was
    traced with (a retrace for new shapes cannot mix one call's result up with another's)."""

    def __init__(self, tree, fixed, returned, same, sites=()):
        self.tree, self.fixed, self.returned, self.same = tree, dict(fixed), dict(returned), dict(same)
        self.sites = sites  # the run-time index checks traced (_npr_Bounds.sites)
        self._aux = (tree, fixed, returned, same, sites)

    def check_bounds(self, slot):
        """NumPy's IndexError when a run-time index check failed (`slot`: the checks' record,
        (site, value), None when there were none), raised before anything is written back."""
        error = None if slot is None else _npr_bounds_error(self.sites, *np.asarray(slot))
        if error is not None:
            raise error

    def numpy(self, result, values):
        """The result as NumPy returns it: an argument returned is the caller's own array, and
        a view of one a view of the caller's array (made after the write-back)."""
        tree = self.tree
        if not tree.num_leaves:  # None (an in-place kernel), (), {}: nothing to convert
            return jax.tree_util.tree_unflatten(tree, ())
        dynamic_leaves = iter(result)
        leaves = [self.fixed[i] if i in self.fixed else next(dynamic_leaves) for i in range(tree.num_leaves)]
        leaves = [_npr_to_numpy(leaf) for leaf in leaves]
        for i, (name, steps) in self.returned.items():
            given = values.get(name)
            if isinstance(given, np.ndarray):
                leaves[i] = _npr_numpy_view(given, steps)
        for i, j in self.same.items():
            leaves[i] = leaves[j]
        return jax.tree_util.tree_unflatten(tree, leaves)

def _npr_numpy_steps(view):
    """An NprView's steps from its base as NumPy would take them (hashable: slices as tuples),
    or None when an index in them is traced (known only when the program runs)."""
    steps = []
    for kind, arg in view.steps:
        if kind == 's':
            if arg.traced:
                return None
            arg = tuple((slice, e.start, e.stop, e.step) if isinstance(e, slice) else e for e in arg.probe)
        steps.append((kind, arg))
    return tuple(steps)

def _npr_numpy_view(a, steps):
    """The view of NumPy array `a` that _npr_numpy_steps describe."""
    for kind, arg in steps:
        if kind == 's':
            a = a[tuple(slice(*e[1:]) if isinstance(e, tuple) and e[:1] == (slice,) else e for e in arg)]
        elif kind == 'r':
            a = a.reshape(arg)
        else:
            a = a.transpose(arg)
    return a

def _npr_result_shape(aux, children):
    """_NprResultShape's unflatten: one object per traced signature, not one per call. Kept by
    the aux tuple's identity (each executable holds its own), never by equality, under which
    True == 1 == 1.0 and one signature's fixed values would stand for another's."""
    shape = _NPR_RESULT_SHAPES.get(id(aux))
    if shape is None or shape._aux is not aux:
        shape = _NPR_RESULT_SHAPES[id(aux)] = _NprResultShape(*aux)
    return shape

_NPR_RESULT_SHAPES = {}  # id(aux) -> _NprResultShape

jax.tree_util.register_pytree_node(_NprResultShape, lambda s: ((), s._aux), _npr_result_shape)

class _NprPlan:
    """A call's route to its jitted function, kept per _plan_key: which arguments
    are kept, donated and written back (by position), and which pairs of NumPy arrays must not
    share memory. A call it does not admit takes the general path, which raises or aliases."""
    ARRAY = object()

    def __init__(self, names, key, jitted, dynamic, donated, written):
        position = {n: i for i, n in enumerate(names)}
        self.jitted = jitted
        self.kept = tuple((n, position[n]) for n in dynamic if n not in donated)
        self.donated = tuple((n, position[n]) for n in donated)
        self.written = tuple((n, position[n]) for n in written)
        arrays = [i for i, k in enumerate(key) if k is _NprPlan.ARRAY]
        self.apart = tuple((i, j) for _, i in self.written for j in arrays if j != i)

    def admits(self, args, layout):
        if layout and not all(_npr_layout_ok(args[i]) for _, i in self.written):
            return False
        return not any(_npr_shares(args[i], args[j]) for i, j in self.apart)

def _npr_write_back(finals):
    """Copy each (NumPy array, final value) pair back, once the whole call has succeeded. A
    read-only array whose value did not change takes no copy (the function writes it only on
    a path this call did not take); one that changed raises NumPy's ValueError before any
    array is written."""
    for target, final in finals:
        if not target.flags.writeable and \
                final.astype(target.dtype, copy=False).tobytes() != target.tobytes():
            raise ValueError("assignment destination is read-only")
    for target, final in finals:
        if target.flags.writeable:
            np.copyto(target, final, casting="unsafe")

def _npr_jax_dtype(dt):
    """Whether JAX arrays hold this dtype: booleans and numbers up to 64-bit (no long double)."""
    return dt.kind in "biufc" and dt.itemsize <= (16 if dt.kind == "c" else 8)

def _npr_layout_ok(v):
    return v.flags.c_contiguous or v.size <= 1

def _npr_shares(a, b):
    """np.shares_memory, after the cheap bounds test that rules out most pairs."""
    return np.may_share_memory(a, b) and np.shares_memory(a, b)

def _npr_donation_split(dynamic, donated):
    """(the dynamic arguments kept, those donated) for NprFunction's jitted `run`."""
    if not donated:
        return dynamic, {}
    return {n: v for n, v in dynamic.items() if n not in donated}, {n: dynamic[n] for n in donated}

def _npr_uses_layout(fn, seen=None):
    """Whether a converted function (or one it calls) makes reshape/ravel views: those are
    views only of C-contiguous buffers, which is what a jax.Ref holds."""
    seen = set() if seen is None else seen
    if id(fn) in seen:
        return False
    seen.add(id(fn))
    codes, names = [fn.__code__], set()
    while codes:
        code = codes.pop()
        names |= set(code.co_names)
        codes += [c for c in code.co_consts if hasattr(c, "co_names")]
    if names & {"npr_reshape", "npr_ravel"}:
        return True
    for name in names:
        callee = fn.__globals__.get(name)
        if isinstance(callee, NprFunction) and _npr_uses_layout(callee.fn, seen):
            return True
    return False

def _npr_is_python_value(v):
    return isinstance(v, (bool, int, float, complex, str, type(None))) and not isinstance(v, np.generic)

def _npr_arraylike(v):
    return isinstance(v, (np.ndarray, jax.Array)) and not isinstance(v, np.generic)

def npr_jit(fn=None, *, mutated=(), static_argnames=None, dtype_policy="preserve", bounds="checked"):
    """Decorator on each converted function: see NprFunction."""
    def wrap(f):
        return NprFunction(f, mutated, static_argnames, dtype_policy, bounds)
    return wrap(fn) if fn is not None else wrap

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

class NprRange:
    """`range(...)` whose bounds may be traced (read from arrays)."""

    def __init__(self, start, stop, step):
        if _npr_is_concrete(step) and int(step) == 0:
            raise ValueError("range() arg 3 must not be zero")
        self.start, self.stop, self.step = start, stop, step

def npr_range(*args):
    if len(args) == 1:
        return NprRange(0, args[0], 1)
    return NprRange(args[0], args[1], args[2] if len(args) == 3 else 1)

def _npr_is_concrete(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)

def npr_for(rng, body, *init, python=""):
    """`for i in range(...)`: `body(i, carry) -> carry` (or `body(i)` without carried values)
    as a lax.fori_loop, so compile time does not grow with the trip count. Refs are closed
    over by the body. It runs as the plain Python loop it was, saying so (PythonLoopWarning),
    when the analysis says why (`python`: the body changes a Python list, say), or, with static
    bounds, when the body turns out to need the loop variable's value (it indexes a Python tuple
    with it, or slices with it: python_loops.py lists those errors) or changes a Python
    container after all. A failed or discarded lax trace leaves the containers as they were."""
    static = all(_npr_is_concrete(v) for v in (rng.start, rng.stop, rng.step))
    has = bool(init)
    carry = init[0] if has else None
    if static and len(range(int(rng.start), int(rng.stop), int(rng.step))) == 0:
        return carry
    if python and not static:
        raise NotImplementedError(f"np2ref NPR034: this loop must run as a Python loop ({python}), but its "
                                  f"trip count depends on array data")
    if python:
        return _npr_python_for(rng, body, carry, has, python)
    kept = _npr_containers([body, carry])
    try:
        out = _npr_lax_for(rng, body, carry, has)
    except _NPR_PYTHON_LOOP_ERRORS as exc:
        reason = _npr_python_loop_reason(exc) if static else None
        if reason is None:
            raise
        _npr_changed(kept)
        return _npr_python_for(rng, body, carry, has, reason)
    changed = _npr_changed(kept)
    if changed is None:
        return out
    reason = f"the body changes a {_npr_kind(changed)} that outlives an iteration"
    if not static:
        raise NotImplementedError(f"np2ref NPR034: {reason}, in a loop whose trip count depends on array data")
    return _npr_python_for(rng, body, carry, has, reason)

def _npr_lax_for(rng, body, carry, has):
    start, stop, step = rng.start, rng.stop, rng.step
    if not _npr_is_concrete(step):
        raise NotImplementedError("np2ref NPR121: a range step read from array data is not translated")
    step = int(step)
    span = stop - start
    trips = (span + step - 1) // step if step > 0 else (span + step + 1) // step
    trips = jnp.maximum(trips, 0) if not _npr_is_concrete(trips) else max(int(trips), 0)
    if not _npr_is_concrete(trips) and _npr_reverse_mode([body, carry]):
        # a fori_loop with traced bounds is a while_loop, which reverse mode cannot go through;
        # an enclosing loop with static bounds then runs as Python, making these bounds concrete
        raise NotImplementedError("np2ref NPR124: a loop whose bounds depend on data (or on an "
                                  "enclosing compiled loop) cannot be reverse-differentiated")

    if step == 1 and not _npr_is_concrete(trips):  # the loop counts i itself: no k, no i = start + k
        dt = jnp.result_type(start, stop)
        bounds, index = (jnp.asarray(start, dt), jnp.asarray(stop, dt)), (lambda k: k)
    else:
        bounds, index = (0, trips), (lambda k: start + k * step)

    span = (int(start), int(start) + (int(trips) - 1) * step) if _npr_is_concrete(start) and \
        _npr_is_concrete(trips) else None

    def one(k, c):
        i = index(k)
        if span is not None:  # the index checks need not check i itself (_npr_check_bounds)
            _npr_note_range(i, min(span), max(span))
        return body(i, c) if has else (body(i), c)[1]

    if not has:
        with _npr_maybe_untaken(not _npr_is_concrete(trips)), _npr_batched_control([trips]):
            _npr_fori(bounds, one, 0)
        return None
    fixed, carry = _npr_split_refs(carry)
    if fixed:  # refs among the carried names (a parameter that is an array) stay closed over
        inner = one

        def one(k, c):
            return _npr_split_refs(inner(k, _npr_join_refs(fixed, c)))[1]
    with _npr_maybe_untaken(not _npr_is_concrete(trips)), _npr_batched_control([trips]):
        c0 = _npr_settle(lambda c: one(jnp.asarray(bounds[0]), c), carry)
        out = _npr_fori(bounds, one, c0)
    return _npr_join_refs(fixed, out) if fixed else out

def _npr_fori(bounds, one, c0):
    """lax.fori_loop(*bounds, one, c0), the body closing over its refs. Under reverse-mode
    differentiation on JAX 0.10 the refs' values become loop state and the body runs
    state-discharged: JAX 0.10.2 transposes a scan whose body makes refs of its own wrongly
    (silently wrong gradients; fixed in 0.11)."""
    swap, split = _npr_split_views([one])
    if split:  # row views of one buffer become refs of their own for the loop (see below)
        one = _npr_rebind(one, swap, {})
        out = _npr_fori(bounds, one, c0)
        for view, ref in split:
            npr_at(view)[...] = ref[...]
        return out
    refs = _npr_reachable_refs([one], [c0])
    if not refs:
        return lax.fori_loop(*bounds, one, c0)
    discharge = _npr_discharge_state() is not None and _npr_differentiated([one, c0] + refs)
    # a trip count batched by vmap makes the loop a while_loop with a batched predicate, which
    # JAX 0.10 cannot batch with ref effects in its body: the refs' values become loop state
    batched = _npr_batched([one, c0] + refs)
    if not discharge and not (batched and not all(_npr_is_concrete(b) for b in bounds)):
        return lax.fori_loop(*bounds, one, c0)

    @_npr_tracing_batched(batched)
    def pure_step(k, state):
        fresh = [jax.new_ref(v) for v in state[0]]
        c = _npr_rebind(one, {id(r): f for r, f in zip(refs, fresh)}, {})(k, state[1])
        return [f[...] for f in fresh], c

    pure_step._npr_lifted = True  # its closure holds the outer refs: not searched again
    step = _npr_discharging(pure_step, _npr_reverse_mode([one, c0] + refs)) if discharge else jax.jit(pure_step)
    values, out = lax.fori_loop(*bounds, step, ([r[...] for r in refs], c0))
    for r, v in zip(refs, values):
        r[...] = v
    return out

def _npr_batched(objs):
    """Whether vmap batches a value among objs (or reachable from them), or a lifted body being
    traced belongs to a batched loop or branch (jit hides the batching from its trace)."""
    return bool(_npr_state.get("batched")) or _npr_traced_by(objs, ("BatchTracer",))

class _npr_batched_scope:
    """While it is entered (with `on`), _npr_batched says so: a lifted body traced for a batched
    loop or branch, or a loop or branch whose trip count or predicate jax.vmap batches. Every
    batch member then runs the body, so a host draw in it (npr_random) is refused (NPR023) rather
    than left to JAX's raw "ordered effects not supported in vmap"."""

    def __init__(self, on):
        self.on = on

    def __enter__(self):
        if self.on:
            _npr_state["batched"] = _npr_state.get("batched", 0) + 1

    def __exit__(self, *exc):
        if self.on:
            _npr_state["batched"] -= 1

def _npr_batched_control(controls):
    """_npr_batched_scope for a loop or branch controlled by `controls` (bounds, a predicate)."""
    return _npr_batched_scope(_npr_traced_by(controls, ("BatchTracer",)))

def _npr_tracing_batched(batched):
    """Decorator: while the function runs (is traced), _npr_batched says so if `batched`."""
    def wrap(fn):
        if not batched:
            return fn

        @_npr_functools.wraps(fn)
        def run(*args):
            with _npr_batched_scope(True):
                return fn(*args)
        return run
    return wrap

def _npr_split_views(fns):
    """({id(view): fresh ref}, [(view, fresh ref)]) for the views a loop body reaches that are
    two or more disjoint basic-index views of one buffer (`b = work[1]`, `d = work[3]`) whose
    buffer the body does not reach otherwise. Each gets a ref of its own for the loop, stored
    back through the view after it: exact, since no element is reachable through two of them,
    and XLA:CPU no longer copies the whole buffer when one iteration stores into two of its
    rows (thomas_tridiag: 7.7 ms a sweep at n = 2000, 0.05 ms with separate refs)."""
    leaves = list(_npr_reachable(fns, views=True))
    bare = {id(leaf) for leaf in leaves if isinstance(leaf, jax.Ref)}
    groups = {}
    for leaf in leaves:
        if isinstance(leaf, NprView):
            groups.setdefault(id(leaf.base), {})[id(leaf)] = leaf
    swap, split = {}, []
    for base, views in groups.items():
        views = list(views.values())
        if base in bare or len(views) < 2 or any(
                kind != 's' or arg.adv or arg.mask is not None for v in views for kind, arg in v.steps):
            continue
        if any(_npr_overlap(x, y) for i, x in enumerate(views) for y in views[i + 1:]):
            continue
        for v in views:
            swap[id(v)] = jax.new_ref(npr_load(v))
            split.append((v, swap[id(v)]))
    return swap, split

def _npr_split_refs(carry):
    """(refs by position, the carry without them): refs cannot be loop carries. A single
    carried value is position 0 of a one-element carry."""
    items = carry if isinstance(carry, tuple) else (carry,)
    fixed = {i: v for i, v in enumerate(items) if _npr_is_ref(v)}
    rest = tuple(v for i, v in enumerate(items) if i not in fixed)
    fixed["tuple"] = isinstance(carry, tuple)
    return (fixed if len(fixed) > 1 else {}), (rest if isinstance(carry, tuple) or len(fixed) > 1 else carry)

def _npr_join_refs(fixed, rest):
    rest = list(rest) if isinstance(rest, tuple) else [rest]
    size = len(rest) + len(fixed) - 1
    out = [fixed[i] if i in fixed else rest.pop(0) for i in range(size)]
    return tuple(out) if fixed["tuple"] else out[0]

class _NprUnset:
    """A name a branch may define that had no value before the `if`."""

    def __repr__(self):
        return "npr_unset"

npr_unset = _NprUnset()

def _npr_settle(step, carry):
    """The loop's initial state, typed as one iteration leaves it: an int counter that becomes
    a float is widened (as NumPy's rebinding would), a name first assigned in the loop
    (`npr_unset`) starts as zeros of the type the loop gives it."""
    leaves, tree = jax.tree_util.tree_flatten(carry)
    unset = [leaf is npr_unset for leaf in leaves]
    state = [_npr_placeholder(leaf) for leaf in leaves]
    for _ in range(3):
        out = jax.tree_util.tree_leaves(jax.eval_shape(lambda *s: step(jax.tree_util.tree_unflatten(tree, s)), *state))
        new = [jnp.zeros(o.shape, o.dtype) if u else
               jnp.broadcast_to(a, o.shape).astype(jnp.promote_types(a.dtype, o.dtype))
               for a, o, u in zip(state, out, unset)]
        unset = [False] * len(unset)
        if all(a.dtype == b.dtype and a.shape == b.shape for a, b in zip(state, new)):
            break
        state = new
    return jax.tree_util.tree_unflatten(tree, state)

def _npr_placeholder(v):
    return jnp.zeros((), jnp.float64) if v is npr_unset else jnp.asarray(v)

class _npr_maybe_untaken:
    """Around tracing a body that may never run (a loop whose trip count, or a branch whose
    condition, is known only at run time): an error NumPy's rules raise in it (a cast
    `same_kind` forbids, a shape mismatch) would stop NumPy only if the body ran, so it becomes
    refusal NPR127 instead of an error the original does not raise."""

    def __init__(self, active):
        self.active = active

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if (self.active and kind is not None and issubclass(kind, (TypeError, ValueError, IndexError))
                and not type(exc).__module__.startswith("jax") and _npr_python_loop_reason(exc) is None):
            raise NotImplementedError(f"np2ref NPR127: code that runs only for some data raises "
                                      f"{kind.__name__} when traced: {exc}") from exc
        return False

def _npr_discharge_state():
    """JAX's own state discharge (a private function; None where it is missing: loops then
    keep their refs)."""
    try:
        from jax._src.state.discharge import discharge_state
    except ImportError:  # pragma: no cover
        return None
    return discharge_state

def _npr_discharging(fn, reverse=False):
    """fn (array pytrees in and out, refs made and used only inside) as the pure function JAX's
    state discharge makes of it; `reverse`: it is traced under reverse-mode differentiation."""
    def run(*args):
        modes = ("differentiating", "reverse") if reverse else ("differentiating",)
        for mode in modes:
            _npr_state[mode] = _npr_state.get(mode, 0) + 1
        try:  # traced abstractly here, but under differentiation (loops inside must know)
            closed, shape = jax.make_jaxpr(fn, return_shape=True)(*args)
        finally:
            for mode in modes:
                _npr_state[mode] -= 1
        discharge = _npr_discharge_state()
        try:
            pure = discharge(closed)
        except TypeError:  # an older signature: (jaxpr, consts) -> (jaxpr, consts)
            pure = jax.core.ClosedJaxpr(*discharge(closed.jaxpr, closed.consts))
        out = jax.core.eval_jaxpr(pure.jaxpr, pure.consts, *jax.tree_util.tree_leaves(args))
        return jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(shape), out)
    return run

def _npr_reachable(objs, views=False):
    """Every leaf value among objs, in the containers and the closures of the functions among
    them (lifted bodies excepted: their closures hold the outer refs), NprViews as their base
    (as themselves with `views`)."""
    seen = set()

    def visit(obj):
        if isinstance(obj, NprView):
            yield obj if views else obj.base
        elif isinstance(obj, (tuple, list, dict)):
            for o in (obj.values() if isinstance(obj, dict) else obj):
                yield from visit(o)
        elif isinstance(obj, _npr_types.FunctionType):
            if id(obj) in seen or getattr(obj, "_npr_lifted", False):
                return
            seen.add(id(obj))
            for cell in obj.__closure__ or ():
                try:
                    contents = cell.cell_contents
                except ValueError:  # a name not bound yet
                    continue
                yield from visit(contents)
        else:
            yield obj

    for obj in objs:
        yield from visit(obj)

def _npr_differentiated(objs):
    """Whether a tracer among objs (or reachable from them) is being differentiated: a JVP or
    linearize tracer, possibly under vmap."""
    return bool(_npr_state.get("differentiating")) or _npr_traced_by(objs, _npr_TANGENT_TRACERS)

def _npr_reverse_mode(objs):
    """Whether reverse-mode differentiation (jax.grad, vjp, linearize) traces a value among objs
    (or reachable from them): a while_loop carrying it cannot be transposed."""
    if _npr_state.get("reverse"):
        return True
    for leaf in _npr_reachable(objs):
        for _ in range(16):
            if not isinstance(leaf, jax.core.Tracer):
                break
            kind = type(leaf).__name__
            if kind == "LinearizeTracer" or (kind == "JVPTracer" and
                                             type(getattr(leaf, "tangent", None)).__name__ == "JaxprTracer"):
                return True
            leaf = getattr(leaf, "val", getattr(leaf, "primal", None))
    return False

def _npr_traced_by(objs, kinds):
    """Whether a leaf among objs (or reachable from them) is a tracer of one of `kinds` (type
    names), possibly wrapped in tracers of other transformations."""
    return any(_npr_has_tracer(leaf, kinds) for leaf in _npr_reachable(objs))

def _npr_reachable_refs(fns, values):
    """The distinct refs (NprView bases included) among `values` and in the closures of `fns`."""
    found = {}
    for leaf in _npr_reachable(list(fns) + list(values)):
        if isinstance(leaf, jax.Ref):
            found.setdefault(id(leaf), leaf)
    return list(found.values())

def _npr_rebind(obj, swap, memo):
    """`obj` with every ref in `swap` (by id) replaced, through views and closures."""
    if isinstance(obj, jax.Ref):
        return swap.get(id(obj), obj)
    if isinstance(obj, NprView):
        if id(obj) in swap:
            return swap[id(obj)]
        return NprView(swap[id(obj.base)], obj.steps, obj._d) if id(obj.base) in swap else obj
    if isinstance(obj, (tuple, list, dict)):  # the same object when nothing in it changes: a list
        items = obj.items() if isinstance(obj, dict) else enumerate(obj)  # a body appends to stays one
        new = {k: _npr_rebind(o, swap, memo) for k, o in items}
        if all(new[k] is o for k, o in (obj.items() if isinstance(obj, dict) else enumerate(obj))):
            return obj
        return new if isinstance(obj, dict) else type(obj)(new.values())
    if not isinstance(obj, _npr_types.FunctionType) or not obj.__closure__:
        return obj
    if id(obj) in memo:
        return memo[id(obj)]
    cells = tuple(_npr_types.CellType() for _ in obj.__closure__)
    new = _npr_types.FunctionType(obj.__code__, obj.__globals__, obj.__name__, obj.__defaults__, cells)
    new.__kwdefaults__ = obj.__kwdefaults__
    memo[id(obj)] = new
    for old, cell in zip(obj.__closure__, cells):
        try:
            cell.cell_contents = _npr_rebind(old.cell_contents, swap, memo)
        except ValueError:
            pass
    return new

import linecache as _npr_linecache

import re as _npr_re

import sys as _npr_sys

import warnings as _npr_warnings

class PythonLoopWarning(UserWarning):
    """A compiled loop runs as a Python loop (NPR033): exact, but tracing takes one copy of
    its body per iteration, so compile time grows with the trip count."""

PythonLoopWarning = getattr(_npr_sys.modules.get("np2ref.diagnostics"), "PythonLoopWarning", PythonLoopWarning)

_npr_warned = {}  # the warnings registry: each loop (line and message) warns once

def _npr_python_loop_reason(exc):
    """Why a body could not be traced with a traced loop variable, for the errors that mean it
    needs the variable's value (then a Python loop, with static bounds, is exact); None for any
    other error, which must surface."""
    errors = getattr(jax, "errors", None)
    text = str(exc)
    if isinstance(exc, getattr(errors, "TracerBoolConversionError", ())):
        return "a Python `if` tests the loop variable"
    if isinstance(exc, getattr(errors, "TracerIntegerConversionError", ())):
        return "the body uses the loop variable as a Python int (it indexes a tuple or list with it)"
    if isinstance(exc, getattr(errors, "ConcretizationTypeError", ())) or (
            isinstance(exc, TypeError) and text.startswith("Shapes must be 1D sequences of concrete values")):
        return "a size or shape in the body depends on the loop variable"
    if (isinstance(exc, IndexError) and ("Slice entries must be static" in text or "slice indices must have static" in text)) \
            or (isinstance(exc, NotImplementedError) and text.startswith("np2ref NPR106")):
        return "a slice's bounds depend on the loop variable"
    if isinstance(exc, NotImplementedError) and text.startswith("np2ref NPR124"):
        return "an inner loop's bounds depend on the loop variable, under reverse-mode differentiation"
    return None

_NPR_PYTHON_LOOP_ERRORS = (TypeError, IndexError, NotImplementedError)  # what _npr_python_loop_reason may accept

def _npr_python_for(rng, body, carry, has, reason):
    """The loop as the plain Python loop it was, then PythonLoopWarning with the user's line and
    the trip count (after the loop: a loop that fails reports its error, not this)."""
    trips = range(int(rng.start), int(rng.stop), int(rng.step))
    c = carry
    for i in trips:
        c = body(i, c) if has else body(i)
    filename, line = _npr_user_line()
    _npr_warnings.warn_explicit(f"NPR033 this loop runs as a Python loop ({len(trips)} iterations, traced one "
                                f"by one: compile time grows with the trip count): {reason}",
                                PythonLoopWarning, filename, line, registry=_npr_warned)
    return c

def _npr_user_line():
    """(file, line) of the converted code that called into the runtime: the original line where
    np2ref.compile marked it (`# @L<n>`), else the converted file's own."""
    frame = _npr_sys._getframe(1)
    while frame is not None and (frame.f_code.co_name.startswith(("npr_", "_npr_"))
                                 or frame.f_code.co_filename == "<np2ref runtime>"):
        frame = frame.f_back
    if frame is None:
        return "<unknown>", 0
    filename, line = frame.f_code.co_filename, frame.f_lineno
    mark = _npr_re.search(r"# @L(\d+)\s*$", _npr_linecache.getline(filename, line))
    if mark:
        line = int(mark.group(1))
        filename = _npr_re.sub(r"^<np2ref: (.*)>$", r"\1", filename)
    return filename, line

def _npr_containers(objs):
    """(container, copy) for the lists, dicts and sets among objs, in tuples and in the closures
    of the functions among them: what a traced body could change as a Python side effect."""
    found, seen = [], set()

    def visit(obj):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if isinstance(obj, (list, dict, set)):
            found.append((obj, obj.copy()))
        elif isinstance(obj, tuple):
            for o in obj:
                visit(o)
        elif isinstance(obj, _npr_types.BuiltinMethodType):  # `add = hist.append`
            visit(obj.__self__)
        elif isinstance(obj, _npr_types.FunctionType) and not getattr(obj, "_npr_lifted", False):
            for cell in obj.__closure__ or ():
                try:
                    visit(cell.cell_contents)
                except ValueError:  # a name not bound yet
                    pass

    for obj in objs:
        visit(obj)
    return found

def _npr_changed(kept):
    """The first container in `kept` (from _npr_containers) that no longer holds what it did,
    each put back as it was (a trace that changed it left tracers in it); None if none changed."""
    changed = None
    for obj, copy in kept:
        same = len(obj) == len(copy) and (
            all(a is b for a, b in zip(obj, copy)) if isinstance(obj, list) else
            all(obj.get(k, obj) is v for k, v in copy.items()) if isinstance(obj, dict) else obj == copy)
        if not same:
            changed = changed if changed is not None else obj
            obj.clear()
            obj.extend(copy) if isinstance(obj, list) else obj.update(copy)
    return changed

def _npr_kind(container):
    return f"Python {type(container).__name__}"
# ---- end of np2ref runtime ----

ENTRY = "deposit_run"

NG = 32          # grid nodes per side
NPART = 4000     # particles
STEPS = 40
DT = 0.05


@npr_jit(mutated=('rho',))
def deposit(rho, x, y, q):
    """Bilinear (CIC) deposit of charges q at (x, y) into rho, which is
    zeroed first. Coordinates are in grid units, 0 <= x, y < ng."""
    ng = rho.shape[0]
    ix = npr_np_floor(x).astype(jnp.int64)
    iy = npr_np_floor(y).astype(jnp.int64)
    fx = x - ix
    fy = y - iy
    jx = (ix + 1) % ng
    jy = (iy + 1) % ng
    npr_fill(rho, 0.0)
    npr_ufunc_at('add', rho, (ix, iy), q * (1.0 - fx) * (1.0 - fy))
    npr_ufunc_at('add', rho, (jx, iy), q * fx * (1.0 - fy))
    npr_ufunc_at('add', rho, (ix, jy), q * (1.0 - fx) * fy)
    npr_ufunc_at('add', rho, (jx, jy), q * fx * fy)


@npr_jit(mutated=('x', 'y'))
def push(x, y, dt):
    """Move particles in a steady vortex field, wrapping periodically."""
    ng = NG * 1.0
    vx = -npr_np_sin(2.0 * np.pi * npr_load(y) / ng)
    vy = npr_np_sin(2.0 * np.pi * npr_load(x) / ng)
    x = npr_iop(x, '+', dt * ng / 4.0 * vx)
    y = npr_iop(y, '+', dt * ng / 4.0 * vy)
    x = npr_iop(x, '%', ng)
    y = npr_iop(y, '%', ng)


@npr_jit(mutated=('x', 'y', 'rho_mean'))
def deposit_run(x, y, q, rho_mean, steps):
    """Move and deposit `steps` times; x, y and rho_mean (the time-averaged
    density) are updated in place. Returns the last instantaneous density."""
    rho = jax.new_ref(jnp.zeros_like(rho_mean[...]))
    npr_fill(rho_mean, 0.0)
    def _loop_k(k):
        push(x, y, DT)
        deposit(rho, x[...], y[...], q)
        npr_at(rho_mean)[...] += rho[...] / steps
    npr_for(npr_range(steps), _loop_k)
    return rho[...]


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    n, steps = (200, 4) if size == "small" else (NPART, STEPS)
    x = NG * (0.25 + 0.2 * rng.random(n))
    y = NG * (0.4 + 0.2 * rng.random(n))
    return dict(x=x, y=y, q=np.full(n, 1.0 / n), rho_mean=np.zeros((NG, NG)), steps=steps)


if __name__ == "__main__":
    inputs = make_inputs("large")
    rho = deposit_run(**inputs)
    print(f"total charge = {rho.sum():.6f}")
    print(f"peak mean    = {inputs['rho_mean'].max():.6f}")
    print(f"centroid x   = {inputs['x'].mean():.6f}")
