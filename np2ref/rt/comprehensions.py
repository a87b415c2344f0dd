"""npr_comp_map: a comprehension over an array's rows traced once, as a lax.map body
(rewrite/rules/comprehensions.py), or run as written where that is not the same."""

from jax import lax
import jax
import jax.numpy as jnp
import numpy as np

from .carried_kinds import _npr_kinds_listed
from .compat import _npr_eager, _npr_Tracer
from .loops import _npr_python_int
from .python_loops import (
    _npr_changed, _npr_containers, _NPR_PYTHON_LOOP_ERRORS, _npr_python_loop_reason)
from .views import NprView


def _npr_counted(body):
    """body of a range's value, the traced count given as `range` gives it: a Python int, weakly
    typed (loops.py's loop variable)."""
    return lambda k: body(_npr_python_int(k))


class _NprNotOneArray(Exception):
    """The body gave something np.array would not simply stack (a list, a Python number)."""


def npr_comp_map(body, seq, comprehension):
    """np.array([body(x) for x in seq]) before np.array: the stacked values of body over seq's
    rows, traced once; `comprehension()` (the list as written) where seq is not an array's rows,
    the body needs a row's value in Python, changes a Python container, or gives other than one
    array of a strong dtype (np.array would then decide the dtype from Python values)."""
    if type(seq) is range and len(seq) > 0 and not _npr_eager():  # `[find(p, k) for k in range(n * n)]`
        seq, body = jnp.arange(seq.start, seq.stop, seq.step, dtype=np.int64), _npr_counted(body)
    elif isinstance(seq, (jax.Ref, NprView)) or not isinstance(seq, (np.ndarray, jax.Array, _npr_Tracer)) \
            or np.ndim(seq) == 0 or np.shape(seq)[0] == 0 or np.result_type(seq).kind not in "biufc":
        return comprehension()  # (rows of strings or objects: no traced array holds them)

    def one(row):
        value = body(row)
        _npr_kinds_listed(value)  # (a Python number or a NumPy scalar by the data: NPR128)
        if not isinstance(value, (jax.Array, _npr_Tracer)) or getattr(value, "weak_type", False):
            raise _NprNotOneArray
        return value
    kept = _npr_containers([body])
    try:
        out = lax.map(one, jnp.asarray(seq))
    except _NprNotOneArray:
        _npr_changed(kept)
        return comprehension()
    except _NPR_PYTHON_LOOP_ERRORS as exc:
        if _npr_python_loop_reason(exc) is None:
            raise
        _npr_changed(kept)
        return comprehension()
    if _npr_changed(kept) is not None:  # a change made once here, once per row as written
        return comprehension()
    return _npr_batched_first(out)


def _npr_batched_first(out):
    """out with its batch axis first under jax.vmap: a lax.map's stacked rows come out batched
    along axis 1, and a Ref made from them and written in a lax loop crashed under vmap (jax 0.10.2's
    scan batching rule moves a closed-over Ref's batch axis with a transpose a Ref does not have:
    "Triggering __jax_array__() during abstractification", jax-ml/jax#39288). lax.reshape's batching
    rule moves the axis first; the reshape and the index are no-ops to XLA outside vmap."""
    return lax.reshape(out, (1, *out.shape))[0]


