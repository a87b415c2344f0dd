"""The jax.Array call's short path: a plan's `run` jitted again with a flat signature.

NprFunction's jitted `run` takes its arguments in two dictionaries and returns a list, a
dictionary, the result's _NprResultShape and the bounds record: JAX flattens the dictionaries
on every call and calls back into Python to unflatten the shape node, 6-8 µs of a 23 µs call of
a small kernel on jax.Arrays (measured against the same program jitted with positional
arguments and one array out). A call whose arguments are all jax.Arrays (or traced Python
scalars) and donates nothing runs _NprFlat instead: the same jitted `run`, so the same traced
program and values, called (a nested jit: JAX reuses the trace it keeps for `run`, so that
np2ref.compile's host-route trace is not made a second time, and XLA inlines the call) inside
`flat(*arguments) -> leaves`, jitted: the result's leaves, then the written arguments' final
values, then the bounds record when the program checks indices; for .device, one leaf and
nothing else comes back bare (a plain call's leaves become NumPy's results). The result's shape
is not an output: it is kept from the first trace, and a later trace (new shapes or dtypes)
whose shape differs in anything raises _NprNotFlat before JAX keeps an executable for it; the
call then takes the general path, and the plan never this one again.
"""

import threading as _npr_threading

import jax
import numpy as np

from .arguments import _NPR_DEVICE_TYPES, _NPR_GENERAL, _NPR_NONE, _npr_write_back, _NprPlan
from .compat import _npr_x64_state
from .compat_messages import _npr_empty_axis_index_error
from .numpycall import _npr_numpy_call


class _NprNotFlat(Exception):
    """A flat function traced for new arguments would return a differently shaped result."""


class _NprZeroD(Exception):
    """A NumPy call's flat function traced for a 0-d NumPy array where its plan was made for an
    n-d one (the straight-line call keys by type): the general path notes it (jit.py arrays0)."""


class _NprFlat:
    """One plan's flat jitted `run` (see the module docstring). `kept`: the (name, position)
    pairs of the arguments it takes, in order, of the function's `count` parameters; `finals`: the written names whose final values
    it returns (.device); `given`: the (name, position) pairs an argument returned as itself
    is looked up in; `apart`: position pairs that must not be one object (a written jax.Array
    passed twice: the general path aliases it); `mode`: "jax" for a call of jax.Arrays, which
    returns NumPy's results, "device" for .device, which returns (result, finals), "numpy" for a
    call with NumPy arrays, which returns NumPy's results after writing the written arrays
    back (their copies donated: `donated`, the (name, position) pairs, passed after `kept`)."""

    def __init__(self, run, kept, count, finals, given, apart, x64, mode, donated=(), arrays=()):
        names, donated_names = tuple(n for n, _ in kept), tuple(n for n, _ in donated)
        positions = tuple(i for _, i in (*kept, *donated))
        arrays = tuple(j for j, i in enumerate(positions) if i in arrays)  # (NumPy arrays: n-d at the plan's call)
        split = len(names)
        self.take = None if positions == tuple(range(count)) else positions  # None: all, in order
        self.finals, self.given, self.apart, self.x64 = tuple(finals), tuple(given), tuple(apart), x64
        self.device, self.numpy = mode == "device", mode == "numpy"
        self.targets = tuple(dict(given)[n] for n in self.finals) if self.numpy else ()  # written: positions
        self.shape = None  # the first trace's _NprResultShape
        # one output, returned bare: the result (a single array) or, for .device when the
        # result is None, the final value of `self.only`, the one written argument
        self.bare, self.only = False, None
        self.refused = False  # a trace's result shape differed: the plan keeps the general path
        self.lock = _npr_threading.Lock()

        def flat(*values):
            if any(not values[j].ndim for j in arrays):  # (at trace time only)
                raise _NprZeroD()
            result, finals, shape, slot = run(dict(zip(names, values[:split])),
                                              dict(zip(donated_names, values[split:])))
            self._accept(shape, slot is not None)
            out = [*result, *(finals[n] for n in self.finals)]
            if slot is not None:
                out.append(slot)
            return out[0] if self.bare else out
        self.jitted = jax.jit(flat, donate_argnums=tuple(range(split, len(positions))))
        self.run = _npr_x64_call(self.jitted, x64)  # values -> outputs
        # what np2ref.compile's type-keyed path calls on the arguments: after the first trace of a
        # .device run, `run` itself where one array out is the whole answer, on the arguments as they come
        self.call = self.__call__

    def admits(self, args):
        """Whether no written jax.Array is passed twice (one object: the general path aliases
        it, or refuses the call)."""
        for i, j in self.apart:
            if args[i] is args[j]:
                return False
        return True

    def _accept(self, shape, checked):
        """At trace time: keep the first trace's result shape; refuse one that differs."""
        with self.lock:
            if self.shape is None:
                self.shape = shape
                none = shape._plain and shape.tree == _NPR_NONE
                self.bare = not checked and self.device and (
                    shape._leaf and not self.finals or none and len(self.finals) == 1)
                self.only = self.finals[0] if self.bare and self.finals else None
                if self.bare and self.take is None:
                    self.call = _npr_device_call(self.run, self.only)
            elif self.refused or not _npr_same_shape(self.shape._aux, shape._aux):
                self.refused = True
                raise _NprNotFlat()

    def __call__(self, args, values=None):
        """The call on `args` (the arguments in parameter order): the result, NumPy's (for
        .device, jax.Arrays and the written arguments' final values by name). `values`: what the
        jitted function takes, when not the arguments themselves (NumPy arrays staged: buffers.py)."""
        if values is None:
            values = args if self.take is None else [args[i] for i in self.take]
        out = self.run(values)
        if self.bare:  # (.device only)
            return (out, {}) if self.only is None else (None, {self.only: out})
        return self._finish(out, args, values)

    def _finish(self, out, args, values):
        shape = self.shape
        if shape.sites:
            shape.check_bounds(out.pop())
        given = {n: args[i] for n, i in self.given} if shape.returned else {}
        if self.numpy and self.finals:  # the leaves, then the written arguments' final values,
            count = len(out) - len(self.finals)  # written back first
            _npr_write_back([(args[i], np.asarray(v)) for i, v in zip(self.targets, out[count:])])
            del out[count:]  # (not a slice: _npr_results_numpy counts the references)
        if not self.device:  # NumPy's results, for jax.Arrays passed too (a large leaf may become
            return shape.numpy(out, given, values)  # a NumPy view of its buffer)
        count = len(out) - len(self.finals)
        return shape.device(out[:count], given), dict(zip(self.finals, out[count:count + len(self.finals)]))


def _npr_x64_call(jitted, x64):
    """jitted(*values) as a function of `values`, with jax_enable_x64 set to `x64` for the call
    (as NprFunction._jit_call sets it) and NumPy's IndexError where JAX's leaves out the index."""
    state = _NPR_X64

    def call(values):
        try:
            if state is None:
                with jax.enable_x64(x64):
                    return jitted(*values)
            prev = state.swap_local(x64)
            try:
                return jitted(*values)
            finally:
                state.set_local(prev)
        except IndexError as exc:
            numpy_error = _npr_empty_axis_index_error(exc)
            if numpy_error is None:
                raise
            raise numpy_error from None
    return call


def _npr_device_call(run, only):
    """A .device flat run's call where its one output is the whole answer: the result (nothing
    written) or the one written argument's final value (the result None)."""
    if only is None:
        return lambda args: (run(args), {})
    return lambda args: (None, {only: run(args)})


def _npr_flat_plan(fn, key, run, plan, args, kwargs, device):
    """Give `plan` (NprFunction `fn`'s, for a call to compiled program `key`, whose jitted
    function is `run`: called inside the flat run's trace, where JAX reuses its trace) its _NprFlat: a call of jax.Arrays (and traced Python scalars) that
    donates nothing, or one with NumPy arrays (written ones donated, none beside a jax.Array);
    keep the plan, and under the call's argument types (every parameter passed by position)
    a jax.Array call's flat run (jax.Arrays and Python floats only) or a NumPy call's
    straight-line call (NumPy arrays and Python floats only). False for any other plan, or one
    whose flat run was refused."""
    arrays = any(k is _NprPlan.ARRAY for k in plan.key)
    mode = "device" if device else "jax" if plan.device else "numpy"
    if fn.jit_options is not None:
        return False
    if mode == "numpy":  # NumPy arrays written: copied in, donated, written back (not beside jax.Arrays)
        if plan.written and _NprPlan.DEVICE in plan.key:
            return False
    elif plan.donated or (arrays and (device or plan.written)):
        return False
    numpy_arrays = frozenset(i for i, k in enumerate(plan.key) if k is _NprPlan.ARRAY)  # (a float there: another)
    flat = fn._flats.get((key, mode, plan.apart, numpy_arrays))
    if flat is None:
        given = [(n, i) for i, n in enumerate(fn._positional) if not (device and n in fn.mutated)]
        written = tuple(n for n, _ in plan.written) if device or mode == "numpy" else ()
        flat = fn._flats[key, mode, plan.apart, numpy_arrays] = _NprFlat(
            run, plan.kept, len(fn._positional), written, given, plan.apart, fn.dtype_policy == "preserve",
            mode, plan.donated, numpy_arrays)
    if flat.refused:
        return False
    plan.flat = flat
    (fn._device_plans if device else fn._plans)[plan.key] = plan
    if fn.static_argnames is None and not kwargs and len(args) == len(fn._positional):
        kinds = _npr_arg_types(args)
        if mode != "numpy" and all(k in _NPR_DEVICE_TYPES or k is float for k in kinds):
            (fn._device_fast if device else fn._fast)[kinds] = flat
        elif mode == "numpy" and all(k is np.ndarray or k is float for k in kinds):
            fn._numpy_fast[kinds] = _npr_numpy_call(fn, flat, plan, kinds)
    return True


def _npr_arg_types(args):
    """The arguments' types, the key of the type-keyed flat runs: spelled out for up to three
    arguments (0.25-0.45 µs on this VM, tuple(map(type, args)) 0.9-1.05 µs)."""
    n = len(args)
    if n == 1:
        return (type(args[0]),)
    if n == 2:
        return (type(args[0]), type(args[1]))
    if n == 3:
        return (type(args[0]), type(args[1]), type(args[2]))
    return tuple(map(type, args))


def _npr_flat_run(fn, flat, args, values=None):
    """flat(args, values); _NPR_GENERAL when there is none (None) or its trace was refused:
    `fn`'s plans then forget it."""
    if flat is None:
        return _NPR_GENERAL
    try:
        return flat(args, values)
    except _NprNotFlat:
        _npr_forget_flat(fn, flat)
        return _NPR_GENERAL


def _npr_forget_flat(fn, flat):
    for fast in (fn._fast, fn._device_fast, fn._numpy_fast):
        for k in [k for k, v in fast.items() if getattr(v, "flat", v) is flat]:
            del fast[k]
    for plan in (*fn._plans.values(), *fn._device_plans.values()):
        if plan.flat is flat:
            plan.flat = None


def _npr_same_shape(a, b):
    """Two _NprResultShape aux tuples alike in every value and its type (True, 1 and 1.0 are
    three different Python results)."""
    try:
        return a[0] == b[0] and all(_npr_typed(x) == _npr_typed(y) for x, y in zip(a[1:], b[1:]))
    except Exception:  # a value that does not compare as a bool: not known to be alike
        return False


def _npr_typed(v):
    if isinstance(v, (tuple, list)):
        return type(v), tuple(_npr_typed(e) for e in v)
    return type(v), v


_NPR_X64 = _npr_x64_state()
