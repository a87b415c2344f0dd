"""Python's introspection of values that are JAX arrays in the translation: `isinstance`, `type`,
`str`, `repr`, `format` and f-strings.

Why: a traced value is a JAX tracer, so `isinstance(s, float)` on a Python float argument was
False and `str(x[0])` gave 'JitTracer(float64[])': silent wrong answers. `isinstance` and `type`
answer with the type the value has in NumPy: an array of one or more dimensions is an
`np.ndarray`; a weakly typed scalar stands for a Python scalar (an argument, `float(x)`,
arithmetic on them); a 0-d value an array maker made (`np.zeros(())`, `np.asarray(s)`, `x[0, ...]`,
noted for the trace: np_dtypes._npr_np_kind0) or a Ref or view of an array is an `np.ndarray`;
another scalar is NumPy's scalar of its dtype (`x[i]` is an `np.float64`, a float subclass); one
a traced loop or branch may leave as either is refused (NPR042). A string of a traced value cannot be made before the program runs: refused
(NPR031) when traced. Concrete values are Python's own.
"""

import jax
import jax.numpy as jnp
import numpy as np

from .carried_kinds import _npr_kinds_shown
from .compat import _npr_traced
from .bounds import _npr_note_effect
from .core import _npr_state, npr_load, NprUnsupported
from .host import _npr_host_operands, _npr_unless_failed
from .host_words import _npr_note_callback
from .np_dtypes import _npr_np_array0_made, _npr_np_kind0, _npr_np_open0, _npr_np_open0_refused, _npr_np_weak_kind
from .views import NprView


def _npr_numpy_type(v):
    """The type `v` has in the NumPy program, for a JAX array, a Ref or a view of one (an array
    whatever its shape: `a = np.zeros(()); a[...] = s` is a 0-d array); else `type(v)`. A 0-d
    value np.array, np.asarray, np.zeros(()) and the like made (noted: np_dtypes._npr_np_kind0)
    is a 0-d array too; another 0-d value is a scalar, as a reduction's, an element's, an
    operator's result is in NumPy; one a traced loop or branch leaves as either: NPR042."""
    if isinstance(v, (jax.Ref, NprView)):
        return np.ndarray
    v = npr_load(v)
    if not isinstance(v, jax.Array):
        return type(v)
    if not v.ndim:  # (asked inside a loop whose kinds are settled after it: np_dtypes._npr_np_kinds0_fixed)
        _npr_state["asked0"] = _npr_state.get("asked0", 0) + 1
    if _npr_kinds_shown(v) is not None:
        raise NprUnsupported("NPR128", "the type of a value a loop, branch or max()/min() on array data leaves as a "
                             "Python number or as a NumPy scalar, as the data decides, is known only when the "
                             "program runs", hint="make it one kind on every path: `int(v)`, `float(v)`")
    kind = _npr_np_kind0(v)
    if kind is None or kind == "array":
        return np.ndarray
    if kind == "open":
        _npr_np_open0_refused()
    return _npr_np_weak_kind(v) or np.dtype(v.dtype).type


def npr_array_made(v):
    """`np.zeros(())`, `np.copy(s)`, `x[0, ...]` in a module that asks a value's type or text
    (rules/introspection.py kinds_of_reads): NumPy's array, a 0-d one too, where a reduction's or
    an element's 0-d result is a scalar: a 0-d result is a new value noted as a 0-d array."""
    return _npr_np_array0_made(v, v)


def npr_scalar_of(v):
    """`a[()]`, `x[0]`, `np.float64(a)` there: NumPy's scalar where the result is 0-d, of a 0-d
    array too, where JAX hands the noted operand back as it is: a new value then, with no note."""
    if isinstance(v, jax.Array) and v.ndim == 0 and _npr_kinds_shown(v) is None:  # (a new value: not the
        return jnp.array(v, copy=True)  # operand, which may be an argument the call would return as the caller's
    return v  # array; one noted a Python number or NumPy's, as the data decides, an item of a tuple: itself)


def npr_kind_as(v, operand):
    """`a.copy()`, `a.astype(t)`, `a.reshape(())`: of the operand's kind, an array's a 0-d array
    (noted), a scalar's a scalar; one that may be either (NPR042) stays so."""
    if isinstance(v, jax.Array) and v.ndim == 0 and isinstance(operand, (jax.Array, jax.Ref, NprView)):
        if isinstance(operand, (jax.Ref, NprView)) or operand.ndim or _npr_np_kind0(operand) == "array":
            return _npr_np_array0_made(v, operand)
        if _npr_np_kind0(operand) == "open":
            return _npr_np_open0(v if v is not operand else jnp.array(v, copy=True))
    return v


def npr_kind_call(how, operand, *args, **kwargs):
    """`x[0:1].reshape(())` (`how` a method's name), `np.squeeze(x[0:1])` (`how` the function):
    the call on the operand, its result of the operand's kind (npr_kind_as)."""
    v = getattr(operand, how)(*args, **kwargs) if isinstance(how, str) else how(operand, *args, **kwargs)
    return npr_kind_as(v, operand)


def npr_isinstance(v, types):
    """`isinstance(v, types)` with the type `v` has in NumPy (see the module docstring)."""
    if not isinstance(v, (jax.Array, jax.Ref, NprView)):
        return isinstance(v, types)
    return issubclass(_npr_numpy_type(v), types)


def npr_type(v, *rest):
    """`type(v)`: the type `v` has in NumPy. (`type(name, bases, dict)` is Python's own.)"""
    if rest:
        return type(v, *rest)
    return _npr_numpy_type(v)


def npr_str(v, how="str"):
    """`str(v)` (how="str"), an f-string's or format()'s value (how="format", returned for the
    formatting): Python's own on a concrete value; NPR031 on array data being traced (the text
    is known only when the program runs)."""
    kind, v = _npr_numpy_type(v), npr_load(v)
    if _npr_traced(v):
        raise NprUnsupported("NPR031", f"{how}() of a value that depends on array data: "
                             "the text is known only when the program runs")
    if isinstance(v, jax.Array):  # (`{a!r}` of a 0-d array: array(3.), as NumPy's)
        v = np.asarray(v) if kind is np.ndarray else np.asarray(v)[()]
    return str(v) if how == "str" else v


def npr_repr(v):
    """`repr(v)`: Python's own on a concrete value, as the NumPy program holds it (an array, NumPy's
    scalar of its dtype, `np.float64(2.5)`, or the Python scalar a weakly typed value stands for);
    NPR031 on array data being traced (the text is known only when the program runs)."""
    kind, v = _npr_numpy_type(v), npr_load(v)
    if _npr_traced(v):
        raise NprUnsupported("NPR031", "repr() of a value that depends on array data: "
                             "the text is known only when the program runs")
    if isinstance(v, jax.Array):
        v = np.asarray(v) if kind is np.ndarray else kind(np.asarray(v)[()])
    return repr(v)


def npr_formatted(v):
    """An f-string's or `format()`'s value: itself when concrete (NumPy's scalar, so `:.3f` and
    `{v}` print as NumPy prints), NPR031 when traced."""
    return npr_str(v, how="format")


def npr_print(show, *values):
    """print() in a compiled function: `show` (the original print, its values as parameters)
    runs on the host when the program runs, in program order (an ordered jax.debug.callback),
    never while tracing: a print in a loop prints at each iteration. Each value is what the
    NumPy program holds there: an array, NumPy's scalar of its dtype, or the Python scalar a
    weakly typed value stands for, so Python prints the same text."""
    given, tree = jax.tree_util.tree_flatten(list(values), is_leaf=lambda v: isinstance(v, (jax.Ref, NprView)))
    leaves = [npr_load(v) for v in given]
    arrays = [i for i, leaf in enumerate(leaves) if isinstance(leaf, jax.Array)]
    either = {i: shown for i in arrays if (shown := _npr_kinds_shown(leaves[i])) is not None}  # (its flag sent)
    kinds = {i: np.dtype(leaves[i].dtype).type if i in either else _npr_numpy_type(given[i]) for i in arrays}
    flags = [jnp.asarray(pred, bool) == bool(on_true) for _, pred, on_true in either.values()]
    sent, received = _npr_host_operands([leaves[i] for i in arrays] + flags)  # 64-bit values intact

    def host(*got):
        held, values = list(leaves), received(got)
        python = {i: bool(f) for i, f in zip(either, values[len(arrays):])}
        for i, a in zip(arrays, values):
            held[i] = a if kinds[i] is np.ndarray else (either[i][0] if python.get(i) else kinds[i])(a[()])
        show(*jax.tree_util.tree_unflatten(tree, held))
    host, sent = _npr_unless_failed(host, sent, lambda: None)  # (no print after a failed check)
    # NumPy's error raised while tracing what follows (an unbound name read, an index known then):
    # NumPy printed this before it, which the NumPy-facing call prints then (bounds.py), where it
    # holds no value of the program's
    _npr_note_effect(lambda: show(*jax.tree_util.tree_unflatten(tree, leaves)), [leaves[i] for i in arrays], lost=True)
    _npr_note_callback()
    jax.debug.callback(host, *sent, ordered=True)


def npr_attribute(v, name):
    """`v.ptp` where NumPy 2 has no such method but jax.Array has: NumPy's AttributeError for an
    array or NumPy scalar (jax.numpy's method answered silently); another object's own."""
    if isinstance(v, (jax.Array, jax.Ref, np.ndarray, np.generic, NprView)):
        t = np.ndarray if isinstance(v, (jax.Ref, NprView)) else _npr_numpy_type(npr_load(v))
        raise AttributeError(f"'{t.__module__}.{t.__name__}' object has no attribute '{name}'")
    return getattr(v, name)


