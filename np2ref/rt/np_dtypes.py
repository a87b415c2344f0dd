"""NumPy semantics on top of jax.numpy (the npr_np_* shims): dtypes."""

import jax
import jax.numpy as jnp
import numpy as np
import warnings

from .casts import _npr_check_list_store, npr_cast
from .compat import _npr_Tracer
from .core import _npr_has_jax, _npr_state, NprUnsupported


_npr_np_PY_SCALARS = (bool, int, float, complex)


# ---------------------------------------------------------------- dtypes
def _npr_np_is_py(a):
    # Python scalars are "weak" in NumPy 2 (NEP 50); NumPy scalars are not.
    return type(a) in _npr_np_PY_SCALARS


def _npr_np_dtype_of(a):
    # The dtype NumPy gives np.asarray(a) (lists by NumPy's own inference).
    if hasattr(a, "dtype"):
        return np.dtype(a.dtype)
    if isinstance(a, (list, tuple)):
        if not a:
            return np.dtype(np.float64)
        return np.result_type(*[_npr_np_dtype_of(e) for e in a])
    return np.asarray(a).dtype


def _npr_np_ndim(a):
    if hasattr(a, "ndim"):
        return a.ndim
    if isinstance(a, (list, tuple)):
        return 1 + (_npr_np_ndim(a[0]) if a else 0)
    return 0


def _npr_np_weak_kind(a):
    # A weak-typed JAX value is a Python scalar traced (an argument, or arithmetic on one):
    # the Python type it stands for, else None.
    if isinstance(a, jax.Array) and a.ndim == 0 and jax.typeof(a).weak_type:
        return {"b": bool, "i": int, "u": int, "f": float, "c": complex}[a.dtype.kind]
    return None


def _npr_np_rdt(a):
    # Operand for ufunc.resolve_dtypes: a Python int/float/complex type stays
    # weak (a Python bool is just bool, the lowest kind).
    kind = _npr_np_weak_kind(a)
    if type(a) is bool or kind is bool:
        return np.dtype(np.bool_)
    if _npr_np_is_py(a):
        return type(a)
    return kind or _npr_np_dtype_of(a)


def _npr_np_weak(a):
    # Operand for np.result_type: the Python scalar itself (weak) or a dtype.
    if _npr_np_is_py(a):
        return a
    kind = _npr_np_weak_kind(a)
    return kind(0) if kind is not None else _npr_np_dtype_of(a)


def _npr_np_result_dtype(*args):
    # np.result_type over array-likes, Python scalars weak; None ignored.
    ops = [_npr_np_weak(a) for a in args if a is not None]
    return np.result_type(*ops)


def _npr_np_proto(a, small=True):
    # A NumPy stand-in with a's dtype and ndim (each dim at most 3), so NumPy
    # itself can be asked for a result dtype at trace time.  Python scalars,
    # strings and None pass through.
    if a is None or _npr_np_is_py(a) or isinstance(a, str):
        return a
    if isinstance(a, (list, tuple)) and not any(
        hasattr(e, "dtype") or isinstance(e, (list, tuple)) for e in a
    ):
        return np.asarray(a)
    dt = _npr_np_dtype_of(a)
    if hasattr(a, "shape"):
        shape = a.shape
    else:  # a list holding arrays: only its length and depth matter here
        shape = (len(a),) + (1,) * (_npr_np_ndim(a) - 1)
    if small:
        shape = tuple(min(int(d), 3) for d in shape)
    return np.ones(shape, dt)


def _npr_np_probe(npf, *args, **kwargs):
    # NumPy's result of npf on stand-ins: used only for dtypes.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return npf(
                *[_npr_np_proto(a) for a in args],
                **{k: _npr_np_proto(v) for k, v in kwargs.items()},
            )


def _npr_np_asarray(a, dtype=None):
    # A jax array with NumPy's dtype (NumPy's inference when dtype is None).
    if dtype is None:
        dtype = _npr_np_dtype_of(a)
    dtype = np.dtype(dtype)
    if not isinstance(a, jax.Array) and dtype.kind in "iu" and _npr_has_jax(a):
        _npr_check_list_store(a, dtype)
        a = jnp.asarray(a, _npr_np_dtype_of(a))  # traced floats in a list: NumPy's cast below
    if isinstance(a, jax.Array):  # NumPy's results are never weak: convert makes them strong
        if a.dtype.kind == "f" and dtype.kind in "iu":
            return npr_cast(a, dtype)
        return a if a.dtype == dtype and not jax.typeof(a).weak_type else jax.lax.convert_element_type(a, dtype)
    return jax.lax.convert_element_type(jnp.asarray(a, dtype=dtype), dtype)


def _npr_np_array0_made(v, given=None):
    """An array maker's 0-d result (np.asarray, np.copy, np.zeros(()) and the like): NumPy's
    0-d array, where a reduction's, an element's or an operator's 0-d result is a NumPy scalar.
    Noted for the trace, as np.array's (np_creation._npr_np_array0): `type`, `isinstance`,
    `repr` and print answer as for an array (rt/introspect.py), and a call returning it gives
    host code a 0-d array. A new value when the maker handed its operand back (`np.asarray(s)`
    of a scalar s): the operand stays what it was."""
    if isinstance(v, jax.Array) and v.ndim == 0 and (isinstance(v, _npr_Tracer) or _npr_state.get("setup") or _npr_state.get("depth")):
        if v is given:
            v = jnp.array(v, copy=True)
        _npr_state.setdefault("pyreturn", {})[id(v)] = (v, np.array)
        _npr_state["array0_made"] = _npr_state.get("array0_made", 0) + 1  # (_npr_np_kinds0_settled)
    return v


def _npr_np_kind0(v):
    """A 0-d JAX value's kind in the NumPy program as noted for this trace: "array" (an array
    maker's, _npr_np_array0_made), "open" (a loop's or branch's result that may be either,
    _npr_np_kinds0_settled), "scalar" (anything else 0-d: a reduction's,
    an element's, an operator's); None for another object."""
    if not isinstance(v, jax.Array) or v.ndim:
        return None
    noted = _npr_state.get("pyreturn", {})
    if ("open", id(v)) in noted and noted[("open", id(v))] is v:
        return "open"
    kept = noted.get(id(v))
    return "array" if kept is not None and kept[0] is v and kept[1] is np.array else "scalar"


def _npr_np_kinds0_settled(values, run, body=None, peel=None):
    """`run()`, a loop or branch over `values` (what it carries), with its new 0-d results noted
    "open" where np2ref cannot tell a 0-d array from a scalar: a traced loop's or branch's
    results are new values, which the notes of what it carried do not reach, and its body may
    keep a carried 0-d array one or make it a scalar (`a = a + x[i]`), or make a scalar one (an
    array maker ran inside it). Such a result's type, isinstance, repr and print are refused
    (NPR042, rt/introspect.py); a result that is a value carried in keeps its own notes, and a
    loop or branch where no 0-d array is carried or made notes nothing.

    With `body` (a `for` loop's, `body(i, carry)`; `run(body)` runs the loop with it): the kinds
    are settled as a fixed point where they can be. The loop's own carried values (new tracers)
    are noted with the kinds of the values carried in; where every trip's results have those
    kinds again (`a += x[i]` keeps a 0-d array one), every trip saw them, and so do the loop's
    results. Where a trip's do not, the loop runs again with them noted "open" (what its body
    asked of them was answered for the first trip only).

    `peel` (a loop with a static trip count of one or more: the exception that makes npr_for
    run the first trip on its own): where the first trip changes a kind (`peak =
    np.maximum(peak, v)` makes a 0-d array a scalar), the loop's trace stops, the first trip
    runs on its own with the kinds it starts with, and the rest is a loop of its own, settled
    from the kinds the first trip left (its notes are the results')."""
    given = jax.tree_util.tree_leaves(values)
    kinds = [_npr_np_kind0(v) for v in given]
    made = _npr_state.get("array0_made", 0)
    if body is None:
        out, seen = run(), None
    else:
        out, seen = _npr_np_kinds0_fixed(given, kinds, run, body, peel)
        if seen in ("peeled", "exact"):
            return out
    inside = _npr_state.get("array0_made", 0) != made
    if not inside and not any(k in ("array", "open") for k in kinds):
        return out
    leaves, ids = jax.tree_util.tree_leaves(out), {id(v) for v in given}
    for i, v in enumerate(leaves):
        if _npr_np_kind0(v) != "scalar" or id(v) in ids:
            continue
        if seen is not None and len(leaves) == len(given):  # (a fixed point: every trip's kinds)
            if kinds[i] == "array":
                _npr_np_note_array0(v)
            continue
        if inside or len(leaves) != len(given) or kinds[i] in ("array", "open"):
            _npr_np_open0(v)
    return out


class _npr_np_Trips:
    """What _npr_np_kinds0_fixed's trips saw: an object, which python_loops.py's search for the
    containers a body changes (lists, dicts, sets in its closure) does not look into."""
    __slots__ = ("known", "outs", "peeled", "assumed")

    def __init__(self, known):
        self.known, self.outs, self.peeled, self.assumed = known, [], False, False


def _npr_np_classes0(kinds):
    """Kinds as a trip notes them: a 0-d array, an open value, or nothing noted (a scalar, a
    Python number, an n-d array, another object: the body's notes are the same for each)."""
    return [k if k in ("array", "open") else None for k in kinds]


def _npr_np_kinds0_fixed(given, kinds, run, body, peel=None):
    """(run's result, the kinds every trip kept, or None where a trip's results had others): see
    _npr_np_kinds0_settled. Where they had others, a type or text asked inside the loop was
    answered for the first trip's kinds: refused (NPR042). (Values do not depend on it: `op=`
    on a 0-d array and on a scalar of its dtype compute the same.)"""
    if not any(k in ("array", "open") for k in kinds):
        return run(body), None  # (nothing carried to note: as without `body`)

    def trip(i, carry):  # (`seen.known`: values with notes of their own: a Python loop's, a peeled trip's)
        if seen.peeled:  # (the loop after the peeled trip notes its own kinds: npr_for's second loop)
            result = body(i, carry)  # (the peeled trip: its results start a loop that peels no more)
            _npr_state.setdefault("peeled0", set()).update(id(v) for v in jax.tree_util.tree_leaves(result))
            return result
        leaves = jax.tree_util.tree_leaves(carry)
        carried = len(leaves) == len(kinds) and any(id(v) not in seen.known for v in leaves)
        if carried:
            seen.assumed = True  # (a lax loop's carry: noted with the kinds carried in)
            for v, k in zip(leaves, kinds):
                if id(v) not in seen.known and k == "array":
                    _npr_np_note_array0(v)
                elif id(v) not in seen.known and k == "open":
                    _npr_np_open0(v)
        result = body(i, carry)
        out = jax.tree_util.tree_leaves(result)
        seen.known |= {id(v) for v in out}
        seen.outs = seen.outs + [[_npr_np_kind0(v) for v in out]]
        if carried and peel is not None and _npr_np_classes0(seen.outs[-1]) != classes:
            seen.peeled = True  # a lax loop's trip changed a kind: the first trip runs on its own
            raise peel()
        return result

    seen = _npr_np_Trips({id(v) for v in given})
    if given and all(id(v) in _npr_state.get("peeled0", ()) for v in given):
        peel = None  # (the rest of a peeled loop: a second change of kind leaves it open)
    classes = _npr_np_classes0(kinds)
    asked = _npr_state.get("asked0", 0)
    out = run(trip)
    if seen.peeled:
        return out, "peeled"
    if not seen.assumed:  # a Python loop: each trip's values carry the notes of the one before
        return out, "exact"
    if all(_npr_np_classes0(o) == classes for o in seen.outs):
        return out, kinds
    if _npr_state.get("asked0", 0) != asked:
        _npr_np_open0_refused("what the loop asked of it (its type or text) is")
    return out, None


def _npr_np_note_array0(v):
    """v noted as a 0-d array, not counted as one made (a loop's carried value of one)."""
    if isinstance(v, jax.Array) and v.ndim == 0:
        _npr_state.setdefault("pyreturn", {})[id(v)] = (v, np.array)


def _npr_np_open0_refused(asked="its type and repr are"):
    raise NprUnsupported("NPR042", "a 0-d value that a loop or branch on array data leaves as a "
                         f"0-d array or as a NumPy scalar: {asked} NumPy's only "
                         "when the program runs", hint="make it one in every path: `np.asarray(v)` "
                         "after the loop or branch (a 0-d array), or `v[()]` (a NumPy scalar)")


def _npr_np_kinds0_known(leaves):
    """A call's results, returned to host code, which gets a 0-d array or a NumPy scalar as
    NumPy's run holds it: one a traced loop or branch leaves as either is refused (NPR042)."""
    if any(_npr_np_kind0(v) == "open" for v in leaves):
        _npr_np_open0_refused("what the call returns (a 0-d array or a scalar) is")


def _npr_np_open0(v):
    """v noted as a 0-d value np2ref cannot tell a 0-d array from a scalar of (_npr_np_kind0)."""
    if isinstance(v, jax.Array) and v.ndim == 0:
        _npr_state.setdefault("pyreturn", {})[("open", id(v))] = v
    return v


def _npr_np_inexact(dt):
    # NumPy's "float version" of a dtype as used by linalg/statistics: ints
    # and bools compute in float64, floats and complex keep their type.
    dt = np.dtype(dt)
    if dt.kind in "fc":
        return dt
    return np.dtype(np.float64)


def _npr_np_check_out(out):
    if out is not None:
        raise NotImplementedError("np2ref: out= must be rewritten by the translator")


def _npr_np_python_bool(v):
    """allclose, array_equal, array_equiv return a Python bool, not np.bool_: noted, so that the
    call returns one when v itself is returned (pyscalars.py's npr_pyreturn, _npr_python_leaves)."""
    v = jnp.asarray(v)
    if isinstance(v, _npr_Tracer):  # a trace's note, dropped when the trace ends (jit.py)
        _npr_state.setdefault("pyreturn", {})[id(v)] = (v, bool)
    return v


