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

import types as _npr_types

import jax
import numpy as np

_NPR_SCALARS = (int, float, complex, bool, str, bytes, type(None), np.generic)
_NPR_MAX_ITEMS = 10_000  # a container longer than this is compared by identity only


class _NprGlobalsWatch:
    def __init__(self, fn, source=None, skip=frozenset()):
        self.namespace = fn.__globals__
        self.source = source
        self.names = tuple(sorted(_npr_globals_read(fn) - skip))
        self.snapshots = {n: _npr_snapshot(self.namespace.get(n, _NPR_ABSENT)) for n in self.names}

    def changed(self):
        """True (and the new values recorded) when a name now holds something else."""
        namespace, source, moved = self.namespace, self.source, False
        for name in self.names:
            if source is not None and source is not namespace:
                new = source.get(name, _NPR_ABSENT)
                if new is not _NPR_ABSENT and new is not namespace.get(name, _NPR_ABSENT):
                    namespace[name] = new
            if not _npr_same(self.snapshots[name], namespace.get(name, _NPR_ABSENT)):
                self.snapshots[name] = _npr_snapshot(namespace.get(name, _NPR_ABSENT))
                moved = True
        return moved


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


def _npr_snapshot(value, depth=0):
    if isinstance(value, np.ndarray):
        return ("array", value, value.copy())
    if isinstance(value, _NPR_SCALARS):
        return ("value", value)
    if depth < 3 and isinstance(value, (list, tuple)) and len(value) <= _NPR_MAX_ITEMS:
        return ("seq", value, type(value), [_npr_snapshot(v, depth + 1) for v in value])
    if depth < 3 and isinstance(value, (dict, set, frozenset)) and len(value) <= _NPR_MAX_ITEMS:
        items = value.items() if isinstance(value, dict) else ((v, v) for v in value)
        return ("map", value, type(value), {k: _npr_snapshot(v, depth + 1) for k, v in items})
    attrs = _npr_attributes(value) if depth < 3 else None
    if attrs is not None:
        return ("object", value, {k: _npr_snapshot(v, depth + 1) for k, v in attrs.items()})
    return ("identity", value)


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


def _npr_same(snap, value):
    kind, old = snap[0], snap[1]
    if kind == "value":
        return value is old or (type(value) is type(old) and value == old)
    if value is not old:
        return False
    if kind == "array":
        copy = snap[2]
        if value.shape != copy.shape or value.dtype != copy.dtype:
            return False
        if value.dtype.hasobject:
            return bool(np.all(value == copy))
        return np.array_equal(value.reshape(-1).view(np.uint8), copy.reshape(-1).view(np.uint8))  # bits: -0.0, NaN
    if kind == "seq":
        return type(value) is snap[2] and len(value) == len(snap[3]) and \
            all(_npr_same(s, v) for s, v in zip(snap[3], value))
    if kind == "map":
        items = snap[3]
        if isinstance(value, dict):
            return value.keys() == items.keys() and all(_npr_same(s, value[k]) for k, s in items.items())
        return len(value) == len(items) and all(k in value for k in items)
    if kind == "object":
        attrs = _npr_attributes(value)
        return attrs.keys() == snap[2].keys() and all(_npr_same(s, attrs[k]) for k, s in snap[2].items())
    return True
