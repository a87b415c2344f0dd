"""Trace-time state and the small conversions every other module uses."""

from jax import lax
import jax
import jax.numpy as jnp
import numpy as np
import functools as _npr_functools
import re as _npr_re
import threading as _npr_threading

from .compat import _npr_heal_effect_tokens, _npr_Tracer
from .compat_messages import _npr_jax_error


class _npr_State(_npr_threading.local):
    """Trace-time state of the entry points (jit.py) and of chained stores, read and written
    like a dict, one per thread: two threads may trace converted functions at once."""

    def __init__(self):
        self.depth = 0

    def __getitem__(self, key):
        return self.__dict__[key]

    def __setitem__(self, key, value):
        self.__dict__[key] = value

    def get(self, key, default=None):
        return self.__dict__.get(key, default)

    def setdefault(self, key, default):
        return self.__dict__.setdefault(key, default)

    def pop(self, key, *default):
        return self.__dict__.pop(key, *default)


_npr_state = _npr_State()


def _npr_typing_pass(fn, *args):
    """(jax.eval_shape(fn, *args), whether to type again) as one of the passes that type a loop's
    carry (branches._npr_settle). The values it carries may not have their final dtypes yet (`c = b;
    b = a; a = f32[i]`: c is float64 for a pass, float32 after), so a value noted a Python number or
    NumPy scalar meeting another dtype is not refused in it (promotion._npr_check_either: NPR128 for
    a float64 the loop never carries); the trace of the typed loop checks it. Typed again where the
    pass found a carried kind to check (carried_kinds._NprKindPaths: `retype`)."""
    _npr_state["typing"] = _npr_state.get("typing", 0) + 1
    _npr_state.pop("retype", None)
    try:
        return jax.eval_shape(fn, *args), bool(_npr_state.pop("retype", False))
    finally:
        _npr_state["typing"] = _npr_state.get("typing", 1) - 1


class _NprAbove:
    """What a floor of the runtime reaches on the floors above it when a converted function runs:
    views.py and stores.py read, store and view slices with traced bounds through windows.py and
    win_views.py, masks.py stores into win_views' windows, and the NumPy functions take masked.py's
    slices of run-time length. The module that defines each sets it here as it is imported
    (rt/__init__ imports every module before converted code runs), so that every module imports
    only from the floors below it (tests/rt/test_rt_layers.py)."""
    __slots__ = ("has_dyn", "dyn_read", "dyn_store", "NprWinView", "windows_only", "win_store",
                 "win_mask_store", "NprMasked", "masked_ufunc", "masked_call", "masked_where", "stacked_array",
                 "opaque", "either_both")


_npr_above = _NprAbove()


def _npr_cast_error_type():
    """NumPy's exception for a same_kind violation in a ufunc's output."""
    try:
        from numpy._core._exceptions import _UFuncOutputCastingError
        return _UFuncOutputCastingError
    except ImportError:  # other numpy versions: the same message, still a TypeError
        class UFuncOutputCastingError(TypeError):
            def __init__(self, ufunc, casting, from_, to, i):
                super().__init__(f"Cannot cast ufunc {ufunc.__name__!r} output from {from_!r} to {to!r} "
                                 f"with casting rule {casting!r}")
        return UFuncOutputCastingError


_npr_CastError = _npr_cast_error_type()


def _npr_dummy(shape, dtype=np.bool_):
    """A zero-memory array of `shape` for NumPy to check shapes on (and raise)."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, dtype), tuple(shape), (0,) * len(shape))


class _NprLazy:
    """A value read when it is used: a NumPy view of a Ref (views.NprView), a window at a traced
    start (win_views.NprWinView). Each defines `_npr_load()`, the value now; npr_load calls it,
    so that this floor reads them without importing the floors that define them."""
    __slots__ = ()

    def _npr_load(self):
        raise NotImplementedError


def npr_load(x):
    """The current value of a Ref or a view of one (seeing every earlier write); else x unchanged."""
    if isinstance(x, _NprLazy):
        return x._npr_load()
    return x[...] if isinstance(x, jax.Ref) else x


def _npr_isbool(e):
    return getattr(e, 'dtype', None) == bool


def _npr_isarr(e):  # an advanced (array) entry of a normalised index
    return e is not None and e is not Ellipsis and not isinstance(e, (int, range)) and e.ndim > 0


def _npr_dt(v):
    return v.dtype if hasattr(v, 'dtype') else np.asarray(v).dtype


def _npr_has_jax(v):
    return any(isinstance(x, jax.Array) for x in jax.tree_util.tree_leaves(v))


def _npr_operand(v):
    """(v loaded, probe): probe stands for v in NumPy's dtype rules (NEP 50: Python scalars
    and weak-typed JAX values are weak); arrays become zeros of the same ndim and dtype."""
    v = npr_load(v)
    if isinstance(v, (list, tuple)) and _npr_has_jax(v):
        v = jnp.asarray(v)
    if isinstance(v, jax.Array) and jax.typeof(v).weak_type:
        return v, {'b': False, 'i': 0, 'u': 0, 'f': 0.0, 'c': 0j}[v.dtype.kind]
    return v, (v if type(v) in (bool, int, float, complex, list, tuple) else np.zeros((1,) * np.ndim(v), _npr_dt(v)))


def _npr_fit(val, sel, fail, strip=True):
    """val broadcast to sel; NumPy's setitem (strip) also drops leading length-1 dims. On a
    mismatch, fail() lets NumPy raise its own error."""
    shp, sel = tuple(np.shape(val)), tuple(sel)
    while strip and len(shp) > len(sel) and shp[0] == 1:
        shp = shp[1:]
    try:
        ok = np.broadcast_shapes(shp, sel) == sel
    except ValueError:
        ok = False
    if not ok:
        fail()
        raise ValueError(f"could not broadcast input array from shape {np.shape(val)} into shape {sel}")
    return jnp.broadcast_to(jnp.asarray(val).reshape(shp), sel)


def _npr_whole(cur, val):
    # All of cur replaced by a value that depends on cur: jax 0.10.2 gets the gradient of a
    # constant store into a ref wrong (jax issue #33987).
    return lax.dynamic_update_slice(cur, jnp.asarray(val, cur.dtype), (0,) * cur.ndim)


# message -> the NprError a host call raised while a program ran. One table for the process, not
# per thread: a TPU runs host callbacks on its runtime's own threads (a thread-local note was
# never seen by the caller there, which got JAX's error instead)
_NPR_HOST_RAISED: dict = {}
_NPR_HOST_LOCK = _npr_threading.Lock()


def npr_host_raised(exc):
    """np2ref's own error raised in a host call while the program ran (NPR040 from rt/opaque.py), which JAX
    hands back as a JaxRuntimeError holding its text: that NprError, else None. Either way the
    effect tokens an ordered host call's failure left behind are dropped (compat: on a TPU every
    later program with an ordered effect raised the same stale error)."""
    if type(exc).__name__ != "JaxRuntimeError":
        return None
    _npr_heal_effect_tokens()
    text = str(exc)
    with _NPR_HOST_LOCK:
        # only the error JAX carried, never a stale one standing in for another failure
        message = next((m for m in _NPR_HOST_RAISED if m in text), None)
        return None if message is None else _NPR_HOST_RAISED.pop(message)




def _npr_host_raising(error):
    """Note `error`, about to be raised in a host call, for npr_host_raised."""
    with _NPR_HOST_LOCK:
        _NPR_HOST_RAISED[error.message] = error
        while len(_NPR_HOST_RAISED) > 16:
            del _NPR_HOST_RAISED[next(iter(_NPR_HOST_RAISED))]


class NprError(Exception):
    """A call that np2ref cannot run exactly (e.g. overlapping buffers passed to a writer), as
    data: `.code` (the diagnostic code, NPRxxx), `.message`, `.hint` (what to write instead, or
    None) and `.call` (the NumPy call the refusal names, `np.bincount`, or None: np2ref.compile
    points at that call in the user's statement). np2ref.compile turns it into that diagnostic;
    its text is "np2ref NPRxxx: message (hint: hint)", or the bare message when `tagged` is
    False (a call-time check that names the function instead)."""

    def __init__(self, code, message, hint=None, call=None, tagged=True):
        self.code, self.message, self.hint, self.call, self.tagged = code, message, hint, call, tagged
        super().__init__(self._text())

    def _text(self):
        if not self.tagged:
            return self.message
        return f"np2ref {self.code}: {self.message}" + (f" (hint: {self.hint})" if self.hint else "")

    def __reduce__(self):  # the fields, not the text, rebuild it (copy, pickle)
        return type(self), (self.code, self.message, self.hint, self.call, self.tagged), self.__dict__


class NprUnsupported(NprError, NotImplementedError):
    """A construct with no exact translation, met when the program is traced."""


class NprFirstCall(Exception):
    """A call of an object np2ref cannot see into whose result np2ref has not seen yet (opaque.py):
    the function's call runs op by op instead (npr_jit), which records it."""


class NprIndexCarried(NprUnsupported):
    """NPR122 for an index that is no array, bound by a loop or `if` on array data (branches.py):
    under a loop with static bounds the body then runs as the Python loop it was (python_loops.py)."""


class NprNotConcrete(TypeError):
    """np2ref's TypeError for a traced value where NumPy needs a Python one (np.arange's size,
    np_creation.py): read by type (python_loops.py, _npr_trace_gap_kind), not by its text."""


@_npr_functools.cache
def _npr_refusal(code):
    """NprUnsupported of `code` made from its message alone: the `kind` of a run-time check
    whose message holds the value that failed (bounds.py raises kind(message.format(value)));
    one object per code, so that checks of one kind and message are recognised as repeats."""
    return _npr_functools.partial(NprUnsupported, code)


# JAX errors that mean "this construct has no static-shape or traced translation" (code, message,
# hint): np2ref.compile makes each a diagnostic at the user's line; npr_jit raises NprTraceGap.
_NPR_TRACE_GAPS = {
    "NonConcreteBooleanIndexError": ("NPR107", "a boolean-mask read has a data-dependent shape, "
                                     "which jit cannot compile",
                                     "reduce it (np.sum(x[m]), x[m].max(), .min(), .mean(), .any(), .all(), "
                                     "or `v = x[m]` then only reductions of v or of elementwise "
                                     "expressions of it, `(v ** 2).sum()`, `v.size`, after it) "
                                     "or store it under the same mask (a[m] = f(b[m])); "
                                     "else use np.where(m, x, 0)"),
    "TracerBoolConversionError": ("NPR030", "a branch or `and`/`or` depends on array data, which is "
                                  "not translated yet", "use np.where(cond, a, b)"),
    "ConcretizationTypeError": ("NPR031", "a Python value (a size, a range bound, an index) depends on "
                                "array data", "make it a Python int argument (static) or compute it "
                                "outside the function"),
    "TracerIntegerConversionError": ("NPR031", "a Python int is taken from array data",
                                     "pass it as a Python int argument"),
    "TracedSlice": ("NPR111", "a slice whose bounds are known only when the program runs (a `while` "
                    "loop's state, a value read from data) is read where np2ref has no masked form of it",
                    "bound the slice by a `for` loop's variable (`for i in range(n): x[i:i + w]`), or "
                    "use np.where over the whole array"),
    "TracerArrayConversionError": ("NPR032", "array data is converted to a NumPy array inside the "
                                   "function", "keep array code in NumPy calls np2ref translates"),
    "RefReturned": ("NPR011", "a loop or branch rebinds a name to an array it then writes in place "
                    "(`v = v * 2` then `v *= 0.5` on an array): a Ref cannot leave the loop or branch",
                    "write the new values into the array (`v[...] = v * 2`), or copy it once before the loop"),
    "UnhashableTracer": ("NPR031", "a dict key or set item is computed from array data, which has no "
                         "hash while the function is traced", "key the dict by Python ints computed "
                         "outside the function, or count into an array (`counts[code] += 1`)"),
    "StructuredDtype": ("NPR025", "a structured dtype (record fields) is not translated: a JAX array has "
                        "no fields, and a field read (`Z['U']`) is a view NumPy writes through",
                        "keep one array per field, or the fields along a last axis (`Z[:, 0]` is a view)"),
    "ArrayAttribute": ("NPR131", "an attribute NumPy arrays have and JAX arrays do not (memory layout: "
                       "strides, flags, ctypes, base, data) is read inside the function",
                       "compute it from the shape and dtype (`x.shape[1] * x.itemsize`), or read it "
                       "outside the function and pass it in"),
}


def _npr_trace_gap_kind(exc):
    """The _NPR_TRACE_GAPS key of a JAX error met while tracing, or None."""
    name = type(exc).__name__
    if name in _NPR_TRACE_GAPS:
        return name
    if isinstance(exc, NprNotConcrete):
        return "ConcretizationTypeError"
    # (StructuredDtype: a module-level dtype np2ref could not see where it is written)
    return next((kind for meaning, kind in _NPR_TRACE_GAP_MESSAGES if _npr_jax_error(exc, meaning)), None)


# JAX's errors told apart by their text (compat_messages._NPR_JAX_MESSAGES) that are known gaps
_NPR_TRACE_GAP_MESSAGES = (
    ("traced_slice", "TracedSlice"), ("ref_returned", "RefReturned"), ("array_attribute", "ArrayAttribute"),
    ("structured_dtype", "StructuredDtype"), ("unhashable_tracer", "UnhashableTracer"),
    ("traced_shape", "ConcretizationTypeError"))


class NprTraceGap(NprUnsupported):
    """A converted function met one of np2ref's known gaps while it was traced (a Python `if` on
    array data, a size from array data...): the coded error, raised from JAX's, whose traceback
    has the converted file's line."""


def _npr_trace_gap(exc):
    kind = _npr_trace_gap_kind(exc)
    if kind is None:
        return None
    code, message, hint = _NPR_TRACE_GAPS[kind]
    return NprTraceGap(code, message, f"{hint}; np2ref explain {code}")


def _npr_shape_error(exc):
    """NumPy's ValueError for JAX's error on operands whose shapes do not fit (a TypeError from
    lax: `add got incompatible shapes for broadcasting`, `dot_general requires contracting
    dimensions to have the same shape`), with JAX's traceback (the user's line); else None."""
    if isinstance(exc, NprError):
        return None
    if broadcast := _npr_jax_error(exc, "broadcast_shapes"):
        shapes = _npr_re.findall(r"\([\d, ]*\)", broadcast["rest"])
        error = ValueError("operands could not be broadcast together with shapes " + " ".join(
            s.replace(" ", "") for s in shapes) + " ")
    elif contracting := _npr_jax_error(exc, "contracting_shapes"):
        error = ValueError("shapes not aligned: " + contracting["rest"].rstrip("."))
    else:
        return None
    return error.with_traceback(exc.__traceback__)


def npr_pyreturn(v, kind, *params):
    """`return n * 2` where n is a Python int (rules/pyscalars.py knows it: `kind` 'int' or
    'float'): a traced 0-d value is noted for this trace, so that the call returns a Python int
    or float, as NumPy's program does, not a NumPy scalar (NprFunction._run:
    _npr_python_leaves). `kind` 'passed': it holds parameters' values, a Python number when it
    is weakly typed (the caller passed one) or when `params` (the parameters it holds, none
    rebound) are all Python numbers, static or traced (`crc` of a loop, after `^ poly`: a loop
    carries it strongly typed). `kind` 'items': v is a tuple (a name bound to tuple displays,
    `best = (i, i + 1)`), `params` each item's kind (None: not a Python scalar; ('passed', *params)).
    Anything else is returned as it is."""
    if kind == "items":
        if not isinstance(v, tuple) or len(v) != len(params):
            return v
        return tuple(x if k is None else npr_pyreturn(x, k) if isinstance(k, str) else npr_pyreturn(x, *k)
                     for x, k in zip(v, params))
    if isinstance(v, jax.Array) and v.ndim == 0:
        if kind == "passed":  # a parameter's value: a Python number if the caller passed one
            python = params and all(_npr_py_like(p) for p in params)
            if not (jax.typeof(v).weak_type or python) or np.dtype(v.dtype).kind not in "iuf":
                return v
            kind = "float" if np.dtype(v.dtype).kind == "f" else "int"
        if kind == "any":  # `x.item()`: Python's type for the value's kind
            kind = {"b": "bool", "i": "int", "u": "int", "c": "complex"}.get(v.dtype.kind, "float")
        python = {"int": int, "float": float, "bool": bool, "complex": complex}[kind]
        _npr_state.setdefault("pyreturn", {})[id(v)] = (v, python)
    return v


def _npr_pyreturned(v) -> bool:
    """Whether npr_pyreturn noted v in this trace: a Python number in NumPy's program (not a 0-d
    array an array maker made, noted there too: np_dtypes._npr_np_array0_made)."""
    noted = _npr_state.get("pyreturn", {})
    return id(v) in noted and noted[id(v)][0] is v and noted[id(v)][1] is not np.array


def _npr_py_like(v):
    """A Python bool, int or float, or one traced (a weakly typed 0-d value)."""
    return type(v) in (bool, int, float) or isinstance(v, jax.Array) and v.ndim == 0 and jax.typeof(v).weak_type


def _npr_traced_any(values) -> bool:
    return any(isinstance(v, _npr_Tracer) for v in values)


