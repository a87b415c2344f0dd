"""Python's math module on traced floats (npr_math) and library calls with an exact JAX
counterpart (npr_library: a tridiagonal solve).

math: `math.sqrt(T)` with T a traced Python float (a float argument is traced) or array data runs
the jnp counterpart on float64, weakly typed as a Python float is, and keeps Python's errors:
where math raises ValueError("math domain error") or OverflowError("math range error") the
compiled call raises the same, when it runs (bounds.py's run-time checks). Concrete values go
through the math function itself. The results of exp, log, sin... are XLA's (within an ulp or two
of the C library's, as np.exp under jit is); sqrt, fabs and copysign are exact.
"""

import math

import jax.numpy as jnp
import numpy as np


def _npr_range(x, r):
    return jnp.isinf(r) & jnp.isfinite(x)


# name -> (jnp function, what makes Python raise (of argument and result) or None, the error's
# type, an argument Python raises for: its message is taken from Python itself)
_NPR_MATH = {
    "sqrt": (jnp.sqrt, lambda x, r: x < 0, ValueError, -1.0),
    "exp": (jnp.exp, _npr_range, OverflowError, 1e300),
    "expm1": (jnp.expm1, _npr_range, OverflowError, 1e300),
    "log": (jnp.log, lambda x, r: x <= 0, ValueError, 0.0),
    "log2": (jnp.log2, lambda x, r: x <= 0, ValueError, 0.0),
    "log10": (jnp.log10, lambda x, r: x <= 0, ValueError, 0.0),
    "log1p": (jnp.log1p, lambda x, r: x <= -1, ValueError, -1.0),
    "sin": (jnp.sin, lambda x, r: jnp.isinf(x), ValueError, math.inf),
    "cos": (jnp.cos, lambda x, r: jnp.isinf(x), ValueError, math.inf),
    "tan": (jnp.tan, lambda x, r: jnp.isinf(x), ValueError, math.inf),
    "asin": (jnp.arcsin, lambda x, r: jnp.abs(x) > 1, ValueError, 2.0),
    "acos": (jnp.arccos, lambda x, r: jnp.abs(x) > 1, ValueError, 2.0),
    "atan": (jnp.arctan, None, None, None),
    "sinh": (jnp.sinh, _npr_range, OverflowError, 1e300),
    "cosh": (jnp.cosh, _npr_range, OverflowError, 1e300),
    "tanh": (jnp.tanh, None, None, None),
    "asinh": (jnp.arcsinh, None, None, None),
    "acosh": (jnp.arccosh, lambda x, r: x < 1, ValueError, 0.0),
    "atanh": (jnp.arctanh, lambda x, r: jnp.abs(x) >= 1, ValueError, 1.0),
    "fabs": (jnp.abs, None, None, None),
    "atan2": (jnp.arctan2, None, None, None),
    "copysign": (jnp.copysign, None, None, None),
}

NPR_MATH_NAMES = frozenset(_NPR_MATH)


def npr_math(fn, *args):
    """`fn(*args)` for a function `fn` of Python's math module: itself on concrete values; on
    traced ones its jnp counterpart on float64 (a Python float, weakly typed), with Python's
    ValueError/OverflowError raised by the compiled call where Python raises."""
    args = [npr_load(a) for a in args]
    name = getattr(fn, "__name__", None)
    if fn is not getattr(math, name or "", None) or name not in _NPR_MATH or not _npr_traced_any(args):
        return fn(*args)
    jf, out, kind, probe = _NPR_MATH[name]
    xs = [npr_float(a) for a in args]
    result = _npr_weak_astype(jf(*xs), np.dtype(np.float64))
    if out is not None:
        try:
            fn(probe)
            message = ("math domain error",)
        except (ValueError, OverflowError) as e:
            message = e.args
        _npr_math_check(out(xs[0], result), kind, message)
    return result


def _npr_math_check(bad, kind, message):
    """The compiled call raises kind(*message) when the traced bool `bad` holds (and no earlier
    check failed). Not deduplicated as index checks are: sqrt and log of one value differ."""
    bounds = _npr_state.get("bounds")
    if bounds is not None:
        _npr_record_check(bounds, bad, jnp.zeros((), jnp.int32), kind, message)


# The runtime's modules call one another's functions (they were one file): imported once this
# module is complete, so that any import order works.
from .core import _npr_state  # noqa: E402
from .bounds import _npr_record_check  # noqa: E402
from .views import npr_float, npr_load  # noqa: E402
from .compat import _npr_weak_astype  # noqa: E402
from .branches import _npr_traced_any  # noqa: E402
