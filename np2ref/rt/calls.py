"""The NumPy-facing call of a converted function (jit.py's NprFunction inherits it): the
arguments bound and checked (written ones, aliasing, memory layout, module-level arrays shared),
a plan kept per kind of arguments so the next such call skips those steps (call_numpy, device),
the jitted program run under the function's x64 setting and the written arrays written back."""

import jax
import numpy as np

from .arguments import (
    _npr_check_written, _npr_device_ready, _npr_device_type, _NPR_DEVICE_TYPES, _npr_donation_split,
    _NPR_GENERAL, _npr_held_arrays, _npr_is_static, _npr_jax_dtype, _npr_layout_ok, _npr_list_value, _npr_weak_list,
    _NPR_REPR_KEYED, _npr_shares_any, _npr_static_key, _NPR_STATIC_TYPES, _NPR_TRACED_TYPES, _npr_write_back,
    _NprPlan)
from .bounds import _npr_effects_made
from .compat import _npr_x64_state
from .compat_messages import _npr_empty_axis_index_error
from .core import NprError
from .fastpath import _npr_arg_types, _npr_flat_plan, _npr_flat_run
from .host_words import _npr_settled
from .module_globals import _npr_moved


class _NprCalls:
    """call_numpy, device, lower and trace_numpy of NprFunction, and the argument checks they
    share; the traced program they run is NprFunction's (_compiled, _run)."""

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
                v = _npr_device_ready(self.__name__, name, _npr_list_value(v) if isinstance(v, list)
                                      and name not in self.lists and not self._py_items(name, v) else v)
            (static if is_static else dynamic)[name] = v
        return values, static, dynamic

    def _py_items(self, name, v):
        """A list of Python numbers for a parameter read item by item: passed as the list, each
        item a weakly typed scalar (NprFunction._run_traced makes it one weak array)."""
        return name in self.items and _npr_weak_list(v)

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
        arrays JAX cannot take as they are: _npr_device_ready; a 0-d NumPy array, which the
        general path notes as one: jit.py arrays0)."""
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
            elif kind is np.ndarray and v.ndim and v.dtype.isnative and _npr_jax_dtype(v.dtype):
                key.append(_NprPlan.ARRAY)
            elif kind in _NPR_DEVICE_TYPES:
                key.append(_NprPlan.DEVICE)
            elif isinstance(v, (list, tuple, dict, np.ndarray)):
                return None
            else:
                key.append(_NprPlan.DEVICE if kind is not float and _npr_device_type(v) else None)
        return tuple(key)

    def call_numpy(self, *args, **kwargs):
        """The NumPy-facing call: NumPy's results (arrays, NumPy scalars, Python numbers), written
        arrays written back. jax.Arrays passed are taken as they are (no copy); one returned
        unchanged comes back itself, every value computed comes back as NumPy's, as the original
        NumPy code makes it (.device keeps results on the device). It returns once the call's
        prints and host calls have run (host_words.py)."""
        if self.rebound:
            args, kwargs = self._rebound_copies(args, kwargs)
        try:
            return _npr_settled(self._call_numpy(*args, **kwargs))
        except Exception as exc:
            error = _npr_effects_made(exc)  # NumPy's error from the trace: the draws NumPy made before it (bounds.py)
            if error is exc:
                raise
            raise error from exc

    def _rebound_copies(self, args, kwargs):
        """The arguments, a jax.Array passed for a parameter the function writes only by
        `name op= v` (`rebound`) replaced by a NumPy copy of it: NumPy code cannot write a
        jax.Array in place, and its `vel0 *= 2` binds `vel0` to a new array, the caller's left
        as it was, which is what writing into a copy never written back is, seen by the caller."""
        if not any(isinstance(v, jax.Array) for v in (*args, *kwargs.values())):
            return args, kwargs
        bound = self.signature.bind(*args, **kwargs)
        for name in self.rebound:
            if isinstance(bound.arguments.get(name), jax.Array):
                bound.arguments[name] = np.array(bound.arguments[name])
        return bound.args, bound.kwargs

    def _call_numpy(self, *args, **kwargs):
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
        if plan.device:  # jax.Arrays in (no copy), nothing written; NumPy's results out
            if (out := _npr_flat_run(self, plan.flat, ordered)) is not _NPR_GENERAL:
                return out
            kept = {n: ordered[i] for n, i in plan.kept}
            result, _, shape, slot = self._jit_call(plan.jitted, kept, {})
            if slot is not None:
                shape.check_bounds(slot)
            return shape.numpy(result, dict(zip(self._positional, ordered)) if shape.returned else {}, [*kept.values()])
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
        return _npr_settled(self._device(*args, **kwargs))  # (a step's print: before the caller's next line)

    def _device(self, *args, **kwargs):
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
        if isinstance(callee, _NprCalls) and _npr_uses_layout(callee.fn, seen):
            return True
    return False


_NPR_X64 = _npr_x64_state()
