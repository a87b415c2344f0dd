"""Python's conversions of a value that may be traced: int(x), float(x), complex(re, im), bool(x),
ndarray.item(). A concrete value gives Python's own; traced data gives the traced value weakly
typed as the Python number is in NumPy's promotion, with Python's errors (TypeError for more
than one element, ValueError for int(nan)), and int/float/bool noted by npr_pyreturn so a call
that returns one returns a Python number."""

import jax
import jax.numpy as jnp
import numpy as np

from .casts import _npr_check_int_store
from .compat import _npr_Tracer, _npr_weak_astype
from .core import npr_load, npr_pyreturn, NprUnsupported


def npr_int(x):
    """Python's int(x). Concrete values give a Python int; traced array data gives the traced
    integer (truncated toward zero, weakly typed as a Python int is), good as an index, noted by
    npr_pyreturn: the call returns it as a Python int (`path.insert(0, int(last))`)."""
    x = npr_load(x)
    if not isinstance(x, _npr_Tracer):
        return int(x)
    if x.ndim != 0:
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    if x.dtype.kind == "f":
        _npr_check_int_store(x)  # Python's ValueError for NaN, OverflowError for infinities
    if x.dtype.kind in "fc":
        x = jnp.trunc(jnp.real(x))
    return npr_pyreturn(_npr_weak_astype(x, np.dtype(np.int64)), "int")  # returned (in a list too): an int


def npr_float(x):
    """Python's float(x). Concrete values give a Python float; traced array data gives the traced
    value as float64 (weakly typed, as a Python float is in NumPy's promotion)."""
    x = npr_load(x)
    if not isinstance(x, _npr_Tracer):
        return float(x)
    if x.size != 1:
        raise TypeError("only length-1 arrays can be converted to Python scalars")
    if x.dtype.kind == "c":
        raise TypeError("float() argument must be a string or a real number, not 'complex'")
    x = x.reshape(())
    return npr_pyreturn(_npr_weak_astype(x, np.dtype(np.float64)), "float")


def npr_complex(*args):
    """Python's complex(real, imag) of numbers. Concrete values give a Python complex; traced
    array data gives the traced complex128, weakly typed as a Python complex is in NumPy's
    promotion: CPython's parts (real.real - imag.imag, real.imag + imag.real), not arithmetic."""
    args = [npr_load(a) for a in args]
    if not any(isinstance(a, _npr_Tracer) for a in args):
        return complex(*args)
    if len(args) == 1 and jnp.iscomplexobj(args[0]):  # complex(z): z itself (its -0.0 parts kept)
        z = jnp.asarray(args[0])
        if z.size != 1:
            raise TypeError("only length-1 arrays can be converted to Python scalars")
        return _npr_weak_astype(z.reshape(()), np.dtype(np.complex128))
    real, imag = (*args, 0.0) if len(args) == 1 else args
    parts = []
    for x in (real, imag):
        x = jnp.asarray(x)
        if x.size != 1:
            raise TypeError("only length-1 arrays can be converted to Python scalars")
        x = x.reshape(())
        if x.dtype.kind == "c":
            parts.append((jnp.real(x).astype(np.float64), jnp.imag(x).astype(np.float64)))
        else:
            parts.append((x.astype(np.float64), None))
    (rr, ri), (ir, ii) = parts
    re = rr if ii is None else rr - ii
    im = ir if ri is None else ri + ir
    return _npr_weak_astype(jax.lax.complex(re, im), np.dtype(np.complex128))


def npr_pyitem(x, *args):
    """ndarray.item(*args): the element as a Python scalar. Concrete values give Python's own;
    traced array data gives the traced element weakly typed, as the Python int, float or
    complex is in NumPy's promotion (an integer as int64: a uint64 above 2**63 stays uint64)."""
    x = npr_load(x)
    if not isinstance(x, _npr_Tracer):
        return x.item(*args) if hasattr(x, "item") else x
    if args:
        where = args[0] if len(args) == 1 else tuple(args)
        if not all(isinstance(i, (int, np.integer)) for i in np.ravel(where)):
            raise NprUnsupported("NPR031", "ndarray.item() with an index that is not a Python int")
        np.broadcast_to(np.int8(0), x.shape).item(*args)  # NumPy's own IndexError / ValueError
        flat = where % x.size if not isinstance(where, tuple) else \
            np.ravel_multi_index(tuple(i % n for i, n in zip(where, x.shape)), x.shape)
        x = x.reshape(-1)[int(flat)]
    elif x.size != 1:
        raise ValueError("can only convert an array of size 1 to a Python scalar")
    x = x.reshape(())
    kind = x.dtype.kind
    if kind == "b":
        return x
    if kind in "iu":
        return _npr_weak_astype(x, np.dtype(np.uint64 if x.dtype == np.uint64 else np.int64))
    return _npr_weak_astype(x, np.dtype(np.complex128 if kind == "c" else np.float64))


def npr_bool(x):
    """Python's bool(x). Concrete values give a Python bool; traced array data of one element
    gives its traced truth value (`x != 0`: NaN is true, as in Python)."""
    x = npr_load(x)
    if not isinstance(x, _npr_Tracer):
        return bool(x)
    if x.size != 1:
        raise ValueError("The truth value of an empty array is ambiguous. Use `array.size > 0` to check that "
                         "an array is not empty." if x.size == 0 else "The truth value of an array with more "
                         "than one element is ambiguous. Use a.any() or a.all()")
    return npr_pyreturn(x.reshape(()) != 0, "bool")  # returned (in a list too): a Python bool
