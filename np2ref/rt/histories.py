"""Histories of a `while` loop on data: `times.append(t)` each accepted step of `while t < t_end:`,
`hist.append(rnorm)` each trip of `while rnorm > tol and k < maxit:`.

NumPy's list ends with one item per append, and how many there are is known only when the loop
has run: a compiled program cannot hold a list, or an array, of that length. Here (npr_while's
`appends=`, which rules/loops.py emits for a list the loop only appends to and the function uses
afterwards only as `len(x)`, `np.array(x)`, `np.asarray(x)` or `return x`) each list gets a buffer
of K rows (a Ref per leaf of the appended value, with a count), which `npr_append(x, v)` writes
at the count, wherever in the body the append is (under a `continue`'s flag or an `if` on data:
in the branch). When the buffer fills, an ordered io_callback hands its K rows to the host and
the count starts again at 0: one compiled program, whatever the trip count, one host round trip
per K appends. After the loop the list stands for its items (`_NprHistory`): `npr_len(x)` is the
items before the loop plus the appends (a traced Python int), and where the list (or np.array of
it) is returned the jitted run's result holds an `_NprHistoryOut`, whose leaves are the items
before the loop, the buffer and the counts: unflattened from NumPy arrays it takes the chunks the
callbacks handed over and makes NumPy's list, each item of NumPy's type (rt/appends.py's
`_npr_host_item`), or np.array of that list.

Exact when every append of a list appends a value of one type and shape that no later write can
change (a probe traces the loop first, as rt/appends.py's does); anything else keeps the refusal
(NPR034, with the counted-array rewrite as the hint). Not under jax.vmap (an io_callback in a
batched loop) or `.pure` (a list whose length is data cannot leave a JAX function): NPR034. A
list returned to a caller inside the same compiled program is refused too (the caller would read
its items while tracing). Two threads running one compiled function at once would share its
chunk store: not supported.
"""

import itertools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback as _npr_io_callback

from .appends import _npr_append_spec, _npr_appended, _npr_history, _npr_host_item
from .bounds import _npr_record_check
from .core import NprUnsupported, _npr_state, npr_load, npr_pyreturn
from .compat import _npr_Tracer, _npr_weak_astype
from .refs import _npr_reachable

_NPR_CHUNKS = {}  # slot -> the chunks its callbacks handed over (tuples of NumPy arrays, K rows each)
_npr_slots = itertools.count()
_NPR_HISTORY_HINT = ("store into an array made before the loop, with a count: `hist = np.zeros(maxit); n = 0`, then "
                     "`hist[n] = x; n += 1` in the loop; return `hist, n` and take `hist[:n]` after the call")


def npr_len(obj):
    """`len(x)` of a list a `while` on data appended to (its length a traced Python int), else len()."""
    found = _npr_history(obj)
    return len(obj) if found is None else found.length()


NPR_HISTORY_ROWS = 4096  # the most rows a chunk holds (tests make it small to see chunks handed over)


def npr_history_last(obj):
    """`x[-1]` of a list a `while` on data appended to: its last row, or the last item before the
    loop where it appended none (NumPy's IndexError, a run-time check, where there is none)."""
    found = _npr_history(obj)
    return obj[-1] if found is None else found.last()


def _npr_rows_per_chunk(spec):
    """K: rows per chunk, about 4 MB of them, 2 to NPR_HISTORY_ROWS."""
    size = sum(int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize for shape, dtype, _ in spec[1])
    return int(min(NPR_HISTORY_ROWS, max(2, (1 << 22) // max(size, 1))))


def npr_while_histories(lists, body, traced):
    """traced(body): the `while` loop on data, run with the appends to `lists` written into
    buffers (module docstring); as traced(body) alone (which refuses a changed list, NPR034)
    when the probe finds an append the buffers cannot hold."""
    kept = [list(lst) for lst in lists]
    probe = _NprHistories(lists, None, body)
    try:
        with probe.active(None):
            jax.eval_shape(lambda: _npr_nothing(traced(body)))
        specs = probe.agreed()
    except Exception:  # noqa: BLE001 (any failure: the loop as written says what it is)
        specs = None
    for lst, items in zip(lists, kept):
        lst[:] = items
    if specs is None:
        return traced(body)
    run = _NprHistories(lists, specs, body)
    bufs = run.bufs

    def with_buffers(*state):
        _npr_nothing(bufs)  # (in the closure: the loop lifts them with the refs it reaches)
        return body(*state)
    with run.active(bufs):
        out = traced(with_buffers)
    run.register()
    return out


def _npr_nothing(_):
    return None


class _NprHistories:
    """The buffers of the lists one `while` loop appends to; `specs` None: the probe, recording."""

    def __init__(self, lists, specs, body):
        self.lists, self.specs, self.seen = list(lists), specs, []
        # values that outlive a trip (an argument, a module's array): NumPy's list holds that very object
        self.outer = {id(v) for v in _npr_reachable([body]) if isinstance(v, jax.Array)}
        self.bufs, self.rows, self.slots = None, [], []
        if specs is not None:
            self.rows = [_npr_rows_per_chunk(s) for s in specs]
            self.slots = [next(_npr_slots) for _ in specs]
            self.bufs = [[jax.new_ref(jnp.zeros((k, *shape), dtype)) for shape, dtype, _ in s[1]]
                         + [jax.new_ref(jnp.zeros((), jnp.int32)), jax.new_ref(jnp.zeros((), jnp.int32))]
                         for k, s in zip(self.rows, specs)]

    def active(self, bufs):
        return _NprAppending(self, bufs)

    def put(self, j, value, bufs):
        """npr_append's value for list j, written at its count into `bufs` (the loop's own)."""
        spec = _npr_append_spec(value, self.outer)
        if self.specs is None:
            self.seen.append((j, spec))
            return
        if spec != self.specs[j]:
            raise NprUnsupported("NPR034", "a list appended to in a `while` loop on data gets values of "
                                 "different types or shapes", hint=_NPR_HISTORY_HINT)
        *refs, count, total = bufs[j]
        c = count[...]
        for r, leaf, (_, dtype, _) in zip(refs, jax.tree_util.tree_leaves(value), spec[1]):
            r[c] = jnp.asarray(npr_load(leaf), dtype)
        total[...] = total[...] + 1
        full = c + 1 == self.rows[j]
        count[...] = jnp.where(full, 0, c + 1)
        slot = self.slots[j]
        lax.cond(full, lambda bs: _npr_io_callback(lambda *b: _npr_keep_chunk(slot, b), None, *bs, ordered=True),
                 lambda bs: None, [r[...] for r in refs])

    def agreed(self):
        specs = []
        for j in range(len(self.lists)):
            found = [s for k, s in self.seen if k == j]
            if not found or any(s != found[0] for s in found) or any(kind is None for _, _, kind in found[0][1]):
                raise ValueError("appended values the buffers cannot hold")
            specs.append(found[0])
        return specs

    def register(self):
        """After the loop: each list stands for its items (npr_len, the result, np.array)."""
        for lst, spec, refs, k, slot in zip(self.lists, self.specs, self.bufs, self.rows, self.slots):
            prefix = tuple(lst)
            pre = [_npr_append_spec(v, set()) for v in prefix]
            if any(kind is None for _, leaves in pre for _, _, kind in leaves):
                raise NprUnsupported("NPR034", "a list appended to in a `while` loop on data holds, before "
                                     "the loop, an item np2ref cannot hand back as the same object",
                                     hint=_NPR_HISTORY_HINT)
            values = [r[...] for r in refs]
            _npr_state.setdefault("histories", {})[id(lst)] = _NprHistory(lst, prefix, pre, spec, values, k, slot)


class _NprAppending:
    """While the loop runs: npr_append of each list goes to the histories (rt/appends.py's
    `_npr_state["appending"]`, which a lifted body swaps to its own refs: refs._npr_appends_swapped)."""

    def __init__(self, hist, bufs):
        self.hist, self.bufs = hist, bufs

    def __enter__(self):
        appending = _npr_state.setdefault("appending", {})
        self.before = dict(appending)
        appending.update({id(lst): (self.hist, j, self.bufs) for j, lst in enumerate(self.hist.lists)})
        return self

    def __exit__(self, *exc):
        appending = _npr_state.setdefault("appending", {})
        appending.clear()
        appending.update(self.before)
        return False


def _npr_keep_chunk(slot, bufs):
    _NPR_CHUNKS.setdefault(slot, []).append(tuple(np.array(b) for b in bufs))


class _NprHistory:
    """A list as a `while` loop on data left it: the items before the loop, then the appends (the
    chunks the host holds, then the buffer's first `count` rows)."""

    def __init__(self, lst, prefix, pre, spec, values, rows, slot):
        self.lst, self.prefix, self.pre, self.spec = lst, prefix, pre, spec
        self.values, self.rows, self.slot = values[:-2], rows, slot
        self.count, self.total = values[-2], values[-1]

    def length(self):
        n = self.total.astype(jnp.result_type(int)) + len(self.prefix)
        return npr_pyreturn(_npr_weak_astype(n, n.dtype), "int")

    def last(self):
        tree, leaves = self.spec
        at = (self.count + self.rows - 1) % self.rows  # (a chunk handed over just now: its last row)
        rows = [lax.dynamic_index_in_dim(v, at, keepdims=False) for v in self.values]
        if self.prefix and self.pre[-1] != self.spec:  # the item before the loop: another type
            raise NprUnsupported("NPR034", "`x[-1]` of a list a `while` loop on data appended to, whose "
                                 "item before the loop is of another type than the appended ones", hint=_NPR_HISTORY_HINT)
        if self.prefix:
            before = jax.tree_util.tree_leaves(self.prefix[-1])
            rows = [jnp.where(self.total > 0, r, jnp.asarray(npr_load(b), r.dtype)) for r, b in zip(rows, before)]
        else:
            bounds = _npr_state.get("bounds")
            if bounds is not None:
                _npr_record_check(bounds, self.total == 0, None, IndexError, ("list index out of range",))
        return jax.tree_util.tree_unflatten(tree, [_npr_appended(r, kind) for r, (_, _, kind) in zip(rows, leaves)])

    def out(self, as_array=False, dtype=None):
        leaves = [jnp.asarray(npr_load(x)) for v in self.prefix for x in jax.tree_util.tree_leaves(v)]
        aux = (self.slot, self.rows, tuple(self.pre), self.spec, len(leaves), as_array, dtype)
        return _NprHistoryOut([*leaves, *self.values, self.count, self.total], aux)

    def refuse(self):
        raise NprUnsupported("NPR034", "a list a `while` loop on data appended to reaches code that reads its "
                             "items while the program is traced (a caller inside the compiled program, or "
                             "`.pure`): how many there are is known only when the program runs",
                             hint=_NPR_HISTORY_HINT)


class _NprHistoryOut:
    """A history in a jitted run's result (its leaves: the items before the loop, the buffers, the
    counts); unflattened from NumPy arrays it is NumPy's list, or np.array of it."""

    def __init__(self, values, aux):
        self.values, self.aux = list(values), aux


def _npr_history_unflatten(aux, values):
    if any(isinstance(v, _npr_Tracer) or not isinstance(v, (np.ndarray, np.generic, jax.Array, int, float, complex))
           for v in values):  # inside a trace (divisions.py re-evaluates the program): still a node
        return _NprHistoryOut(values, aux)
    values = [v if isinstance(v, jax.Array) else np.asarray(v) for v in values]  # (a leaf fixed at trace time)
    slot, rows, pre, spec, npre, as_array, dtype = aux
    it = iter(values[:npre])
    items = [jax.tree_util.tree_unflatten(tree, [_npr_host_item(next(it), kind) for _, _, kind in leaves])
             for tree, leaves in pre]
    bufs, count, total = values[npre:-2], int(values[-2]), int(values[-1])
    chunks = (total - count) // rows
    kept = _NPR_CHUNKS.get(slot, [])
    del kept[:len(kept) - chunks]  # (an earlier call's chunks; unflattened twice: the same ones)
    tree, leaves = spec
    for chunk in [*kept, tuple(b[:count] for b in bufs)]:
        for k in range(len(chunk[0])):
            items.append(jax.tree_util.tree_unflatten(
                tree, [_npr_host_item(c[k], kind) for c, (_, _, kind) in zip(chunk, leaves)]))
    return np.array(items, dtype=dtype) if as_array else items


jax.tree_util.register_pytree_node(_NprHistoryOut, lambda h: (h.values, h.aux), _npr_history_unflatten)
