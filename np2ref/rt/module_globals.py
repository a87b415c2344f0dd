"""The module-level values a compiled program read when it was traced, checked on every call.

A jitted program keeps the module-level values it read while tracing as constants: `x * W +
ALPHA` compiled once and called again after the driver did `model.W[0] = 5.0` or
`model.ALPHA = 1.0` would return the old answer, where NumPy reads the names again on every
call. (np2ref's analysis keeps a function that reads state its own module changes as NumPy
code, NPR021; a change made from another module, or by the user between calls, it cannot see.)

_NprGlobalsWatch records, at the call that traces, what each name the function (its nested
functions and the functions it calls, transitively) reads from its module holds: the object,
and for a NumPy array its bytes, for a number, string or None its value, for a list, tuple,
dict or set its items (recursively, so `CFG["k"] = 3.0` is seen), and for a plain object
(`params.alpha`) its attributes. On each later call `changed()` compares; a change makes the
caller forget its compiled programs (NprFunction._forget), so the next run traces again with
the new values: exact, at the cost of a new compile. An array's bytes are compared on every
call (a memcmp: about a millisecond for 10 MB); modules, functions, classes, JAX arrays and
other objects are compared by identity.

np2ref.compile runs the translation in a copy of the function's module namespace; `source` is
the module's own globals, from which a rebinding (`model.W = np.zeros(3)`) is copied in first.
"""

import copy as _npr_copy
import types as _npr_types

import jax
import numpy as np

_NPR_SCALARS = (int, float, complex, bool, str, bytes, type(None), np.generic)
_NPR_MAX_ITEMS = 10_000  # a container longer than this is compared by identity only


class _NprGlobalsWatch:
    def __init__(self, fn, source=None):
        self.namespace = fn.__globals__
        self.source = source if source is not None and source is not fn.__globals__ else None
        # and the names a source always holds (a closure's cells: one not bound yet is read later)
        self.names = tuple(sorted(_npr_globals_read(fn) | set(getattr(self.source, "names", ()))))
        self._sync()  # a rebinding between np2ref.compile and the first call
        self.checks = [(n, _npr_checker(self.namespace.get(n, _NPR_ABSENT))) for n in self.names]

    def _sync(self):
        """np2ref.compile's copy of the namespace takes the module's rebindings."""
        namespace, source = self.namespace, self.source
        if source is not None:
            for name in self.names:
                new = source.get(name, _NPR_ABSENT)
                if new is not _NPR_ABSENT and new is not namespace.get(name, _NPR_ABSENT):
                    namespace[name] = new

    def arrays(self):
        """(name, NumPy array) for the module-level arrays the function reads, and those the
        module's objects hold as attributes (`SIM.u`): an argument the function writes that
        shares memory with one is refused (NprFunction._aliases), since NumPy's program sees
        its writes there where the compiled one holds the array as it was when the call began."""
        out = []
        for name in self.names:
            value = self.namespace.get(name)
            if isinstance(value, np.ndarray):
                out.append((name, value))
            elif type(value) not in _NPR_PLAIN_SKIP and not isinstance(value, _npr_types.ModuleType):
                attrs = _npr_attributes(value) or {}
                out.extend((f"{name}.{k}", v) for k, v in attrs.items() if isinstance(v, np.ndarray))
        return out

    def changed(self):
        """True (and the new values recorded) when a name now holds something else."""
        self._sync()
        get, moved = self.namespace.get, False
        for k, (name, same) in enumerate(self.checks):
            value = get(name, _NPR_ABSENT)
            if not same(value):
                self.checks[k] = (name, _npr_checker(value))
                moved = True
        return moved


class _NprObjectsWatch:
    """The same for plain objects passed as arguments (`step(params, u)` reading `params.dt`):
    np2ref keys such an argument by identity (it is static: not array data), so the compiled
    program holds the attributes it read when traced; the caller may change them between calls
    (`params.dt = 0.5`, `state.u[0] = 1.0`). Each one's attributes are recorded the first time
    it is passed and compared on each later call, as module-level values are."""

    def __init__(self):
        self.checks = {}  # id(obj) -> (obj, checker); the object is held so its id stays its own

    def changed(self, values):
        moved = False
        for v in values:
            if type(v) in _NPR_PLAIN_SKIP or isinstance(v, (type, _npr_types.ModuleType)) or \
                    _npr_attributes(v) is None:
                continue  # (a module or a class passed in, `xp=np`, is keyed by identity as it is)
            seen = self.checks.get(id(v))
            if seen is None or seen[0] is not v:
                self.checks[id(v)] = (v, _npr_checker(v))
            elif not seen[1](v):
                self.checks[id(v)] = (v, _npr_checker(v))
                moved = True
        return moved


# argument types that are never a plain object with attributes: answered without a call
_NPR_PLAIN_SKIP = frozenset({int, float, bool, complex, str, type(None), np.ndarray, tuple, list, dict})


_NPR_ABSENT = object()


def _npr_globals_read(fn):
    """The module-level names `fn` and everything it calls from its module read (not the
    runtime's names, modules, builtins or the functions themselves, which are followed)."""
    namespace = fn.__globals__
    names, seen, todo = set(), set(), [fn]
    while todo:
        f = todo.pop()
        f = getattr(f, "fn", f)  # an NprFunction: its converted function
        code = getattr(f, "__code__", None)
        if code is None or id(code) in seen:
            continue
        seen.add(id(code))
        codes = [code]
        while codes:
            c = codes.pop()
            codes.extend(k for k in c.co_consts if isinstance(k, _npr_types.CodeType))
            for name in c.co_names:
                if name not in namespace or name.startswith(("npr_", "_npr_", "Npr", "__")):
                    continue
                value = namespace[name]
                if isinstance(value, (_npr_types.ModuleType, _npr_types.BuiltinFunctionType)):
                    continue
                if isinstance(value, _npr_types.FunctionType) or hasattr(value, "pure"):
                    todo.append(value)  # a helper: followed (a rebinding of it is not watched)
                    continue
                names.add(name)
    return frozenset(names)


_NPR_SMALL = 1 << 16  # bytes: an array this small is compared through tobytes()


def _npr_checker(value, depth=0):
    """A function of a later value: True when it is still `value`, as NumPy would read it."""
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            copy = value.copy()
            return lambda v: v is value and v.shape == copy.shape and bool(np.all(v == copy))
        shape, dtype = value.shape, value.dtype
        if value.nbytes <= _NPR_SMALL:
            data = value.tobytes()
            return lambda v: v is value and v.shape == shape and v.dtype == dtype and v.tobytes() == data
        copy = _npr_words(value).copy()
        return lambda v: v is value and v.shape == shape and v.dtype == dtype and np.array_equal(
            _npr_words(v), copy)  # the bits: -0.0 and NaN payloads are changes too
    if isinstance(value, _NPR_SCALARS):
        kind = type(value)
        return lambda v: v is value or (type(v) is kind and v == value)
    if depth < 3 and isinstance(value, (list, tuple)) and len(value) <= _NPR_MAX_ITEMS:
        items, n = [_npr_checker(v, depth + 1) for v in value], len(value)
        return lambda v: v is value and len(v) == n and all(c(x) for c, x in zip(items, v))
    if depth < 3 and isinstance(value, dict) and len(value) <= _NPR_MAX_ITEMS:
        items, n = [(key, _npr_checker(v, depth + 1)) for key, v in value.items()], len(value)
        return lambda v: v is value and len(v) == n and all(c(v.get(key, _NPR_ABSENT)) for key, c in items)
    if isinstance(value, (set, frozenset)) and len(value) <= _NPR_MAX_ITEMS:
        copy = frozenset(value)
        return lambda v: v is value and v == copy
    attrs = _npr_attributes(value) if depth < 3 else None
    if attrs is not None:
        items = [(key, _npr_checker(v, depth + 1)) for key, v in attrs.items()]
        return lambda v: v is value and all(c(getattr(v, key, _NPR_ABSENT)) for key, c in items)
    return lambda v: v is value


def _npr_words(a):
    """An array's bytes as the widest unsigned integers that tile them (a view when contiguous)."""
    flat = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
    for word in (np.uint64, np.uint32, np.uint16):
        if flat.size % np.dtype(word).itemsize == 0:
            return flat.view(word)
    return flat


def _npr_attributes(value):
    """The data attributes of a plain object or a class (`params.alpha`, `class P: alpha = 0.1`),
    or None for anything else (a function, a JAX array, a generator)."""
    if isinstance(value, (jax.Array, _npr_types.FunctionType, np.random.Generator, np.random.RandomState)):
        return None
    attrs = getattr(value, "__dict__", None)
    if not isinstance(attrs, (dict, _npr_types.MappingProxyType)):
        return None
    return {k: v for k, v in attrs.items() if not k.startswith("__") and not callable(v)
            and not isinstance(v, (staticmethod, classmethod, property))}


def _npr_moved(fn):
    """NprFunction._globals_moved for a call the type-keyed flat runs take (jax.Arrays and
    Python floats, which _NprObjectsWatch passes over): only the module's values are compared."""
    if fn._watch.checks and fn._watch.changed():
        fn._forget()
        return True
    return False


_NPR_KEPT_BYTES = 1 << 24  # (16 MB: an object's arrays copied at each trace, at most)


def _npr_objects_kept(values):
    """[(object, its attributes, a deep copy of them)] of the plain objects among a trace's static
    arguments (`obj` of `f(a, obj)`): a trace calls their methods as it meets them (`obj.count()`),
    so a refusal met later in the same trace (NPR021 in a helper) would leave the caller's object
    with calls NumPy's program never made; _npr_objects_restored puts them back. An object whose
    attributes cannot be copied, or whose arrays hold more than _NPR_KEPT_BYTES (a copy per trace),
    is left out (its state is then the trace's)."""
    kept = []
    for v in values:
        if type(v) in _NPR_PLAIN_SKIP or isinstance(v, (type, _npr_types.ModuleType)):
            continue
        attrs = getattr(v, "__dict__", None)
        if type(attrs) is not dict or _npr_attributes(v) is None or sum(
                x.nbytes for x in attrs.values() if isinstance(x, np.ndarray)) > _NPR_KEPT_BYTES:
            continue
        try:
            kept.append((v, dict(attrs), _npr_copy.deepcopy(attrs)))
        except Exception:  # noqa: BLE001 - a lock, a file: not copied
            continue
    return kept


def _npr_objects_restored(kept):
    """Each kept object's attributes as they were: the same objects bound again, and the state of
    each one that can be written in place (an array's elements, a generator's state, a list's,
    dict's or plain object's contents) copied back from the deep copy."""
    for obj, attrs, saved in kept:
        for k in [k for k in obj.__dict__ if k not in attrs]:
            del obj.__dict__[k]
        for k, v in attrs.items():
            obj.__dict__[k] = v
            _npr_state_restored(v, saved[k])


def _npr_state_restored(v, saved, depth=0):
    if isinstance(v, np.ndarray) and v.flags.writeable and v.shape == saved.shape:
        v[...] = saved
    elif isinstance(v, np.random.Generator):
        v.bit_generator.state = saved.bit_generator.state
    elif isinstance(v, np.random.RandomState):
        v.set_state(saved.get_state())
    elif isinstance(v, list):
        v[:] = saved
    elif isinstance(v, (dict, set)):
        v.clear()
        v.update(saved)
    elif depth < 3 and type(getattr(v, "__dict__", None)) is dict and _npr_attributes(v) is not None:
        v.__dict__.clear()
        v.__dict__.update(saved.__dict__)
