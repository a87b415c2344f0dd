"""Refs through control flow: which Refs a body writes, lifting them into loop carries."""

import contextlib as _npr_contextlib
import functools as _npr_functools
import jax
import jax.numpy as jnp
import numpy as np
import types as _npr_types

from .bounds import _npr_lane_checks, _npr_lane_record, _npr_no_checks
from .compat import (
    _npr_BATCH_TRACERS, _npr_discharge_state, _npr_discharged, _npr_eval_jaxpr, _npr_has_tracer,
    _npr_reverse_tangent, _npr_TANGENT_TRACERS, _npr_Tracer, _npr_written_inputs)
from .core import _npr_above, _npr_state, npr_load, NprError, NprIndexCarried, NprUnsupported
from .lowering import _npr_only_store, _npr_region_get, _npr_region_put, _npr_same_region
from .unbound import npr_unset
from .views import _npr_is_ref, NprView


def _npr_batched(objs):
    """Whether vmap batches a value among objs (or reachable from them), or a lifted body being
    traced belongs to a batched loop or branch (jit hides the batching from its trace)."""
    return bool(_npr_state.get("batched")) or _npr_traced_by(objs, _npr_BATCH_TRACERS)


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
    return _npr_batched_scope(_npr_traced_by(controls, _npr_BATCH_TRACERS))


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


# ---- refs through control flow --------------------------------------------------------------
# A branch or loop body reaches refs through its closure (and the closures of what it calls).
# lax.cond / lax.while_loop with ref effects cannot be batched by vmap on jax 0.10, so the
# refs' values go in as operands or loop state, each branch or iteration runs on fresh refs
# made from them, and the values of the refs it wrote come out and are stored back once:
# what JAX's own state discharge produces, written so that vmap and grad apply.


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
        out = _npr_eval_jaxpr(_npr_discharged(closed), jax.tree_util.tree_leaves(args))
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
        elif isinstance(obj, _npr_above.NprWinView):  # a moving window (win_views.py): what it is a window of
            yield from visit(obj.base)
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
    return any(_npr_reverse_tangent(leaf) for leaf in _npr_reachable(objs))


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
    if isinstance(obj, _npr_above.NprWinView):
        base = _npr_rebind(obj.base, swap, memo)
        return obj if base is obj.base else type(obj)(base, obj.idx)
    if isinstance(obj, (tuple, list, dict)):  # the same object when nothing in it changes: a list
        items = obj.items() if isinstance(obj, dict) else enumerate(obj)  # a body appends to stays one
        new = {k: _npr_rebind(o, swap, memo) for k, o in items}
        if all(new[k] is o for k, o in (obj.items() if isinstance(obj, dict) else enumerate(obj))):
            return obj
        if isinstance(obj, dict):
            return new
        return type(obj)(*new.values()) if hasattr(obj, "_fields") else type(obj)(new.values())
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


def _npr_append_bufs():
    """The buffers of the guarded appends of the stacked trip under way (appends.py keeps them in
    `_npr_state["appending"]`): a branch that appends (`if step % every == 0: snaps.append(v)`)
    writes them, so a lifted branch takes them as refs it reaches (vmap cannot batch a cond that
    writes a closed-over ref)."""
    return [r for _, j, bufs in _npr_state.get("appending", {}).values() if bufs is not None for r in bufs[j]]


@_npr_contextlib.contextmanager
def _npr_appends_swapped(swap):
    """While a lifted body runs, the appends under way write its fresh refs (`swap`), not the outer
    buffers: npr_append finds them through the state, not through a closure _npr_rebind rebinds."""
    appending = _npr_state.get("appending")
    before = dict(appending or {})
    for key, (trips, j, bufs) in before.items():
        if bufs is not None:
            appending[key] = (trips, j, [[swap.get(id(r), r) for r in b] for b in bufs])
    try:
        yield
    finally:
        if appending is not None:
            appending.clear()
            appending.update(before)


def _npr_written_refs(fns, refs, values, regions=None):
    """Positions in `refs` that some function in `fns` writes (all of them when JAX's effect
    records cannot be read). `regions`, a list, gets per function {position: what it did to
    that ref (lowering.py _npr_only_store)}."""
    is_ref = [_npr_is_ref(v) for v in values]
    plain = [_npr_placeholder(v) for v, r in zip(values, is_ref) if not r]
    written = set()
    for fn in fns:
        def traced(*args):
            swap = {id(r): a for r, a in zip(refs, args)}
            rest = iter(args[len(refs):])
            with _npr_appends_swapped(swap):
                _npr_rebind(fn, swap, {})(*[_npr_rebind(v, swap, {}) if r else next(rest)
                                            for v, r in zip(values, is_ref)])
            if regions is not None:
                regions.append({k: _npr_only_store(a) for k, a in enumerate(args[:len(refs)])})
        with _npr_no_checks():  # a trace for its effects alone
            jaxpr = jax.make_jaxpr(traced)(*refs, *plain)
        found = _npr_written_inputs(jaxpr)
        if found is None:
            return set(range(len(refs)))
        written |= found
    return {i for i in written if i < len(refs)}


def _npr_jit_by_checks(inner):
    """jax.jit(inner), one per state of the run-time checks: a probe traces the body with checks
    off (rebinds._npr_rebound_in, _npr_written_refs), and jax.jit's cache would hand that trace,
    without its checks, to the loop that runs (an assert in a `while` body was dropped)."""
    jitted = {}

    def run(*state):
        key = _npr_state.get("bounds") is None
        if key not in jitted:  # (a function of its own: jax.jit caches traces by the function)
            jitted[key] = jax.jit(inner) if not key else jax.jit(lambda *s: inner(*s))
        return jitted[key](*state)
    return run


def _npr_lift_refs(refs, values, fns, run, loop=False):
    """Run the control flow `run(fns', values')` with the refs' values as leading values:
    each fn' makes fresh refs from them, calls fn with those, and returns the written ones'
    new values (a loop test returns its predicate). Values that are refs are refs again after."""
    n = len(refs)
    regions = None if loop else []
    written = _npr_written_refs(fns[1:] if loop else fns, refs, values, regions)
    # an `if` whose branches each store one region of a ref, the same one (or none): the cond
    # gives back that region's new value, stored after it (no whole array through the cond)
    # jit keeps vmap's batching of the fresh refs out of the loop body's jaxpr (which JAX 0.10
    # cannot discharge); under differentiation the body is discharged here instead (see _npr_fori)
    discharge = _npr_discharge_state() is not None and _npr_differentiated(list(fns) + list(values) + refs)
    parts = {}  # not under differentiation: a branch traced again there may store in another form
    for i in (written if regions is not None and len(regions) == len(fns) and not discharge else ()):
        done = [r.get(i) for r in regions]
        stores = [d for d in done if d != 'none']
        if stores and None not in done and all(_npr_same_region(d.key, stores[0].key) for d in stores):
            parts[i] = stores[0].key
    # the check record is written state too: the lanes' (kept per lane, bounds.py), or a `while`
    # loop's, whose body would record into a Ref the jitted body only closes over (an assert or
    # a `raise` under an `if` of the body was dropped); its test then stops at a failed check
    record = _npr_state.get("bounds") if loop else _npr_lane_record()
    if record is not None:
        refs, written, n = [*refs, record.site, record.value], {*written, n, n + 1}, n + 2
    is_ref = [_npr_is_ref(v) for v in values]
    reverse = discharge and _npr_reverse_mode(list(fns) + list(values) + refs)

    batched = _npr_batched(list(fns) + list(values) + refs)

    def lifted(fn, returns_values):
        @_npr_tracing_batched(batched)
        def inner(*state):
            fresh = [jax.new_ref(v) for v in state[:n]]
            swap = {id(r): f for r, f in zip(refs, fresh)}
            args = [_npr_rebind(v, swap, {}) if r else s
                    for v, r, s in zip(values, is_ref, state[n:])]
            with _npr_lane_checks(*(fresh[-2:] if record is not None else (None, None)), lanes=not loop), \
                    _npr_appends_swapped(swap):
                out = _npr_rebind(fn, swap, {})(*args)
            if not returns_values:  # a loop's test: NumPy raised at the failed check, the loop ends
                return out if record is None else jnp.logical_and(jnp.asarray(npr_load(out)), fresh[-2][...] == 0)
            out = (out,) if len(values) == 1 else (tuple(out) if out is not None else ())
            if any(r and o is not a for o, r, a in zip(out, is_ref, args)):
                raise NprUnsupported(
                    "NPR011", "a name that holds an array written in place (an argument `op=` writes, "
                    "as NumPy writes the caller's array) is rebound in this loop or branch, which np2ref "
                    "cannot follow; pass a Python number or a NumPy scalar (`float(dt0)`)")
            finals = tuple(_npr_part(fresh[i], state[i], parts[i]) if i in parts else
                           fresh[i][...] if i in written else state[i] for i in range(n))
            kept = tuple(o if not r else s for o, r, s in zip(out, is_ref, state[n:]))
            both = finals + kept
            return both[0] if len(both) == 1 else both
        inner._npr_lifted = True  # its closure holds the outer refs: not searched again
        run = _npr_discharging(inner, reverse) if discharge else _npr_jit_by_checks(inner)
        run._npr_lifted = True  # a function of arrays only (branches._npr_branch_types)
        return run

    wrapped = tuple(lifted(fn, returns_values=not (loop and k == 0)) for k, fn in enumerate(fns))
    placeholder = [0 if r else v for v, r in zip(values, is_ref)]
    result = run(wrapped, (*[r[...] for r in refs], *placeholder))
    result = tuple(result) if n + len(values) > 1 else (result,)
    for i in sorted(written):
        refs[i][...] = _npr_region_put(refs[i][...], parts[i], result[i]) if i in parts else result[i]
    out = [v if r else o for v, r, o in zip(values, is_ref, result[n:])]
    return _npr_unpack(tuple(out), len(values) == 1) if values else None

def _npr_part(ref, start, key):
    """The region `key` of the Ref `ref` after a branch that stored that region or nothing."""
    done = _npr_only_store(ref)
    if done == 'none':
        return _npr_region_get(start, key)
    if done is None or not _npr_same_region(done.key, key):
        raise NprError("NPR206", "np2ref: internal error: a branch traced twice stored different regions",
                       tagged=False)
    return jnp.broadcast_to(done.val, [k[1] for k in key if isinstance(k, tuple)]).astype(start.dtype)


def npr_index(items):
    """A list used as an index (`a[[0, p]]`): NumPy's integer array, concrete when it can be."""
    items = [npr_load(i) for i in items]
    if any(isinstance(i, _npr_Tracer) for i in items):
        return jnp.stack([jnp.asarray(i) for i in items]) if items else jnp.zeros(0, int)
    return np.array(items)


_NPR_INDEX_CARRIED = "it carries an index that is no array (a slice or `...`), rebound in the loop"


def _npr_index_leaves(carry):
    """Whether a value holds a Python index no lax loop or cond can carry: a slice, `...` or a
    string (`idx = (0, ...)` ... `idx = (1, ...)`). A loop with static bounds then runs as the
    Python loop it was, where each is static (loops.npr_for); on array data: NPR122."""
    return any(isinstance(leaf, (slice, type(Ellipsis), str)) for leaf in jax.tree_util.tree_leaves(carry))


def _npr_check_index_carry(v):
    if _npr_index_leaves(v):
        raise NprIndexCarried("NPR122", "a loop or `if` on array data binds an index that is no array "
                             "(a slice, `...`): which one would depend on the data; write through each index "
                             "where it is chosen (inside the branch), or carry an integer position")


def _npr_placeholder(v):
    _npr_check_index_carry(v)
    if v is None:  # `best = None` before a data-dependent `if` that binds it: its type depends on the data
        raise NprUnsupported("NPR122", "a data-dependent `if` leaves a name None on one path and gives it "
                             "a value on the other (`best = None`, then `best = i` where the data says so); "
                             "give the name a value of its type before the `if` (`best = -1`), or keep a flag")
    return jnp.zeros((), jnp.float64) if v is npr_unset else jnp.asarray(v)


def _npr_unpack(state, single):
    if single:
        return state[0]
    return tuple(state) if state else None


