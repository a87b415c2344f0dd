"""Python's math module on traced floats (npr_math) and library calls with an exact JAX
counterpart (npr_library: a tridiagonal solve).

math: `math.sqrt(T)` with T a traced Python float (a float argument is traced) or array data runs
the jnp counterpart on float64, weakly typed as a Python float is, and keeps Python's errors:
where math raises ValueError("math domain error") or OverflowError("math range error") the
compiled call raises the same, when it runs (bounds.py's run-time checks). Concrete values go
through the math function itself. The results of exp, log, sin, hypot... are XLA's (within an
ulp or two of the C library's, as np.exp under jit is); sqrt, fabs, copysign, pow and fmod are
exact. floor/ceil/trunc give a traced int64 (Python's int: NaN and infinities raise as Python
does; a float beyond int64 raises NPR031) and isnan/isinf/isfinite a traced bool.
"""

import copy as _npr_copy
import math

import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_record_check
from .compat import _npr_traced, _npr_weak_astype
from .compat_lapack import _npr_lapack_gtsv
from .core import _npr_state, _npr_traced_any, npr_load, NprError, NprUnsupported
from .np_dtypes import _npr_np_python_bool
from .conversions import npr_float


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
    "hypot": (jnp.hypot, None, None, None),
    # CPython's x * degToRad and x * radToDeg, the constants rounded once (no error: inf stays inf)
    "radians": (lambda x: x * (math.pi / 180.0), None, None, None),
    "degrees": (lambda x: x * (180.0 / math.pi), None, None, None),
    # two arguments: C's rules, as CPython applies them (a NaN out of non-NaN arguments is a
    # domain error; an infinity out of finite ones is a range error, or domain error at x == 0)
    "pow": (jnp.power, lambda x, r, y: _npr_nan_out(r, x, y) | ((x == 0) & (y < 0) & jnp.isfinite(y)),
            ValueError, (-1.0, 0.5)),
    "fmod": (jnp.fmod, lambda x, r, y: _npr_nan_out(r, x, y), ValueError, (1.0, 0.0)),
}

# math functions that return a Python int (floor, ceil, trunc) or bool (isnan...): on a traced
# float the int is an int64 (weakly typed, as int(x) gives); NaN and infinities raise Python's
# errors, a float beyond int64 is refused (Python's int would be exact)
_NPR_MATH_INT = {"floor": jnp.floor, "ceil": jnp.ceil, "trunc": jnp.trunc}
_NPR_MATH_BOOL = {"isnan": jnp.isnan, "isinf": jnp.isinf, "isfinite": jnp.isfinite}

NPR_MATH_NAMES = frozenset(_NPR_MATH) | frozenset(_NPR_MATH_INT) | frozenset(_NPR_MATH_BOOL) | {"isclose"}


def _npr_nan_out(r, x, y):
    return jnp.isnan(r) & ~jnp.isnan(x) & ~jnp.isnan(y)


def _npr_math_pow_range(x, r, y):
    """math.pow's overflow: an infinite result of finite arguments (OverflowError; with x == 0,
    a negative power, ValueError: checked first)."""
    return jnp.isinf(r) & jnp.isfinite(x) & jnp.isfinite(y) & (x != 0)


def npr_math(fn, *args, **kwargs):
    """`fn(*args)` for a function `fn` of Python's math module: itself on concrete values; on
    traced ones its jnp counterpart on float64 (a Python float, weakly typed), with Python's
    ValueError/OverflowError raised by the compiled call where Python raises; NPR031 for a math
    function with no such counterpart (math.gamma of array data)."""
    args = [npr_load(a) for a in args]
    kwargs = {k: npr_load(v) for k, v in kwargs.items()}
    name = getattr(fn, "__name__", None)
    if fn is not getattr(math, name or "", None) or not _npr_traced_any(args + list(kwargs.values())):
        return fn(*args, **kwargs)
    if name not in NPR_MATH_NAMES:  # (gamma, lgamma, erf, factorial, comb...: no traced form is Python's)
        raise NprUnsupported("NPR031", f"math.{name}() of array data: no jax.numpy function gives Python's "
                       f"math.{name} value (compute it outside the function, or on Python numbers known "
                       "before the call)")
    if name == "isclose":
        return _npr_math_isclose(*args, **kwargs)
    if name in _NPR_MATH_INT or name in _NPR_MATH_BOOL:
        return _npr_math_int(name, *args)
    jf, out, kind, probe = _NPR_MATH[name]
    xs = [npr_float(a) for a in args]
    # float64, or float32 without x64 (dtype_policy="float32"): a float64 value there met float32
    # constants (`lax.eq requires arguments to have the same dtypes`, math.exp in two corpus programs)
    result = _npr_weak_astype(jf(*xs), jax.dtypes.canonicalize_dtype(np.float64))
    if out is not None:
        _npr_math_check(out(xs[0], result, *xs[1:]), kind, _npr_math_message(fn, probe))
    if name == "pow":
        _npr_math_check(_npr_math_pow_range(xs[0], result, xs[1]), OverflowError,
                        _npr_math_message(fn, (2.0, 1e300)))
    return result


def _npr_math_isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0):
    """math.isclose of traced values (a traced bool), as CPython decides it: equal values are
    close (infinities too), an infinity is close to nothing else, NaN to nothing; else
    |b - a| <= rel_tol * |b| or <= rel_tol * |a|, or <= abs_tol. Negative tolerances raise
    Python's ValueError when the call runs."""
    a, b, rel, tol = (npr_float(v) for v in (a, b, rel_tol, abs_tol))
    _npr_math_check((rel < 0) | (tol < 0), ValueError, ("tolerances must be non-negative",))
    diff = jnp.abs(b - a)
    near = (diff <= jnp.abs(rel * b)) | (diff <= jnp.abs(rel * a)) | (diff <= tol)
    return _npr_np_python_bool((a == b) | (near & ~jnp.isinf(a) & ~jnp.isinf(b)))


def _npr_math_message(fn, probe):
    """The args of the error Python's own fn raises for `probe` (its message, taken from Python)."""
    try:
        fn(*probe) if isinstance(probe, tuple) else fn(probe)
        return ("math domain error",)
    except (ValueError, OverflowError) as e:
        return e.args


def _npr_math_int(name, x):
    """math.floor/ceil/trunc (an int) and math.isnan/isinf/isfinite (a bool) of a traced value."""
    fn = getattr(math, name)
    x = npr_load(x)
    if np.ndim(x) != 0 and np.size(x) != 1:
        return fn(x)  # Python's TypeError ("only length-1 arrays...")
    x = jnp.reshape(jnp.asarray(x), ())
    if x.dtype.kind in "biu":  # an integer is finite, and its own floor
        if name in _NPR_MATH_BOOL:
            return name == "isfinite"
        return _npr_weak_astype(x.astype(jnp.int64), np.dtype(np.int64))
    x = npr_float(x)
    if name in _NPR_MATH_BOOL:
        return _npr_np_python_bool(_NPR_MATH_BOOL[name](x))  # a Python bool when returned
    _npr_math_check(jnp.isnan(x), ValueError, _npr_math_message(fn, math.nan))
    _npr_math_check(jnp.isinf(x), OverflowError, _npr_math_message(fn, math.inf))
    r = _NPR_MATH_INT[name](x)
    _npr_math_check((r >= 2.0 ** 63) | (r < -2.0 ** 63), NprError,
                    ("NPR031", f"math.{name} of a float beyond the int64 range (Python's int "
                     f"would hold it; np2ref's traced int is an int64)",))
    return _npr_weak_astype(r.astype(jnp.int64), np.dtype(np.int64))


def _npr_math_check(bad, kind, message):
    """The compiled call raises kind(*message) when the traced bool `bad` holds (and no earlier
    check failed). Not deduplicated as index checks are: sqrt and log of one value differ."""
    if not _npr_traced(bad):  # known now (a call run eagerly): Python raises now
        if bool(bad):
            raise kind(*message)
        return
    bounds = _npr_state.get("bounds")
    if bounds is not None:
        _npr_record_check(bounds, bad, jnp.zeros((), jnp.int32), kind, message)


# ---- library calls with an exact JAX counterpart (analysis/library_table.py) -----------------
# A tridiagonal solve: on CPU, jaxlib's LAPACK kernels are SciPy's own (it takes them from
# scipy.linalg.cython_lapack), so calling gtsv through them (compat.py: _npr_lapack_gtsv) gives
# scipy's results bit for bit: partial pivoting, factors, `info`, and the partial results of a
# singular system (measured: 800 random systems, 230 of them singular, every output identical).
# jax.lax.linalg.tridiagonal_solve calls the same routine but keeps only x (NaN when singular).

def _npr_gtsv(name, dl, d, du, b, factors=True):
    """LAPACK gtsv on (n - 1, n, n - 1, (n,) or (n, k)) arrays: (du2, d, du, x, info); with
    factors=False (x, info), x differentiable (_npr_gtsv_solve)."""
    if jax.default_backend() != "cpu":
        raise NprUnsupported("NPR112", f"{name} is translated only on CPU, where JAX's "
                             f"LAPACK is SciPy's")
    z = jnp.zeros((1,), d.dtype)
    args = (jnp.concatenate([z, dl]), d, jnp.concatenate([du, z]), b if b.ndim == 2 else b[:, None])
    if factors:
        out = _npr_lapack_gtsv(*args)
    elif _npr_state.get("differentiating"):
        # a loop body traced for differentiation is state-discharged, which inlines custom_jvp:
        # x from tridiagonal_solve (the same gtsv, the same bits; JAX differentiates it), info
        # from the kernel on values that carry no derivative
        info = _npr_lapack_gtsv(*[jax.lax.stop_gradient(a) for a in args])
        out = None if info is None else (jax.lax.linalg.tridiagonal_solve(*args), info[4])
    else:
        out = _npr_gtsv_solve(*args)
    if out is None:  # pragma: no cover (a jaxlib without its LAPACK gtsv kernel)
        raise NprUnsupported("NPR112", f"{name}: this jaxlib has no LAPACK gtsv kernel")
    x, info = out[-2:]
    x = x if b.ndim == 2 else x[:, 0]
    if not factors:
        return x, info
    dl2, d2, du2 = out[:3]
    return dl2[1:], d2, du2[:-1], x, info


@jax.custom_jvp
def _npr_gtsv_solve(dl, d, du, b):
    """(x, info) of LAPACK gtsv (dl, du padded to n, b (n, k)): SciPy's bits. Its derivative is
    the solve's: dx = A^-1 (db - dA x), the solve by jax.lax.linalg.tridiagonal_solve (which JAX
    differentiates and transposes, so jax.grad works; LAPACK's kernel has no rule of its own)."""
    out = _npr_lapack_gtsv(dl, d, du, b)
    return None if out is None else (out[3], out[4])


@_npr_gtsv_solve.defjvp
def _npr_gtsv_solve_jvp(primals, tangents):
    dl, d, du, b = primals
    tdl, td, tdu, tb = tangents
    x, info = _npr_gtsv_solve(dl, d, du, b)
    ax = td[:, None] * x  # the tangent matrix times x: row i is tdl[i] x[i-1] + td[i] x[i] + tdu[i] x[i+1]
    ax = ax.at[1:].add(tdl[1:, None] * x[:-1])
    ax = ax.at[:-1].add(tdu[:-1, None] * x[1:])
    tx = jax.lax.linalg.tridiagonal_solve(dl, d, du, tb - ax)
    return (x, info), (tx, np.zeros(info.shape, jax.dtypes.float0))


def _npr_lib_inputs(name, arrays, dtypes):
    arrays = [jnp.asarray(npr_load(a)) for a in arrays]
    found = {a.dtype for a in arrays}
    if len(found) != 1 or found.pop() not in dtypes:
        raise NprUnsupported("NPR112", f"{name} is translated for {' or '.join(map(str, dtypes))} "
                             f"arrays of one dtype (got {', '.join(str(a.dtype) for a in arrays)})")
    return arrays


def npr_lib_solve_banded(l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True):
    """scipy.linalg.solve_banded((1, 1), ab, b) for a tridiagonal `ab` of shape (3, n), n >= 2:
    LAPACK gtsv, and SciPy's errors raised by the compiled call when it runs (LinAlgError
    'singular matrix'; with check_finite, ValueError for infs or NaNs anywhere in ab or b)."""
    name = "scipy.linalg.solve_banded"
    if tuple(l_and_u) != (1, 1):
        raise NprUnsupported("NPR112", f"{name} is translated for (l, u) = (1, 1) (a "
                             f"tridiagonal system), not {tuple(l_and_u)}")
    ab, b = _npr_lib_inputs(name, (ab, b), (np.dtype(np.float64), np.dtype(np.float32)))
    if ab.ndim != 2 or ab.shape[0] != 3 or ab.shape[1] < 2 or b.ndim not in (1, 2) \
            or b.shape[0] != ab.shape[1]:
        raise NprUnsupported("NPR112", f"{name} is translated for ab of shape (3, n), n >= 2, "
                             f"and b of shape (n,) or (n, k) (got {ab.shape} and {b.shape})")
    if check_finite:
        finite = jnp.all(jnp.isfinite(ab)) & jnp.all(jnp.isfinite(b))
        _npr_math_check(~finite, ValueError, ("array must not contain infs or NaNs",))
    x, info = _npr_gtsv(name, ab[2, :-1], ab[1], ab[0, 1:], b, factors=False)
    # scipy.linalg.LinAlgError is NumPy's
    _npr_math_check(info > 0, np.linalg.LinAlgError, ("singular matrix",))
    return x


def npr_lib_dgtsv(dl, d, du, b, overwrite_dl=0, overwrite_d=0, overwrite_du=0, overwrite_b=0):
    """scipy.linalg.lapack.dgtsv(dl, d, du, b) -> (du2, d, du, x, info), LAPACK's own results."""
    name = "scipy.linalg.lapack.dgtsv"
    dl, d, du, b = _npr_lib_inputs(name, (dl, d, du, b), (np.dtype(np.float64),))
    n = d.shape[0] if d.ndim == 1 else 0
    if n < 2 or dl.shape != (n - 1,) or du.shape != (n - 1,) or b.ndim not in (1, 2) or b.shape[0] != n:
        raise NprUnsupported("NPR112", f"{name} is translated for dl, du of n - 1, d of n >= 2 "
                             f"elements and b of n rows")
    return _npr_gtsv(name, dl, d, du, b)


def npr_lib_copy(x):
    """`copy.copy(x)`: an array's copy is its current value (a Ref's is loaded; JAX never writes
    a value in place, and a copy that is written later becomes a Ref of its own); a list, dict
    or tuple a new container around the same items, as a shallow copy is; anything else
    Python's own."""
    x = npr_load(x)
    if isinstance(x, (jax.Array, np.ndarray)):
        return jnp.asarray(x) if isinstance(x, jax.Array) else x.copy()
    if type(x) in (list, dict):
        return type(x)(x)
    return _npr_copy.copy(x)


def npr_lib_deepcopy(x, memo=None):
    """`copy.deepcopy(x)`: arrays as copy.copy; containers of arrays and numbers rebuilt at every
    level (their leaves are values here); anything else Python's own."""
    x = npr_load(x)
    if isinstance(x, (jax.Array, np.ndarray)):
        return npr_lib_copy(x)
    if isinstance(x, (list, tuple, dict)):
        return jax.tree_util.tree_map(npr_lib_deepcopy, x)
    return _npr_copy.deepcopy(x, memo)


def npr_is_integer(v):
    """`v.is_integer()`: Python's (float, int) or NumPy's (its integer and float scalars) method on a
    concrete value; on traced data, a float is an integer when finite and equal to its floor, an
    integer always is, and what has no such method (an array, a bool, a complex) raises NumPy's
    AttributeError."""
    v = npr_load(v)
    if not _npr_traced(v):
        return v.is_integer()
    kind = np.dtype(v.dtype).kind
    what = "ndarray" if v.ndim else np.dtype(v.dtype).type.__name__
    if v.ndim or kind not in "iuf":
        raise AttributeError(f"'numpy.{what}' object has no attribute 'is_integer'")
    return True if kind in "iu" else jnp.isfinite(v) & (v == jnp.floor(v))




def _npr_py_round(x, n):
    """Python's `round(x, n)` of a traced float64 `x` and a known int `n` (0 <= n <= 22), on the
    device: CPython rounds the exact binary value of x to n decimals, half to even (`round(2.675,
    2)` is 2.67: 2.675 is 2.67499999999999982236431605997495353221893310546875), and returns the
    double nearest that decimal. Here: x * 10**n exactly as a pair hi + lo (Dekker's product: 10**n
    is exact to n = 22), k the integer nearest it, half to even (hi's own rounding, moved by one only
    where hi lies on a half and lo says to which side the exact product does), and k / 10**n, which
    IEEE division rounds correctly as strtod does (k < 2**53 and 10**n exact: its fast path). Where
    |x| * 10**n >= 2**53 the n-decimal grid is finer than x's own spacing: x itself. Zero, NaN and
    the infinities are x, a zero result has x's sign. None where that does not apply (another n; a
    TPU, whose float64 is a float32 pair: rounding on the host stays exact there)."""
    if type(n) is not int or not 0 <= n <= 22 or jax.default_backend() == "tpu" \
            or jnp.zeros((), np.float64).dtype != np.float64:
        return None
    p = float(10 ** n)
    small = jnp.abs(x * p) < 2.0 ** 53  # (else the exact product is above 2**53 - 1: x's spacing is coarser)
    xs = jnp.where(small, x, 0.0)  # (no overflow in the split of a large x, which is not used)
    hi = xs * p
    lo = _npr_two_product_error(xs, p, hi)
    r = jnp.round(hi)  # (half to even: a tie of the exact product, lo == 0, stays r)
    d = hi - r  # (exact, |d| <= 0.5; below 0.5, |d + lo| is too)
    k = r + jnp.where((d == 0.5) & (lo > 0), 1.0, 0.0) - jnp.where((d == -0.5) & (lo < 0), 1.0, 0.0)
    divisor = xs * 0.0 + p  # (10**n, a value of each element's own: XLA:CPU divides by a constant, or by one
    # value broadcast, as a product with its reciprocal, -92173 / 10 -> -9217.300000000001; under vmap too)
    rounded = jnp.copysign(k / divisor, x)
    return jnp.where(small & jnp.isfinite(x) & (x != 0), rounded, x)


def _npr_two_product_error(a, b, product):
    """a * b - product exactly (Dekker: Veltkamp's split of each factor into 26-bit halves; exact
    wherever nothing overflows or underflows)."""
    def split(v):
        c = 134217729.0 * v  # 2**27 + 1
        high = c - (c - v)
        return high, v - high
    ah, al = split(a)
    bh, bl = split(b)
    return ((ah * bh - product) + ah * bl + al * bh) + al * bl
