"""How stores and reads are lowered: the store memory, the pad/where and shifted-read
peepholes (switch them with _npr_LOWERING). The last-wins scatter is scatter.py; the order of
stores that XLA:CPU's copy insertion needs, store_order.py."""


from jax import lax
import jax.numpy as jnp
import numpy as np

from .compat import (
    _npr_eqn_inputs, _npr_equations, _npr_is_ref_aval, _npr_producer, _npr_trace_of, _npr_traced,
    _npr_widened_from)
from .compat_jaxpr import _npr_aval, _npr_eqn_name, _npr_params
from .core import _npr_state


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
        swap = _npr_equations()[-1]
        ref, stored = _npr_eqn_inputs(swap)[:2]
        if _npr_eqn_name(swap) != 'swap' or stored is not new or tuple(new.shape) != tuple(_npr_aval(ref).shape):
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
    aval = _npr_aval(x)
    return x is ref or (_npr_is_ref_aval(aval) and getattr(aval, 'shape', None) == _npr_aval(ref).shape
                        and getattr(aval, 'dtype', None) == _npr_aval(ref).dtype)


def _npr_region_value(store, key):
    """The region `key` (_npr_region_key) of the array `store` made, built from the values the
    last stores put instead of sliced out of it; None when some of it was not stored by them,
    or a region overlaps a store's in a way not handled (strided ranges, for one)."""
    if store is None or key is None:
        return None
    idx = _npr_within(key, store.key)
    if idx is not None:
        return store.val[idx]
    if _npr_elements(key, store.key):
        return _npr_element_value(store, key)
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


def _npr_elements(key, stored):
    """Whether both region keys are single elements (ints or traced ints, one per dim) that
    some traced index leaves undecided: `A[i, j] = t` then `A[j, j]` (equal only when i == j)."""
    one = lambda k: all(isinstance(e, int) or _npr_is_tkey(e) for e in k)  # noqa: E731
    return (len(key) == len(stored) and one(key) and one(stored)
            and any(_npr_is_tkey(e) for e in key + stored))


def _npr_element_value(store, key):
    """The element `key` of the array `store` made, when it may or may not be the element it
    stored: the stored value where the indices are equal, else the element of the array before
    the store (or of what earlier noted stores put). Read from before the store, the element
    is computed with no reference to the array it updated, so XLA updates that in place
    instead of copying it per iteration (Cholesky's `A[i, j] -= ...; A[i, j] /= A[j, j]`)."""
    same = True
    for k, s in zip(key, store.key):
        if isinstance(k, int) and isinstance(s, int):
            if k != s:
                return _npr_element_before(store, key)
            continue
        same = same & (_npr_key_index(k) == _npr_key_index(s))
    return jnp.where(same, jnp.reshape(store.val, ()), _npr_element_before(store, key))


def _npr_element_before(store, key):
    base = _npr_region_value(store.prior, key)
    return jnp.reshape(base if base is not None else _npr_region_get(store.under, key), ())


def _npr_key_index(k):
    """An element key's index, normalised (a traced one counted from the end when negative)."""
    return k if isinstance(k, int) else jnp.where(k.raw < 0, k.raw + k.n, k.raw)


def _npr_meet(key, stored):
    """How region `key` meets region `stored` (both of ints and unit-step ranges): 'disjoint',
    or (the index of the shared elements in the value stored, their shape in key's dims, their
    offsets in key's dims); None for other regions."""
    unit = lambda k: isinstance(k, int) or isinstance(k, tuple) and k[1] > 0 and (k[2] == 1 or k[1] == 1)  # noqa: E731
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
        load = _npr_producer(cur)
        if load is None or _npr_eqn_name(load) != 'get':
            return None
        ref = _npr_eqn_inputs(load)[0]
        rec = _npr_state.get("stores", {}).get(id(ref))
        if rec is None or rec.ref is not ref or tuple(cur.shape) != tuple(_npr_aval(ref).shape):
            return None
        eqns, loads = _npr_equations(_npr_trace_of(cur)), 0
        absorbed = _npr_state.get("absorbed", ())
        for k in range(len(eqns) - 1, max(len(eqns) - 1 - window, -1), -1):
            e = eqns[k]
            if e is None:  # collected: JAX 0.10 keeps every equation with effects, so this one
                return None  # wrote nothing; a JAX that did not would make this unsafe
            if e is rec.swap:
                return rec, loads
            if _npr_eqn_name(e) == 'get' and _npr_eqn_inputs(e)[0] is ref:
                loads += id(e) not in absorbed  # (a load read only through the stores: not counted)
            elif any(_npr_may_be(x, ref) for x in _npr_eqn_inputs(e)):
                return None
        return None
    except Exception:  # another JAX's tracer internals: read the array
        return None


def _npr_only_store(ref):
    """What the function being traced did to the Ref `ref` (of its trace, or reached from
    outside): 'none' when it only read it; the record of _npr_remember when its one change
    was one noted store of a region (ints, unit-step ranges, traced ints from outside this
    trace) over the array it started with; else None. A data-dependent `if` whose branches
    change a Ref only so then returns just that region (refs.py _npr_lift_refs): a cond that
    takes and gives back a whole array costs XLA:CPU a copy of it per branch taken."""
    try:
        load = ref[...]
        trace = _npr_trace_of(load)
        eqns = _npr_equations(trace)
        last = _npr_last_store(load, window=1 << 30)
        rec = last[0] if last is not None else None
        if eqns is None:
            return None
        for k in range(len(eqns)):
            e = eqns[k]
            if e is None or not any(x is ref for x in _npr_eqn_inputs(e)):
                continue  # (a collected equation had no effects)
            if not (_npr_eqn_name(e) == 'get' and _npr_eqn_inputs(e)[0] is ref or rec is not None and e is rec.swap):
                return None
        if rec is None:
            return 'none'
        under = _npr_producer(rec.under)
        if under is None or _npr_eqn_name(under) != 'get' or _npr_eqn_inputs(under)[0] is not ref:
            return None
        for k in rec.key:
            if isinstance(k, tuple) and k[2] != 1 or _npr_is_tkey(k) and _npr_trace_of(k.raw) is trace:
                return None
        return rec
    except Exception:  # another JAX's internals: the whole array
        return None


def _npr_region_starts(key, shape):
    """(starts, sizes) of a region key of ints, unit-step ranges and traced ints (_npr_TKey:
    NumPy's negative index counted from the end; XLA clamps what is out of range, as the
    store it stands for did)."""
    starts, sizes = [], []
    it = jnp.int32 if max(shape, default=0) < 2 ** 31 else jnp.int64
    for k, n in zip(key, shape):
        if _npr_is_tkey(k):
            starts.append(jnp.where(k.raw < 0, k.raw + n, k.raw).astype(it))
        else:
            starts.append(jnp.asarray(k[0] if isinstance(k, tuple) else k, it))
        sizes.append(k[1] if isinstance(k, tuple) else 1)
    return starts, sizes


def _npr_region_get(cur, key):
    starts, sizes = _npr_region_starts(key, cur.shape)
    out = lax.dynamic_slice(cur, starts, sizes)
    return out.reshape([k[1] for k in key if isinstance(k, tuple)])


def _npr_region_put(cur, key, val):
    starts, sizes = _npr_region_starts(key, cur.shape)
    return lax.dynamic_update_slice(cur, jnp.reshape(val, sizes).astype(cur.dtype), starts)


# The smallest share of the array a basic-index store must cover to be written as one select
# over the whole array (pad + where) instead of a dynamic-update-slice or strided scatter, when
# its value reads the same array at other positions; chosen by measurement
# (`python benchmarks/run.py --lowerings`, docs/benchmarks.md).
# `peepholes` False: every store is the plain dynamic-update-slice or scatter and every read a
# slice of the whole load (no store memory, no pad+where): what _npr_plain_lowering switches.
# `order`: store_order.py's always-false selects that order stores for XLA:CPU's copy insertion
# (True, False, or None: on but on a TPU; rt/store_order.py _npr_ordering).
_npr_LOWERING = {'padwhere_min': 0.9, 'shifted_reads': 2, 'peepholes': True, 'order': None}


class _npr_plain_lowering:
    """`with np2ref.plain_lowering():` functions traced inside lower every store and read the
    plain way, without the peepholes of this module (store memory, pad+where), to check whether
    one of them is to blame for a result or a slowdown. The choice is made when a function is
    traced: use a fresh np2ref.compile (or a first call) inside the block."""

    def __enter__(self):
        self.saved = _npr_LOWERING['peepholes']
        _npr_LOWERING['peepholes'] = False
        return self

    def __exit__(self, *exc):
        _npr_LOWERING['peepholes'] = self.saved
        return False


def _npr_padwhere_pays(cur, ents, val):
    """Whether cur[ents] = val goes through _npr_padwhere: a static region (no traced ints)
    covering at least `padwhere_min` of cur but not all of it, whose value reads the array
    being written through `shifted_reads` or more windows other than the region itself (a
    stencil's shifted slices: XLA copies each of them before updating in place)."""
    if not _npr_LOWERING['peepholes'] or val.size == cur.size or any(_npr_traced(e) for e in ents):
        return False
    return (val.size >= _npr_LOWERING['padwhere_min'] * cur.size
            and _npr_reads_around(cur, ents, val) >= _npr_LOWERING['shifted_reads'])


def _npr_reads_around(cur, ents, val, limit=4000):
    """How many distinct reads of the Ref that `cur` was loaded from the traced `val` depends
    on, other than a slice of exactly the region `ents` (the same elements, which XLA updates
    in place). Walks the jaxpr being traced; 0 when it cannot tell."""
    try:
        load = _npr_producer(cur)
        if load is None or _npr_eqn_name(load) != 'get':
            return 0
        ref = _npr_eqn_inputs(load)[0]
        region = ([e.start if isinstance(e, range) else e for e in ents],
                  [e[-1] + 1 if isinstance(e, range) else e + 1 for e in ents],
                  [e.step if isinstance(e, range) else 1 for e in ents])
        stack, seen, reads = [(val, None)], set(), set()
        while stack:
            tracer, child = stack.pop()
            eqn = _npr_producer(tracer)
            if eqn is None:
                continue
            if _npr_eqn_name(eqn) == 'get':
                if _npr_eqn_inputs(eqn)[0] is ref and not _npr_is_region(child, region):
                    reads.add(_npr_read_key(child))
                continue
            if id(eqn) in seen:
                continue
            seen.add(id(eqn))
            if len(seen) > limit:
                return 0
            stack.extend((t, eqn) for t in _npr_eqn_inputs(eqn))
        return len(reads)
    except Exception:  # another JAX's tracer internals: keep the plain lowering
        return 0


def _npr_read_key(eqn):
    if eqn is None:
        return None
    params = tuple((k, v) for k, v in sorted(_npr_params(eqn).items()) if isinstance(v, (tuple, int, type(None))))
    return _npr_eqn_name(eqn), params


def _npr_is_region(eqn, region):
    if eqn is None or _npr_eqn_name(eqn) != 'slice':
        return False
    starts, limits, steps = region
    params = _npr_params(eqn)
    strides = params.get('strides') or (1,) * len(starts)
    return (list(params['start_indices']) == starts and list(params['limit_indices']) == limits
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


class _npr_TKey:
    """A traced int index in a region key: the same element as another only when both were
    normalised from the same traced value (`c[i, j] = v` then `c[i, j]`: the same tracers i, j,
    or each widened to int64 by a conversion of its own); two different tracers may or may not be
    equal, so nothing is assumed of them."""
    __slots__ = ('raw', 'n', 'root')

    def __init__(self, raw, n):
        self.raw, self.n, self.root = raw, n, _npr_widened_from(raw)

    def same(self, other):
        return isinstance(other, _npr_TKey) and other.root is self.root and other.n == self.n


def _npr_is_tkey(k):
    return isinstance(k, _npr_TKey)


def _npr_same_region(a, b):
    """Whether two region keys name the same elements for sure."""
    return len(a) == len(b) and all(x.same(y) if isinstance(x, _npr_TKey) else
                                    not isinstance(y, _npr_TKey) and x == y for x, y in zip(a, b))


def _npr_region_key(ents, raw=None):
    """A region (ints, ascending ranges and traced ints whose source `raw` names, one per dim)
    as a key; None when another index is traced."""
    key = []
    for e in ents:
        if isinstance(e, range):
            key.append((e.start, len(e), e.step))
        elif isinstance(e, (int, np.integer)):
            key.append(int(e))
        elif raw and id(e) in raw:
            key.append(raw[id(e)])
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
        if isinstance(i, _npr_TKey) or isinstance(o, _npr_TKey):
            if not (isinstance(i, _npr_TKey) and i.same(o)):
                return None
            continue
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
