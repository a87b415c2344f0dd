"""The normalised index (_npr_Idx): every NumPy index kind, composed onto a Ref."""

from jax import lax
import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_check_bounds, _npr_nonnegative, _npr_wide
from .compat import _npr_traced
from .core import (
    _npr_dummy, _npr_has_jax, _npr_isarr, _npr_isbool, _npr_state, npr_load, NprUnsupported)
from .lowering import (
    _npr_last_store, _npr_padwhere, _npr_padwhere_pays, _npr_region_key, _npr_region_value, _npr_TKey,
    _npr_within)
from .store_order import _npr_after
from .scatter import _npr_last_only, _npr_lin, _npr_scatter, _npr_unflat


class _npr_Idx:
    """A NumPy index on an array of `shape`, checked by NumPy (IndexErrors) and normalised to
    `ents`: None, int, 0-d traced int, range (a slice) or int array, one per dim (plus an empty
    Ellipsis, which still parts advanced indices). `sel` is NumPy's result shape; a traced
    boolean mask is kept apart in `mask`. `vorder`, set only on an index composed through a
    transposed view (_npr_compose), lists the base dims of the selection in the view's order."""

    vorder = None
    raw = {}  # id(a traced int in ents) -> the index it was normalised from (_npr_region_key)

    def __init__(self, shape, idx):
        self.shape = shape = tuple(shape)
        items = [self._item(e) for e in (idx if isinstance(idx, tuple) else (idx,))]
        self.probe = tuple((np.ones if _npr_isbool(e) else np.zeros)(e.shape, e.dtype) if _npr_traced(e)
                           else e for e in items)
        self.sel = np.shape(_npr_dummy(shape)[self.probe])  # NumPy raises its IndexErrors here
        self.traced = any(_npr_traced(e) for e in items)
        used = sum(0 if e is None or e is Ellipsis else e.ndim if _npr_isbool(e) else 1 for e in items)
        ents, d, self.mask, full = [], 0, None, True
        lone = _npr_lone_array(items)
        for k, e in enumerate(items):
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
                    raise NprUnsupported("NPR104", "two traced boolean masks in one index")
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
                ents.append((e + n if e < 0 else e) if isinstance(e, int) else e if _npr_nonnegative(e) else
                            (jnp if _npr_traced(e) else np).where(e < 0, e + n, e))
                if k == lone:  # `f[[6, 7, 8], -1]` is `f[6:9, -1]`: a slice, not a gather or scatter
                    ents[-1] = _npr_progression(ents[-1], self.probe, k, shape, self.sel)
                if _npr_traced(e) and np.ndim(e) == 0:
                    self.raw = {**self.raw, id(ents[-1]): _npr_TKey(e, n)}
                d, full = d + 1, False
        if self.mask is not None and not full:
            raise NprUnsupported("NPR104", "a traced boolean mask combined with other "
                                      "indices has a data-dependent shape")
        self.ents = ents + [range(n) for n in shape[d:]]
        # NumPy's kind of index (a copy, not a view; its cast rules), and whether it is lowered
        # as a gather or scatter (an array that steps by a constant is a slice to lower)
        self.adv = any(e is not None and e is not Ellipsis and np.ndim(e) > 0 for e in items)
        self.gathers = any(_npr_isarr(e) for e in self.ents)
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
            raise NprUnsupported("NPR111", "slice bounds must be static (the size must be known)")
        if isinstance(e, (bool, np.bool_)) or (getattr(e, 'ndim', 1) == 0 and _npr_isbool(e)):
            raise NprUnsupported("NPR107", "a 0-d boolean index is not supported")
        if isinstance(e, (np.ndarray, np.integer)) and e.ndim == 0 and e.dtype.kind in 'iu':
            e = int(e)
        return _npr_wide(e)

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
            raise NprUnsupported("NPR104", "x[mask] with a traced mask has a data-dependent shape")
        cur = jnp.asarray(cur)
        if self.gathers:
            lin = self.lin_last() if update else None
            return cur.reshape(-1).at[self.lin() if lin is None else lin].get(mode='clip').reshape(self.sel)
        last = _npr_last_store(cur) if update or self.raw else None  # (a traced index: in a loop)
        flip, ents = self.ascending()
        out = None if last is None else _npr_region_value(last[0], _npr_region_key(ents, self.raw))
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
        if self.gathers:
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
        key = _npr_region_key(ents, self.raw)
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
            prev = _npr_state.pop("after", None)
            if prev is not None and any(_npr_traced(e) for e in ents):  # in a loop: after the
                block = _npr_after(prev, block)                         # last store (store_order.py)
            if block.size == 1 and _npr_whole_store(prior, cur.shape) and any(_npr_traced(e) for e in ents):
                out = under.at[tuple(starts)].set(jnp.reshape(block, ()), mode='clip', unique_indices=True)
            else:
                out = lax.dynamic_update_slice(under, block, starts)
        else:
            idx = tuple(slice(e.start, e.stop, e.step) if isinstance(e, range) else e for e in ents)
            out = under.at[idx].set(val, unique_indices=True)
        _npr_state["put"] = (cur, out, key, val, under, prior)  # for _npr_update: _npr_remember
        return out


def _npr_whole_store(prior, shape):
    """Whether the store before this one into the same array covered all of it (`y[:k] += ...`
    with k traced: a select over the whole width). An element stored at a traced index just
    after it (durbin's `y[k] = alpha`) is then a one-element scatter, not a
    dynamic_update_slice: XLA:CPU fused the latter with the select into one fusion that ran
    the select's pass again per trip (durbin at S: 1.46 -> 0.87-1.17 of the hand port, which
    does the same with `.at[k].set`). The same value either way; clamped as
    dynamic_update_slice clamps (the index is checked before)."""
    key = getattr(prior, "key", None)
    return key is not None and len(key) == len(shape) and all(
        k == (0, n, 1) for k, n in zip(key, shape))


def _npr_lone_array(items):
    """The position of the one array in an index, when it is a concrete 1-D integer array and
    the integers in the index stand next to it: NumPy then puts its dim where a slice's would
    be (`f[[6, 7, 8], -1, :]` and `f[6:9, -1, :]` both (3, n)); else None."""
    arrays = [k for k, e in enumerate(items) if e is not None and e is not Ellipsis and np.ndim(e) > 0]
    if len(arrays) != 1:
        return None
    (k,) = arrays
    e = items[k]
    if not (isinstance(e, np.ndarray) and e.ndim == 1 and e.dtype.kind in 'iu' and e.size):
        return None
    advanced = sorted([k] + [j for j, x in enumerate(items) if j != k and x is not None and x is not Ellipsis
                             and not isinstance(x, slice) and np.ndim(x) == 0])
    return k if advanced == list(range(advanced[0], advanced[-1] + 1)) else None


def _npr_progression(e, probe, k, shape, sel):
    """The normalised concrete 1-D integer index e (item k of the index) as the range it steps
    through, when it steps by one nonzero amount (no element twice: a store through it is a
    store through the slice) and NumPy gives the slice's selection the same shape; else e."""
    step = int(e[1] - e[0]) if e.size > 1 else 1
    if step == 0 or e.size > 2 and not np.all(np.diff(e) == step):
        return e
    r = range(int(e[0]), int(e[0]) + step * e.size, step)
    as_slice = slice(r.start, r.stop if r.stop >= 0 else None, r.step)
    if np.shape(_npr_dummy(shape)[probe[:k] + (as_slice,) + probe[k + 1:]]) != tuple(sel):
        return e
    return r


