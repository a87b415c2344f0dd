"""The module of np2ref.rt that reads JAX internals (with compat_jaxpr.py, a jaxpr's fields and
rewriting, and compat_messages.py, JAX's error wordings).

Everything here leans on something JAX does not promise: tracer class names, the equations of the
jaxpr being traced, JAX's own state discharge, effect records, weak-typed conversion. Each use
has a fallback that keeps results exact and only costs speed (or, for the reverse-mode test,
turns a translation into JAX's own error): when a JAX release changes one of these, np2ref gets
slower or refuses, never different. Read on jax 0.10.2 (the registry's) and 0.11.x (GPU machines);
`_npr_JAX_VERSION` is what tests and bug reports quote.

| use | read through | fallback when missing |
|---|---|---|
| is this a tracer | `jax.core.Tracer` (`jax._src.core.Tracer`) | none needed: public |
| which transformation traces a value | tracer class names (`BatchTracer`, `JVPTracer`, ...) | not seen: a loop or branch is not discharged/batched specially; JAX's own error for what it cannot do |
| the equations being traced | `trace_ctx.trace.frame.tracing_eqns`, `tracer.parent`, `eqn.primitive/in_tracers/params` | None: the store peepholes (lowering.py) keep the plain lowering |
| JAX's state discharge | `jax._src.state.discharge.discharge_state` | None: loops keep their refs (no grad through a loop that makes refs of its own) |
| which refs a traced body writes | effect class names `WriteEffect`/`AccumEffect` on `make_jaxpr(...).effects` | every ref is taken as written (exact, more loop state) |
| whether a traced test makes host calls (histories.py) | effect class names other than `ReadEffect`/`WriteEffect`/`AccumEffect` | taken as making them (a chunk flush in every trip: exact, slower) |
| a traced int as base + literal (slice starts `k + 1` read twice, windows.py) | `tracer.parent` (as above), `jax._src.core.Literal` in its `in_tracers`' `val` | (x, 0): two such starts are not known to be the same; the slices are shifted, as before |
| a weakly typed int/float conversion | `jax._src.lax.lax._convert_element_type(..., weak_type=True)` | a strongly typed astype (NumPy's promotion of Python scalars then differs only for int8-like operands) |
| a Ref made from a constant array (np.add.at into it: jax 0.10's addupdate discharge calls `.at` on the constant's NumPy value) | `tracer.parent` of the Ref (`new_ref`), its input's `_trace.frame.constvar_to_val` | False: addupdate (JAX's AttributeError for such a Ref) |
| the index of JAX's IndexError for an empty axis (compat_messages.py) | the local `index.index` of the raising frame `_index_to_gather` | JAX's message (without the index) |
| a division (or a product) XLA would rewrite, fenced where it decides (divisions.py); the program rewrites of peepholes.py and dots.py, and `.pure`'s fence under a jit (`_npr_jit_traced`: tracer and trace class names) | compat_jaxpr.py: `jax._src.core` (Literal, Jaxpr, ClosedJaxpr, eval_jaxpr), `eqn.replace`, `jaxpr.replace`, equations of `jax.make_jaxpr` spliced in; every field of an equation, a jaxpr or a var read through a named function there (`_npr_eqns`, `_npr_eqn_name`, `_npr_params`, `_npr_invars`, `_npr_aval`, ...) | the program as traced: XLA's `x * 0.1` and FMAs (as before) |
| a forward-mode derivative's batched tangents (`jax.jacfwd` of `.pure`: forward.py; compat_transforms.py) | `JVPTracer.tangent`, `BatchTracer._trace/.val/.batch_dim` | not seen: JAX's own error (jacfwd's "output was batched"), as before |
| `.pure`'s fences under the caller's vmap or jvp/grad, nested, and eagerly (pure_fences.py) | compat_transforms.`_npr_pure_level`: the current trace's class name (`BatchTrace`, `JVPTrace`, `LinearizeTrace`, `DynamicJaxprTrace`, `EvalTrace`), its `parent_trace` chain, a tracer's `_trace`, `val`/`batch_dim` (vmap) or `primal` (jvp); compat.`_npr_beneath`: `jax._src.core.set_current_trace(trace.parent_trace)` | None: `.pure` runs as traced there (XLA's rewrites, as before) |
| a vmap's trace and the ones it nests in (`A[i - 1]` read as a slice in lanes, lane_reads.py) | `BatchTrace.parent_trace`, `tracer.val` | not within: the gather, as before |
| whether anything is being traced (a draw made eagerly runs on the host at once, NumPy's own value) | `trace_ctx.trace`'s class name `EvalTrace` | not eager: an io_callback, as in a trace |
| a whole-Ref store (`ref[...] = v`) under vmap with the Ref and the value batched along different axes (jax 0.10.2 raises "Invalid shape for `swap`") | `jax._src.interpreters.batching.fancy_primitive_batchers[swap_p]` wrapped to move the value's batch axis first (as JAX's addupdate rule does) | JAX's own error, as before |
| what one of JAX's errors means, where only its text tells it apart | `_NPR_JAX_MESSAGES` (compat_messages.py): a row per wording, with the JAX versions it was read in | not recognised: JAX's own error surfaces (no coded diagnostic) |
| jax_enable_x64 set for one call without a context manager object | `jax._src.config.enable_x64.swap_local/set_local` (C++, no thread-local hook) | `jax.enable_x64(...)` (0.4 µs more a call) |
"""

import contextlib
import weakref as _npr_weakref

import jax
import numpy as np

_npr_JAX_VERSION = tuple(int(p) for p in jax.__version__.split(".")[:3] if p.isdigit())


# ---- tracers -----------------------------------------------------------------------------------

_npr_Tracer = getattr(jax.core, "Tracer", None)
if _npr_Tracer is None:  # pragma: no cover - a JAX without the public alias
    from jax._src.core import Tracer as _npr_Tracer

_npr_TANGENT_TRACERS = ("JVPTracer", "LinearizeTracer")
_npr_BATCH_TRACERS = ("BatchTracer",)


def _npr_unbatched(x):
    """(the traced value under a vmapped value x, its batch axis), or None when x is not one."""
    if type(x).__name__ not in _npr_BATCH_TRACERS:
        return None
    try:
        return x.val, x.batch_dim
    except AttributeError:  # another JAX's BatchTracer: not seen through
        return None


def _npr_traced(x):
    """Whether x is a tracer (a value being traced by jit, vmap, grad...)."""
    return isinstance(x, _npr_Tracer)


def _npr_has_tracer(leaf, kinds):
    """Whether leaf is a tracer of one of `kinds` (class names), possibly wrapped in tracers of
    other transformations."""
    for _ in range(16):
        if not isinstance(leaf, _npr_Tracer):
            return False
        if type(leaf).__name__ in kinds:
            return True
        leaf = getattr(leaf, "val", getattr(leaf, "primal", None))
    return False


def _npr_reverse_tangent(leaf):
    """Whether leaf is traced by reverse-mode differentiation (grad, vjp, linearize): a linearize
    tracer, or a JVP tracer whose tangent is being staged out."""
    for _ in range(16):
        if not isinstance(leaf, _npr_Tracer):
            return False
        kind = type(leaf).__name__
        if kind == "LinearizeTracer" or (kind == "JVPTracer" and
                                         type(getattr(leaf, "tangent", None)).__name__ == "JaxprTracer"):
            return True
        leaf = getattr(leaf, "val", getattr(leaf, "primal", None))
    return False


def _npr_jit_traced(values):
    """Whether `values` hold traced leaves and every one is a jit's (jax.jit, make_jaxpr), none
    a vmap's or a derivative's, traced into a jit's trace: .pure then fences its divisions as a
    compiled call does (re-evaluating its jaxpr under vmap broke lax loops, under grad it hid
    the tangent tracers; a jit inside the caller's vmap or grad is traced before they apply)."""
    leaves = [v for v in jax.tree_util.tree_leaves(values) if isinstance(v, _npr_Tracer)]
    return bool(leaves) and all(type(v).__name__ == "DynamicJaxprTracer" for v in leaves) \
        and type(_npr_current_trace()).__name__ == "DynamicJaxprTrace"


def _npr_is_ref_aval(aval):
    """Whether an abstract value is a Ref's."""
    return "Ref" in type(aval).__name__


# ---- the jaxpr being traced ------------------------------------------------------------------

def _npr_current_trace():
    """The trace equations go into now (None when this JAX's internals differ)."""
    try:
        from jax._src import core as _npr_core
        return _npr_core.trace_ctx.trace
    except Exception:  # pragma: no cover
        return None


@contextlib.contextmanager
def _npr_beneath(trace):
    """The trace beneath `trace` (a vmap's or a derivative's) made current: what runs here is
    computed beneath that transformation (a value it batches or differentiates as a constant)."""
    from jax._src import core as _npr_core
    with _npr_core.set_current_trace(trace.parent_trace):
        yield


def _npr_eager():
    """Whether nothing is being traced (JAX's eval trace is current): a value computed now is
    the run's own, not a program's. False when this JAX's internals differ (the caller then
    stages its host work as a traced program would: exact, slower)."""
    return type(_npr_current_trace()).__name__ == "EvalTrace"


def _npr_staging_trace():
    """The trace that records equations beneath the current one (under vmap, the jaxpr trace
    the batched equations go to); None when there is none or this JAX keeps it elsewhere."""
    try:
        trace = _npr_current_trace()
        while trace is not None and not hasattr(trace, "frame"):
            trace = getattr(trace, "parent_trace", None)
        return trace
    except Exception:
        return None


def _npr_equations(trace=None):
    """The equations recorded so far by `trace` (by default the current one), oldest first;
    an entry may be None (an equation without effects that was collected). None when this JAX
    does not record them where np2ref looks."""
    try:
        trace = _npr_current_trace() if trace is None else trace
        eqns = trace.frame.tracing_eqns
    except Exception:
        return None
    return _npr_EquationList(eqns)


class _npr_EquationList:
    """A read-only view of a trace's equation list that dereferences weak references."""
    __slots__ = ("eqns",)

    def __init__(self, eqns):
        self.eqns = eqns

    def __len__(self):
        return len(self.eqns)

    def __getitem__(self, k):
        e = self.eqns[k]
        return e() if isinstance(e, _npr_weakref.ReferenceType) else e


class _npr_CountedEquations(list):
    """A trace's equation list that reports each equation recorded (the trace budget, budget.py)."""
    __slots__ = ("spend",)

    def append(self, eqn):
        self.spend()
        list.append(self, eqn)


def _npr_count_equations(spend):
    """Have the current trace call spend() for each equation it records from now on; nothing
    when nothing is traced or this JAX keeps its equations elsewhere."""
    try:
        frame = _npr_current_trace().frame
        eqns = frame.tracing_eqns
    except Exception:
        return
    if type(eqns) is list:
        counted = _npr_CountedEquations(eqns)
        counted.spend = spend
        frame.tracing_eqns = counted


def _npr_producer(tracer):
    """The equation that made `tracer` in the jaxpr being traced (None: an input, a constant,
    or not knowable on this JAX)."""
    return getattr(tracer, "parent", None)


def _npr_widened_from(x):
    """The traced int x was made from by widening integer conversions in the jaxpr being traced
    (`n` for `n.astype(int64)`, bounds.py's _npr_wide: the same value in more bits); x itself
    when it was not."""
    for _ in range(4):
        eqn = getattr(x, "parent", None)
        if eqn is None or eqn.primitive.name != "convert_element_type" or len(eqn.in_tracers) != 1:
            return x
        src, dst = np.dtype(eqn.in_tracers[0].dtype), np.dtype(x.dtype)
        if not (src.kind in "iu" and dst.kind in "iu" and np.can_cast(src, dst, "safe")):
            return x
        x = eqn.in_tracers[0]
    return x


def _npr_vmaps_within(trace, outer):
    """Whether `trace` is the vmap trace `outer`, or vmaps nested in it with no loop body's between."""
    while type(trace).__name__ == "BatchTrace" and trace is not outer:
        trace = getattr(trace, "parent_trace", None)
    return trace is outer and outer is not None


def _npr_affine(x, stop=None):
    """(base, c): the traced int x computed as base + c in the jaxprs being traced (adds and
    subtracts of int literals followed back: `k + 1`, `i - 3 + 1`); (x, 0) when it was not.
    Followed back no further than a value for which stop(value) holds."""
    c = 0
    for _ in range(8):
        if stop is not None and stop(x):
            break
        eqn = getattr(x, "parent", None)
        if eqn is None or eqn.primitive.name not in ("add", "sub") or len(eqn.in_tracers) != 2:
            break
        lit = [_npr_int_literal(t) for t in eqn.in_tracers]
        if lit[0] is None and lit[1] is not None:
            x, c = eqn.in_tracers[0], c + (lit[1] if eqn.primitive.name == "add" else -lit[1])
        elif eqn.primitive.name == "add" and lit[0] is not None and lit[1] is None:
            x, c = eqn.in_tracers[1], c + lit[0]
        else:
            break
    return x, c


def _npr_linear(x, stop=None, depth=8):
    """(base, m, c): the traced int x computed as m * base + c in the jaxprs being traced (adds,
    subtracts and multiplications by int literals and integer casts followed back: `2 * k`,
    `2 * k + 2`); (x, 1, 0) when it was not. Followed back no further than a value for which
    stop(value) holds."""
    eqn = None if stop is not None and stop(x) else getattr(x, "parent", None)
    name = getattr(getattr(eqn, "primitive", None), "name", None)
    ins = getattr(eqn, "in_tracers", ())
    if depth and name == "convert_element_type" and len(ins) == 1 and \
            jax.numpy.issubdtype(eqn.params["new_dtype"], jax.numpy.integer):
        return _npr_linear(ins[0], stop, depth - 1)  # (the values fit: a loop's)
    if not depth or name not in ("add", "sub", "mul") or len(ins) != 2:
        return x, 1, 0
    lit = [_npr_int_literal(t) for t in ins]
    if (lit[0] is None) == (lit[1] is None):
        return x, 1, 0
    k = lit[0] if lit[0] is not None else lit[1]
    base, m, c = _npr_linear(ins[1] if lit[0] is not None else ins[0], stop, depth - 1)
    if name == "mul":
        return base, m * k, c * k
    if name == "add":
        return base, m, c + k
    return (base, m, c - k) if lit[1] is not None else (base, -m, k - c)


def _npr_lifted_from(tracer):
    """The value of an enclosing trace that `tracer` stands for in the jaxpr being traced (an
    outer loop's variable read in an inner loop's body), else None."""
    try:
        return tracer._trace.frame.constvar_to_val.get(tracer.val)
    except Exception:  # another JAX's tracer internals: not known
        return None


def _npr_made_from_constant(ref):
    """Whether the Ref `ref` was made, in the jaxpr being traced, from a constant array (jax 0.10
    discharges an addupdate into it with `.at` on the constant's NumPy value: AttributeError).
    False when not knowable."""
    try:
        eqn = ref.parent
        if eqn is None or eqn.primitive.name != "new_ref":
            return False
        init = eqn.in_tracers[0]
        return init.parent is None and isinstance(_npr_lifted_from(init), np.ndarray)
    except Exception:  # another JAX's tracer internals
        return False


def _npr_int_literal(tracer):
    """The Python int a tracer of a jaxpr literal stands for, else None."""
    try:
        from jax._src.core import Literal
        lit = getattr(tracer, "val", None)
        v = lit.val if isinstance(lit, Literal) else None
        dt = getattr(v, "dtype", None)
        if isinstance(v, int) and not isinstance(v, bool) or dt is not None and dt.kind in "iu" and v.ndim == 0:
            return int(v)
    except Exception:
        pass
    return None


def _npr_trace_of(tracer):
    """The trace `tracer` belongs to (None when not knowable)."""
    return getattr(tracer, "_trace", None)


def _npr_eqn_inputs(eqn):
    """The tracers a traced equation (the trace's own record, `_npr_producer`) takes."""
    return eqn.in_tracers


# ---- state discharge and effects ---------------------------------------------------------------

def _npr_discharge_state():
    """JAX's own state discharge (a private function; None where it is missing: loops then
    keep their refs)."""
    try:
        from jax._src.state.discharge import discharge_state
    except ImportError:  # pragma: no cover
        return None
    return discharge_state


def _npr_discharged(closed):
    """The closed jaxpr `closed` with its refs discharged (requires _npr_discharge_state())."""
    discharge = _npr_discharge_state()
    try:
        return discharge(closed)
    except TypeError:  # an older signature: (jaxpr, consts) -> (jaxpr, consts)
        return jax.core.ClosedJaxpr(*discharge(closed.jaxpr, closed.consts))


def _npr_eval_jaxpr(closed, args):
    return jax.core.eval_jaxpr(closed.jaxpr, closed.consts, *args)


def _npr_written_inputs(closed):
    """Positions of the inputs of the traced `closed` jaxpr that it writes or accumulates into
    (None when its effect records cannot be read: then every ref counts as written)."""
    invars = closed.jaxpr.invars
    written = set()
    for effect in closed.effects:
        if type(effect).__name__ not in ("WriteEffect", "AccumEffect"):
            continue
        index = getattr(effect, "input_index", None)
        if not isinstance(index, int):
            var = getattr(effect, "input", None)
            index = next((i for i, v in enumerate(invars) if v is var), None)
        if index is None:
            return None
        written.add(index)
    return written


def _npr_host_effects(closed):
    """Whether the traced `closed` jaxpr has effects other than reads and writes of refs (a host
    callback: a draw, a print); True when its effect records cannot be read."""
    try:
        return any(type(e).__name__ not in ("ReadEffect", "WriteEffect", "AccumEffect") for e in closed.effects)
    except (AttributeError, TypeError):  # pragma: no cover
        return True


# ---- conversions ---------------------------------------------------------------------------

def _npr_weak_astype(x, dtype):
    """x converted to `dtype`, weakly typed (as a Python int or float is in promotion)."""
    try:
        from jax._src.lax.lax import _convert_element_type
        return _convert_element_type(x, dtype, weak_type=True)
    except (ImportError, TypeError):  # pragma: no cover
        return x.astype(dtype)


# ---- ordered effects after a failed host call -----------------------------------------------

def _npr_heal_effect_tokens():
    """Drop the runtime tokens that hold an error. A program with an ordered host call
    (io_callback ordered=True) hands its effect token to the next such program; when the call
    raised, on a TPU (asynchronous dispatch) the token JAX keeps carries that error, and every
    later program with an ordered effect raised it again, as did interpreter exit (measured on
    jax 0.10.2, 2026-12-06; on the CPU the failure came before the token was kept). Healthy
    tokens are kept, so the order of effects that did run is untouched."""
    try:
        from jax._src import dispatch
        tables = (dispatch.runtime_tokens.current_tokens, dispatch.runtime_tokens.output_runtime_tokens)
    except (ImportError, AttributeError):  # pragma: no cover (another JAX: nothing to heal)
        return
    for table in tables:
        for key, token in list(table.items()):
            try:
                token.block_until_ready()
            except Exception:  # the failed program's token: the next program starts afresh
                table.pop(key, None)


def _npr_x64_state():
    """jax_enable_x64's config state when a call can set it for its thread with swap_local and
    restore it with set_local, exactly what `with jax.enable_x64(v):` does on JAX 0.10 (whose
    StateContextManager also calls a thread-local hook, absent for this option); None where
    that does not hold (NprFunction then enters jax.enable_x64)."""
    try:
        from jax._src import config as _config
        state = _config.enable_x64
    except Exception:  # pragma: no cover
        return None
    if getattr(state, "_update_thread_local_hook", False) is not None or \
            not (hasattr(state, "swap_local") and hasattr(state, "set_local")):
        return None  # pragma: no cover
    return state


# ---- Pallas (rt/pallas.py, loops="pallas") -------------------------------------------------

def _npr_pallas_modules():
    """(jax.experimental.pallas, its tpu module), imported when a kernel is first made (most
    programs never make one)."""
    from jax.experimental import pallas
    from jax.experimental.pallas import tpu
    return pallas, tpu


def _npr_smem_space(pltpu):
    """The SMEM memory space: `pltpu.SMEM` in jax 0.10, `pltpu.MemorySpace.SMEM` where that is gone."""
    return getattr(pltpu, "SMEM", None) or pltpu.MemorySpace.SMEM


# ---- a whole-Ref store under vmap ----------------------------------------------------------------

def _npr_swap_vmap_fixed():
    """JAX's batching rule of `swap` (a store `ref[...] = v`) with no indexer passes the value on
    with its own batch axis (jax 0.10.2's `_swap_vmap`, unlike its `_addupdate_vmap`): a Ref made
    from a value batched along another axis than 0 (a lax.map's stacked rows: `v = np.array([r.sum()
    for r in a])`) then met a store of a value batched along axis 0 with "Invalid shape for
    `swap`". The rule wrapped here moves the value's batch axis to the Ref's first, as addupdate's
    does; a JAX whose rule already matches them gets equal axes and runs as before. Returns
    whether the rule is wrapped (False where JAX's internals moved: JAX's own error, as before)."""
    try:
        from jax._src.interpreters import batching
        from jax._src.state.primitives import swap_p
        from jax._src import tree_util
    except ImportError:  # pragma: no cover
        return False
    rule = batching.fancy_primitive_batchers.get(swap_p)
    if rule is None or getattr(rule, "_npr_wrapped", False):
        return rule is not None

    def swap_vmap(axis_data, batched_args, batched_dims, *, tree):
        ref_dim, val_dim = batched_dims[0], batched_dims[1]
        if ref_dim is not None and val_dim is not None and val_dim != ref_dim \
                and not tree_util.tree_unflatten(tree, list(batched_args[2:])):
            batched_args = (batched_args[0], batching.moveaxis(batched_args[1], val_dim, ref_dim),
                            *batched_args[2:])
            batched_dims = (ref_dim, ref_dim, *batched_dims[2:])
        return rule(axis_data, batched_args, batched_dims, tree=tree)
    swap_vmap._npr_wrapped = True
    batching.fancy_primitive_batchers[swap_p] = swap_vmap
    return True


_npr_SWAP_VMAP_FIXED = _npr_swap_vmap_fixed()
