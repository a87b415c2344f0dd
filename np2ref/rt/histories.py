"""Histories of a `while` loop on data: `times.append(t)` each accepted step of `while t < t_end:`,
`hist.append(rnorm)` each trip of `while rnorm > tol and k < maxit:`.

NumPy's list ends with one item per append, and how many there are is known only when the loop
has run: a compiled program cannot hold a list, or an array, of that length. Here (npr_while's
`appends=`, which rules/loops.py emits for a list the loop only appends to and the function uses
afterwards only as `len(x)`, `np.array(x)`, `np.asarray(x)` or `return x`) each list gets a buffer
of K rows (a Ref per leaf of the appended value, with a count), which `npr_append(x, v)` writes
at the count, wherever in the body the append is (under a `continue`'s flag or an `if` on data:
in the branch). The loop runs as a loop of runs of it (_npr_chunked), each stopping where a
buffer has no room for another trip's appends; between runs an ordered io_callback hands the rows
to the host and the count starts again at 0 (a test with host calls, which must not run again,
hands them over from the trip that fills the buffer): one compiled program, whatever the trip
count, one host round trip per K appends. After the loop the list stands for its items (`_NprHistory`): `npr_len(x)` is the
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
its items while tracing). The chunks are kept by the list's slot (fixed when the program is traced)
and a ticket the running program takes from the host before the loop (one ordered callback a
call): two threads running one compiled function at once keep theirs apart.
"""

import collections
import functools
import itertools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback as _npr_io_callback

from .appends import _npr_append_spec, _npr_appended, _npr_history, _npr_host_item
from .bounds import _npr_no_checks, _npr_record_check
from .core import NprUnsupported, _npr_state, npr_load, npr_pyreturn
from .truth import npr_and
from .compat import _npr_Tracer, _npr_host_effects, _npr_weak_astype
from .host_words import _npr_host_operands, _npr_note_callback
from .refs import _npr_reachable

_NPR_CHUNKS = {}  # (slot, ticket) -> the chunks one call's callbacks handed over (tuples of NumPy arrays, K rows each)
_NPR_TAKEN = collections.OrderedDict()  # the chunks of the calls last made into lists (a result unflattened twice)
_npr_slots = itertools.count()
_npr_tickets = itertools.count(1)  # (next() of a count: atomic under the GIL)
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


def _npr_rows_per_chunk(spec, most):
    """K: rows per chunk, about 4 MB of them, 2 to NPR_HISTORY_ROWS, at least a trip's `most`."""
    size = sum(int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize for shape, dtype, _ in spec[1])
    return int(max(most, min(NPR_HISTORY_ROWS, max(2, (1 << 22) // max(size, 1)))))


def npr_while_histories(lists, test, body, state, npr_while, pred):
    """npr_while(test, body, *state), the `while` loop on data (`pred`: its test's value for
    `state`), with the appends to `lists` written into buffers (module docstring); as that call
    alone (which refuses a changed list, NPR034) when the probe finds an append the buffers cannot
    hold."""
    flat = functools.partial(npr_while, test, first=pred)
    kept = [list(lst) for lst in lists]
    probe = _NprHistories(lists, None, body)

    def traced(*values):  # (a trace of the body begins: its appends counted apart)
        probe.traces.append([0] * len(lists))
        return body(*values)
    try:
        with probe.active(None):
            jax.eval_shape(lambda: _npr_nothing(flat(traced, *state)))
        specs = probe.agreed()
    except Exception:  # noqa: BLE001 (any failure: the loop as written says what it is)
        specs = None
    for lst, items in zip(lists, kept):
        lst[:] = items
    if specs is None:
        return flat(body, *state)
    run = _NprHistories(lists, specs, body, probe.most)
    bufs = run.bufs

    def with_buffers(*values):
        _npr_nothing(bufs)  # (in the closure: the loop lifts them with the refs it reaches)
        return body(*values)
    # chunks handed over between runs of the loop (a host callback in the loop's own body made
    # XLA:CPU run each trip 600x slower), where evaluating the test once more per chunk is exact
    with _npr_no_checks():  # (a trace for its effects alone)
        run.inline = _npr_host_effects(jax.make_jaxpr(lambda: jnp.asarray(npr_load(test(*state))))())
    with run.active(bufs):
        out = flat(with_buffers, *state) if run.inline else _npr_chunked(test, with_buffers, state, run, npr_while, pred)
    run.register()
    return out


def _npr_chunked(test, body, state, run, npr_while, pred):
    """The loop as a loop of runs of it: each run stops where a list's buffer has no room for
    another trip's appends; its rows then go to the host and the next run starts at row 0."""
    bufs, rows, most, slots = run.bufs, run.rows, run.most, run.slots

    def room(*values):  # (bufs in the closure: a lifted test reads the loop's own refs)
        ok = test(*values)
        for b, k, m in zip(bufs, rows, most):
            ok = npr_and(ok, b[-3][...] <= k - m)
        return ok

    def runs(*values):
        out = npr_while(room, body, *values[:-1])
        out = (out,) if len(values) == 2 else tuple(out or ())
        full = False
        for b, k, m, slot in zip(bufs, rows, most, slots):
            *refs, count, _, _ = b
            c = count[...]
            over = c > k - m
            lax.cond(over, lambda: _npr_hand_over(slot, run.ticket, c, [r[...] for r in refs]), lambda: None)
            count[...] = jnp.where(over, 0, c)
            full = jnp.logical_or(full, over)
        return (*out, full)
    go = jnp.logical_or(jnp.asarray(npr_load(pred)), True)  # (traced: no Python trip of the runs)
    out = npr_while(lambda *v: v[-1], runs, *state, go)[:-1]
    return out[0] if len(state) == 1 else (tuple(out) if out else None)


def _npr_nothing(_):
    return None


class _NprHistories:
    """The buffers of the lists one `while` loop appends to; `specs` None: the probe, recording.
    Per list: a Ref per leaf of the value (K rows), the count of rows in them, the appends in
    all, and the row written last."""

    def __init__(self, lists, specs, body, most=()):
        self.lists, self.specs, self.seen, self.most, self.inline = list(lists), specs, [], list(most), False
        self.traces = []  # the probe: each trace's appends, per list
        # values that outlive a trip (an argument, a module's array): NumPy's list holds that very object
        self.outer = {id(v) for v in _npr_reachable([body]) if isinstance(v, jax.Array)}
        self.bufs, self.rows, self.slots, self.ticket = None, [], [], None
        if specs is not None:  # (this call's ticket: its chunks kept apart from another thread's)
            self.ticket = _npr_io_callback(_npr_new_ticket, jax.ShapeDtypeStruct((), jnp.int32), ordered=True)
            self.rows = [_npr_rows_per_chunk(s, m) for s, m in zip(specs, self.most)]
            self.slots = [next(_npr_slots) for _ in specs]
            self.bufs = [[jax.new_ref(jnp.zeros((k, *shape), dtype)) for shape, dtype, _ in s[1]]
                         + [jax.new_ref(jnp.zeros((), jnp.int32)) for _ in range(3)]
                         for k, s in zip(self.rows, specs)]

    def active(self, bufs):
        return _NprAppending(self, bufs)

    def put(self, j, value, bufs):
        """npr_append's value for list j, written at its count into `bufs` (the loop's own)."""
        spec = _npr_append_spec(value, self.outer)
        if self.specs is None:
            self.seen.append((j, spec))
            if self.traces:
                self.traces[-1][j] += 1
            return
        if spec != self.specs[j]:
            raise NprUnsupported("NPR034", "a list appended to in a `while` loop on data gets values of "
                                 "different types or shapes", hint=_NPR_HISTORY_HINT)
        *refs, count, total, at = bufs[j]
        c = count[...]
        for r, leaf, (_, dtype, _) in zip(refs, jax.tree_util.tree_leaves(value), spec[1]):
            r[c] = jnp.asarray(npr_load(leaf), dtype)
        total[...] = total[...] + 1
        at[...] = c
        count[...] = c + 1
        if self.inline:  # a test with host calls: the full buffer handed over from the trip itself
            slot, full = self.slots[j], c + 1 == self.rows[j]
            lax.cond(full, lambda: _npr_hand_over(slot, self.ticket, c + 1, [r[...] for r in refs]), lambda: None)
            count[...] = jnp.where(full, 0, c + 1)

    def agreed(self):
        """Each list's one spec (else ValueError) and `most`: its appends in one trace of the
        body (every branch traced: at least the appends of any trip)."""
        specs, self.most = [], []
        for j in range(len(self.lists)):
            found = [s for k, s in self.seen if k == j]
            if not found or any(s != found[0] for s in found) or any(kind is None for _, _, kind in found[0][1]):
                raise ValueError("appended values the buffers cannot hold")
            specs.append(found[0])
            self.most.append(max(1, *(t[j] for t in self.traces)))
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
            values.append(self.ticket)
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


def _npr_new_ticket():
    return np.int32(next(_npr_tickets) % (1 << 31))


def _npr_hand_over(slot, ticket, n, rows):
    """An ordered host callback keeping the first n of `rows` (a chunk, one array per leaf) for
    the result of the call holding `ticket`. 64-bit leaves cross as words (host_words.py): JAX
    converts a callback's operands with the x64 setting of the thread that runs it, and XLA runs a
    large program, and a TPU every program, on a thread of its own: float64 rows came back float32
    (0.012500000186264515 for 0.0125)."""
    sent, received = _npr_host_operands(rows)

    def keep(ticket, n, *bufs):
        n = int(n)
        bufs = received(bufs)
        _NPR_CHUNKS.setdefault((slot, int(ticket)), []).append(tuple(np.array(b[:n]) for b in bufs))
    _npr_note_callback()
    _npr_io_callback(keep, None, ticket, n, *sent, ordered=True)


def _npr_chunks_of(key):
    """One call's chunks, moved to the few kept after the call (a result unflattened twice)."""
    kept = _NPR_CHUNKS.pop(key, None)
    if kept is None:
        return _NPR_TAKEN.get(key, [])
    _NPR_TAKEN[key] = kept
    while len(_NPR_TAKEN) > 16:
        _NPR_TAKEN.popitem(last=False)
    return kept


class _NprHistory:
    """A list as a `while` loop on data left it: the items before the loop, then the appends (the
    chunks the host holds, then the buffer's first `count` rows)."""

    def __init__(self, lst, prefix, pre, spec, values, rows, slot):
        self.lst, self.prefix, self.pre, self.spec = lst, prefix, pre, spec
        self.values, self.rows, self.slot = values[:-4], rows, slot
        self.count, self.total, self.at, self.ticket = values[-4:]

    def length(self):
        n = self.total.astype(jnp.result_type(int)) + len(self.prefix)
        return npr_pyreturn(_npr_weak_astype(n, n.dtype), "int")

    def last(self):
        tree, leaves = self.spec
        rows = [lax.dynamic_index_in_dim(v, self.at, keepdims=False) for v in self.values]  # (kept past a chunk's hand-over)
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
        return _NprHistoryOut([*leaves, *self.values, self.count, self.total, self.ticket], aux)

    def refuse(self):
        _npr_history_refused()


class _NprHistoryOut:
    """A history in a jitted run's result (its leaves: the items before the loop, the buffers, the
    counts); unflattened from NumPy arrays it is NumPy's list, or np.array of it."""
    _npr_history_node = True  # (appends._npr_materialize: refused where code reads it while traced)

    def __init__(self, values, aux):
        self.values, self.aux = list(values), aux

    def refuse(self):
        _npr_history_refused()


def _npr_history_unflatten(aux, values):
    if any(isinstance(v, _npr_Tracer) or not isinstance(v, (np.ndarray, np.generic, jax.Array, int, float, complex))
           for v in values):  # inside a trace (divisions.py re-evaluates the program): still a node
        return _NprHistoryOut(values, aux)
    values = [v if isinstance(v, jax.Array) else np.asarray(v) for v in values]  # (a leaf fixed at trace time)
    slot, rows, pre, spec, npre, as_array, dtype = aux
    it = iter(values[:npre])
    items = [jax.tree_util.tree_unflatten(tree, [_npr_host_item(next(it), kind) for _, _, kind in leaves])
             for tree, leaves in pre]
    bufs, count, total = values[npre:-3], int(values[-3]), int(values[-2])
    kept, need, k = _npr_chunks_of((slot, int(values[-1]))), total - count, 0
    while need > 0 and k < len(kept):  # the last ones, `need` rows in all
        k += 1
        need -= len(kept[-k][0])
    tree, leaves = spec
    for chunk in [*kept[len(kept) - k:], tuple(b[:count] for b in bufs)]:
        for k in range(len(chunk[0])):
            items.append(jax.tree_util.tree_unflatten(
                tree, [_npr_host_item(c[k, ...], kind) for c, (_, _, kind) in zip(chunk, leaves)]))
    return np.array(items, dtype=dtype) if as_array else items


jax.tree_util.register_pytree_node(_NprHistoryOut, lambda h: (h.values, h.aux), _npr_history_unflatten)


def _npr_history_refused():
    raise NprUnsupported("NPR034", "a list a `while` loop on data appended to reaches code that reads its "
                         "items while the program is traced (a caller inside the compiled program, or "
                         "`.pure`): how many there are is known only when the program runs",
                         hint=_NPR_HISTORY_HINT)
