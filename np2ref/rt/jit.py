"""npr_jit: NumPy in, NumPy out, jit-compiled in between (NprFunction), with write-back."""

import functools as _npr_functools
import inspect as _npr_inspect
import jax
import jax.numpy as jnp
import numpy as np

from .arguments import (
    _npr_any_traced, _npr_arraylike, _npr_check_written, _npr_device_ready, _npr_device_type,
    _NPR_DEVICE_TYPES, _npr_donation_split, _NPR_GENERAL, _npr_has_array, _npr_has_dict,
    _npr_held_arrays, _npr_host_values, _npr_is_python_value, _npr_is_static, _npr_jax_dtype,
    _npr_layout_ok, _npr_list_value, _npr_numpy_steps, _npr_ordered, _npr_plain_dicts,
    _npr_python_result, _NPR_REPR_KEYED, _npr_shares_any, _npr_static_key, _NPR_STATIC_TYPES,
    _NPR_TRACED_TYPES, _npr_write_back, _NprPlan, _NprResultShape)
from .bounds import _npr_Bounds
from .budget import npr_trace_budget
from .casts import _npr_issue_warnings
from .compat import (
    _npr_eager, _npr_empty_axis_index_error, _npr_jax_error, _npr_jit_traced, _npr_x64_state)
from .core import _npr_shape_error, _npr_state, _npr_trace_gap, NprError, NprFirstCall
from .divisions import _npr_fenced
from .fastpath import _npr_arg_types, _npr_flat_plan, _npr_flat_run
from .module_globals import _npr_moved, _NprGlobalsWatch, _NprObjectsWatch
from .promotion import _npr_promoting
from .pyscalars import _npr_list_items, _npr_python_leaves
from .views import _npr_is_ref, npr_value, NprView
from .appends import _npr_materialize, _npr_stacked_result
from .core import NprUnsupported, npr_host_raised
from .float_sizes import _NPR_FLOAT_SIZED, _npr_float_static_names, _npr_float_static_variant


# what a converted module imports when it asks a value's type or text (rt/introspect.py, print)
_NPR_ASKING = ("npr_isinstance", "npr_type", "npr_repr", "npr_str", "npr_print")


def _npr_zero_d_args(args, kwargs):
    """Whether a NumPy 0-d array is among the arguments (not a NumPy scalar: np.float64(1.0))."""
    return any(type(v) is np.ndarray and v.ndim == 0 for v in (*args, *kwargs.values()))


def _npr_asks_0d(fn, args, kwargs):
    """Whether a NumPy 0-d array is among the arguments of a function whose module asks a value's
    type or text: traced, it would answer as a NumPy scalar (`repr` np.int64(3) for array(3),
    isinstance(a, np.ndarray) False), which is not NumPy's answer (NPR041). np2ref.compile asks
    the same of its converted source and runs the original instead (runtime/compile.py)."""
    names = getattr(fn, "__globals__", {})
    return _npr_zero_d_args(args, kwargs) and any(name in names for name in _NPR_ASKING)


class NprFunction:
    """A converted function. Called from host code with NumPy values, it runs jit-compiled and
    writes back every array argument the original mutates; called from converted code (refs,
    tracers), it is the plain ref program."""

    def __init__(self, fn, mutated=(), static_argnames=None, dtype_policy="preserve", bounds="checked",
                 python_scalars=False, lists=(), copied=(), changed=(), trace_budget="default"):
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
        # parameters whose .copy() the function writes (`x = state.copy(); x[0] += v`): a list's or
        # dict's copy holds the caller's arrays, which NumPy writes through; refused (NPR207)
        self.copied = frozenset(copied)
        # parameters the function changes as containers (`hist.append(x)`, `d.update(...)`): the
        # caller's list, dict or set changes in NumPy, which a jitted call cannot do; refused (NPR207)
        self.changed = frozenset(changed)
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
        self.float_variants = {}  # Python floats that size arrays, made static (float_sizes.py)

    def __call__(self, *args, **kwargs):
        if _npr_state["depth"]:  # (a lazy stacked list's rows made for the caller: appends.py)
            return _npr_materialize(self.traced_fn()(*args, **kwargs))
        if _npr_any_traced(args) or (kwargs and _npr_any_traced(kwargs.values())):
            try:  # inside the caller's own jax transformation
                return _npr_materialize(self.traced_fn()(*args, **kwargs))
            finally:
                _npr_state.pop("either", None)  # promotion.py's notes on this trace's values
                _npr_state.pop("pyreturn", None)  # and pyscalars.py's
                _npr_state.pop("stacked", None)  # and appends.py's
        if self.python_scalars and not _npr_has_array((args, kwargs)):
            return self.run_as_written(*args, **kwargs)
        if _npr_asks_0d(self.fn, args, kwargs):
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

    def run_as_written(self, *args, **kwargs):
        """A function with no array work called from host code with no array (set-up code:
        `make(rng)`, `pick(2.5, 1.0)`): it runs as written, now, so Python values stay Python's
        and draws are made at once (host.py); whatever JAX computed in it comes back as NumPy
        gives it, 64-bit under "preserve" (NumPy arrays: host code writes into them). Inside
        the caller's own trace (jax.jit of a closure calling it), its values stay traced."""
        if not _npr_eager():
            return self.fn(*args, **kwargs)
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
        """What a trace runs: under dtype_policy="preserve", the variant of fn whose operators
        promote as NumPy does (promotion.py); the converted source is what it reads."""
        if self._traced is None:
            self._traced = _npr_promoting(self.fn) if self.dtype_policy == "preserve" else self.fn
        return self._traced

    def __get__(self, obj, objtype=None):
        return self

    # -- the pure JAX function -------------------------------------------------------------
    def pure(self, *args, **kwargs):
        """(result, {name: final value}) for the mutated array parameters; traceable by the
        user's jax.jit / jax.vmap / jax.grad (keep ints that size arrays static)."""
        self._globals_moved()  # reads the module's current values
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        # a NumPy array is data, as under call_numpy: a jax array here (a NumPy array indexed by a
        # traced loop index raised TracerArrayConversionError)
        values = {n: jnp.asarray(v) if type(v) is np.ndarray else _npr_list_value(v, jnp.asarray)
                  if isinstance(v, list) and n not in self.lists else v
                  for n, v in bound.arguments.items()}  # a list argument as a call takes it
        for name in self.mutated:
            _npr_check_written(self.__name__, name, values.get(name))
        aliases = {n: n for n in self.mutated if _npr_arraylike(values.get(n))}
        try:  # under the caller's jax.jit alone, divisions that decide are NumPy's (divisions.py)
            run = _npr_fenced if _npr_jit_traced(values) else (lambda thunk: thunk())
            result, finals, *_ = run(lambda: self._run(values, aliases))
        except (ValueError, NotImplementedError) as exc:
            # a draw inside a lax loop or branch is traced unbatched, then the loop is batched:
            # host.py cannot see the vmap there, JAX refuses the ordered callback (or the IO
            # effect of a cond: `continue` guards the rest of a body)
            if not _npr_jax_error(exc, "vmap_io_callback"):
                raise
            raise NprError("NPR023", "a random draw inside a loop or branch under jax.vmap; NumPy would "
                           "draw once per batch member, in order, which a vmapped program cannot do") from exc
        lists = {id(values[n]): v for n, v in bound.arguments.items() if values[n] is not v and isinstance(v, list)}
        if lists:  # a list argument returned as it is: the list, as Python returns it
            result = jax.tree_util.tree_map(lambda leaf: lists.get(id(leaf), leaf), result)
        return _npr_plain_dicts(result), finals

    def _run(self, values, aliases, stacked=False):
        with npr_trace_budget(self.trace_budget):  # a shared one when called from another's trace
            return self._run_traced(values, aliases, stacked)

    def _run_traced(self, values, aliases, stacked=False):
        _npr_state["depth"] += 1
        try:
            refs = {}
            call = dict(values)
            for name, leader in aliases.items():
                if leader not in refs:
                    refs[leader] = jax.new_ref(jnp.asarray(values[leader]))
                call[name] = refs[leader]
            bound = _npr_inspect.BoundArguments(self.signature, call)
            out = self.traced_fn()(*bound.args, **bound.kwargs)
            # an append loop's list: its buffers the leaves of the jitted run's result (appends.py);
            # for .pure, its rows
            out = _npr_stacked_result(out) if stacked and _npr_state["depth"] == 1 else _npr_materialize(out)
            ordered = _npr_state["depth"] == 1 and _npr_has_dict(out)
            if ordered:  # a dict's own order, not JAX's sorted one
                out = _npr_ordered(out)
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
            # a value returned twice is one object twice, as in NumPy (`return b, b`); the no-ops
            # NumPy answers with a new array (`+b`, `b.astype(b.dtype)`) are new values here too
            first, same = {}, {}
            for i, leaf in enumerate(leaves):
                if (_npr_is_ref(leaf) or isinstance(leaf, jax.Array)) and first.setdefault(id(leaf), i) != i:
                    same[i] = first[id(leaf)]
            result = _npr_ordered(npr_value(out)) if ordered else npr_value(out)
            finals = {n: refs[leader][...] for n, leader in aliases.items()}
            python = _npr_python_leaves(jax.tree_util.tree_leaves(result))  # Python ints, floats
            python += _npr_list_items(jax.tree_util.tree_leaves(result), call, self.lists)
        finally:
            _npr_state["depth"] -= 1
            if not _npr_state["depth"]:
                _npr_state.pop("either", None)  # promotion.py's notes on this trace's values
                _npr_state.pop("pyreturn", None)  # and pyscalars.py's
                _npr_state.pop("stacked", None)  # and appends.py's
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

    def _split(self, args, kwargs, device=False):
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
                if not device and isinstance(v, jax.Array):
                    raise TypeError(f"{self.__name__}(): argument `{name}` is a jax.Array, which the function "
                                    "writes; a jax.Array cannot be changed in place: pass a NumPy array (written "
                                    f"back), or call {self.__name__}.device(...), which returns the final values")
            elif name in self.changed and not isinstance(v, (np.ndarray, jax.Array)):
                raise NprError("NPR207", f"{self.__name__}() changes its argument `{name}`, a "
                               f"{type(v).__name__}, in place (a method such as .append(), .pop() or .update(), "
                               "here or in a function it calls): NumPy's caller sees the change, which a "
                               f"translated call cannot make (build the {type(v).__name__} inside the function "
                               "and return it)")
            elif name in self.copied and isinstance(v, (list, tuple, dict)):
                raise NprError("NPR207", f"{self.__name__}() writes into a copy of its argument `{name}`, a "
                               f"{type(v).__name__}: a {type(v).__name__}'s .copy() holds the caller's arrays, which "
                               "NumPy's writes reach; not translated (copy the arrays, `[a.copy() for a in "
                               f"{name}]`, or pass each array as its own argument)")
            if not is_static:
                v = _npr_device_ready(self.__name__, name,
                                      _npr_list_value(v) if isinstance(v, list) and name not in self.lists else v)
            (static if is_static else dynamic)[name] = v
        return values, static, dynamic

    def _aliases(self, values, device=False):
        """Mutated array arguments, each mapped to the argument whose buffer it shares. Arrays
        inside tuple, list and dict arguments are checked too (`f(a, (a,))`). With `device`
        (the .device call), written jax.Arrays too: one passed twice is one array, as in NumPy."""
        kinds = (np.ndarray, jax.Array) if device else np.ndarray
        arrays = {}
        for n, v in values.items():
            if isinstance(v, kinds):
                arrays[n] = v
            elif isinstance(v, (tuple, list, dict)):
                flat, _ = jax.tree_util.tree_flatten_with_path(v)
                arrays.update({n + jax.tree_util.keystr(path): leaf for path, leaf in flat
                               if isinstance(leaf, kinds)})
            else:  # an object's arrays (`f(sim.u, sim)`: the function reads `sim.u`)
                arrays.update({f"{n}.{k}": w for k, w in _npr_held_arrays(v, kinds)})
        if self._layout is None:
            self._layout = _npr_uses_layout(self.fn)
        if self._layout:
            for name in self.mutated:
                v = values.get(name)
                if isinstance(v, np.ndarray) and not _npr_layout_ok(v):
                    raise NprError("NPR206", f"{self.__name__}(): `{name}` is not C-contiguous, and whether "
                                   "its reshape/ravel is a view depends on memory layout; pass "
                                   f"np.ascontiguousarray({name})", tagged=False)
        aliases = {}
        for name in self.mutated:
            v = values.get(name)
            if not isinstance(v, kinds):
                continue
            aliases[name] = name
            for other, w in arrays.items():
                if other == name or not _npr_shares_any(v, w):
                    continue
                if w is v and other in self.mutated:
                    aliases[name] = min(name, other)
                    continue
                raise NprError("NPR206", f"{self.__name__}(): the arguments `{name}` and `{other}` share "
                               f"memory and `{name}` is written; pass separate arrays (e.g. `{other}.copy()`)",
                               tagged=False)
        if self.mutated and self._watch is not None:
            self._apart_from_module(values)
        return aliases

    def _apart_from_module(self, values):
        """NPR206 for a written argument that shares memory with a module-level array the
        function reads (`f(W)` where f writes its parameter and reads `W`, or `SIM.u`): NumPy's
        program reads its own writes there; the compiled one holds `W` as the call found it."""
        held = self._watch.arrays()
        for name in self.mutated:
            v = values.get(name)
            if not isinstance(v, np.ndarray):
                continue
            for other, w in held:
                if _npr_shares_any(v, w):
                    raise NprError("NPR206", f"{self.__name__}(): the argument `{name}` shares memory with "
                                   f"the module-level array `{other}`, which the function reads, and `{name}` is "
                                   f"written; pass a separate array (e.g. `{other}.copy()`)")

    def _compiled(self, static, aliases, dynamic):
        # The mutated NumPy arrays' device copies are donated: their final values (written
        # back) reuse those buffers. A jax.Array (the .device call's written ones) is the
        # caller's own buffer and is never donated.
        dynamic_names = tuple(sorted(dynamic))
        donated = tuple(sorted(n for n in set(aliases.values())
                               if n in dynamic and not isinstance(dynamic[n], jax.Array)))
        key = (tuple(sorted((k, _npr_static_key(v)) for k, v in static.items())), tuple(sorted(aliases.items())),
               dynamic_names, donated)
        if key not in self._jitted:
            def run(dynamic, written):
                saved = _npr_state.get("bounds")  # the run-time index checks (see _npr_Bounds)
                checks = _npr_state["bounds"] = _npr_Bounds() if self.bounds == "checked" else None
                try:
                    try:
                        result, finals, returned, same, python = _npr_fenced(  # divisions.py
                            lambda: self._run({**static, **dynamic, **written}, aliases, stacked=True))
                    except Exception as exc:  # a known gap is coded, not a raw JAX error
                        gap = _npr_trace_gap(exc)
                        if gap is not None:
                            raise gap from exc
                        numpy_error = _npr_shape_error(exc)  # NumPy's ValueError, not lax's TypeError
                        if numpy_error is None:
                            raise
                        raise numpy_error from None
                    if checks is not None:
                        _npr_issue_warnings(checks)  # NumPy's RuntimeWarnings due (casts.py)
                finally:
                    _npr_state["bounds"] = saved
                leaves, tree = jax.tree_util.tree_flatten(result)
                # Python values computed from static inputs stay Python values (an int stays an int)
                fixed = {i: _npr_python_result(v) for i, v in enumerate(leaves) if _npr_is_python_value(v)}
                sites = tuple(checks.sites) if checks is not None else ()
                shape = _NprResultShape(tree, tuple(fixed.items()), tuple(returned.items()),
                                        tuple(same.items()), sites, python, _npr_has_dict(result))
                return ([v for i, v in enumerate(leaves) if i not in fixed], finals, shape,
                        jnp.stack([checks.site[...], checks.value[...]]) if sites else None)
            options = self.jit_options(dynamic_names, tuple(aliases)) if self.jit_options else {}
            if "in_shardings" in options:  # the plan shards run(dynamic): split it as run's arguments
                (ins,) = options["in_shardings"]
                options["in_shardings"] = ({n: s for n, s in ins.items() if n not in donated},
                                           {n: ins[n] for n in donated})
            self._jitted[key] = (jax.jit(run, donate_argnums=(1,) if donated else (), **options), donated, run)
        return key, self._jitted[key]

    def _x64(self):
        return jax.enable_x64(self.dtype_policy == "preserve")

    def _jit_call(self, jitted, kept, donated):
        """jitted(kept, donated) under _x64, by the config's own swap (compat._npr_x64_state)."""
        if _NPR_X64 is None:
            with self._x64():
                return jitted(kept, donated)
        prev = _NPR_X64.swap_local(self.dtype_policy == "preserve")
        try:
            return jitted(kept, donated)
        finally:
            _NPR_X64.set_local(prev)

    def _plan_key(self, args):
        """What decides a call's jitted function and checks, read from its arguments in
        parameter order (_in_order): each static argument's _npr_static_key, _NprPlan.ARRAY for a NumPy
        array, _NprPlan.DEVICE for a jax.Array, None for another traced value. None when only
        the general path can tell (containers, whose arrays _aliases checks; subclasses and
        arrays JAX cannot take as they are: _npr_device_ready)."""
        key = []
        if self.static_argnames is None:  # the common kinds first, as the loop below keys them
            for v in args:
                kind = type(v)
                if kind in _NPR_DEVICE_TYPES:
                    key.append(_NprPlan.DEVICE)
                elif kind in _NPR_STATIC_TYPES:
                    key.append(repr(v))
                elif kind is float:
                    key.append(None)
                else:
                    break
            else:
                return tuple(key)
            key = []
        for name, v in zip(self._positional, args):
            kind = type(v)
            if self.static_argnames is not None:
                static = name in self.static_argnames
            else:  # _npr_is_static(v), with the common types answered without a call
                static = kind in _NPR_STATIC_TYPES or (kind not in _NPR_TRACED_TYPES and kind not in
                                                       _NPR_DEVICE_TYPES and _npr_is_static(v))
            if static:
                if self.mutated and kind not in _NPR_REPR_KEYED and _npr_held_arrays(v):
                    return None  # an object holding arrays: _aliases checks them against the written ones
                key.append(repr(v) if kind in _NPR_REPR_KEYED else _npr_static_key(v))
            elif kind is np.ndarray and v.dtype.isnative and _npr_jax_dtype(v.dtype):
                key.append(_NprPlan.ARRAY)
            elif kind in _NPR_DEVICE_TYPES:
                key.append(_NprPlan.DEVICE)
            elif isinstance(v, (list, tuple, dict, np.ndarray)):
                return None
            else:
                key.append(_NprPlan.DEVICE if kind is not float and _npr_device_type(v) else None)
        return tuple(key)

    def call_numpy(self, *args, **kwargs):
        """The NumPy-facing call: NumPy results, written arrays written back. Called with
        jax.Arrays and no NumPy array, it takes them as they are (no copy) and returns jax.Arrays."""
        kinds = _npr_arg_types(args) if (self._numpy_fast or self._fast) and not kwargs else None  # (no None key)
        if (fast := self._numpy_fast.get(kinds)) is not None and (out := fast(args)) is not _NPR_GENERAL:
            return out  # NumPy arrays: the straight-line call (numpycall.py)
        flat = self._fast.get(kinds)
        if flat is not None and not _npr_moved(self):
            if (out := _npr_flat_run(self, flat, args)) is not _NPR_GENERAL:
                return out
        self._globals_moved(args, kwargs)
        ordered = args if not kwargs and len(args) == self._npos else self._in_order(args, kwargs)
        plan_key = None if ordered is None else self._plan_key(ordered)
        plan = self._plans.get(plan_key)
        if plan is None or (plan.checked and not plan.admits(ordered, self._layout)):
            return self._call_bound(args, kwargs, plan_key)
        if plan.device:  # jax.Arrays in and out, nothing written
            if (out := _npr_flat_run(self, plan.flat, ordered)) is not _NPR_GENERAL:
                return out
            result, _, shape, slot = self._jit_call(plan.jitted, {n: ordered[i] for n, i in plan.kept}, {})
            if slot is not None:
                shape.check_bounds(slot)
            if shape._leaf:
                return result[0]
            return shape.device(result, dict(zip(self._positional, ordered)) if shape.returned else {})
        staging = plan.staging  # large unaligned read-only arrays: copied into np2ref's own buffers
        if staging is not None and staging.wanted(ordered) and staging.lock.acquire(blocking=False):
            try:
                return self._run_plan(plan, ordered, staging.inputs(ordered, plan.kept))
            finally:
                staging.lock.release()
        return self._run_plan(plan, ordered, {n: ordered[i] for n, i in plan.kept})

    def _run_plan(self, plan, args, kept):  # a plan with NumPy arrays (call_numpy runs the others)
        donated = {n: args[i] for n, i in plan.donated}
        if (out := _npr_flat_run(self, plan.flat, args, [*kept.values(), *donated.values()])) is not _NPR_GENERAL:
            return out
        with self._x64():
            result, finals, shape, slot = plan.jitted(kept, donated)
            shape.check_bounds(slot)
            finals = [(args[i], np.asarray(finals[n])) for n, i in plan.written]
        _npr_write_back(finals)
        values = dict(zip(self._positional, args)) if shape.returned else {}
        return shape.numpy(result, values, [*kept.values(), *donated.values()])

    def device(self, *args, **kwargs):
        """(result, {name: final value} of the written arguments), all jax.Arrays: the call for
        arrays kept on the device across calls (a time loop: `u = step.device(u, c)[1]["u"]`).
        Arguments may be jax.Arrays (taken as they are, never donated nor changed) or NumPy
        arrays (copied in; never written back). Jitted and cached like the NumPy-facing call."""
        flat = self._device_fast.get(_npr_arg_types(args)) if self._device_fast and not kwargs else None
        if flat is not None and flat.admits(args) and not _npr_moved(self):
            if (out := _npr_flat_run(self, flat, args)) is not _NPR_GENERAL:
                return out
        self._globals_moved(args, kwargs)
        ordered = args if not kwargs and len(args) == self._npos else self._in_order(args, kwargs)
        plan_key = None if ordered is None else self._plan_key(ordered)
        plan = self._device_plans.get(plan_key)
        if plan is None or (plan.checked and not plan.admits(ordered, self._layout)):
            return self._call_bound(args, kwargs, plan_key, device=True)
        if (out := _npr_flat_run(self, plan.flat, ordered)) is not _NPR_GENERAL:
            return out
        result, finals, shape, slot = self._jit_call(
            plan.jitted, {n: ordered[i] for n, i in plan.kept}, {n: ordered[i] for n, i in plan.donated})
        if slot is not None:
            shape.check_bounds(slot)
        if shape._leaf:
            return result[0], finals
        return shape.device(result, self._unwritten(zip(self._positional, ordered)) if shape.returned else {}), finals

    def _unwritten(self, items):
        """The arguments the function does not write: a written one returned is its final value."""
        return {n: v for n, v in items if n not in self.mutated}

    def _call_bound(self, args, kwargs, plan_key, device=False):
        """call_numpy (or device) for any call: binds the arguments, checks their aliasing, and
        leaves a plan under `plan_key` (None: none) for the next call like it."""
        values, static, dynamic = self._split(args, kwargs, device)
        aliases = self._aliases(values, device)
        key, (jitted, donated, _) = self._compiled(static, aliases, dynamic)
        if plan_key is not None and all(leader == n for n, leader in aliases.items()):
            plan = _NprPlan(self._positional, plan_key, jitted, dynamic, donated, aliases,
                            stage=jax.default_backend() == "cpu",
                            held=tuple(w for _, w in self._watch.arrays()) if self.mutated else ())
            # the flat run (fastpath.py) calls `jitted` inside its own trace: the trace JAX keeps
            # for it (the host route's, np2ref.compile's trace_numpy) is not made again
            if _npr_flat_plan(self, key, jitted, plan, args, kwargs, device):
                if (out := _npr_flat_run(self, plan.flat, tuple(values.values()))) is not _NPR_GENERAL:
                    return out
        else:
            plan = None
        with self._x64():
            try:
                result, finals, shape, slot = jitted(*_npr_donation_split(dynamic, donated))
            except IndexError as exc:  # NumPy's message where JAX's leaves out the index
                numpy_error = _npr_empty_axis_index_error(exc)
                if numpy_error is None:
                    raise
                raise numpy_error from None
            if plan is not None:
                (self._device_plans if device else self._plans)[plan_key] = plan
            shape.check_bounds(slot)
            if device:
                return shape.device(result, self._unwritten(values.items())), finals
            finals = [(values[n], np.asarray(v)) for n, v in finals.items()]
        _npr_write_back(finals)
        if any(isinstance(v, jax.Array) for v in dynamic.values()) and \
                not any(isinstance(v, np.ndarray) for v in dynamic.values()):
            return shape.device(result, values)
        return shape.numpy(result, values, jax.tree_util.tree_leaves(dynamic))

    def lower(self, *args, **kwargs):
        return self._staged("lower", args, kwargs)

    def trace_numpy(self, *args, **kwargs):
        """jax.stages.Traced of the NumPy-facing call's jitted program (traced, not compiled),
        after the call's checks: np2ref.compile's host route reads its size."""
        return self._staged("trace", args, kwargs)

    def _staged(self, stage, args, kwargs):
        self._globals_moved(args, kwargs)
        values, static, dynamic = self._split(args, kwargs)  # noqa: F841
        key, (jitted, donated, _) = self._compiled(static, self._aliases(values), dynamic)
        with self._x64():
            return getattr(jitted, stage)(*_npr_donation_split(dynamic, donated))


def npr_jit(fn=None, *, mutated=(), static_argnames=None, dtype_policy="preserve", bounds="checked",
            python_scalars=False, lists=(), copied=(), changed=(), trace_budget="default"):
    """Decorator on each converted function: see NprFunction."""
    def wrap(f):
        return NprFunction(f, mutated, static_argnames, dtype_policy, bounds, python_scalars, lists, copied,
                           changed, trace_budget)
    return wrap(fn) if fn is not None else wrap


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


_NPR_X64 = _npr_x64_state()
