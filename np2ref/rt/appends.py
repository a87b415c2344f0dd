"""Append-only lists of a lax loop: `hist.append(u.copy())`, `E.append(energy)` once per trip.

NumPy's loop leaves `hist` holding one value per trip, in order. A lax loop traces its body once,
so the append would run once, with a tracer. Here (npr_for's `appends=`, rules/loops.py emits it
for lists the loop only appends to) each trip's value is written into a buffer at the trip's
index instead (a Ref of shape (trips, *value shape), closed over by the body like any written
array), and after the loop the list is extended with the buffer's rows, each as NumPy's list
holds it: a Python int or float where NumPy's program appended one (`float(v)`, `t * dt`, a
loop variable), NumPy's 0-d array for `np.array(x)`, a NumPy scalar or a new array otherwise.

Several appends to one list a trip (`out.append(a); out.append(b)`, an inner loop's appends: a
lattice built over nested loops) fill a row of c items a trip (c the probe's count, the same for
every trace of the body), which the list takes in order, trip by trip.

Exact when every trip appends the same number of values of one type and shape to each list, and that value
is no array that is written (NumPy's list would hold the array itself and see later writes:
NPR207 refuses that before the loop runs). A probe, the whole loop traced under jax.eval_shape
and thrown away, checks this before anything is written; when it fails (a value that is no
number or array, values of two types in one trip, a type that changes after the first trip) the loop
runs as today, a Python loop. The trip count must be static: a data-dependent one, or a `break`,
keeps the Python loop (refused in a `while`, NPR034).

An append under an `if` of the trip (`if step % every == 0: snaps.append(u.copy())`, `when=`):
the test reads only the loop index and names the loop does not bind, so it is evaluated on the
host for every trip before the loop, as NumPy's program evaluates it; the trips it takes give the
list's length and each taken trip its row. The rewrite makes that append `npr_append(snaps, v)`,
which writes the row inside the branch; a test that is not a concrete Python value for some trip
(it reads array data) keeps the Python loop.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .compat import _npr_Tracer, _npr_weak_astype
from .core import _npr_above, _npr_state, npr_load, npr_pyreturn
from .promotion import _npr_weak_value
from .refs import _npr_reachable
from .truth import _npr_concrete_bool
from .views import NprView


_NPR_APPENDS_PYTHON = object()  # npr_append_for's answer when the loop must run as before
_NPR_PY_KINDS = {"i": int, "u": int, "f": float, "c": complex}


class _NprAppendsRefused(Exception):
    """The probe found a trip whose appends the buffers cannot hold exactly."""


def npr_append_for(rng, body, init, has, lists, options, lazy=(), npr_for=None, when=()):
    """The loop of npr_for with the appends to `lists` stacked into buffers (module docstring),
    or _NPR_APPENDS_PYTHON when the probe says the loop must run as written. `npr_for`: loops.py's,
    passed in by it (this module stands below it, tests/rt/test_rt_layers.py). `when`: per list,
    None (one append a trip) or the test of the `if` its append is under, a function of the index."""
    start, step = int(rng.start), int(rng.step)
    indices = range(start, int(rng.stop), step)
    slots = [_npr_append_slots(test, indices) for test in when] if when else [None] * len(lists)
    if any(s is False for s in slots):
        return _NPR_APPENDS_PYTHON
    rows = [len(indices) if s is None else int((s >= 0).sum()) for s in slots]
    kept = [(lst, list(lst)) for lst in lists]
    probe = _NprAppendTrips(lists, start, step, slots=slots)
    try:  # the whole loop traced and thrown away: refs written in it are the probe trace's own
        jax.eval_shape(lambda: _npr_nothing(npr_for(rng, probe.wrap(body), *init, **options)))
        specs = probe.agreed()
    except Exception:  # noqa: BLE001 (any failure: the loop as written says what it is)
        specs = None
    for lst, items in kept:  # the probe popped what it appended; a failed trace may have left some
        lst[:] = items
    if specs is None:
        return _NPR_APPENDS_PYTHON
    counts = probe.counts  # appends a trip: c > 1 fills a row of c items, the list takes them in order
    bufs = [[jax.new_ref(jnp.zeros((max(n, 1), *(() if c == 1 else (c,)), *shape), dtype)) for shape, dtype, _ in leaves]
            for n, c, (_, leaves) in zip(rows, counts, specs)]
    run = _NprAppendTrips(lists, start, step, specs, bufs, slots)
    run.counts = counts
    out = npr_for(rng, run.wrap(body), *init, **options)
    for lst, (tree, leaves), refs, n, c in zip(lists, specs, bufs, rows, counts):
        values = [r[...][:n].reshape(n * c, *r.shape[2:]) if c > 1 else r[...][:n] for r in refs]
        n *= c
        stacked = _NprStacked(lst, values, tree, tuple(kind for _, _, kind in leaves), n)
        if lst or not any(lst is x for x in lazy):
            lst.extend(stacked.rows())
        else:  # rows made only where the list reaches code that reads them (_npr_materialize)
            lst.extend(_NprLazyRow() for _ in range(n))
        if len(lst) == n and n:  # NumPy's list is these rows: np.array(lst) and a result take the buffers whole
            # (none: NumPy's np.array([]) is (0,) float64, whatever the rows' shape; np.stack raises)
            stacked.items = tuple(lst)
            _npr_state.setdefault("stacked", {})[id(lst)] = stacked
    return out


def _npr_append_slots(test, indices):
    """Each trip's row in the list an append under `if test(i):` fills (-1: the trip appends
    nothing), from the test evaluated on the host as NumPy's program evaluates it; None without a
    test; False when the test is no concrete Python value for some trip (it reads array data)."""
    if test is None:
        return None
    taken = []
    for i in indices:
        try:
            t = test(i)
        except Exception:  # noqa: BLE001 (a test the host cannot evaluate alone: the loop as written)
            return False
        if not isinstance(t, (bool, int, np.bool_, np.integer)):
            return False
        taken.append(bool(t))
    taken = np.array(taken, bool)
    return np.where(taken, np.cumsum(taken) - 1, -1).astype(np.int32)


def npr_append(lst, value):
    """`lst.append(value)` under an `if` of a trip whose appends npr_for stacks (`when=`): the row
    written into the list's buffer, in the branch; a plain append anywhere else."""
    found = _npr_state.get("appending", {}).get(id(lst))
    if found is None or found[0].lists[found[1]] is not lst:
        lst.append(value)
        return None
    trips, j, bufs = found
    trips.put(j, value, bufs)
    return None


def _npr_rows(v, trips):
    """The rows of a buffer, as one split (a row indexed at a time traced 2x slower)."""
    return [lax.squeeze(p, (0,)) for p in lax.split(v, [1] * trips)] if trips else []


class _NprLazyRow:
    """A row of a lazy stacked list not made yet: only len(), np.array and the result see it."""


class _NprStacked:
    """An append-only list as the loop left it, with the buffers that hold its rows."""

    def __init__(self, lst, values, tree, kinds, n):
        self.lst, self.values, self.tree, self.kinds, self.n = lst, values, tree, kinds, n
        self.items = ()

    def rows(self):
        """The list's items as traced values, NumPy's types noted."""
        rows = [_npr_rows(v, self.n) for v in self.values]
        return [jax.tree_util.tree_unflatten(self.tree, [_npr_appended(r[k], kind) for r, kind in zip(rows, self.kinds)])
                for k in range(self.n)]

    def intact(self):
        """Whether the list still holds exactly the loop's rows (nothing appended, removed or replaced since)."""
        return len(self.lst) == len(self.items) and all(a is b for a, b in zip(self.lst, self.items))


def _npr_history(obj):
    """The _NprHistory of a list a `while` loop on data appended to (rt/histories.py), else None."""
    found = _npr_state.get("histories", {}).get(id(obj)) if type(obj) is list else None
    return found if found is not None and found.lst is obj and len(obj) == len(found.prefix) else None


def _npr_stacked(lst):
    """The _NprStacked of a list that holds exactly the rows of an append loop, else None."""
    found = _npr_state.get("stacked", {}).get(id(lst)) if type(lst) is list else None
    return found if found is not None and found.lst is lst and found.intact() else None


def _npr_stacked_array(obj, dtype, ndmin):
    """np.array(hist) of a stacked list of arrays or numbers: the buffer itself (NumPy stacks
    items of one shape and dtype into that dtype), or None."""
    found = _npr_stacked(obj)
    if found is None:
        history = _npr_history(obj)
        if history is not None and ndmin:
            history.refuse()
        return None if history is None else history.out(True, dtype)
    if found.tree.num_leaves != 1 or not jax.tree_util.treedef_is_leaf(found.tree):
        _npr_materialize(obj)  # (np.array of tuples: NumPy's own rules, on the rows)
        return None
    v = found.values[0]
    if (dtype is not None and np.dtype(dtype) != v.dtype) or ndmin > v.ndim:
        _npr_materialize(obj)
        return None
    return v


def _npr_materialize(value):
    """value (a list, or tuples, lists and dicts holding lists) with every lazy stacked list in it
    holding its rows: for code the rewrite did not see use it (a caller, .pure, a host run)."""
    kind = type(value)
    if kind is list and _npr_history(value) is not None or getattr(value, "_npr_history_node", False):
        (_npr_history(value) if kind is list else value).refuse()  # (rt/histories.py)
    if kind is list:
        found = _npr_stacked(value)
        if found is not None and found.items and isinstance(found.items[0], _NprLazyRow):
            value[:] = found.rows()
            found.items = tuple(value)
    if kind in (list, tuple):
        for v in value:
            _npr_materialize(v)
    elif isinstance(value, dict):
        for v in value.values():
            _npr_materialize(v)
    return value


def _npr_stacked_result(value):
    """A jitted run's result with each stacked list in it (through tuples, lists and dicts) an
    _NprStackedOut: one result leaf per buffer, not one per trip (500 leaves took 26 s to compile)."""
    kind = type(value)
    if kind is list and _npr_history(value) is not None:
        return _npr_history(value).out()
    if kind is list:
        found = _npr_stacked(value)
        if found is not None:
            return _NprStackedOut(found.values, found.tree, found.kinds, found.n)
    if kind in (list, tuple):
        return kind(_npr_stacked_result(v) for v in value)
    if isinstance(value, dict):
        return kind((k, _npr_stacked_result(v)) for k, v in value.items())
    return value


class _NprStackedOut:
    """A stacked list in a jitted run's result: its buffers are the leaves; unflattened from NumPy
    arrays (or concrete jax.Arrays) it is the list NumPy's program returns."""

    def __init__(self, values, tree, kinds, n):
        self.values, self.tree, self.kinds, self.n = list(values), tree, kinds, n


def _npr_stacked_flatten(s):
    return s.values, (s.tree, s.kinds, s.n)


def _npr_stacked_unflatten(aux, values):
    tree, kinds, n = aux
    if not all(isinstance(v, np.ndarray) or (isinstance(v, jax.Array) and not isinstance(v, _npr_Tracer))
               for v in values):  # inside a trace (divisions.py re-evaluates the program): still a node
        return _NprStackedOut(values, tree, kinds, n)
    return [jax.tree_util.tree_unflatten(tree, [_npr_host_item(v[k, ...], kind) for v, kind in zip(values, kinds)])
            for k in range(n)]


def _npr_host_item(row, kind):
    """One row as NumPy's list holds it: a Python number, np.array's 0-d array, a NumPy scalar
    or an array of its own (NumPy appended a copy: no view of the others)."""
    if not isinstance(row, np.ndarray):
        return row  # a jax.Array: the call made with jax.Arrays gets jax.Arrays
    if kind in (int, float, complex, bool):
        return kind(row)
    if kind is np.array:
        return np.array(row)
    return row.copy() if row.ndim else row[()]


jax.tree_util.register_pytree_node(_NprStackedOut, _npr_stacked_flatten, _npr_stacked_unflatten)


def _npr_nothing(_):
    return None


class _NprAppendTrips:
    """The body, taking back what each trace of it appended: recorded (`specs` None, the probe)
    or written at the trip's index into `bufs`."""

    def __init__(self, lists, start, step, specs=None, bufs=None, slots=None):
        self.lists, self.start, self.step, self.specs, self.bufs = lists, start, step, specs, bufs
        self.slots = slots or [None] * len(lists)  # per list: None (every trip) or each trip's row
        self.seen = []  # the probe: [(tree, [(shape, dtype, kind)]) per list] of each trace
        self.k, self.outer, self.counts = 0, set(), [1] * len(lists)

    def wrap(self, body):
        # the buffers in trip's closure: npr_for finds them among the refs the body reaches, so a
        # differentiated loop discharges them too (a constant, `t * dt`, stored into a closed-over
        # ref: JAX 0.10.2's transpose raised "no attribute accum", jax #33987)
        bufs = self.bufs

        def trip(i, *carry):
            marks = [len(lst) for lst in self.lists]
            # values that outlive a trip (an argument, a module's array): NumPy's list holds that very
            # object each time, which the caller's later writes show through: not stacked
            self.outer = {id(v) for v in _npr_reachable([body]) if isinstance(v, jax.Array)}
            self.k = (i - self.start) // self.step
            appending = _npr_state.setdefault("appending", {})
            before = dict(appending)
            # (the trip's own buffers, which a lifted loop or branch rebinds: refs._npr_appends_swapped)
            appending.update({id(lst): (self, j, bufs) for j, lst in enumerate(self.lists) if self.slots[j] is not None})
            try:
                out = body(i, *carry)
            finally:
                appending.clear()
                appending.update(before)
            values = []
            for lst, mark, slots in zip(self.lists, marks, self.slots):
                added = lst[mark:]
                del lst[mark:]
                if bool(added) != (slots is None):  # (an append under an `if` went through npr_append)
                    raise _NprAppendsRefused(f"{len(added)} appends in one trip")
                values.append(added or None)
            self._take(values, bufs)
            return out
        return trip

    def _take(self, values, bufs):
        """Each list's appends of one trace of the body (None: a guarded list), recorded or written."""
        specs = [None if v is None else [_npr_append_spec(x, self.outer) for x in v] for v in values]
        if self.specs is None:
            self.seen.append([s if s is None else (len(s), s[0] if all(x == s[0] for x in s) else None)
                              for s in specs])
            return
        for j, items in enumerate(values):
            if items is not None and len(items) != self.counts[j]:
                raise _NprAppendsRefused("a trip appended another number of items than the probe's")
            for m, value in enumerate(items or ()):
                self._write(j, specs[j][m], value, self.k if len(items) == 1 else (self.k, m), bufs)

    def put(self, j, value, bufs):
        """npr_append's value for list j, in the branch that appends it, into `bufs` (the trip's)."""
        spec = _npr_append_spec(value, self.outer)
        if self.specs is None:
            self.seen.append([(1, spec) if n == j else None for n in range(len(self.lists))])
            return
        k = self.k
        slot = int(self.slots[j][k]) if isinstance(k, (int, np.integer)) else jnp.asarray(self.slots[j])[k]
        self._write(j, spec, value, slot, bufs)

    def _write(self, j, spec, value, k, bufs=None):
        if spec != self.specs[j]:  # the probe traced the same loop: only a body that is not deterministic gets here
            raise _NprAppendsRefused("a value appended in a loop changed type between the probe and the run")
        for r, leaf, (_, dtype, _) in zip((self.bufs if bufs is None else bufs)[j], jax.tree_util.tree_leaves(value), spec[1]):
            r[k] = jnp.asarray(npr_load(leaf), dtype)

    def agreed(self):
        """The one spec every trace of the body gave each list (the probe), else _NprAppendsRefused."""
        agreed, self.counts = [], []
        for j in range(len(self.lists)):
            specs = [s[j] for s in self.seen if s[j] is not None]
            if not specs or any(s != specs[0] for s in specs) or specs[0][1] is None \
                    or any(kind is None for _, _, kind in specs[0][1][1]):
                raise _NprAppendsRefused("appended values of different types, or of a kind not stacked")
            self.counts.append(specs[0][0])
            agreed.append(specs[0][1])
        return agreed


def _npr_append_spec(value, outer):
    """(tree, [(shape, dtype, kind) per leaf]) of an appended value; kind None where the buffer
    cannot hold it as NumPy's list does (a Ref or a view of one, an object, a NumPy array, a
    value made before the trip: NumPy's list would hold that very object)."""
    leaves, tree = jax.tree_util.tree_flatten(value, is_leaf=lambda v: isinstance(v, NprView))
    return tree, [((), None, None) if id(leaf) in outer else _npr_leaf_spec(leaf) for leaf in leaves]


def _npr_leaf_spec(v):
    if isinstance(v, bool) or type(v) in (int, float, complex):  # a concrete Python number (a peeled trip)
        return (), np.dtype(jnp.result_type(type(v))), type(v)
    if isinstance(v, np.generic):
        return (), v.dtype, "numpy"
    if not isinstance(v, jax.Array) or isinstance(v, (jax.Ref, NprView)):
        return (), None, None
    noted = _npr_state.get("pyreturn", {}).get(id(v))
    if noted is not None and noted[0] is v:  # float(v), int(v), np.array(x) of a 0-d value
        return tuple(v.shape), np.dtype(v.dtype), noted[1]
    if v.ndim == 0 and _npr_weak_value(v) and v.dtype.kind in _NPR_PY_KINDS:
        # a weakly typed scalar is a Python number in NumPy's program (NEP 50's weak scalars:
        # np2ref types Python numbers so, and NumPy's functions return strong values)
        return (), np.dtype(v.dtype), _NPR_PY_KINDS[v.dtype.kind]
    return tuple(v.shape), np.dtype(v.dtype), "numpy"


def _npr_appended(v, kind):
    """One row of a buffer as NumPy's list holds it (the result conversion reads the note)."""
    if kind == "numpy":
        return v
    if kind in (int, float, complex):  # weakly typed again: later arithmetic promotes as NumPy's with a Python number
        v = _npr_weak_astype(v, v.dtype)
    return npr_pyreturn(v, kind.__name__) if kind in (int, float, complex, bool) else _npr_note_kind(v, kind)


def _npr_note_kind(v, kind):
    _npr_state.setdefault("pyreturn", {})[id(v)] = (v, kind)
    return v


# The runtime's modules call one another's functions (they were one file): imported once this
# module is complete, so that any import order works.


_npr_above.stacked_array = _npr_stacked_array  # np.array(hist) in np_creation.py
