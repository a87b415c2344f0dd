"""Trace-time state and the small conversions every other module uses."""

from jax import lax
import jax
import jax.numpy as jnp
import numpy as np
import functools as _npr_functools
import re as _npr_re
import threading as _npr_threading

from .compat import _npr_heal_effect_tokens


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


def _npr_conv(v, dt, how='cast', nd=0):
    """v as dtype dt. JAX values: astype (NumPy's unsafe cast). Static values: NumPy itself
    stores them into a scratch array, so its conversions and errors are exact; `how` names
    the store: 'item' (one element of an nd-dim array), 'set' (basic index), 'adv' (advanced
    index), 'cast' (astype) or f(scratch, v) (np.put, np.putmask, ...)."""
    if isinstance(v, jax.Array) or (isinstance(v, (list, tuple)) and _npr_has_jax(v)):
        return _npr_store_cast(jnp.asarray(v), dt, how)  # floats to integers as NumPy casts them
    if how == 'cast':
        return np.asarray(v).astype(dt)
    if how == 'item':
        t = np.empty((1,) * nd, dt)
        t[(0,) * nd] = v
        return t.reshape(())
    t = np.empty(np.shape(v) if how == 'set' else (1,) + np.shape(v) if how == 'adv' else np.shape(v) or (1,), dt)
    if how == 'set':
        t[...] = v
    elif how == 'adv':
        t[[0]] = v
        t = t[0]
    else:
        how(t, v)
    return t


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
    text = str(exc)
    if isinstance(exc, IndexError) and ("Slice entries must be static" in text
                                        or "slice indices must have static" in text):
        return "TracedSlice"
    if isinstance(exc, ValueError) and "mutable array references cannot be returned" in text:
        return "RefReturned"
    if isinstance(exc, AttributeError) and ("Tracer has no attribute" in text
                                            or "ArrayImpl' object has no attribute" in text):
        return "ArrayAttribute"
    if isinstance(exc, TypeError) and "JAX only supports number, bool, and string dtypes, got dtype [(" in text:
        return "StructuredDtype"  # (a module-level dtype np2ref could not see where it is written)
    if isinstance(exc, TypeError) and _npr_re.match(r"unhashable type: '\w*Tracer'", text):
        return "UnhashableTracer"
    if isinstance(exc, NprNotConcrete) or (isinstance(exc, TypeError)
                                           and "Shapes must be 1D sequences of concrete values" in text):
        return "ConcretizationTypeError"
    return None


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
    text = str(exc)
    if not isinstance(exc, (TypeError, ValueError)) or isinstance(exc, NprError):
        return None
    if "shapes for broadcasting" in text:
        shapes = _npr_re.findall(r"\([\d, ]*\)", text.split("broadcasting", 1)[1])
        error = ValueError("operands could not be broadcast together with shapes " + " ".join(
            s.replace(" ", "") for s in shapes) + " ")
    elif "contracting dimensions to have the same shape" in text:
        error = ValueError("shapes not aligned: " + text.split("got ", 1)[-1].rstrip("."))
    else:
        return None
    return error.with_traceback(exc.__traceback__)


# The runtime's modules call one another's functions (they were one file): imported once this
# module is complete, so that any import order works.
from .views import npr_load  # noqa: E402
from .casts import _npr_store_cast  # noqa: E402
