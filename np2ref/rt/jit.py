"""npr_jit: NumPy in, NumPy out, jit-compiled in between (NprFunction), with write-back.

NprFunction here is the converted function and its traced program (pure, _compiled); the
NumPy-facing call that binds, checks and plans its arguments is calls.py's _NprCalls."""

import functools as _npr_functools
import inspect as _npr_inspect
import jax
import jax.numpy as jnp
import numpy as np

from .arguments import (
    _npr_any_traced, _npr_arraylike, _npr_check_written, _npr_has_array, _npr_has_dict, _npr_host_held, _npr_host_values,
    _npr_is_python_value, _npr_list_args, _npr_list_args_marked, _npr_list_value, _NprListArg, _npr_ordered,
    _npr_plain_dicts,
    _npr_python_result, _npr_static_key, _npr_weak_items, _npr_weak_list)
from .bounds import _npr_Bounds, _npr_Effects
from .budget import npr_trace_budget
from .casts import _npr_issue_warnings
from .compat import _npr_current_trace, _npr_eager, _npr_jit_traced
from .compat_messages import _npr_jax_error
from .core import _npr_shape_error, _npr_state, _npr_trace_gap, NprError, NprFirstCall
from .divisions import _npr_fenced
from .forward import _npr_forward_trace, npr_primal_apart
from .pure_fences import _npr_pure_fenced
from .module_globals import _NprGlobalsWatch, _npr_objects_kept, _npr_objects_restored, _NprObjectsWatch
from .promotion import _npr_promoting
from .rebinds import npr_rebind_scope, _npr_settle_links
from .np_dtypes import _npr_np_array0_made, _npr_np_kinds0_known

from .picks import _npr_returned_picks
from .pyscalars import _npr_list_items, _npr_plain_numbers, _npr_python_leaves
from .truth import _npr_truth
from .result_shape import _npr_numpy_steps, _NprResultShape
from .views import _npr_is_ref, _npr_loaded_from, npr_value, NprView
from .appends import _npr_materialize, _npr_stacked_result
from .core import NprUnsupported, npr_host_raised
from .calls import _NprCalls
from .float_sizes import _NPR_FLOAT_SIZED, _npr_float_static_names, _npr_float_static_variant


# what a converted module imports when it asks a value's type or text (rt/introspect.py, print)
_NPR_ASKING = ("npr_isinstance", "npr_type", "npr_repr", "npr_str", "npr_print")


def _npr_zero_d_args(args, kwargs):
    """Whether a NumPy 0-d array is among the arguments (not a NumPy scalar: np.float64(1.0))."""
    return any(type(v) is np.ndarray and v.ndim == 0 for v in (*args, *kwargs.values()))


def _npr_params0(params, static, dynamic):
    """Whether a call takes the 0-d variant (NprFunction.variant0): a parameter of `params` given
    a 0-d NumPy array, or ("any") a NumPy or Python scalar."""
    for name, kind in params.items():
        v = dynamic[name] if name in dynamic else static.get(name)
        if type(v) is np.ndarray:
            if not v.ndim:
                return True
        elif kind == "any" and isinstance(v, (int, float, complex, np.generic)):
            return True
    return False


def _npr_asks_0d(fn, args, kwargs):
    """Whether a NumPy 0-d array is among the arguments of a function whose module asks a value's
    type or text: traced, it would answer as a NumPy scalar (`repr` np.int64(3) for array(3),
    isinstance(a, np.ndarray) False), which is not NumPy's answer (NPR041). np2ref.compile asks
    the same of its converted source and runs the original instead (compiled/compile.py)."""
    names = getattr(fn, "__globals__", {})
    return _npr_zero_d_args(args, kwargs) and any(name in names for name in _NPR_ASKING)


def _npr_views0_noted(leaves, returned, result):
    """A returned 0-d view of a Ref not the caller's (`a = a.copy(); a[...] += 1; return a[...]`,
    `return z.reshape(())` of a local z): NumPy's basic index or reshape of an array is an array,
    a 0-d one too, so its loaded value is noted a 0-d array (a view of an argument is returned
    as NumPy's view of the caller's array: `returned`). A view with no index step (`.T` of a Ref
    that may hold a NumPy scalar, whose `.T` is one) keeps the scalar."""
    marked = [i for i, leaf in enumerate(leaves) if i not in returned and isinstance(leaf, NprView)
              and not leaf.shape and (any(k == "s" for k, _ in leaf.steps) or leaf.base.ndim)]
    if marked:
        flat = jax.tree_util.tree_leaves(result)
        for i in marked:
            _npr_np_array0_made(flat[i])


class NprFunction(_NprCalls):
    """A converted function. Called from host code with NumPy values, it runs jit-compiled and
    writes back every array argument the original mutates; called from converted code (refs,
    tracers), it is the plain ref program."""

    def __init__(self, fn, mutated=(), static_argnames=None, dtype_policy="preserve", bounds="checked",
                 python_scalars=False, lists=(), copied=(), changed=(), trace_budget="default", items=(),
                 rebound=()):
        _npr_functools.update_wrapper(self, fn)
        # equations a first call's trace may record (budget.py, NPR037): "default" reads
        # NP2REF_TRACE_BUDGET, None lifts the limit
        if not (trace_budget in ("default", None) or type(trace_budget) is int and trace_budget >= 0):
            raise ValueError(f"trace_budget must be a count of equations, None or 'default', not {trace_budget!r}")
        self.trace_budget = trace_budget
        self.fn = fn
        # a function with no NumPy call (convert's `python_scalars=True`): with no array anywhere
        # in its arguments it runs as written, giving Python's values and types (2.5, not float64)
        self.python_scalars = python_scalars
        self.mutated = tuple(mutated)
        # parameters a list argument reaches as a list (`w + [t]`, `w * 2`: Python joins or
        # repeats it); any other list argument is an array, as NumPy computes with it
        self.lists = frozenset(lists)
        # parameters read only item by item (`for k in ks`, `ks[0]`): a list of Python floats or
        # ints passed for one is its Python numbers, weakly typed (rewrite/rules/list_items.py)
        self.items = frozenset(items)
        # parameters whose .copy() the function writes (`x = state.copy(); x[0] += v`): a list's or
        # dict's copy holds the caller's arrays, which NumPy writes through; refused (NPR207)
        self.copied = frozenset(copied)
        # parameters the function changes as containers (`hist.append(x)`, `d.update(...)`): the
        # caller's list, dict or set changes in NumPy, which a jitted call cannot do; refused (NPR207)
        self.changed = frozenset(changed)
        # written parameters that a jax.Array passed for is rebound by, never written in place
        # (`vel0 *= 2` on the name only: analysis/aliases.py's rebound_params; calls.py)
        self.rebound = tuple(rebound)
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
        self._device_plans = {}  # the same for .device calls
        self._flats, self._fast, self._device_fast, self._numpy_fast = {}, {}, {}, {}  # fastpath.py
        kinds = [p.kind for p in self.signature.parameters.values()]
        # the parameter names when every one is an ordinary positional-or-keyword one, else None:
        # a call passing all of them by position then needs no Signature.bind
        self._positional = tuple(self.signature.parameters) if all(
            k == _npr_inspect.Parameter.POSITIONAL_OR_KEYWORD for k in kinds) else None
        self._defaults = {n: p.default for n, p in self.signature.parameters.items()
                          if p.default is not _npr_inspect.Parameter.empty}
        self._npos = -1 if self._positional is None else len(self._positional)
        self._layout = None  # _npr_uses_layout(fn), found on the first NumPy call
        # (dynamic names, mutated names) -> keyword arguments for jax.jit (np2ref.compile's shardings)
        self.jit_options = None
        # the module-level values the compiled programs read (module_globals.py); `globals_source`:
        # the module namespace np2ref.compile copied fn's globals from, rebindings taken from it
        self._watch = None
        self.globals_source = None
        self._traced = None  # traced_fn()
        # np2ref.compile's program for a call given a 0-d value where its kind shows
        # (compiled/zero_d_variant.py: .params0, .make()); None: the function has no such call
        self.variant0, self._traced0 = None, None
        self.float_variants = {}  # Python floats that size arrays, made static (float_sizes.py)
        # whether the module asks a value's type or text (NPR041 for a 0-d array argument); None:
        # read from fn's globals (a converted file's imports); np2ref.compile's namespace holds
        # every runtime name, so it says (compiled/compile.py: it runs the original for such a call)
        self.asks0 = None

    def __call__(self, *args, **kwargs):
        if _npr_state["depth"]:  # (a lazy stacked list's rows made for the caller: appends.py)
            _npr_state["inlined"] = _npr_state.get("inlined", 0) + 1  # (picks.py: its result is the caller's)
            try:
                return _npr_materialize(self._frame(args, kwargs))
            finally:
                _npr_state["inlined"] -= 1
        if _npr_any_traced(args) or (kwargs and _npr_any_traced(kwargs.values())):
            try:  # inside the caller's own jax transformation
                return _npr_materialize(self._frame(args, kwargs))
            finally:
                _npr_state.pop("either", None)  # promotion.py's notes on this trace's values
                _npr_state.pop("pyreturn", None)  # and pyscalars.py's
                _npr_state.pop("stacked", None)  # and appends.py's
                _npr_state.pop("histories", None)  # and histories.py's
        if self.python_scalars and not _npr_has_array((args, kwargs)):
            return self.run_as_written(*args, **kwargs)
        if (_npr_asks_0d(self.fn, args, kwargs) if self.asks0 is None else self.asks0 and _npr_zero_d_args(args, kwargs)):
            raise NprError("NPR041", f"{self.__name__}() is given a 0-d NumPy array, and its module asks a value's "
                           "type or text (type, isinstance, repr, print): once traced, a 0-d array cannot be told "
                           "from a NumPy scalar", hint="pass a NumPy scalar (`a[()]`), or compile the function with "
                           "np2ref.compile, which runs the original for such calls")
        if self.float_variants and (names := _npr_float_static_names(self, args, kwargs)) in self.float_variants:
            return self.float_variants[names](*args, **kwargs)
        try:
            return self.call_numpy(*args, **kwargs)
        except NprUnsupported as gap:  # a size from a Python float argument: static, once (float_sizes.py)
            if gap.code not in _NPR_FLOAT_SIZED or (names := _npr_float_static_names(self, args, kwargs)) is None:
                raise
            return _npr_float_static_variant(self, names)(*args, **kwargs)
        except NprFirstCall:  # a call of an object np2ref cannot see into, not seen yet: this call
            try:  # runs op by op, each host call made at once, which records it (it writes no argument)
                with jax.disable_jit():
                    return self.run_as_written(*args, **kwargs)
            except NprFirstCall:  # a loop or branch that carries values is traced even so
                raise NprError("NPR021", f"{self.__name__}() calls an object np2ref cannot see into, "
                               "inside a loop or branch that carries values, and this converted program "
                               "cannot make its first call op by op; compile it with np2ref.compile, whose "
                               "first call is the original NumPy function's") from None
        except Exception as exc:  # np2ref's own error from a host call while the program ran
            error = npr_host_raised(exc)
            if error is None:
                raise
            raise error from None

    def _frame(self, args, kwargs):
        """The traced function called from converted code: a scope for the rebindings its loops
        link (rt/rebinds.py), settled before the caller reads its arrays again."""
        with npr_rebind_scope((*args, *kwargs.values())) as scope:
            out = self.traced_fn()(*args, **kwargs)
            _npr_settle_links(scope, [out])
            return out

    def run_as_written(self, *args, **kwargs):
        """A function with no array work called from host code with no array (set-up code:
        `make(rng)`, `pick(2.5, 1.0)`): it runs as written, now, so Python values stay Python's
        and draws are made at once (host.py); whatever JAX computed in it comes back as NumPy
        gives it, 64-bit under "preserve" (NumPy arrays: host code writes into them). Inside
        the caller's own trace (jax.jit of a closure calling it), its values stay traced."""
        if not _npr_eager():
            return self.fn(*args, **kwargs)
        if self.globals_source is not None:  # np2ref.compile's copied namespace takes the module's
            self._globals_moved(args, kwargs)  # rebindings (`model.SOURCE = Source(5)`), as a jitted call does
        outer = _npr_state.get("setup")
        _npr_state["setup"] = True  # np.array's 0-d arrays are noted (np_creation._npr_np_array0)
        try:
            with self._x64():
                return _npr_host_values(_npr_materialize(self.fn(*args, **kwargs)))
        finally:
            _npr_state["setup"] = outer
            if not outer:
                _npr_state.pop("pyreturn", None)

    def traced_fn(self):
        """What a trace runs: the variant of fn whose operators promote as NumPy does under
        dtype_policy="preserve" (promotion.py), as jax.numpy does under "float32", and wrap
        signed products in both (wrapping.py); the converted source is what it reads."""
        if self._traced is None:
            self._traced = _npr_promoting(self.fn, self.dtype_policy == "preserve")
        return self._traced

    def traced_fn0(self):
        """traced_fn of the 0-d variant (variant0), made on the first call that takes it."""
        if self._traced0 is None:
            made = self.variant0.make()
            self._traced0 = _npr_promoting(made, self.dtype_policy == "preserve")
        return self._traced0

    def __get__(self, obj, objtype=None):
        return self

    # -- the pure JAX function -------------------------------------------------------------
    def pure(self, *args, **kwargs):
        """(result, {name: final value}) for the mutated array parameters; traceable by the
        user's jax.jit / jax.vmap / jax.grad (keep ints that size arrays static)."""
        forward = _npr_forward_trace(args, kwargs)
        if forward is not None:  # jax.jacfwd: the primal apart from the batched tangents (forward.py)
            return npr_primal_apart(self.pure, forward, args, kwargs)
        self._globals_moved()  # reads the module's current values
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        # a NumPy array is data, as under call_numpy: a jax array here (a NumPy array indexed by a
        # traced loop index raised TracerArrayConversionError)
        values = {n: jnp.asarray(v) if type(v) is np.ndarray else _npr_list_value(v, jnp.asarray)
                  if isinstance(v, list) and n not in self.lists and not self._py_items(n, v) else v
                  for n, v in bound.arguments.items()}  # a list argument as a call takes it
        for name in self.mutated:
            _npr_check_written(self.__name__, name, values.get(name))
        aliases = {n: n for n in self.mutated if _npr_arraylike(values.get(n))}
        try:  # under the caller's jax.jit, vmap or grad, XLA's rewrites are fenced (divisions.py)
            if _npr_jit_traced(values):
                result, finals, *_ = _npr_fenced(lambda: self._run(values, aliases))
            else:  # (pure_fences.py: a vmap's or a derivative's program traced apart)
                result, finals, *_ = _npr_pure_fenced(values, lambda v: self._run(v, aliases))
        except Exception as exc:
            # a draw inside a lax loop or branch is traced unbatched, then the loop is batched:
            # host.py cannot see the vmap there, JAX refuses the ordered callback (or the IO
            # effect of a cond: `continue` guards the rest of a body)
            if _npr_jax_error(exc, "vmap_ordered_while"):  # (histories.py's hand-over too)
                raise NprError("NPR034", "a `while` loop on data hands a list's appends (or a draw) to the host "
                               "in order, which a vmapped program cannot do: NumPy runs each batch member's "
                               "loop apart, with its own number of trips") from exc
            if not _npr_jax_error(exc, "vmap_io_callback"):
                raise
            raise NprError("NPR023", "a random draw inside a loop or branch under jax.vmap; NumPy would "
                           "draw once per batch member, in order, which a vmapped program cannot do") from exc
        lists = {id(values[n]): v for n, v in bound.arguments.items() if values[n] is not v and isinstance(v, list)}
        if lists:  # a list argument returned as it is: the list, as Python returns it
            result = jax.tree_util.tree_map(lambda leaf: lists.get(id(leaf), leaf), result)
        return _npr_plain_dicts(result), finals

    def _run(self, values, aliases, stacked=False, arrays0=(), variant=False):
        with npr_trace_budget(self.trace_budget):  # a shared one when called from another's trace
            return self._run_traced(values, aliases, stacked, arrays0, variant)

    def _run_traced(self, values, aliases, stacked=False, arrays0=(), variant=False):
        _npr_state["depth"] += 1
        if _npr_state["depth"] == 1:  # (picks.py: a pick in this trace may reach the result as it is)
            _npr_state["top_trace"] = _npr_current_trace()
        try:
            refs = {}
            call = dict(values)
            for name in self.items:  # a list of Python numbers (_split kept it one): one weakly typed
                if name not in self.lists and _npr_weak_list(call.get(name)):  # array, as NumPy's items are
                    call[name] = _npr_weak_items(call[name])
            for name in arrays0:  # (the very value: returned, it is the caller's array)
                call[name] = _npr_np_array0_made(call[name])
            for name, leader in aliases.items():
                if leader not in refs:
                    refs[leader] = jax.new_ref(jnp.asarray(values[leader]))
                call[name] = refs[leader]
            bound = _npr_inspect.BoundArguments(self.signature, call)
            lists = _npr_list_args(call) if stacked and _npr_state["depth"] == 1 else None
            with npr_rebind_scope(call.values()) as scope:  # (rt/rebinds.py; returned, a compiled call's is noted)
                out = (self.traced_fn0() if variant else self.traced_fn())(*bound.args, **bound.kwargs)
                _npr_settle_links(scope, [out] if stacked else [])
            if lists and lists[0]:  # a list argument returned as itself: the caller's list (result_shape)
                out = _npr_list_args_marked(out, lists)
            # an append loop's list: its buffers the leaves of the jitted run's result (appends.py);
            # for .pure, its rows
            out = _npr_stacked_result(out) if stacked and _npr_state["depth"] == 1 else _npr_materialize(out)
            ordered = _npr_state["depth"] == 1 and _npr_has_dict(out)
            if ordered:  # a dict's own order, not JAX's sorted one
                out = _npr_ordered(out)
            # which returned leaves are an argument itself or a view of one: NumPy returns that
            # very object, or a view of it, which the caller's writes show through
            # (a helper's Ref loaded by npr_value counts as that Ref: `return laplacian(u, u)`)
            leaves = [_npr_loaded_from(x) for x in jax.tree_util.tree_leaves(out, is_leaf=_npr_is_ref)]
            returned = {i: (n, ()) for i, leaf in enumerate(leaves) for n, v in call.items() if leaf is v}
            returned.update((i, (leaf.name, leaf.steps())) for i, leaf in enumerate(leaves) if type(leaf) is _NprListArg)
            for n, v in call.items():  # an array item of a tuple argument returned as it is: that item
                for j, item in enumerate(v if type(v) is tuple else ()):  # (`return st` after no trip)
                    for i, leaf in enumerate(leaves):
                        if leaf is item and i not in returned and (isinstance(item, jax.Array) or _npr_is_ref(item)):
                            returned[i] = (n, (("i", j),))
            owners = {id(refs[leader]): n for n, leader in aliases.items()}
            for i, leaf in enumerate(leaves):
                if i not in returned and isinstance(leaf, NprView) and id(leaf.base) in owners:
                    steps = _npr_numpy_steps(leaf)
                    if steps is not None:
                        returned[i] = (owners[id(leaf.base)], steps)
            # a value returned twice is one object twice, as in NumPy (`return b, b`); the no-ops
            # NumPy answers with a new array (`+b`, `b.astype(b.dtype)`) are new values here too
            first, same = {}, {}
            for i, leaf in enumerate(leaves):
                if (_npr_is_ref(leaf) or isinstance(leaf, jax.Array)) and first.setdefault(id(leaf), i) != i:
                    same[i] = first[id(leaf)]
            result = _npr_ordered(npr_value(out)) if ordered else npr_value(out)
            _npr_views0_noted(leaves, returned, result)
            if _npr_state["depth"] == 1:  # the host gets NumPy's 0-d array or scalar: refused where
                _npr_np_kinds0_known(jax.tree_util.tree_leaves(result))  # np2ref cannot tell which
            finals = {n: refs[leader][...] for n, leader in aliases.items()}
            if _npr_state["depth"] == 1:  # float32 picks of Python floats returned: NumPy's value and type
                result = _npr_returned_picks(result)
            python = _npr_python_leaves(jax.tree_util.tree_leaves(result))  # Python ints, floats
            python += _npr_list_items(jax.tree_util.tree_leaves(result), call, self.lists)
            if self.python_scalars and _npr_state["depth"] == 1:  # (`return dt * 2`, an array passed)
                python += _npr_plain_numbers(jax.tree_util.tree_leaves(result), python)
        finally:
            _npr_state["depth"] -= 1
            if not _npr_state["depth"]:
                _npr_state.pop("either", None)  # promotion.py's notes on this trace's values
                _npr_state.pop("pyreturn", None)  # and pyscalars.py's
                _npr_state.pop("stacked", None)  # and appends.py's
                _npr_state.pop("top_trace", None)  # and picks.py's
                _npr_state.pop("returned_picks", None)
                _npr_state.pop("histories", None)  # and histories.py's
                _npr_state.pop("loads", None)  # and npr_value's
                _npr_state.pop("peeled0", None)  # and np_dtypes' peeled trips'
        return result, finals, returned, same, python

    def _globals_moved(self, args=(), kwargs=None):
        """Forget the compiled programs when a module-level value they read, or an attribute of
        a plain object passed in (`params.dt`), has changed since they were traced (the driver
        set `model.ALPHA = 2.0`, wrote into `model.W`): they would return answers for the old
        values."""
        if self._watch is None:
            self._watch, self._objects = _NprGlobalsWatch(self.fn, self.globals_source), _NprObjectsWatch()
            self._objects.changed((*args, *kwargs.values()) if kwargs else args)
            return
        if self._watch.changed() | self._objects.changed((*args, *kwargs.values()) if kwargs else args):
            self._forget()

    def _forget(self):
        for flat in self._flats.values():
            flat.refused = True  # a straight-line call holding it must not run it again (numpycall.py)
        for cache in (self._jitted, self._plans, self._device_plans, self._flats, self._fast, self._device_fast,
                      self._numpy_fast):
            cache.clear()

    def _compiled(self, static, aliases, dynamic):
        # The mutated NumPy arrays' device copies are donated: their final values (written
        # back) reuse those buffers. A jax.Array (the .device call's written ones) is the
        # caller's own buffer and is never donated.
        dynamic_names = tuple(sorted(dynamic))
        donated = tuple(sorted(n for n in set(aliases.values())
                               if n in dynamic and not isinstance(dynamic[n], jax.Array)))
        # a 0-d NumPy array argument (not a NumPy scalar: the same to jax.jit) is a 0-d array in
        # the trace (`Z.copy()` returned is one), noted per trace (np_dtypes._npr_np_array0_made)
        arrays0 = tuple(n for n in dynamic_names if type(dynamic[n]) is np.ndarray and not dynamic[n].ndim)
        # a 0-d value where its kind shows in a result (`z.copy()`): the 0-d variant's program
        variant = self.variant0 is not None and _npr_params0(self.variant0.params0, static, dynamic)
        key = (tuple(sorted((k, _npr_static_key(v)) for k, v in static.items())), tuple(sorted(aliases.items())),
               dynamic_names, donated, arrays0, variant)
        if key not in self._jitted:
            def run(dynamic, written):
                # a refusal met while tracing leaves the objects passed in as they were: the trace
                # calls their methods as it meets them (module_globals._npr_objects_kept)
                kept = _npr_objects_kept(static.values()) if static else ()
                try:
                    return traced(dynamic, written)
                except (NprError, NprFirstCall):
                    _npr_objects_restored(kept)
                    raise

            def traced(dynamic, written):
                saved = _npr_state.get("bounds"), _npr_state.get("effects")  # (see _npr_Bounds, _npr_Effects)
                checks = _npr_state["bounds"] = _npr_Bounds() if self.bounds == "checked" else None
                effects = _npr_state["effects"] = _npr_Effects()
                try:
                    try:
                        result, finals, returned, same, python = _npr_fenced(  # divisions.py
                            lambda: self._run({**static, **dynamic, **written}, aliases, stacked=True, arrays0=arrays0,
                                              variant=variant))
                    except Exception as exc:  # a known gap is coded, not a raw JAX error
                        gap = _npr_trace_gap(exc)
                        if gap is not None:
                            raise gap from exc
                        numpy_error = _npr_shape_error(exc)  # NumPy's ValueError, not lax's TypeError
                        error = exc if numpy_error is None else numpy_error
                        if effects and not isinstance(error, (NprError, NprFirstCall)) \
                                and not type(error).__module__.startswith("jax"):  # NumPy's error: its draws
                            error._npr_effects = effects  # made before it, by the NumPy-facing call (bounds.py)
                        if numpy_error is None:
                            raise
                        raise numpy_error from None
                    if checks is not None:
                        _npr_issue_warnings(checks)  # NumPy's RuntimeWarnings due (casts.py)
                finally:
                    _npr_state["bounds"], _npr_state["effects"] = saved
                leaves, tree = jax.tree_util.tree_flatten(result)
                # Python values computed from static inputs stay Python values (an int stays an int)
                fixed = {i: _npr_python_result(v) for i, v in enumerate(leaves) if _npr_is_python_value(v)}
                fixed.update((i, None) for i, v in enumerate(leaves) if type(v) is _NprListArg)  # (`returned`)
                fixed.update(_npr_host_held(leaves, static.values(), self.fn.__globals__))  # (`return sim.u`)
                sites = tuple(checks.sites) if checks is not None else ()
                # a Python number or NumPy's scalar as a branch on data chose: its predicate out too
                chosen = [(i, k) for i, k in python if type(k) is tuple and i not in fixed]
                python = tuple((i, k) for i, k in python if type(k) is not tuple)
                shape = _NprResultShape(tree, tuple(fixed.items()), tuple(returned.items()), tuple(same.items()),
                                        sites, python, _npr_has_dict(result), tuple((i, k[0], *k[2:]) for i, k in chosen))
                return ([v for i, v in enumerate(leaves) if i not in fixed] + [_npr_truth(k[1]) for _, k in chosen],
                        finals, shape, jnp.stack([checks.site[...], checks.value[...]]) if sites else None)
            options = self.jit_options(dynamic_names, tuple(aliases)) if self.jit_options else {}
            if "in_shardings" in options:  # the plan shards run(dynamic): split it as run's arguments
                (ins,) = options["in_shardings"]
                options["in_shardings"] = ({n: s for n, s in ins.items() if n not in donated},
                                           {n: ins[n] for n in donated})
            self._jitted[key] = (jax.jit(run, donate_argnums=(1,) if donated else (), **options), donated, run)
        return key, self._jitted[key]

    def _x64(self):
        return jax.enable_x64(self.dtype_policy == "preserve")


def npr_jit(fn=None, *, mutated=(), static_argnames=None, dtype_policy="preserve", bounds="checked",
            python_scalars=False, lists=(), copied=(), changed=(), trace_budget="default", items=(), rebound=()):
    """Decorator on each converted function: see NprFunction."""
    def wrap(f):
        return NprFunction(f, mutated, static_argnames, dtype_policy, bounds, python_scalars, lists, copied,
                           changed, trace_budget, items, rebound)
    return wrap(fn) if fn is not None else wrap
