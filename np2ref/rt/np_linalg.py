"""NumPy shims: linear algebra, dtype functions, ufunc methods."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import warnings

from .core import _npr_above, NprUnsupported
from .np_creation import _npr_np_concrete
from .np_dtypes import (
    _npr_np_asarray, _npr_np_check_out, _npr_np_dtype_of, _npr_np_inexact, _npr_np_is_py,
    _npr_np_probe, _npr_np_proto, _npr_np_result_dtype, _npr_np_weak)
from .np_shape import _npr_np_join_dtype, npr_np_concatenate
from .np_ufuncs import (
    npr_np_add, npr_np_divide, npr_np_logical_and, npr_np_logical_or, npr_np_maximum,
    npr_np_minimum, npr_np_multiply, npr_np_subtract)
from .pymath import _npr_math_check
from .wrapping import _npr_to_signed, _npr_to_unsigned, _npr_unsigned_of


# ---------------------------------------------------------------- linear algebra
def _npr_np_dot_like(jf, name, narr=2, weak=False, pet=True):
    # Products: NumPy converts the operands with asarray (Python scalars are
    # strong int64/float64, unless weak=True for ufunc-based ones), computes
    # in their result_type; bool products are logical (computed as ints).
    def f(*args, **kwargs):
        out = kwargs.pop("out", None)
        _npr_np_check_out(out)
        if not kwargs and any(isinstance(a, _npr_above.NprMasked) for a in args):  # a slice of traced length
            return _npr_above.masked_call(name, f, args)  # (windows.py)
        if narr is None:  # einsum: subscripts first, then operands
            head, ops, tail = list(args[:1]), list(args[1:]), []
        else:
            head, ops, tail = [], list(args[:narr]), list(args[narr:])
        pick = _npr_np_weak if weak else _npr_np_dtype_of
        dt = np.result_type(*[pick(a) for a in ops])
        cdt = np.dtype(np.int64) if dt == np.bool_ else dt
        conv = [_npr_np_asarray(a, cdt) for a in ops]
        wdt = _npr_unsigned_of(cdt)  # a signed product on its unsigned bits (wrapping.py)
        conv = conv if wdt is None else [_npr_to_unsigned(a, cdt) for a in conv]
        if pet and cdt.kind in "iu":
            kwargs.setdefault("preferred_element_type", cdt if wdt is None else conv[0].dtype)
        r = jnp.asarray(jf(*head, *conv, *tail, **kwargs))
        r = r if wdt is None else _npr_to_signed(r, cdt)
        return (r != 0) if dt == np.bool_ else r.astype(dt)

    f.__name__ = f.__qualname__ = "npr_np_" + name
    return f


npr_np_dot = _npr_np_dot_like(jnp.dot, "dot")
npr_np_vdot = _npr_np_dot_like(jnp.vdot, "vdot")
npr_np_inner = _npr_np_dot_like(jnp.inner, "inner")
npr_np_outer = _npr_np_dot_like(jnp.outer, "outer", pet=False)
npr_np_matmul = _npr_np_dot_like(jnp.matmul, "matmul")
npr_np_vecdot = _npr_np_dot_like(jnp.vecdot, "vecdot")
npr_np_matvec = _npr_np_dot_like(jnp.matvec, "matvec", pet=False)
npr_np_vecmat = _npr_np_dot_like(jnp.vecmat, "vecmat", pet=False)
npr_np_tensordot = _npr_np_dot_like(jnp.tensordot, "tensordot")
npr_np_kron = _npr_np_dot_like(jnp.kron, "kron", pet=False)
npr_np_cross = _npr_np_dot_like(jnp.cross, "cross", pet=False)
npr_np_convolve = _npr_np_dot_like(jnp.convolve, "convolve")
npr_np_correlate = _npr_np_dot_like(jnp.correlate, "correlate")
npr_np_einsum = _npr_np_dot_like(jnp.einsum, "einsum", narr=None)
npr_np_linalg_outer = npr_np_outer
npr_np_linalg_cross = npr_np_cross
npr_np_linalg_matmul = npr_np_matmul
npr_np_linalg_vecdot = npr_np_vecdot


def npr_np_linalg_multi_dot(arrays, *, out=None):
    _npr_np_check_out(out)
    dt = _npr_np_join_dtype(arrays, None)
    cdt = np.dtype(np.int64) if dt == np.bool_ else dt
    r = jnp.linalg.multi_dot([_npr_np_asarray(a, cdt) for a in arrays])
    return (r != 0) if dt == np.bool_ else r.astype(dt)


def _npr_np_linalg(jf, name, int_out=(), check=None):
    # numpy.linalg computes integer/bool input in float64; mixed float32 and
    # float64 in float64. `check(*args, **kwargs)`: NumPy's LinAlgError, when the call runs
    def f(*args, **kwargs):
        arrs = [a for a in args if hasattr(a, "dtype") or isinstance(a, (list, tuple))]
        dt = _npr_np_inexact(np.result_type(*[_npr_np_dtype_of(a) for a in arrs])) if arrs else None
        conv = [_npr_np_asarray(a, dt) if (hasattr(a, "dtype") or isinstance(a, (list, tuple))) else a for a in args]
        if check is not None:
            check(*conv, **kwargs)
        result = jf(*conv, **kwargs)
        if hasattr(result, "_fields"):  # jax.numpy's EighResult, SVDResult...: NumPy's own type
            result = _npr_np_linalg_result(name)(*result)
        return result

    f.__name__ = f.__qualname__ = "npr_np_linalg_" + name
    return f


@functools.cache
def _npr_np_linalg_result(name):
    """numpy.linalg's named-tuple type of `name`'s result (EighResult, SVDResult, QRResult...)."""
    return type(getattr(np.linalg, name)(np.eye(2)))


# numpy.linalg's LinAlgError, checked when the compiled call runs (pymath.py _npr_math_check;
# not under .pure or a caller's jit, as for every run-time check), where jax.numpy returns
# infinities or NaN:
# - inv, solve, tensorinv, tensorsolve: "Singular matrix" when LAPACK's LU (getrf, the one
#   jax.numpy's solve makes on a CPU too) meets an exact zero pivot. The check factors once more
#   (n^3 / 3 multiply-adds beside inv's n^3).
# - cholesky: "Matrix is not positive definite" when potrf stops (a pivot <= 0): JAX's result is
#   NaN there, where the input's lower triangle held none (a NaN pivot does not stop potrf).
# - the SVD's users (svd, svdvals, pinv, lstsq, cond and norm of order 2, -2 or 'nuc'): "SVD did
#   not converge" for a NaN in the matrix (measured: infinities converge, but lstsq's gelsd).
# cholesky, eigh and eigvalsh read one triangle of the matrix, as LAPACK does (jax.numpy
# averages it with its transpose first: another answer for a matrix that is not symmetric).

def _npr_np_linalg_error(bad, message):
    _npr_math_check(bad, np.linalg.LinAlgError, (message,))


def _npr_np_singular(a, *rest, **kwargs):
    a = jnp.asarray(a)
    if a.ndim >= 2 and a.shape[-1] == a.shape[-2] and a.shape[-1]:
        lu = jax.lax.linalg.lu(a)[0]
        _npr_np_linalg_error(jnp.any(jnp.diagonal(lu, axis1=-2, axis2=-1) == 0), "Singular matrix")


def _npr_np_square_of(a, rows):
    """`a` as the square matrix of its first axes (`rows` elements) and the rest, when it is one."""
    a = jnp.asarray(a)
    if rows and a.size == rows * rows:
        _npr_np_singular(a.reshape(rows, rows))


def _npr_np_tensorinv_singular(a, ind=2):
    _npr_np_square_of(a, int(np.prod(np.shape(a)[:ind])))


def _npr_np_tensorsolve_singular(a, b, axes=None):
    if axes is None:  # (with axes=, a's axes are moved first: left to the solve)
        _npr_np_square_of(a, int(np.prod(np.shape(b))))


def _npr_np_not_finite_svd(a, *rest, message="SVD did not converge", infinities=False, **kwargs):
    """NumPy's 'SVD did not converge' for a NaN in the matrix (`infinities`: an inf too, as
    lstsq's gelsd)."""
    a = jnp.asarray(a)
    if a.ndim >= 2 and jnp.issubdtype(a.dtype, jnp.inexact):
        bad = ~jnp.isfinite(a) if infinities else jnp.isnan(a)
        _npr_np_linalg_error(jnp.any(bad), message)


def _npr_np_svd_norm(x, ord=None, *rest, **kwargs):
    if np.ndim(x) >= 2 and ord in (2, -2, "nuc"):
        _npr_np_not_finite_svd(x)


def _npr_np_svd_cond(x, p=None):
    if p in (None, 2, -2):
        _npr_np_not_finite_svd(x)


def _npr_np_cond(x, p=None):
    """NumPy's cond: a NaN from a matrix without one (an infinity in it) is inf."""
    r = jnp.linalg.cond(x, p)
    return jnp.where(jnp.isnan(r) & ~jnp.any(jnp.isnan(jnp.asarray(x)), axis=(-2, -1)), jnp.inf, r)


def _npr_np_cholesky(a, upper=False):
    """NumPy reads the lower triangle, or the upper one for upper=True (measured: jax.numpy's
    upper=True reads the lower one and transposes, another answer): the lower factor of a's
    conjugate transpose there, transposed back."""
    a = jnp.asarray(a)
    flip = lambda m: jnp.conj(jnp.swapaxes(m, -1, -2))  # noqa: E731
    read = flip(a) if upper else a
    chol = jnp.linalg.cholesky(read, symmetrize_input=False)
    _npr_np_linalg_error(jnp.any(jnp.isnan(chol)) & ~jnp.any(jnp.isnan(jnp.tril(read))),
                         "Matrix is not positive definite")
    return flip(chol) if upper else chol


def _npr_np_eigh(a, UPLO="L"):
    return jnp.linalg.eigh(a, UPLO=UPLO, symmetrize_input=False)


def _npr_np_eigvalsh(a, UPLO="L"):
    return jnp.linalg.eigvalsh(a, UPLO=UPLO, symmetrize_input=False)


npr_np_linalg_solve = _npr_np_linalg(jnp.linalg.solve, "solve", check=_npr_np_singular)
npr_np_linalg_inv = _npr_np_linalg(jnp.linalg.inv, "inv", check=_npr_np_singular)
npr_np_linalg_det = _npr_np_linalg(jnp.linalg.det, "det")
npr_np_linalg_slogdet = _npr_np_linalg(jnp.linalg.slogdet, "slogdet")
npr_np_linalg_eigh = _npr_np_linalg(_npr_np_eigh, "eigh")
npr_np_linalg_eigvalsh = _npr_np_linalg(_npr_np_eigvalsh, "eigvalsh")
npr_np_linalg_cholesky = _npr_np_linalg(_npr_np_cholesky, "cholesky")
npr_np_linalg_qr = _npr_np_linalg(jnp.linalg.qr, "qr")
npr_np_linalg_svd = _npr_np_linalg(jnp.linalg.svd, "svd", check=_npr_np_not_finite_svd)
npr_np_linalg_svdvals = _npr_np_linalg(jnp.linalg.svdvals, "svdvals", check=_npr_np_not_finite_svd)
npr_np_linalg_pinv = _npr_np_linalg(jnp.linalg.pinv, "pinv", check=_npr_np_not_finite_svd)
npr_np_linalg_cond = _npr_np_linalg(_npr_np_cond, "cond", check=_npr_np_svd_cond)
npr_np_linalg_tensorsolve = _npr_np_linalg(jnp.linalg.tensorsolve, "tensorsolve", check=_npr_np_tensorsolve_singular)
npr_np_linalg_tensorinv = _npr_np_linalg(jnp.linalg.tensorinv, "tensorinv", check=_npr_np_tensorinv_singular)
npr_np_linalg_norm = _npr_np_linalg(jnp.linalg.norm, "norm", check=_npr_np_svd_norm)
npr_np_linalg_vector_norm = _npr_np_linalg(jnp.linalg.vector_norm, "vector_norm")
npr_np_linalg_matrix_norm = _npr_np_linalg(jnp.linalg.matrix_norm, "matrix_norm")


def npr_np_linalg_lstsq(a, b, rcond=None):
    dt = _npr_np_inexact(_npr_np_result_dtype(a, b))
    A = _npr_np_asarray(a, dt)
    _npr_np_not_finite_svd(A, message="SVD did not converge in Linear Least Squares", infinities=True)
    x, res, rank, sv = jnp.linalg.lstsq(A, _npr_np_asarray(b, dt), rcond=rcond)
    if A.shape[-2] <= A.shape[-1]:
        # NumPy returns empty residuals when M <= N (also when rank < N,
        # which is data-dependent and not reproduced).
        res = jnp.zeros((0,), res.dtype)
    return x, res, rank.astype(np.int32), sv


def npr_np_polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """np.polyfit's coefficients (least squares on the column-scaled Vandermonde matrix, as
    NumPy solves it; the SVD is XLA's, so values agree to rounding, as lstsq's do), in NumPy's
    dtype (float64 for integers). NumPy's RankWarning is not issued; full= and cov= are
    refused."""
    if full or cov is not False:
        raise NprUnsupported("NPR004", "np.polyfit with full= or cov= is not translated")
    dt = _npr_np_probe(np.polyfit, np.arange(3.0).astype(_npr_np_dtype_of(x)), np.zeros(3, _npr_np_dtype_of(y)), 1).dtype
    deg = _npr_np_concrete(deg)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    xs, ys = _npr_np_asarray(x, dt), _npr_np_asarray(y, dt)
    if xs.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if xs.size == 0:
        raise TypeError("expected non-empty vector for x")
    if ys.ndim < 1 or ys.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if xs.shape[0] != ys.shape[0]:
        raise TypeError("expected x and y to have same length")
    weights = None if w is None else _npr_np_asarray(w, dt)
    return jnp.polyfit(xs, ys, int(deg), rcond=rcond, w=weights)


def npr_np_polyder(p, m=1):
    """np.polyder: NumPy's own steps, p[:-1] * arange(n, 0, -1) m times, with NumPy's dtypes
    (an int64 arange: float32 coefficients give float64, bool int64); m=0 gives p itself."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = _npr_np_asarray(p)
    for _ in range(m):
        p = npr_np_multiply(p[:-1], jnp.arange(len(p) - 1, 0, -1, dtype=np.int64))
    return p


def npr_np_polyint(p, m=1, k=None):
    """np.polyint: NumPy's own steps, concatenate((p / arange(len(p), 0, -1), [k[j]])) for each
    of the m integrations (true division: float64 for ints and float32; the constants keep
    their dtype, float64 zeros by default), NumPy's errors for m < 0 or too few constants."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k = jnp.atleast_1d(jnp.zeros(m, np.float64) if k is None else _npr_np_asarray(k))
    if len(k) == 1 and m > 1:
        k = npr_np_multiply(k[0], jnp.ones(m, np.float64))
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    p = _npr_np_asarray(p)
    for j in range(m):
        p = npr_np_concatenate((npr_np_divide(p, jnp.arange(len(p), 0, -1, dtype=np.int64)), k[j:j + 1]))
    return p


def _npr_np_poly_join(op):
    def f(a1, a2):
        """np.polyadd / np.polysub: NumPy's own steps, the shorter one led by zeros of its dtype."""
        a1, a2 = jnp.atleast_1d(_npr_np_asarray(a1)), jnp.atleast_1d(_npr_np_asarray(a2))
        diff = len(a2) - len(a1)
        if diff > 0:
            a1 = npr_np_concatenate((jnp.zeros(diff, a1.dtype), a1))
        elif diff < 0:
            a2 = npr_np_concatenate((jnp.zeros(-diff, a2.dtype), a2))
        return op(a1, a2)
    return f


npr_np_polyadd = _npr_np_poly_join(npr_np_add)
npr_np_polysub = _npr_np_poly_join(npr_np_subtract)


def npr_np_linalg_matrix_power(a, n):
    x = _npr_np_asarray(a)
    if n < 0:
        x = x.astype(_npr_np_inexact(x.dtype))
        _npr_np_singular(x)  # NumPy inverts first: LinAlgError for a singular matrix
    elif x.dtype == np.bool_ and n > 0:
        r = x
        for _ in range(n - 1):
            r = jnp.matmul(r.astype(np.int8), x.astype(np.int8)) != 0
        return r
    return jnp.linalg.matrix_power(x, n)


# ---------------------------------------------------------------- dtypes
def npr_np_result_type(*arrays_and_dtypes):
    ops = []
    for a in arrays_and_dtypes:
        if _npr_np_is_py(a) or isinstance(a, (np.dtype, type, str)):
            ops.append(a)
        else:
            ops.append(_npr_np_dtype_of(a))
    return np.result_type(*ops)


# ---------------------------------------------------------------- ufunc methods
# np.<ufunc>.reduce / .accumulate, as attributes of the ufunc shims above (the table maps
# numpy.add.reduce to npr_np_add.reduce; .outer is made with every binary ufunc shim).
def _npr_np_ufunc_reduce(npf, jf, takes_dtype, takes_initial):
    # npf.reduce: axis=0 by default; NumPy's result dtype (small ints add in int64) from NumPy
    # itself on a stand-in, which also raises NumPy's errors (empty maximum, where= without
    # initial= on a ufunc with no identity).
    def reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True):
        _npr_np_check_out(out)
        x = _npr_np_asarray(array)
        extra = {} if initial is None else {"initial": initial}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            dt = np.asarray(npf.reduce(_npr_np_proto(x), axis=axis, dtype=dtype, keepdims=keepdims,
                                       where=_npr_np_proto(where), **extra)).dtype
        kw = {"axis": axis, "keepdims": keepdims, "where": None if where is True else _npr_np_asarray(where)}
        if takes_dtype:
            kw["dtype"] = dt
        if takes_initial and initial is not None:
            kw["initial"] = initial
        r = jf(x, **kw)
        if initial is not None and not takes_initial:
            r = getattr(jnp, npf.__name__)(r, initial)
        return _npr_np_asarray(r, dt)

    reduce.__name__ = reduce.__qualname__ = f"npr_np_{npf.__name__}_reduce"
    return reduce


npr_np_add.reduce = _npr_np_ufunc_reduce(np.add, jnp.sum, True, True)
npr_np_multiply.reduce = _npr_np_ufunc_reduce(np.multiply, jnp.prod, True, True)
npr_np_maximum.reduce = _npr_np_ufunc_reduce(np.maximum, jnp.max, False, True)
npr_np_minimum.reduce = _npr_np_ufunc_reduce(np.minimum, jnp.min, False, True)
npr_np_logical_and.reduce = _npr_np_ufunc_reduce(np.logical_and, jnp.all, False, False)
npr_np_logical_or.reduce = _npr_np_ufunc_reduce(np.logical_or, jnp.any, False, False)


def _npr_np_ufunc_accumulate(npf, jf):
    def accumulate(array, axis=0, dtype=None, out=None):
        _npr_np_check_out(out)
        x = _npr_np_asarray(array)
        dt = npf.accumulate(_npr_np_proto(x), axis=axis, dtype=dtype).dtype
        if dt == np.bool_:  # lax's cummax/cummin take numbers: bools as 0/1
            return jf(x.astype(np.uint8), axis % x.ndim).astype(dt)
        return _npr_np_asarray(jf(x.astype(dt), axis % x.ndim), dt)

    accumulate.__name__ = accumulate.__qualname__ = f"npr_np_{npf.__name__}_accumulate"
    return accumulate


npr_np_add.accumulate = _npr_np_ufunc_accumulate(np.add, jax.lax.cumsum)
npr_np_multiply.accumulate = _npr_np_ufunc_accumulate(np.multiply, jax.lax.cumprod)
npr_np_maximum.accumulate = _npr_np_ufunc_accumulate(np.maximum, jax.lax.cummax)
npr_np_minimum.accumulate = _npr_np_ufunc_accumulate(np.minimum, jax.lax.cummin)


# ---------------------------------------------------------------- discrete Fourier transforms
# NumPy 2's np.fft computes float32 and complex64 input in single precision and everything else
# (ints, bool, float64) in double; jnp.fft computes int32, int16, int8, uint8 and bool input in
# single precision: those are made float64 first. float16 input NumPy computes in float32 and gives
# back float16 from irfft and hfft but float32 from irfft2: refused rather than guessed.
def _npr_np_fft(name, real_input):
    jf = getattr(jnp.fft, name)
    if name.endswith("2"):  # jnp's fft2 takes exactly two axes, NumPy's any: fftn on the last two
        jn = getattr(jnp.fft, name[:-1] + "n")
        jf = lambda a, s=None, axes=(-2, -1), norm=None: jn(a, s, axes, norm)  # noqa: E731

    def f(a, *args, out=None, **kwargs):
        if out is not None:
            raise NprUnsupported("NPR004", f"np.fft.{name}(..., out=) is not translated: "
                                 "assign its result instead", call=f"np.fft.{name}")
        a = _npr_np_asarray(a)
        if a.dtype == np.float16:
            raise NprUnsupported("NPR004", f"np.fft.{name} of float16 data is not translated: "
                                 "cast it to float32 first")
        if a.dtype.kind == "c":
            if real_input:
                raise TypeError(f"ufunc '{name}' not supported for the input types, and the inputs could "
                                "not be safely coerced to any supported types according to the casting rule 'safe'")
        elif a.dtype != np.float32:
            a = a.astype(jnp.float64)
        return jf(a, *args, **kwargs)

    f.__name__ = f.__qualname__ = f"npr_np_fft_{name}"
    return f


npr_np_fft_fft = _npr_np_fft("fft", False)
npr_np_fft_ifft = _npr_np_fft("ifft", False)
npr_np_fft_fft2 = _npr_np_fft("fft2", False)
npr_np_fft_ifft2 = _npr_np_fft("ifft2", False)
npr_np_fft_fftn = _npr_np_fft("fftn", False)
npr_np_fft_ifftn = _npr_np_fft("ifftn", False)
npr_np_fft_irfft = _npr_np_fft("irfft", False)
npr_np_fft_irfft2 = _npr_np_fft("irfft2", False)
npr_np_fft_irfftn = _npr_np_fft("irfftn", False)
npr_np_fft_hfft = _npr_np_fft("hfft", False)
npr_np_fft_rfft = _npr_np_fft("rfft", True)  # real input only
npr_np_fft_rfft2 = _npr_np_fft("rfft2", True)  # real input only
npr_np_fft_rfftn = _npr_np_fft("rfftn", True)  # real input only
npr_np_fft_ihfft = _npr_np_fft("ihfft", True)  # real input only


def npr_np_fft_fftshift(x, axes=None):
    return jnp.fft.fftshift(_npr_np_asarray(x), axes)


def npr_np_fft_ifftshift(x, axes=None):
    return jnp.fft.ifftshift(_npr_np_asarray(x), axes)


def _npr_np_fft_freq(ints, n, d, device):
    # NumPy's own arithmetic: int64 sample indices times 1.0 / (n * d), in float64
    if device is not None:
        raise NprUnsupported("NPR004", "np.fft.fftfreq(device=) is not translated", call="np.fft.fftfreq")
    if isinstance(d, (int, float)) and not isinstance(d, bool) or isinstance(d, np.generic):
        return jnp.asarray(ints * (1.0 / (n * d)))
    val = 1.0 / (n * jnp.asarray(d))
    return jnp.asarray(ints, jnp.float64) * val.astype(jnp.float64)


def npr_np_fft_fftfreq(n, d=1.0, device=None):
    n = _npr_np_concrete(n)
    k = np.arange(n, dtype=np.int64)
    return _npr_np_fft_freq(np.where(k < (n - 1) // 2 + 1, k, k - n), n, d, device)


def npr_np_fft_rfftfreq(n, d=1.0, device=None):
    n = _npr_np_concrete(n)
    return _npr_np_fft_freq(np.arange(n // 2 + 1, dtype=np.int64), n, d, device)


