"""How arguments go into a jitted call and results come out: which arguments are static (and
their cache keys), NumPy views of results, write-back of mutated arrays, buffer donation."""

import types as _npr_types

import jax
import numpy as np

from .bounds import _npr_bounds_error
from .buffers import _npr_results_numpy, _NprStaging
from .compat import _npr_Tracer, _npr_weak_astype
from .core import _npr_has_jax, _npr_state, NprError
from .views import NprView


_NPR_GENERAL = object()  # a fast path's answer (fastpath.py, numpycall.py) when the general path must run the call
_NPR_NONE = jax.tree_util.tree_structure(None)
_NPR_STATIC_TYPES = frozenset({bool, int, str, type(None)})
_NPR_TRACED_TYPES = frozenset({float, complex, np.ndarray})


def _npr_is_static(value):
    """Python ints, bools, strings and None (they size arrays and pick branches), tuples of
    static values, dicts of Python numbers and strings holding more than floats, and everything that is not array data: modules, dtypes, types, callables,
    random generators... (JAX could not take those as traced arguments anyway)."""
    if isinstance(value, (bool, int, str, type(None))) and not isinstance(value, np.generic):
        return True
    if isinstance(value, tuple):
        return all(_npr_is_static(v) for v in value)
    if type(value) is dict and value and all(type(v) in _NPR_DICT_ITEMS for v in value.values()):
        return any(type(v) is not float for v in value.values())  # `p["n"]` sizes, `p["scheme"]` picks
    return not _npr_is_data(value)


# A dict of parameters holding these only, and not floats only, is static as a whole (keyed by
# what it holds: _npr_static_key), as its ints and strings are when passed alone.
_NPR_DICT_ITEMS = frozenset({bool, int, float, str, type(None)})


def _npr_has_array(value):
    """Whether a NumPy array or jax.Array is among value's pytree leaves."""
    return any(isinstance(leaf, (np.ndarray, jax.Array)) for leaf in jax.tree_util.tree_leaves(value))


def _npr_host_values(value):
    """`value` as host code gets it from NumPy: each jax.Array in it a writable NumPy array of
    its own (a NumPy scalar for 0-d), in lists, tuples and dicts made anew (a dict in its own
    order); the rest, and containers without a jax.Array (the very objects returned), as they are."""
    if isinstance(value, jax.Array):
        noted = _npr_state.get("pyreturn", {}).get(id(value))  # np.array's 0-d array (np_creation.py)
        return np.array(value) if value.ndim or noted and noted[0] is value else np.asarray(value)[()]
    if type(value) in (list, tuple, dict) and _npr_has_jax(value):  # (a dict keeps its order: no tree_map)
        if type(value) is dict:
            return {k: _npr_host_values(v) for k, v in value.items()}
        return type(value)(_npr_host_values(v) for v in value)
    return value


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
    function: those hash by identity or by what they mean), by identity where it is not. A dict,
    list or NumPy array is keyed by what it holds now: the caller may change it in place between
    calls (`p["dt"] = 0.5`), which a key by identity missed (the first call's trace ran again)."""
    kind = type(v)
    if kind in _NPR_REPR_KEYED or isinstance(v, np.generic):  # NumPy scalars: -0.0 == 0.0 too
        return repr(v)
    if kind is tuple or kind is list:
        return (kind, tuple(_npr_static_key(e) for e in v))
    if kind is dict:
        return (dict, tuple((_npr_static_key(k), _npr_static_key(e)) for k, e in v.items()))
    if kind is np.ndarray:
        return (np.ndarray, v.dtype.str, v.shape, v.tobytes())
    try:
        hash(v)
    except TypeError:
        return _NprByIdentity(v)
    return (kind, v)


def _npr_any_traced(values):
    return any(type(v) not in _NPR_UNTRACED_TYPES and isinstance(v, (jax.Ref, NprView, _npr_Tracer))
               for v in values)


# Types whose values are never refs, views or tracers: the common arguments answered without
# isinstance (a Tracer subclass is never one of these exact types).
_NPR_UNTRACED_TYPES = frozenset({np.ndarray, float, int, bool, complex, str, type(None)})
# Concrete jax.Array types met in calls (ArrayImpl): their values are DEVICE in a plan's key.
# Filled as they come (the class is JAX-internal); tracers are never added.
_NPR_DEVICE_TYPES = set()


def _npr_device_type(v):
    """Whether `v` is a concrete jax.Array (not a tracer), remembering its type."""
    if isinstance(v, jax.Array) and not isinstance(v, _npr_Tracer):
        _NPR_DEVICE_TYPES.add(type(v))
        return True
    return False


def _npr_list_value(v, asarray=np.asarray):
    """A list argument as the function computes with it: one array, as NumPy makes of it, or,
    where NumPy makes none (arrays of different shapes: NumPy 2 refuses a ragged array), the
    list itself, each item an argument of its own (what a loop over it or an index reads)."""
    try:
        return asarray(v)
    except (ValueError, TypeError):
        return v


# the longest list of Python numbers passed item by item (one jit argument per item); a longer
# one is one float64/int64 array, as np.asarray makes it (its items then strongly typed)
_NPR_ITEMS_MAX = 256


def _npr_py_items(v):
    """Whether list `v` holds only Python floats, or only Python ints within int64 (not bools):
    items NumPy's promotion takes as weakly typed Python numbers."""
    if not (isinstance(v, list) and 0 < len(v) <= _NPR_ITEMS_MAX):
        return False
    return all(type(x) is float or type(x) is int and -2 ** 63 <= x < 2 ** 63 for x in v)


def _npr_weak_list(v):
    """Whether `v` is a list of Python numbers, or of weakly typed scalars (a list argument's
    Python numbers, each a jit argument of its own); a list built by converted code of other
    values (`[x[0], x[1]]`) is left as it is."""
    return _npr_py_items(v) or isinstance(v, list) and bool(v) and all(
        isinstance(x, jax.Array) and x.ndim == 0 and jax.typeof(x).weak_type for x in v)


def _npr_weak_items(items):
    """A list of Python numbers (traced: weakly typed scalars) as one weakly typed array, whose
    items promote as Python numbers do (`x32 * ks[0]` float32, as in NumPy)."""
    if len({jax.numpy.asarray(x).dtype.kind for x in items}) > 1:  # ints and floats: each keeps its kind
        return list(items)
    a = jax.numpy.asarray(items)
    return _npr_weak_astype(a, a.dtype)


def _npr_check_written(fname, name, v):
    """A container passed for a parameter the function writes into: refused (NPR207), since
    np2ref writes back into NumPy arrays only. A list of numbers is a TypeError (pass an array);
    a list of arrays is a container of written arrays, as a tuple or a dict."""
    if isinstance(v, list) and not any(isinstance(item, np.ndarray) for item in v):
        raise TypeError(f"{fname}(): argument `{name}` is a list, which the function "
                        "writes; np2ref writes back into NumPy arrays only (a list's item and "
                        f"slice assignment differ from an array's): pass np.array({name})")
    if isinstance(v, (list, tuple, dict)):
        raise NprError("NPR207", f"{fname}() writes into its argument `{name}`, a "
                       f"{type(v).__name__}; containers of written arrays are not translated (pass "
                       "each array as its own argument)")


class _NprDict(dict):
    """A dict in a converted function's result, flattened in its own key order: JAX flattens a
    plain dict in sorted key order and rebuilds it so (`{"x": x, "iterations": k}` came back as
    `{"iterations": k, "x": x}`), where NumPy's program returns the order it inserted."""


jax.tree_util.register_pytree_node(
    _NprDict, lambda d: (list(d.values()), tuple(d)), lambda keys, values: _NprDict(zip(keys, values)))


def _npr_ordered(value):
    """value with each plain dict in it (through tuples, lists and dicts) an _NprDict."""
    kind = type(value)
    if kind is dict:
        return _NprDict((k, _npr_ordered(v)) for k, v in value.items())
    if kind is tuple or kind is list:
        return kind(_npr_ordered(v) for v in value)
    return value


def _npr_plain_dicts(value):
    """value with each _NprDict in it a plain dict again (in its order), as NumPy's returns."""
    kind = type(value)
    if kind is _NprDict or kind is dict:
        return {k: _npr_plain_dicts(v) for k, v in value.items()}
    if (kind is tuple or kind is list) and _npr_has_dict(value):  # (else the very list: a list argument)
        return kind(_npr_plain_dicts(v) for v in value)
    return value


def _npr_has_dict(value) -> bool:
    kind = type(value)
    if kind is _NprDict or kind is dict:
        return True
    return (kind is tuple or kind is list) and any(_npr_has_dict(v) for v in value)


class _NprPlan:
    """A call's route to its jitted function, kept per _plan_key: which arguments
    are kept, donated and written back (by position), and which pairs of arrays must not
    share memory (NumPy arrays) or be one object (jax.Arrays). A call it does not admit takes
    the general path, which raises or aliases. `device`: the call passed jax.Arrays and no
    NumPy array (taken as they are; the results are NumPy's all the same)."""
    ARRAY = object()
    DEVICE = object()

    def __init__(self, names, key, jitted, dynamic, donated, written, stage=False, held=()):
        position = {n: i for i, n in enumerate(names)}
        self.key, self.jitted = key, jitted
        self.kept = tuple((n, position[n]) for n in dynamic if n not in donated)
        self.donated = tuple((n, position[n]) for n in donated)
        self.written = tuple((n, position[n]) for n in written)
        arrays = [i for i, k in enumerate(key) if k is _NprPlan.ARRAY or k is _NprPlan.DEVICE]
        self.apart = tuple((i, j) for _, i in self.written for j in arrays if j != i)
        # the module-level arrays the function reads (_NprGlobalsWatch.arrays(): a rebinding makes
        # the caller forget its plans), each apart from every written argument
        self.held = tuple(held) if self.written else ()
        self.checked = bool(self.written or self.apart)  # else admits() is True for every call
        self.device = _NprPlan.DEVICE in key and _NprPlan.ARRAY not in key
        staged = tuple((n, i) for n, i in self.kept if key[i] is _NprPlan.ARRAY)
        # staging pays where XLA reads host memory (CPU); elsewhere the transfer is the copy
        self.staging = _NprStaging(staged) if stage and staged and not self.device else None
        self.flat = None  # the jax.Array call's _NprFlat (fastpath.py), where NprFunction made one

    def admits(self, args, layout):
        if layout:  # loops, not generators: this runs on every call
            for _, i in self.written:
                if not _npr_layout_ok(args[i]):
                    return False
        for i, j in self.apart:
            if _npr_shares_any(args[i], args[j]):
                return False
        for _, i in self.written if self.held else ():
            for w in self.held:
                if _npr_shares_any(args[i], w):
                    return False
        return True


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


def _npr_device_ready(fname, name, v):
    """A NumPy array as JAX can take it: in native byte order (data read from big-endian
    files), and of a dtype JAX holds (numbers and booleans), else a TypeError naming it.
    Subclasses that change what operators mean (np.matrix's `*`, masked arrays, arrays
    with units) are refused the same way; np.memmap is plain storage and passes."""
    if not isinstance(v, np.ndarray):
        return v
    if type(v) is not np.ndarray and not isinstance(v, np.memmap):
        raise TypeError(f"{fname}(): argument `{name}` is a {type(v).__module__}."
                        f"{type(v).__qualname__}, whose operations np2ref does not model; pass "
                        f"np.asarray({name}) if plain array semantics are what you want")
    if not _npr_jax_dtype(v.dtype):
        raise TypeError(f"{fname}(): argument `{name}` has dtype {v.dtype}, which JAX "
                        "arrays cannot hold; np2ref compiles numeric and boolean arrays")
    return v if v.dtype.isnative else v.astype(v.dtype.newbyteorder("="))


def _npr_layout_ok(v):
    return not isinstance(v, np.ndarray) or v.flags.c_contiguous or v.size <= 1


def _npr_held_arrays(v, kinds=np.ndarray):
    """(attribute, array) for each array an object argument holds in its __dict__ (`sim.u` of a
    simulation object, a dataclass's fields): a function writing another argument that is one
    of them must see its writes through the object, as NumPy does (_aliases checks them apart).
    Classes, modules and functions hold none that count."""
    if isinstance(v, (type, _npr_types.ModuleType, _npr_types.FunctionType, _npr_types.BuiltinFunctionType,
                      _npr_types.MethodType, np.ufunc)):
        return ()
    held = getattr(v, "__dict__", None)
    if not isinstance(held, dict):
        return ()
    return tuple((k, w) for k, w in held.items() if isinstance(w, kinds))


def _npr_shares(a, b):
    """np.shares_memory, after the cheap bounds test that rules out most pairs."""
    return np.may_share_memory(a, b) and np.shares_memory(a, b)


def _npr_shares_any(a, b):
    """_npr_shares for two NumPy arrays; otherwise (a jax.Array: immutable, one object is one
    array) whether they are the same object."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return _npr_shares(a, b)
    return a is b


def _npr_donation_split(dynamic, donated):
    """(the dynamic arguments kept, those donated) for NprFunction's jitted `run`."""
    if not donated:
        return dynamic, {}
    return {n: v for n, v in dynamic.items() if n not in donated}, {n: dynamic[n] for n in donated}


# Results known when traced that are no array data: handed back as they are (a type, `type(s)`
# or `np.float32`, was JAX's "not a valid JAX type" when the jitted function returned it)
_NPR_PYTHON_RESULTS = (bool, int, float, complex, str, type(None), np.dtype, type, range, slice, type(Ellipsis),
                       type(len), type(_npr_check_written), np.ufunc)


def _npr_is_python_value(v):
    """A result known when traced, handed back as it is: a Python value, a dtype (`x.dtype`), a
    type (`type(x[0])`), a function."""
    return isinstance(v, _NPR_PYTHON_RESULTS) and not isinstance(v, np.generic)


def _npr_python_result(v):
    """A result known when traced as NumPy's program has it: `np.float64` named in the function
    (jax.numpy's scalar type in the translation) is NumPy's, and so is a NumPy function named
    (`return np.sin`: the translation's npr_np_sin)."""
    if isinstance(v, type) and v.__module__.startswith("jax") and isinstance(getattr(v, "dtype", None), np.dtype):
        return v.dtype.type
    name = getattr(v, "__name__", "")
    if callable(v) and name.startswith("npr_np_") and getattr(v, "__module__", "").startswith(__package__ or "np2ref"):
        return getattr(np, name[7:], v)
    return v


class _NprHeld:
    """A NumPy array the function returns as it is, held in a result shape's aux data (compared
    and hashed by identity: an array's `==` is elementwise)."""
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __eq__(self, other):
        return type(other) is _NprHeld and other.obj is self.obj

    def __hash__(self):
        return id(self.obj)


def _npr_host_held(leaves, static, module):
    """The result leaves that are NumPy arrays the program holds as they are, where NumPy returns
    that very object: a module-level array or an array attribute of an object passed in (`return
    sim.u`; writes into either are refused or watched: module_globals.py). -> {index: _NprHeld}.
    Another NumPy array (one a NumPy call made when traced) stays a result of the run."""
    held = {id(v) for v in module.values() if type(v) is np.ndarray}
    for obj in static:
        if hasattr(obj, "__dict__") and not isinstance(obj, type):
            held |= {id(v) for v in vars(obj).values() if type(v) is np.ndarray}
    return {i: _NprHeld(v) for i, v in enumerate(leaves) if type(v) is np.ndarray and id(v) in held}


def _npr_arraylike(v):
    return isinstance(v, (np.ndarray, jax.Array)) and not isinstance(v, np.generic)




class _NprListArg:
    """A list argument the function returns as itself (`return st`, `return st, x`): a leaf that
    stands for the caller's list, which the host hands back (result_shape: `returned`), as
    Python returns that very list, its items the caller's (a 0-d array item stays one, not the
    NumPy scalar a traced item comes back as); with `item` (an index), that item of the caller's
    list itself (`return st[0]`, an item the function did not write)."""
    __slots__ = ("name", "item")

    def __init__(self, name, item=None):
        self.name, self.item = name, item

    def steps(self):
        """The `returned` steps result_shape reads: () the list, ("item", k) its k-th item."""
        return () if self.item is None else ("item", self.item)


def _npr_list_args(call):
    """{id: (name, list, its items)} of the list arguments a call traces with (its items apart),
    and {id: (name, k)} of their items that are traced values."""
    lists = {id(v): (n, v, tuple(v)) for n, v in call.items() if type(v) is list}
    items = {id(x): (n, k, x) for n, v, xs in lists.values() for k, x in enumerate(xs) if isinstance(x, jax.Array)}
    return lists, items


def _npr_list_args_marked(value, lists):
    """value (through tuples, lists and dicts) with each list argument returned unchanged (the
    very list, the very items: `lists`, _npr_list_args before the trace) a _NprListArg."""
    kind = type(value)
    lists, items = lists
    if kind is list and id(value) in lists:
        name, given, held = lists[id(value)]
        if given is value and len(value) == len(held) and all(a is b for a, b in zip(value, held)):
            return _NprListArg(name)
    if id(value) in items and items[id(value)][2] is value:
        return _NprListArg(*items[id(value)][:2])
    if kind is list or kind is tuple:
        marked = [_npr_list_args_marked(v, (lists, items)) for v in value]
        return value if all(a is b for a, b in zip(marked, value)) else kind(marked)
    if kind is dict:
        marked = {k: _npr_list_args_marked(v, (lists, items)) for k, v in value.items()}
        return value if all(marked[k] is v for k, v in value.items()) else marked
    return value
