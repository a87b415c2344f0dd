"""JAX's error messages, the one table of their wordings (compat's other half: where only the text
of one of JAX's errors tells what it means, no exception class of its own, it is matched here and
nowhere else). Leaning on a wording is leaning on what JAX does not promise, as compat.py's uses
of JAX internals are: a wording not recognised leaves JAX's own error to surface (no coded
diagnostic), never a different result. _npr_empty_axis_index_error turns one such message into
NumPy's, the index read from JAX's raising frame."""

import re as _npr_re

import numpy as np


# ---- JAX's error messages ----------------------------------------------------------------------
# Where only the text of one of JAX's errors tells what it means (no exception class of its own),
# it is matched here and nowhere else. A row: what it means, the exception types, a regular
# expression searched in str(exc), the JAX versions that wording was read in. A new wording of
# a JAX release is one more row of the same meaning; callers ask _npr_jax_error(exc, meaning).
_NPR_JAX_MESSAGES = (
    # a slice with traced bounds in jnp indexing (core: NPR111; python_loops: a Python loop)
    ("traced_slice", (IndexError,), r"Slice entries must be static", "0.10.2, 0.11"),
    ("traced_slice", (IndexError,), r"slice indices must have static", "0.4"),
    # a Ref returned out of a cond or loop (core: NPR011)
    ("ref_returned", (ValueError,), r"mutable array references cannot be returned", "0.10.2, 0.11"),
    # a NumPy-only array attribute (strides, flags, ...) read from a traced or JAX array (NPR131)
    ("array_attribute", (AttributeError,), r"Tracer has no attribute|ArrayImpl' object has no attribute",
     "0.10.2, 0.11"),
    # a structured dtype given to jnp (NPR025)
    ("structured_dtype", (TypeError,), r"JAX only supports number, bool, and string dtypes, got dtype \[\(",
     "0.10.2, 0.11"),
    # a tracer used as a dict key or set item (NPR031)
    ("unhashable_tracer", (TypeError,), r"^unhashable type: '\w*Tracer'", "0.10.2, 0.11"),
    # a shape from traced values (np.arange of a traced size: NPR031; python_loops: a Python loop)
    ("traced_shape", (TypeError,), r"^Shapes must be 1D sequences of concrete values", "0.10.2, 0.11"),
    # operands whose shapes do not broadcast, or do not contract (core: NumPy's ValueError)
    ("broadcast_shapes", (TypeError, ValueError), r"shapes for broadcasting(?P<rest>.*)", "0.10.2, 0.11"),
    ("contracting_shapes", (TypeError, ValueError),
     r"contracting dimensions to have the same shape.*?got (?P<rest>.*)", "0.10.2, 0.11"),
    # an ordered host callback (a draw, host.py) or an IO effect in a cond under vmap (jit: NPR023)
    ("vmap_io_callback", (ValueError, NotImplementedError),
     r"vmap` ordered IO callback|IO effect not supported in vmap", "0.10.2, 0.11"),
    # an ordered host callback in a lax.while_loop under vmap (a `while` loop's list history handed
    # to the host, rt/histories.py; a draw): JAX's batching rule raises a bare Exception (jit: NPR034)
    ("vmap_ordered_while", (Exception,), r"^Ordered IO effects not supported in vmap", "0.10.2"),
    # an integer index into an empty axis (NumPy's IndexError, with the index)
    ("empty_axis_index", (IndexError,), r"^index is out of bounds for axis (?P<axis>\d+) with size 0$",
     "0.10.2, 0.11"),
    # one of np2ref's values of run-time length (NprMasked, NprWinView) used as an array: jax.numpy
    # names its type (python_loops: a Python loop)
    ("npr_lazy_as_array", (TypeError,), r"NprMasked|NprWinView", "0.10.2, 0.11"),
)


_NPR_JAX_PATTERNS = tuple((meaning, types, _npr_re.compile(pattern, _npr_re.S))
                          for meaning, types, pattern, _ in _NPR_JAX_MESSAGES)


def _npr_jax_error(exc, meaning):
    """The match of a row of _NPR_JAX_MESSAGES with this meaning that `exc` is (its named groups:
    what the caller reads from the text), else None."""
    for row_meaning, types, pattern in _NPR_JAX_PATTERNS:
        if row_meaning == meaning and isinstance(exc, types):
            found = pattern.search(str(exc))
            if found:
                return found
    return None


# ---- JAX's IndexError for an integer index into an empty axis ------------------------------
# (the index read from the raising frame's locals: leaning on JAX's code as compat.py does)

def _npr_empty_axis_index_error(exc):
    """NumPy's IndexError for JAX's 'index is out of bounds for axis a with size 0' (raised by
    jnp indexing with an integer into an empty axis, without the index): 'index i is out of
    bounds for axis a with size 0', i read from the raising frame (jax's _index_to_gather) when
    it is a concrete integer. None where it is not that error or the index cannot be read."""
    m = _npr_jax_error(exc, "empty_axis_index")
    if m is None:
        return None
    seen = set()
    while exc is not None and id(exc) not in seen:  # jit re-raises with a filtered traceback
        seen.add(id(exc))
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_name == "_index_to_gather" and tb.tb_next is None:
                value = getattr(tb.tb_frame.f_locals.get("index"), "index", None)
                if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
                    return IndexError(f"index {int(value)} is out of bounds for axis {m['axis']} with size 0")
                return None
            tb = tb.tb_next
        exc = exc.__cause__ or exc.__context__
    return None
