# ---- np2ref entry points: NumPy in, NumPy out, jit-compiled in between ----
import functools as _npr_functools
import inspect as _npr_inspect
import operator as _npr_operator
import types as _npr_types

_NPR_IOPS = {
    "+": _npr_operator.iadd, "-": _npr_operator.isub, "*": _npr_operator.imul,
    "/": _npr_operator.itruediv, "//": _npr_operator.ifloordiv, "%": _npr_operator.imod,
    "**": _npr_operator.ipow, "&": _npr_operator.iand, "|": _npr_operator.ior,
    "^": _npr_operator.ixor, "<<": _npr_operator.ilshift, ">>": _npr_operator.irshift,
    "@": _npr_operator.imatmul,
}
_NPR_BINOPS = {
    "+": _npr_operator.add, "-": _npr_operator.sub, "*": _npr_operator.mul,
    "/": _npr_operator.truediv, "//": _npr_operator.floordiv, "%": _npr_operator.mod,
    "**": _npr_operator.pow, "&": _npr_operator.and_, "|": _npr_operator.or_,
    "^": _npr_operator.xor, "<<": _npr_operator.lshift, ">>": _npr_operator.rshift,
    "@": _npr_operator.matmul,
}

_NPR_CMPS = {
    "==": _npr_operator.eq, "!=": _npr_operator.ne, "<": _npr_operator.lt,
    "<=": _npr_operator.le, ">": _npr_operator.gt, ">=": _npr_operator.ge,
}


def npr_seq_op(a, op, b):
    """`a op b` where one side is a list or tuple written in the source. Against an array,
    NumPy makes the sequence an array (np.asarray's dtype: Python numbers in it are not weak)
    and computes in the operands' NumPy result type; JAX's operators refuse sequences. Between
    Python values it is Python's own operator (`[0] * n`, `(1, 2) == t`)."""
    f = _NPR_BINOPS.get(op) or _NPR_CMPS[op]
    if isinstance(a, (list, tuple)) != isinstance(b, (list, tuple)) and \
            isinstance(a if isinstance(b, (list, tuple)) else b, jax.Array):
        a = _npr_np_asarray(a) if isinstance(a, (list, tuple)) else a
        b = _npr_np_asarray(b) if isinstance(b, (list, tuple)) else b
        dt = _npr_np_result_dtype(a, b)
        a, b = _npr_np_asarray(a, dt), _npr_np_asarray(b, dt)
    return f(a, b)


class NprError(Exception):
    """A call that np2ref cannot run exactly (e.g. overlapping buffers passed to a writer)."""


def _npr_is_ref(x):
    return isinstance(x, (jax.Ref, NprView))


def npr_asarray(x):
    """`np.asarray(a)` / `a.view()`: the same buffer for a Ref or view, else an array."""
    return x if _npr_is_ref(x) else jnp.asarray(x)


def npr_iop(x, op, value, maybe_scalar=False):
    """`x op= value` on a name: in place (NumPy's same_kind casting, shape kept) when `x` is an
    array, a plain rebinding when it is a Python or NumPy scalar (`maybe_scalar`: a 0-d value
    may be a NumPy scalar, the analysis could not tell)."""
    if _npr_is_ref(x):
        proxy = npr_at(x)
        proxy[...] = _NPR_IOPS[op](proxy[...], value)
        return x
    if isinstance(x, (jax.Array, np.ndarray)) and not isinstance(x, np.generic) \
            and not (maybe_scalar and np.ndim(x) == 0):
        ref = jax.new_ref(jnp.asarray(x))
        proxy = npr_at(ref)
        proxy[...] = _NPR_IOPS[op](proxy[...], value)
        return ref[...]
    return _NPR_BINOPS[op](x, npr_load(value))


_NPR_STATIC_TYPES = frozenset({bool, int, str, type(None)})
_NPR_TRACED_TYPES = frozenset({float, complex, np.ndarray})


def _npr_is_static(value):
    """Python ints, bools, strings and None (they size arrays and pick branches), tuples of
    static values, and everything that is not array data: modules, dtypes, types, callables,
    random generators... (JAX could not take those as traced arguments anyway)."""
    if isinstance(value, (bool, int, str, type(None))) and not isinstance(value, np.generic):
        return True
    if isinstance(value, tuple):
        return all(_npr_is_static(v) for v in value)
    return not _npr_is_data(value)


def _npr_is_data(value):
    """Arrays, numbers and the containers jit takes as pytrees of them."""
    return isinstance(value, (float, complex, np.ndarray, np.generic, jax.Array, list, tuple, dict)) \
        or hasattr(value, "__jax_array__")


# Static values keyed by repr: it tells True, 1 and 1.0 apart, and 0.0 from -0.0, where == does not.
_NPR_REPR_KEYED = frozenset({bool, int, float, complex, str, type(None)})


class _NprByIdentity:
    """A static argument that cannot be hashed by value, keyed by its identity. The key holds
    the object, so its id is not reused while a trace that closes over it is cached."""
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self):
        return id(self.obj)

    def __eq__(self, other):
        return isinstance(other, _NprByIdentity) and other.obj is self.obj


def _npr_static_key(v):
    """The cache key of a static argument: two calls share a trace only when it computes the
    same thing for both. By value where the value is hashable (a dtype, a type, a module, a
    function: those hash by identity or by what they mean), by identity where it is not."""
    kind = type(v)
    if kind in _NPR_REPR_KEYED or isinstance(v, np.generic):  # NumPy scalars: -0.0 == 0.0 too
        return repr(v)
    if kind is tuple:
        return (tuple, tuple(_npr_static_key(e) for e in v))
    try:
        hash(v)
    except TypeError:
        return _NprByIdentity(v)
    return (kind, v)


def _npr_any_traced(values):
    return any(isinstance(v, (jax.Ref, NprView, jax.core.Tracer)) for v in values)


def _npr_to_numpy(tree):
    if isinstance(tree, tuple):
        return tuple(_npr_to_numpy(v) for v in tree)
    if isinstance(tree, list):
        return [_npr_to_numpy(v) for v in tree]
    if isinstance(tree, dict):
        return {k: _npr_to_numpy(v) for k, v in tree.items()}
    if isinstance(tree, jax.Array):
        out = np.asarray(tree)  # on CPU a read-only view of JAX's buffer: NumPy's results are writable
        return out[()] if out.ndim == 0 else out if out.flags.writeable else out.copy()
    return tree


def _npr_check_written(fname, name, v):
    """A container passed for a parameter the function writes into: refused (NPR207), since
    np2ref writes back into NumPy arrays only."""
    if isinstance(v, list):
        raise TypeError(f"{fname}(): argument `{name}` is a list, which the function "
                        "writes; np2ref writes back into NumPy arrays only (a list's item and "
                        f"slice assignment differ from an array's): pass np.array({name})")
    if isinstance(v, (tuple, dict)):
        raise NprError(f"np2ref NPR207: {fname}() writes into its argument `{name}`, a "
                       f"{type(v).__name__}; containers of written arrays are not translated (pass "
                       "each array as its own argument)")


class NprFunction:
    """A converted function. Called from host code with NumPy values, it runs jit-compiled and
    writes back every array argument the original mutates; called from converted code (refs,
    tracers), it is the plain ref program."""

    def __init__(self, fn, mutated=(), static_argnames=None, dtype_policy="preserve", bounds="checked"):
        _npr_functools.update_wrapper(self, fn)
        self.fn = fn
        self.mutated = tuple(mutated)
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
        kinds = [p.kind for p in self.signature.parameters.values()]
        # the parameter names when every one is an ordinary positional-or-keyword one, else None:
        # a call passing all of them by position then needs no Signature.bind
        self._positional = tuple(self.signature.parameters) if all(
            k == _npr_inspect.Parameter.POSITIONAL_OR_KEYWORD for k in kinds) else None
        self._defaults = {n: p.default for n, p in self.signature.parameters.items()
                          if p.default is not _npr_inspect.Parameter.empty}
        self._layout = None  # _npr_uses_layout(fn), found on the first NumPy call
        # (dynamic names, mutated names) -> keyword arguments for jax.jit (np2ref.compile's shardings)
        self.jit_options = None

    def __call__(self, *args, **kwargs):
        if _npr_state["depth"] or _npr_any_traced(args) or (kwargs and _npr_any_traced(kwargs.values())):
            return self.fn(*args, **kwargs)
        return self.call_numpy(*args, **kwargs)

    def __get__(self, obj, objtype=None):
        return self

    # -- the pure JAX function -------------------------------------------------------------
    def pure(self, *args, **kwargs):
        """(result, {name: final value}) for the mutated array parameters; traceable by the
        user's jax.jit / jax.vmap / jax.grad (keep ints that size arrays static)."""
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        values = dict(bound.arguments)
        for name in self.mutated:
            _npr_check_written(self.__name__, name, values.get(name))
        aliases = {n: n for n in self.mutated if _npr_arraylike(values.get(n))}
        result, finals, *_ = self._run(values, aliases)
        return result, finals

    def _run(self, values, aliases):
        _npr_state["depth"] += 1
        try:
            refs = {}
            call = dict(values)
            for name, leader in aliases.items():
                if leader not in refs:
                    refs[leader] = jax.new_ref(jnp.asarray(values[leader]))
                call[name] = refs[leader]
            bound = _npr_inspect.BoundArguments(self.signature, call)
            out = self.fn(*bound.args, **bound.kwargs)
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
            # a view returned twice is one object twice, as in NumPy (`return b, b`); not for
            # traced values, where a no-op (`b.astype(b.dtype)`, `+b`) hands back its input
            first, same = {}, {}
            for i, leaf in enumerate(leaves):
                if _npr_is_ref(leaf) and first.setdefault(id(leaf), i) != i:
                    same[i] = first[id(leaf)]
            result = npr_value(out)
            finals = {n: refs[leader][...] for n, leader in aliases.items()}
        finally:
            _npr_state["depth"] -= 1
        return result, finals, returned, same

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

    def _split(self, args, kwargs):
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
            if not is_static:
                v = self._device_ready(name, np.asarray(v) if isinstance(v, list) else v)
            (static if is_static else dynamic)[name] = v
        return values, static, dynamic

    def _device_ready(self, name, v):
        """A NumPy array as JAX can take it: in native byte order (data read from big-endian
        files), and of a dtype JAX holds (numbers and booleans), else a TypeError naming it.
        Subclasses that change what operators mean (np.matrix's `*`, masked arrays, arrays
        with units) are refused the same way; np.memmap is plain storage and passes."""
        if not isinstance(v, np.ndarray):
            return v
        if type(v) is not np.ndarray and not isinstance(v, np.memmap):
            raise TypeError(f"{self.__name__}(): argument `{name}` is a {type(v).__module__}."
                            f"{type(v).__qualname__}, whose operations np2ref does not model; pass "
                            f"np.asarray({name}) if plain array semantics are what you want")
        if not _npr_jax_dtype(v.dtype):
            raise TypeError(f"{self.__name__}(): argument `{name}` has dtype {v.dtype}, which JAX "
                            "arrays cannot hold; np2ref compiles numeric and boolean arrays")
        return v if v.dtype.isnative else v.astype(v.dtype.newbyteorder("="))

    def _aliases(self, values):
        """Mutated array arguments, each mapped to the argument whose buffer it shares. Arrays
        inside tuple, list and dict arguments are checked too (`f(a, (a,))`)."""
        arrays = {}
        for n, v in values.items():
            if isinstance(v, np.ndarray):
                arrays[n] = v
            elif isinstance(v, (tuple, list, dict)):
                flat, _ = jax.tree_util.tree_flatten_with_path(v)
                arrays.update({n + jax.tree_util.keystr(path): leaf for path, leaf in flat
                               if isinstance(leaf, np.ndarray)})
        if self._layout is None:
            self._layout = _npr_uses_layout(self.fn)
        if self._layout:
            for name in self.mutated:
                v = values.get(name)
                if isinstance(v, np.ndarray) and not _npr_layout_ok(v):
                    raise NprError(f"{self.__name__}(): `{name}` is not C-contiguous, and whether its "
                                   "reshape/ravel is a view depends on memory layout; pass "
                                   f"np.ascontiguousarray({name})")
        aliases = {}
        for name in self.mutated:
            v = values.get(name)
            if not isinstance(v, np.ndarray):
                continue
            aliases[name] = name
            for other, w in arrays.items():
                if other == name or not _npr_shares(v, w):
                    continue
                if w is v and other in self.mutated:
                    aliases[name] = min(name, other)
                    continue
                raise NprError(f"{self.__name__}(): the arguments `{name}` and `{other}` share memory "
                               f"and `{name}` is written; pass separate arrays (e.g. `{other}.copy()`)")
        return aliases

    def _compiled(self, static, aliases, dynamic_names):
        key = (tuple(sorted((k, _npr_static_key(v)) for k, v in static.items())), tuple(sorted(aliases.items())),
               dynamic_names)
        if key not in self._jitted:
            # The mutated arrays' device copies are donated: their final values (written back)
            # reuse those buffers. Only NumPy arrays reach here as aliases, so no caller-visible
            # buffer is ever donated.
            donated = tuple(sorted(n for n in set(aliases.values()) if n in dynamic_names))

            def run(dynamic, written):
                saved = _npr_state.get("bounds")  # the run-time index checks (see _npr_Bounds)
                checks = _npr_state["bounds"] = _npr_Bounds() if self.bounds == "checked" else None
                try:
                    result, finals, returned, same = self._run({**static, **dynamic, **written}, aliases)
                finally:
                    _npr_state["bounds"] = saved
                leaves, tree = jax.tree_util.tree_flatten(result)
                # Python values computed from static inputs stay Python values (an int stays an int)
                fixed = {i: v for i, v in enumerate(leaves) if _npr_is_python_value(v)}
                sites = tuple(checks.sites) if checks is not None else ()
                shape = _NprResultShape(tree, tuple(fixed.items()), tuple(returned.items()),
                                        tuple(same.items()), sites)
                return ([v for i, v in enumerate(leaves) if i not in fixed], finals, shape,
                        jnp.stack([checks.site[...], checks.value[...]]) if sites else None)
            options = self.jit_options(dynamic_names, tuple(aliases)) if self.jit_options else {}
            if "in_shardings" in options:  # the plan shards run(dynamic): split it as run's arguments
                (ins,) = options["in_shardings"]
                options["in_shardings"] = ({n: s for n, s in ins.items() if n not in donated},
                                           {n: ins[n] for n in donated})
            self._jitted[key] = (jax.jit(run, donate_argnums=(1,) if donated else (), **options), donated)
        return key, self._jitted[key]

    def _x64(self):
        return jax.enable_x64(self.dtype_policy == "preserve")

    def _plan_key(self, args):
        """What decides a call's jitted function and checks, read from its arguments in
        parameter order (_in_order): each static argument's _npr_static_key, _NprPlan.ARRAY for a NumPy
        array, None for another traced value. None when only the general path can tell
        (containers, whose arrays _aliases checks; subclasses and arrays JAX cannot take as they
        are: _device_ready)."""
        key = []
        for name, v in zip(self._positional, args):
            kind = type(v)
            if self.static_argnames is not None:
                static = name in self.static_argnames
            else:  # _npr_is_static(v), with the common types answered without a call
                static = kind in _NPR_STATIC_TYPES or (kind not in _NPR_TRACED_TYPES and _npr_is_static(v))
            if static:
                key.append(repr(v) if kind in _NPR_REPR_KEYED else _npr_static_key(v))
            elif kind is np.ndarray and v.dtype.isnative and _npr_jax_dtype(v.dtype):
                key.append(_NprPlan.ARRAY)
            elif isinstance(v, (list, tuple, dict, np.ndarray)):
                return None
            else:
                key.append(None)
        return tuple(key)

    def call_numpy(self, *args, **kwargs):
        ordered = self._in_order(args, kwargs)
        plan_key = None if ordered is None else self._plan_key(ordered)
        plan = self._plans.get(plan_key)
        if plan is None or not plan.admits(ordered, self._layout):
            return self._call_bound(args, kwargs, plan_key)
        args = ordered
        with self._x64():
            result, finals, shape, slot = plan.jitted(
                {n: args[i] for n, i in plan.kept}, {n: args[i] for n, i in plan.donated})
            shape.check_bounds(slot)
            finals = [(args[i], np.asarray(finals[n])) for n, i in plan.written]
        _npr_write_back(finals)
        return shape.numpy(result, dict(zip(self._positional, args)) if shape.returned else {})

    def _call_bound(self, args, kwargs, plan_key):
        """call_numpy for any call: binds the arguments, checks their aliasing, and leaves a plan
        under `plan_key` (None: none) for the next call like it."""
        values, static, dynamic = self._split(args, kwargs)
        aliases = self._aliases(values)
        key, (jitted, donated) = self._compiled(static, aliases, tuple(sorted(dynamic)))
        with self._x64():
            result, finals, shape, slot = jitted(*_npr_donation_split(dynamic, donated))
            if plan_key is not None and all(leader == n for n, leader in aliases.items()):
                self._plans[plan_key] = _NprPlan(self._positional, plan_key, jitted, dynamic, donated, aliases)
            shape.check_bounds(slot)
            finals = [(values[n], np.asarray(v)) for n, v in finals.items()]
        _npr_write_back(finals)
        return shape.numpy(result, values)

    def lower(self, *args, **kwargs):
        values, static, dynamic = self._split(args, kwargs)  # noqa: F841
        key, (jitted, donated) = self._compiled(static, self._aliases(values), tuple(sorted(dynamic)))
        with self._x64():
            return jitted.lower(*_npr_donation_split(dynamic, donated))


class _NprResultShape:
    """How a jitted run's leaves make the converted function's result: its tree, the Python
    values fixed at trace time, and which leaves are an argument itself. It is a leafless pytree
    whose aux data is all of that, so each compiled executable hands back the shape it was
    traced with (a retrace for new shapes cannot mix one call's result up with another's)."""

    def __init__(self, tree, fixed, returned, same, sites=()):
        self.tree, self.fixed, self.returned, self.same = tree, dict(fixed), dict(returned), dict(same)
        self.sites = sites  # the run-time index checks traced (_npr_Bounds.sites)
        self._aux = (tree, fixed, returned, same, sites)

    def check_bounds(self, slot):
        """NumPy's IndexError when a run-time index check failed (`slot`: the checks' record,
        (site, value), None when there were none), raised before anything is written back."""
        error = None if slot is None else _npr_bounds_error(self.sites, *np.asarray(slot))
        if error is not None:
            raise error

    def numpy(self, result, values):
        """The result as NumPy returns it: an argument returned is the caller's own array, and
        a view of one a view of the caller's array (made after the write-back)."""
        tree = self.tree
        if not tree.num_leaves:  # None (an in-place kernel), (), {}: nothing to convert
            return jax.tree_util.tree_unflatten(tree, ())
        dynamic_leaves = iter(result)
        leaves = [self.fixed[i] if i in self.fixed else next(dynamic_leaves) for i in range(tree.num_leaves)]
        leaves = [_npr_to_numpy(leaf) for leaf in leaves]
        for i, (name, steps) in self.returned.items():
            given = values.get(name)
            if isinstance(given, np.ndarray):
                leaves[i] = _npr_numpy_view(given, steps)
        for i, j in self.same.items():
            leaves[i] = leaves[j]
        return jax.tree_util.tree_unflatten(tree, leaves)


def _npr_numpy_steps(view):
    """An NprView's steps from its base as NumPy would take them (hashable: slices as tuples),
    or None when an index in them is traced (known only when the program runs)."""
    steps = []
    for kind, arg in view.steps:
        if kind == 's':
            if arg.traced:
                return None
            arg = tuple((slice, e.start, e.stop, e.step) if isinstance(e, slice) else e for e in arg.probe)
        steps.append((kind, arg))
    return tuple(steps)


def _npr_numpy_view(a, steps):
    """The view of NumPy array `a` that _npr_numpy_steps describe."""
    for kind, arg in steps:
        if kind == 's':
            a = a[tuple(slice(*e[1:]) if isinstance(e, tuple) and e[:1] == (slice,) else e for e in arg)]
        elif kind == 'r':
            a = a.reshape(arg)
        else:
            a = a.transpose(arg)
    return a


def _npr_result_shape(aux, children):
    """_NprResultShape's unflatten: one object per traced signature, not one per call. Kept by
    the aux tuple's identity (each executable holds its own), never by equality, under which
    True == 1 == 1.0 and one signature's fixed values would stand for another's."""
    shape = _NPR_RESULT_SHAPES.get(id(aux))
    if shape is None or shape._aux is not aux:
        shape = _NPR_RESULT_SHAPES[id(aux)] = _NprResultShape(*aux)
    return shape


_NPR_RESULT_SHAPES = {}  # id(aux) -> _NprResultShape
jax.tree_util.register_pytree_node(_NprResultShape, lambda s: ((), s._aux), _npr_result_shape)


class _NprPlan:
    """A call's route to its jitted function, kept per _plan_key: which arguments
    are kept, donated and written back (by position), and which pairs of NumPy arrays must not
    share memory. A call it does not admit takes the general path, which raises or aliases."""
    ARRAY = object()

    def __init__(self, names, key, jitted, dynamic, donated, written):
        position = {n: i for i, n in enumerate(names)}
        self.jitted = jitted
        self.kept = tuple((n, position[n]) for n in dynamic if n not in donated)
        self.donated = tuple((n, position[n]) for n in donated)
        self.written = tuple((n, position[n]) for n in written)
        arrays = [i for i, k in enumerate(key) if k is _NprPlan.ARRAY]
        self.apart = tuple((i, j) for _, i in self.written for j in arrays if j != i)

    def admits(self, args, layout):
        if layout and not all(_npr_layout_ok(args[i]) for _, i in self.written):
            return False
        return not any(_npr_shares(args[i], args[j]) for i, j in self.apart)


def _npr_write_back(finals):
    """Copy each (NumPy array, final value) pair back, once the whole call has succeeded. A
    read-only array whose value did not change takes no copy (the function writes it only on
    a path this call did not take); one that changed raises NumPy's ValueError before any
    array is written."""
    for target, final in finals:
        if not target.flags.writeable and \
                final.astype(target.dtype, copy=False).tobytes() != target.tobytes():
            raise ValueError("assignment destination is read-only")
    for target, final in finals:
        if target.flags.writeable:
            np.copyto(target, final, casting="unsafe")


def _npr_jax_dtype(dt):
    """Whether JAX arrays hold this dtype: booleans and numbers up to 64-bit (no long double)."""
    return dt.kind in "biufc" and dt.itemsize <= (16 if dt.kind == "c" else 8)


def _npr_layout_ok(v):
    return v.flags.c_contiguous or v.size <= 1


def _npr_shares(a, b):
    """np.shares_memory, after the cheap bounds test that rules out most pairs."""
    return np.may_share_memory(a, b) and np.shares_memory(a, b)


def _npr_donation_split(dynamic, donated):
    """(the dynamic arguments kept, those donated) for NprFunction's jitted `run`."""
    if not donated:
        return dynamic, {}
    return {n: v for n, v in dynamic.items() if n not in donated}, {n: dynamic[n] for n in donated}


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


def _npr_is_python_value(v):
    return isinstance(v, (bool, int, float, complex, str, type(None))) and not isinstance(v, np.generic)


def _npr_arraylike(v):
    return isinstance(v, (np.ndarray, jax.Array)) and not isinstance(v, np.generic)


def npr_jit(fn=None, *, mutated=(), static_argnames=None, dtype_policy="preserve", bounds="checked"):
    """Decorator on each converted function: see NprFunction."""
    def wrap(f):
        return NprFunction(f, mutated, static_argnames, dtype_policy, bounds)
    return wrap(fn) if fn is not None else wrap


def npr_apart(x, *written):
    """Load `x` for a callee that writes `written`: NumPy would let the callee see its own
    writes through `x` if they shared memory, so they must be apart (checked at trace time)."""
    for w in written:
        if _npr_overlap(x, w):
            raise NprError("np2ref NPR201: an argument a helper reads shares memory with one it "
                           "writes; pass a copy")
    return npr_load(x)


def _npr_footprint(x):
    """(base Ref, flat positions or None for all) of a Ref or view."""
    if isinstance(x, NprView):
        ids = np.arange(x.base.size).reshape(x.base.shape)
        try:
            for kind, arg in x.steps:  # NumPy on the host: the footprint is static
                if kind == "s":
                    if arg.mask is not None or arg.adv:
                        raise NotImplementedError
                    ids = ids[arg.basic()]
                else:
                    ids = np.transpose(ids, arg) if kind == "t" else ids.reshape(arg)
            return x.base, set(np.ravel(np.asarray(ids)).tolist())
        except Exception:  # a traced index: the footprint is unknown, assume it is everything
            return x.base, None
    return x, None


def _npr_overlap(a, b):
    if not (_npr_is_ref(a) and _npr_is_ref(b)):
        return False
    base_a, pos_a = _npr_footprint(a)
    base_b, pos_b = _npr_footprint(b)
    if base_a is not base_b:
        return False
    return pos_a is None or pos_b is None or bool(pos_a & pos_b)


def npr_mask_store(a, mask, value, op=None, scalars=None, axis=0):
    """`a[mask] = value` / `a[mask] op= value` with a boolean mask, on whole arrays.

    With `scalars=None`, `value` is what NumPy broadcasts over the selected elements: it must
    have size 1. With `scalars=(...)`, `value` was computed elementwise on whole arrays in
    place of their masked reads; the listed leaves must have size 1 for that to be exact."""
    mask = npr_load(mask)
    value = npr_load(value)
    mask_arr = jnp.asarray(mask)
    index = (slice(None),) * axis + (mask,)
    if mask_arr.dtype != jnp.bool_:  # an integer index after all: select the same elements
        if scalars is not None:
            value = jnp.broadcast_to(jnp.asarray(value), a.shape)[index]
        proxy = npr_at(a)
        if op is None:
            proxy[index] = value
        else:
            proxy[index] = _NPR_IOPS[op](proxy[index], value)
        return
    for leaf in (scalars or ()):
        if np.size(npr_load(leaf)) != 1:
            raise NotImplementedError("np2ref NPR104: a masked store mixes masked arrays with an "
                                      "unmasked array; write it as a[m] = (expr)[m] on same-shaped arrays")
    if scalars is None and np.size(value) != 1:
        raise NotImplementedError("np2ref NPR104: `a[mask] = values` with a mask known only at run time "
                                  "needs a scalar value or `b[mask]` of a same-shaped array")
    if mask_arr.shape != tuple(a.shape[axis:axis + mask_arr.ndim]):
        _npr_check_empty_mask(mask_arr.shape, a.shape[axis:])
        return  # a mask with an empty axis selects nothing
    full_mask = mask_arr.reshape((1,) * axis + mask_arr.shape + (1,) * (a.ndim - axis - mask_arr.ndim))
    current = a[...]
    if scalars is None:
        value = jnp.reshape(jnp.asarray(value), ())
    if op is not None:
        tmp = jax.new_ref(current)
        proxy = npr_at(tmp)
        proxy[...] = _NPR_IOPS[op](proxy[...], jnp.broadcast_to(value, current.shape)
                                   if scalars is not None else value)
        new = tmp[...]
    else:
        new = jnp.broadcast_to(jnp.asarray(value), current.shape).astype(current.dtype)
    npr_at(a)[...] = jnp.where(full_mask, new, current)


def npr_mask_rank(mask, a, axis):
    """`np.arange(np.count_nonzero(mask))` in `a[mask] = ...`, on whole arrays: each selected
    element's position among the selected ones, in C order (what NumPy's store gives it)."""
    m = jnp.asarray(npr_load(mask))
    if m.dtype != jnp.bool_ or axis + m.ndim != np.ndim(a):
        raise NotImplementedError("np2ref NPR031: np.arange(np.count_nonzero(m)) is translated in "
                                  "`a[m] = ...` only for a boolean mask over a's last axes")
    return (jnp.cumsum(m.reshape(-1), dtype=jnp.int64) - 1).reshape(m.shape)


def _npr_check_empty_mask(mask_shape, shape):
    """NumPy's check of a boolean index against the axes it covers: each size must match,
    except that a mask with a zero-length axis may differ there (it selects nothing)."""
    for d, (m, n) in enumerate(zip(mask_shape, shape)):
        if m != n and m != 0:
            raise IndexError(f"boolean index did not match indexed array along axis {d}; size of "
                             f"axis is {n} but size of corresponding boolean axis is {m}")
    if len(mask_shape) > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, but "
                         f"{len(mask_shape)} were indexed")
    if 0 not in mask_shape:
        raise IndexError("boolean index did not match indexed array")


def npr_masked_reduce(reduction, x, mask):
    """`np.sum(x[mask])`, `np.mean(x[mask])`, `np.prod(x[mask])` with a boolean mask: the same
    reduction over the selected elements, without materialising the data-dependent selection."""
    x = jnp.asarray(npr_load(x))
    mask = npr_load(mask)
    m = jnp.asarray(mask)
    dtype = getattr(np, reduction)(np.zeros(1, x.dtype)).dtype
    if m.dtype != jnp.bool_:
        return getattr(jnp, reduction)(npr_get(x)[mask], dtype=dtype)
    if m.shape != x.shape[:m.ndim]:
        _npr_check_empty_mask(m.shape, x.shape)
        return getattr(jnp, reduction)(jnp.zeros((0,), x.dtype), dtype=dtype)
    m = jnp.broadcast_to(m.reshape(m.shape + (1,) * (x.ndim - m.ndim)), x.shape)
    return getattr(jnp, reduction)(x, where=m, dtype=dtype)


# ---- host calls --------------------------------------------------------------------------
from jax.experimental import io_callback as _npr_io_callback


def npr_random(generator, method, *args, **kwargs):
    """`np.random.normal(0.0, 1.0, n)`, `rng.integers(0, n, size=k)`: a draw from a NumPy
    generator, made on the host when the compiled program runs (an ordered io_callback), never
    while tracing. The values are NumPy's own stream and the caller's generator (or NumPy's
    global state) advances as it would in NumPy, in program order. Sizes are static; parameters
    read from arrays travel to the host as operands."""
    if not (generator is np.random or isinstance(generator, (np.random.Generator, np.random.RandomState))):
        raise NprError(f"np2ref NPR023: .{method}() is called on a {type(generator).__name__}, which is "
                       "not a NumPy random generator")
    if method in _NPR_RANDOM_STATEFUL:
        raise NprError(f"np2ref NPR023: .{method}() sets, reads or shuffles a generator's state, which "
                       "np2ref does not do inside a compiled function")
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs))
    leaves = [npr_load(leaf) if _npr_is_ref(leaf) else leaf for leaf in leaves]
    operands = {i: jnp.asarray(leaf) for i, leaf in enumerate(leaves) if isinstance(leaf, jax.Array)}
    if _npr_differentiated(list(operands.values())):
        raise NprError(f"np2ref NPR023: .{method}() draws with parameters being differentiated; a "
                       "draw made on the host has no derivative")
    if _npr_batched(list(operands.values())):
        raise NprError(f"np2ref NPR023: .{method}() draws under jax.vmap with batched parameters, or in a "
                       "loop or branch that depends on batched values; NumPy would draw once per batch "
                       "member, in order, which a vmapped program cannot do")

    def host_call(values, draw):
        host = list(leaves)
        for i, v in zip(operands, values):
            host[i] = np.asarray(v)
        a, k = jax.tree_util.tree_unflatten(tree, host)
        return draw(*a, **k)

    sample = _npr_random_shape(generator, method, host_call, list(operands.values()))
    if sample.dtype.kind not in "biufc":
        raise NprError(f"np2ref NPR023: .{method}() gives {sample.dtype} values, not numbers")
    dtype = jax.dtypes.canonicalize_dtype(sample.dtype)

    def run(*values):
        return np.asarray(host_call(values, getattr(generator, method)), dtype=dtype)

    return _npr_io_callback(run, jax.ShapeDtypeStruct(sample.shape, dtype), *operands.values(), ordered=True)


# Generator methods that are not draws returning new values: state access, in-place shuffles.
_NPR_RANDOM_STATEFUL = frozenset({"seed", "shuffle", "permuted", "set_state", "get_state", "spawn",
                                  "set_bit_generator", "get_bit_generator"})
# NumPy functions (module "numpy") that do I/O or change process state: never run while tracing.
_NPR_IMPURE_NUMPY_NAMES = ("save", "load", "genfromtxt", "fromfile", "fromregex", "fromstring", "frombuffer",
                           "memmap", "set_", "get_", "setbufsize", "getbufsize", "seterr", "geterr", "errstate", "printoptions", "array2string",
                           "array_repr", "array_str", "format_float", "info", "show_")
_NPR_PURE_BUILTINS = frozenset({abs, min, max, round, len, sum, pow, divmod, int, float, bool, complex,
                                 tuple, list, range, enumerate, zip, reversed, sorted, isinstance})
_NPR_IMPURE_NUMPY = ("numpy.random", "numpy.lib.npyio", "numpy.testing")


def npr_call(fn, *args, **kwargs):
    """`fn(x)` where `fn` came in as an argument (a function, a module's function: `xp.zeros`),
    checked when the call is traced: a pure callable runs as it is (a builtin such as `abs`, a
    NumPy or jax.numpy function, `math`), a draw from a NumPy generator runs on the host at run time
    (npr_random), and anything else is refused: a Python function np2ref cannot see into could
    draw, count or read state, and running it once while tracing would freeze its result."""
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, (np.random.Generator, np.random.RandomState)) or owner is np.random.mtrand._rand:
        return npr_random(np.random if owner is np.random.mtrand._rand else owner, fn.__name__, *args, **kwargs)
    module = getattr(fn, "__module__", None) or ""
    impure = module.startswith(_NPR_IMPURE_NUMPY) or (module.startswith("numpy") and str(
        getattr(fn, "__name__", "")).startswith(_NPR_IMPURE_NUMPY_NAMES))
    if isinstance(fn, np.ufunc) or fn in _NPR_PURE_BUILTINS or (not impure and (
            module in ("math", "jax.numpy", "numpy") or module.startswith(("numpy.", "jax.")))):
        return fn(*args, **kwargs)
    name = getattr(fn, "__qualname__", None) or type(fn).__name__
    raise NprError(f"np2ref NPR021: calls {name}, passed in as an argument, which np2ref cannot see into "
                   "(it could draw, count or read state, and would run once while tracing)")


def _npr_random_shape(generator, method, host_call, operands):
    """The shape and dtype of a draw, found by making it from a throwaway generator of the same
    kind (the caller's is not touched) with stand-in parameter values: NumPy's result shape and
    dtype depend on the parameters' shapes and dtypes only."""
    probe = np.random.default_rng(0) if isinstance(generator, np.random.Generator) else np.random.RandomState(0)
    fillers = (lambda k, o: np.ones(o.shape, o.dtype), lambda k, o: np.full(o.shape, k + 1, o.dtype),
               lambda k, o: np.full(o.shape, 1.0 / max(o.size, 1), o.dtype))
    for fill in fillers:
        try:
            return np.asarray(host_call([fill(k, o) for k, o in enumerate(operands)], getattr(probe, method)))
        except (ValueError, TypeError):
            continue
    raise NprError(f"np2ref NPR023: the shape of .{method}() could not be found from its arguments "
                   "without their values")


# ---- loops -------------------------------------------------------------------------------
class NprRange:
    """`range(...)` whose bounds may be traced (read from arrays)."""

    def __init__(self, start, stop, step):
        if _npr_is_concrete(step) and int(step) == 0:
            raise ValueError("range() arg 3 must not be zero")
        self.start, self.stop, self.step = start, stop, step


def npr_range(*args):
    if len(args) == 1:
        return NprRange(0, args[0], 1)
    return NprRange(args[0], args[1], args[2] if len(args) == 3 else 1)


def _npr_is_concrete(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def npr_for(rng, body, *init, python=""):
    """`for i in range(...)`: `body(i, carry) -> carry` (or `body(i)` without carried values)
    as a lax.fori_loop, so compile time does not grow with the trip count. Refs are closed
    over by the body. It runs as the plain Python loop it was, saying so (PythonLoopWarning),
    when the analysis says why (`python`: the body changes a Python list, say), or, with static
    bounds, when the body turns out to need the loop variable's value (it indexes a Python tuple
    with it, or slices with it: python_loops.py lists those errors) or changes a Python
    container after all. A failed or discarded lax trace leaves the containers as they were."""
    static = all(_npr_is_concrete(v) for v in (rng.start, rng.stop, rng.step))
    has = bool(init)
    carry = init[0] if has else None
    if static and len(range(int(rng.start), int(rng.stop), int(rng.step))) == 0:
        return carry
    if python and not static:
        raise NotImplementedError(f"np2ref NPR034: this loop must run as a Python loop ({python}), but its "
                                  f"trip count depends on array data")
    if python:
        return _npr_python_for(rng, body, carry, has, python)
    kept = _npr_containers([body, carry])
    try:
        out = _npr_lax_for(rng, body, carry, has)
    except _NPR_PYTHON_LOOP_ERRORS as exc:
        reason = _npr_python_loop_reason(exc) if static else None
        if reason is None:
            raise
        _npr_changed(kept)
        return _npr_python_for(rng, body, carry, has, reason)
    changed = _npr_changed(kept)
    if changed is None:
        return out
    reason = f"the body changes a {_npr_kind(changed)} that outlives an iteration"
    if not static:
        raise NotImplementedError(f"np2ref NPR034: {reason}, in a loop whose trip count depends on array data")
    return _npr_python_for(rng, body, carry, has, reason)


def _npr_lax_for(rng, body, carry, has):
    start, stop, step = rng.start, rng.stop, rng.step
    if not _npr_is_concrete(step):
        raise NotImplementedError("np2ref NPR121: a range step read from array data is not translated")
    step = int(step)
    span = stop - start
    trips = (span + step - 1) // step if step > 0 else (span + step + 1) // step
    trips = jnp.maximum(trips, 0) if not _npr_is_concrete(trips) else max(int(trips), 0)
    if not _npr_is_concrete(trips) and _npr_reverse_mode([body, carry]):
        # a fori_loop with traced bounds is a while_loop, which reverse mode cannot go through;
        # an enclosing loop with static bounds then runs as Python, making these bounds concrete
        raise NotImplementedError("np2ref NPR124: a loop whose bounds depend on data (or on an "
                                  "enclosing compiled loop) cannot be reverse-differentiated")

    if step == 1 and not _npr_is_concrete(trips):  # the loop counts i itself: no k, no i = start + k
        dt = jnp.result_type(start, stop)
        bounds, index = (jnp.asarray(start, dt), jnp.asarray(stop, dt)), (lambda k: k)
    else:
        bounds, index = (0, trips), (lambda k: start + k * step)

    span = (int(start), int(start) + (int(trips) - 1) * step) if _npr_is_concrete(start) and \
        _npr_is_concrete(trips) else None

    def one(k, c):
        i = index(k)
        if span is not None:  # the index checks need not check i itself (_npr_check_bounds)
            _npr_note_range(i, min(span), max(span))
        return body(i, c) if has else (body(i), c)[1]

    if not has:
        with _npr_maybe_untaken(not _npr_is_concrete(trips)), _npr_batched_control([trips]):
            _npr_fori(bounds, one, 0)
        return None
    fixed, carry = _npr_split_refs(carry)
    if fixed:  # refs among the carried names (a parameter that is an array) stay closed over
        inner = one

        def one(k, c):
            return _npr_split_refs(inner(k, _npr_join_refs(fixed, c)))[1]
    with _npr_maybe_untaken(not _npr_is_concrete(trips)), _npr_batched_control([trips]):
        c0 = _npr_settle(lambda c: one(jnp.asarray(bounds[0]), c), carry)
        out = _npr_fori(bounds, one, c0)
    return _npr_join_refs(fixed, out) if fixed else out


def _npr_fori(bounds, one, c0):
    """lax.fori_loop(*bounds, one, c0), the body closing over its refs. Under reverse-mode
    differentiation on JAX 0.10 the refs' values become loop state and the body runs
    state-discharged: JAX 0.10.2 transposes a scan whose body makes refs of its own wrongly
    (silently wrong gradients; fixed in 0.11)."""
    swap, split = _npr_split_views([one])
    if split:  # row views of one buffer become refs of their own for the loop (see below)
        one = _npr_rebind(one, swap, {})
        out = _npr_fori(bounds, one, c0)
        for view, ref in split:
            npr_at(view)[...] = ref[...]
        return out
    refs = _npr_reachable_refs([one], [c0])
    if not refs:
        return lax.fori_loop(*bounds, one, c0)
    discharge = _npr_discharge_state() is not None and _npr_differentiated([one, c0] + refs)
    # a trip count batched by vmap makes the loop a while_loop with a batched predicate, which
    # JAX 0.10 cannot batch with ref effects in its body: the refs' values become loop state
    batched = _npr_batched([one, c0] + refs)
    if not discharge and not (batched and not all(_npr_is_concrete(b) for b in bounds)):
        return lax.fori_loop(*bounds, one, c0)

    @_npr_tracing_batched(batched)
    def pure_step(k, state):
        fresh = [jax.new_ref(v) for v in state[0]]
        c = _npr_rebind(one, {id(r): f for r, f in zip(refs, fresh)}, {})(k, state[1])
        return [f[...] for f in fresh], c

    pure_step._npr_lifted = True  # its closure holds the outer refs: not searched again
    step = _npr_discharging(pure_step, _npr_reverse_mode([one, c0] + refs)) if discharge else jax.jit(pure_step)
    values, out = lax.fori_loop(*bounds, step, ([r[...] for r in refs], c0))
    for r, v in zip(refs, values):
        r[...] = v
    return out


def _npr_batched(objs):
    """Whether vmap batches a value among objs (or reachable from them), or a lifted body being
    traced belongs to a batched loop or branch (jit hides the batching from its trace)."""
    return bool(_npr_state.get("batched")) or _npr_traced_by(objs, ("BatchTracer",))


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
    return _npr_batched_scope(_npr_traced_by(controls, ("BatchTracer",)))


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


def _npr_split_views(fns):
    """({id(view): fresh ref}, [(view, fresh ref)]) for the views a loop body reaches that are
    two or more disjoint basic-index views of one buffer (`b = work[1]`, `d = work[3]`) whose
    buffer the body does not reach otherwise. Each gets a ref of its own for the loop, stored
    back through the view after it: exact, since no element is reachable through two of them,
    and XLA:CPU no longer copies the whole buffer when one iteration stores into two of its
    rows (thomas_tridiag: 7.7 ms a sweep at n = 2000, 0.05 ms with separate refs)."""
    leaves = list(_npr_reachable(fns, views=True))
    bare = {id(leaf) for leaf in leaves if isinstance(leaf, jax.Ref)}
    groups = {}
    for leaf in leaves:
        if isinstance(leaf, NprView):
            groups.setdefault(id(leaf.base), {})[id(leaf)] = leaf
    swap, split = {}, []
    for base, views in groups.items():
        views = list(views.values())
        if base in bare or len(views) < 2 or any(
                kind != 's' or arg.adv or arg.mask is not None for v in views for kind, arg in v.steps):
            continue
        if any(_npr_overlap(x, y) for i, x in enumerate(views) for y in views[i + 1:]):
            continue
        for v in views:
            swap[id(v)] = jax.new_ref(npr_load(v))
            split.append((v, swap[id(v)]))
    return swap, split


def _npr_split_refs(carry):
    """(refs by position, the carry without them): refs cannot be loop carries. A single
    carried value is position 0 of a one-element carry."""
    items = carry if isinstance(carry, tuple) else (carry,)
    fixed = {i: v for i, v in enumerate(items) if _npr_is_ref(v)}
    rest = tuple(v for i, v in enumerate(items) if i not in fixed)
    fixed["tuple"] = isinstance(carry, tuple)
    return (fixed if len(fixed) > 1 else {}), (rest if isinstance(carry, tuple) or len(fixed) > 1 else carry)


def _npr_join_refs(fixed, rest):
    rest = list(rest) if isinstance(rest, tuple) else [rest]
    size = len(rest) + len(fixed) - 1
    out = [fixed[i] if i in fixed else rest.pop(0) for i in range(size)]
    return tuple(out) if fixed["tuple"] else out[0]


def npr_rotate(targets, values):
    """`a, b = b, a` on written arrays inside a lax loop: swap their contents (the names
    cannot be rebound per iteration). np2ref only emits it when no other name sees these
    buffers; shapes and dtypes must agree, as rebinding names never casts."""
    loaded = [npr_load(v) for v in values]
    for t, v in zip(targets, loaded):
        if tuple(t.shape) != tuple(v.shape) or t.dtype != v.dtype:
            raise NotImplementedError("np2ref NPR120: swapping arrays of different shapes or dtypes "
                                      "inside a loop is not translated")
    for t, v in zip(targets, loaded):
        npr_at(t)[...] = v


def npr_rotated(rng, targets, values):
    """After a `range` loop that ran `targets = values` once per iteration as npr_rotate (a swap
    of contents) on buffers another name also sees (a parameter): the names rebound as NumPy's
    loop left them, each buffer holding its own contents again. Static trip counts only."""
    bounds = (rng.start, rng.stop, rng.step)
    if not all(_npr_is_concrete(v) for v in bounds):
        raise NotImplementedError("np2ref NPR120: swapping arrays that another name sees, in a loop "
                                  "whose trip count is read from array data, is not translated")
    for i, a in enumerate(targets):
        if any(a is b or _npr_overlap(a, b) for b in targets[i + 1:]):
            raise NotImplementedError("np2ref NPR120: swapping arrays that share memory inside a "
                                      "loop is not translated")
    where = {id(t): i for i, t in enumerate(targets)}
    source = [where[id(v)] for v in values]  # an iteration binds name i to name source[i]'s buffer
    bound, seen = list(range(len(targets))), []
    while bound not in seen:  # the permutation's powers, up to its period
        seen.append(bound)
        bound = [bound[j] for j in source]
    bound = seen[len(range(*map(int, bounds))) % len(seen)]  # name i -> buffer bound[i]
    if bound == seen[0]:
        return tuple(targets)
    loaded = [npr_load(t) for t in targets]  # name i's contents, held by targets[i]
    for i, v in enumerate(loaded):
        npr_at(targets[bound[i]])[...] = v
    return tuple(targets[b] for b in bound)


# ---- branches ----------------------------------------------------------------------------
class _NprUnset:
    """A name a branch may define that had no value before the `if`."""

    def __repr__(self):
        return "npr_unset"


npr_unset = _NprUnset()


def _npr_concrete_bool(x):
    if isinstance(x, jax.core.Tracer):
        return None
    if isinstance(x, (jax.Ref, NprView)):
        x = npr_load(x)
    if isinstance(x, jax.core.Tracer):
        return None
    return bool(x)


def npr_and(a, b):
    ca = _npr_concrete_bool(a)
    if ca is not None:
        return b if ca else a
    cb = _npr_concrete_bool(b)
    if cb is not None:
        return a if cb else b
    return jnp.logical_and(a, b)


def npr_or(a, b):
    ca = _npr_concrete_bool(a)
    if ca is not None:
        return a if ca else b
    cb = _npr_concrete_bool(b)
    if cb is not None:
        return b if cb else a
    return jnp.logical_or(a, b)


def npr_not(a):
    ca = _npr_concrete_bool(a)
    return (not ca) if ca is not None else jnp.logical_not(a)


def npr_if(pred, then_fn, else_fn, *values):
    """`if pred:` with the branches as functions of the values they assign (returned again).
    A concrete predicate runs one branch in Python, exactly as the original; a traced one
    becomes lax.cond, with refs closed over so writes happen in place."""
    else_fn = else_fn or (lambda *v: v[0] if len(v) == 1 else (v if v else None))
    concrete = _npr_concrete_bool(pred)
    if concrete is not None:
        return then_fn(*values) if concrete else else_fn(*values)
    with _npr_python_effects([then_fn, else_fn, values], "a branch on array data"), _npr_maybe_untaken(True), \
            _npr_batched_control([pred]):
        return _npr_traced_if(pred, then_fn, else_fn, values)


def _npr_traced_if(pred, then_fn, else_fn, values):
    refs = _npr_reachable_refs([then_fn, else_fn], values)
    if refs:  # refs become operands and results of the cond (vmap cannot batch a cond with effects)
        return _npr_lift_refs(refs, values, (then_fn, else_fn),
                              lambda branches, v: npr_if(pred, *branches, *v))
    pred = jnp.asarray(npr_load(pred))
    if pred.shape != ():
        if pred.size != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous. "
                             "Use a.any() or a.all()")
        pred = pred.reshape(())
    if not values:
        lax.cond(pred, lambda: (then_fn(), None)[1], lambda: (else_fn(), None)[1])
        return None
    single = len(values) == 1
    pack = (lambda r: (r,)) if single else (lambda r: tuple(r))
    outs = []
    for fn in (then_fn, else_fn):  # the types each branch makes of the values
        outs.append(jax.eval_shape(lambda *v: pack(fn(*v)), *[_npr_placeholder(v) for v in values]))
    init = []
    for v, a, b in zip(values, outs[0], outs[1]):
        if a.shape != b.shape:
            raise NotImplementedError("np2ref NPR122: the branches of a data-dependent `if` give a "
                                      "value different shapes")
        dtype = jnp.promote_types(a.dtype, b.dtype)
        init.append(jnp.zeros(a.shape, dtype) if v is npr_unset else jnp.asarray(v).astype(dtype))

    def run(fn):
        def branch(*v):
            return tuple(jnp.asarray(r).astype(i.dtype) for r, i in zip(pack(fn(*v)), init))
        return branch

    result = lax.cond(pred, run(then_fn), run(else_fn), *init)
    return result[0] if single else result


def _npr_settle(step, carry):
    """The loop's initial state, typed as one iteration leaves it: an int counter that becomes
    a float is widened (as NumPy's rebinding would), a name first assigned in the loop
    (`npr_unset`) starts as zeros of the type the loop gives it."""
    leaves, tree = jax.tree_util.tree_flatten(carry)
    unset = [leaf is npr_unset for leaf in leaves]
    state = [_npr_placeholder(leaf) for leaf in leaves]
    for _ in range(3):
        out = jax.tree_util.tree_leaves(jax.eval_shape(lambda *s: step(jax.tree_util.tree_unflatten(tree, s)), *state))
        new = [jnp.zeros(o.shape, o.dtype) if u else
               jnp.broadcast_to(a, o.shape).astype(jnp.promote_types(a.dtype, o.dtype))
               for a, o, u in zip(state, out, unset)]
        unset = [False] * len(unset)
        if all(a.dtype == b.dtype and a.shape == b.shape for a, b in zip(state, new)):
            break
        state = new
    return jax.tree_util.tree_unflatten(tree, state)


def _npr_placeholder(v):
    return jnp.zeros((), jnp.float64) if v is npr_unset else jnp.asarray(v)


def npr_while(test, body, *values):
    """`while test:` with the loop state as values (refs are closed over). While the test is a
    concrete value the loop runs in Python, exactly as written; once it depends on traced data
    the rest runs as lax.while_loop. The predicate is computed at the end of each body and
    carried, so the loop condition never reads a ref the body writes (a stale read in JAX)."""
    single = len(values) == 1
    pack = (lambda r: (r,)) if single else (lambda r: tuple(r) if r is not None else ())
    state = tuple(values)
    pred = test(*state)
    while _npr_concrete_bool(pred) is not None:
        if not _npr_concrete_bool(pred):
            return _npr_unpack(state, single)
        state = pack(body(*state))
        pred = test(*state)
    with _npr_python_effects([test, body, state], "a `while` loop whose condition depends on array data"), \
            _npr_maybe_untaken(True), _npr_batched_control([pred]):
        return _npr_traced_while(test, body, state, pred, single, pack)


def _npr_traced_while(test, body, state, pred, single, pack):
    refs = _npr_reachable_refs([test, body], state)
    if refs:  # refs become loop state (vmap cannot batch a while_loop with effects)
        return _npr_lift_refs(refs, state, (test, body), lambda fns, v: npr_while(*fns, *v), loop=True)
    if _npr_reverse_mode(state):
        raise NotImplementedError("np2ref NPR124: a `while` loop whose condition depends on array "
                                  "data carries values being reverse-differentiated")
    state = tuple(_npr_settle(lambda st: pack(body(*st)), state))

    def step(carry):  # stops at a failed index check too: clamped data might never end the loop
        new = pack(body(*carry[:-1]))
        new = tuple(jnp.asarray(v).astype(o.dtype) for v, o in zip(new, carry[:-1]))
        return (*new, jnp.asarray(test(*new), bool).reshape(()) & npr_bounds_ok())

    final = lax.while_loop(lambda c: c[-1], step, (*state, jnp.asarray(pred, bool).reshape(()) & npr_bounds_ok()))
    return _npr_unpack(final[:-1], single)


class _npr_maybe_untaken:
    """Around tracing a body that may never run (a loop whose trip count, or a branch whose
    condition, is known only at run time): an error NumPy's rules raise in it (a cast
    `same_kind` forbids, a shape mismatch) would stop NumPy only if the body ran, so it becomes
    refusal NPR127 instead of an error the original does not raise."""

    def __init__(self, active):
        self.active = active

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if (self.active and kind is not None and issubclass(kind, (TypeError, ValueError, IndexError))
                and not type(exc).__module__.startswith("jax") and _npr_python_loop_reason(exc) is None):
            raise NotImplementedError(f"np2ref NPR127: code that runs only for some data raises "
                                      f"{kind.__name__} when traced: {exc}") from exc
        return False


def _npr_unpack(state, single):
    if single:
        return state[0]
    return tuple(state) if state else None



# ---- refs through control flow --------------------------------------------------------------
# A branch or loop body reaches refs through its closure (and the closures of what it calls).
# lax.cond / lax.while_loop with ref effects cannot be batched by vmap on jax 0.10, so the
# refs' values go in as operands or loop state, each branch or iteration runs on fresh refs
# made from them, and the values of the refs it wrote come out and are stored back once:
# what JAX's own state discharge produces, written so that vmap and grad apply.


def _npr_discharge_state():
    """JAX's own state discharge (a private function; None where it is missing: loops then
    keep their refs)."""
    try:
        from jax._src.state.discharge import discharge_state
    except ImportError:  # pragma: no cover
        return None
    return discharge_state


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
        discharge = _npr_discharge_state()
        try:
            pure = discharge(closed)
        except TypeError:  # an older signature: (jaxpr, consts) -> (jaxpr, consts)
            pure = jax.core.ClosedJaxpr(*discharge(closed.jaxpr, closed.consts))
        out = jax.core.eval_jaxpr(pure.jaxpr, pure.consts, *jax.tree_util.tree_leaves(args))
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
    for leaf in _npr_reachable(objs):
        for _ in range(16):
            if not isinstance(leaf, jax.core.Tracer):
                break
            kind = type(leaf).__name__
            if kind == "LinearizeTracer" or (kind == "JVPTracer" and
                                             type(getattr(leaf, "tangent", None)).__name__ == "JaxprTracer"):
                return True
            leaf = getattr(leaf, "val", getattr(leaf, "primal", None))
    return False


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
    if isinstance(obj, (tuple, list, dict)):  # the same object when nothing in it changes: a list
        items = obj.items() if isinstance(obj, dict) else enumerate(obj)  # a body appends to stays one
        new = {k: _npr_rebind(o, swap, memo) for k, o in items}
        if all(new[k] is o for k, o in (obj.items() if isinstance(obj, dict) else enumerate(obj))):
            return obj
        return new if isinstance(obj, dict) else type(obj)(new.values())
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


def _npr_written_refs(fns, refs, values):
    """Positions in `refs` that some function in `fns` writes (all of them when JAX's effect
    records cannot be read)."""
    is_ref = [_npr_is_ref(v) for v in values]
    plain = [_npr_placeholder(v) for v, r in zip(values, is_ref) if not r]
    written = set()
    for fn in fns:
        def traced(*args):
            swap = {id(r): a for r, a in zip(refs, args)}
            rest = iter(args[len(refs):])
            _npr_rebind(fn, swap, {})(*[_npr_rebind(v, swap, {}) if r else next(rest)
                                        for v, r in zip(values, is_ref)])
        with _npr_no_checks():  # a trace for its effects alone
            jaxpr = jax.make_jaxpr(traced)(*refs, *plain)
        invars = jaxpr.jaxpr.invars
        for effect in jaxpr.effects:
            if type(effect).__name__ not in ("WriteEffect", "AccumEffect"):
                continue
            index = getattr(effect, "input_index", None)
            if not isinstance(index, int):
                var = getattr(effect, "input", None)
                index = next((i for i, v in enumerate(invars) if v is var), None)
            if index is None:
                return set(range(len(refs)))
            written.add(index)
    return {i for i in written if i < len(refs)}


def _npr_lift_refs(refs, values, fns, run, loop=False):
    """Run the control flow `run(fns', values')` with the refs' values as leading values:
    each fn' makes fresh refs from them, calls fn with those, and returns the written ones'
    new values (a loop test returns its predicate). Values that are refs are refs again after."""
    n = len(refs)
    written = _npr_written_refs(fns[1:] if loop else fns, refs, values)
    is_ref = [_npr_is_ref(v) for v in values]
    # jit keeps vmap's batching of the fresh refs out of the loop body's jaxpr (which JAX 0.10
    # cannot discharge); under differentiation the body is discharged here instead (see _npr_fori)
    discharge = _npr_discharge_state() is not None and _npr_differentiated(list(fns) + list(values) + refs)
    reverse = discharge and _npr_reverse_mode(list(fns) + list(values) + refs)

    batched = _npr_batched(list(fns) + list(values) + refs)

    def lifted(fn, returns_values):
        @_npr_tracing_batched(batched)
        def inner(*state):
            fresh = [jax.new_ref(v) for v in state[:n]]
            swap = {id(r): f for r, f in zip(refs, fresh)}
            args = [_npr_rebind(v, swap, {}) if r else s
                    for v, r, s in zip(values, is_ref, state[n:])]
            out = _npr_rebind(fn, swap, {})(*args)
            if not returns_values:
                return out
            out = (out,) if len(values) == 1 else (tuple(out) if out is not None else ())
            finals = tuple(fresh[i][...] if i in written else state[i] for i in range(n))
            kept = tuple(o if not r else s for o, r, s in zip(out, is_ref, state[n:]))
            both = finals + kept
            return both[0] if len(both) == 1 else both
        inner._npr_lifted = True  # its closure holds the outer refs: not searched again
        return _npr_discharging(inner, reverse) if discharge else jax.jit(inner)

    wrapped = tuple(lifted(fn, returns_values=not (loop and k == 0)) for k, fn in enumerate(fns))
    placeholder = [0 if r else v for v, r in zip(values, is_ref)]
    result = run(wrapped, (*[r[...] for r in refs], *placeholder))
    result = tuple(result) if n + len(values) > 1 else (result,)
    for i in sorted(written):
        refs[i][...] = result[i]
    out = [v if r else o for v, r, o in zip(values, is_ref, result[n:])]
    return _npr_unpack(tuple(out), len(values) == 1) if values else None

def npr_index(items):
    """A list used as an index (`a[[0, p]]`): NumPy's integer array, concrete when it can be."""
    items = [npr_load(i) for i in items]
    if any(isinstance(i, jax.core.Tracer) for i in items):
        return jnp.stack([jnp.asarray(i) for i in items]) if items else jnp.zeros(0, int)
    return np.array(items)
