"""NumPy shims: reductions."""

import jax.numpy as jnp
import numpy as np
import warnings

from .casts import npr_cast
from .core import _npr_above
from .np_dtypes import (
    _npr_np_asarray, _npr_np_check_out, _npr_np_dtype_of, _npr_np_inexact, _npr_np_is_py,
    _npr_np_probe)


# ---------------------------------------------------------------- reductions
def _npr_np_acc_dtype(npf, a, dtype):
    # Accumulator/result dtype NumPy uses: small ints and bools go to the
    # platform int (int64), small unsigned to uint64, or dtype= if given.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return npf(np.ones((1,), _npr_np_dtype_of(a)), dtype=dtype).dtype


def _npr_np_acc_input(x, dt, op="reduce"):
    # A float input accumulated in an integer dtype= is cast first, as NumPy casts it (npr_cast)
    return npr_cast(x, dt, op) if x.dtype.kind == "f" and dt.kind in "iu" else x


def _npr_np_accumulate(npf, jf):
    # np.sum / np.prod with NumPy's accumulator dtype (a float input cast to an integer dtype=)
    def f(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
        _npr_np_check_out(out)
        x = _npr_np_asarray(a)
        dt = _npr_np_acc_dtype(npf, x, dtype)
        x = _npr_np_acc_input(x, dt)
        return jf(x, axis=axis, dtype=dt, keepdims=keepdims, initial=initial, where=where)

    f.__name__ = f.__qualname__ = "npr_np_" + npf.__name__
    return f


npr_np_sum = _npr_np_accumulate(np.sum, jnp.sum)
npr_np_prod = _npr_np_accumulate(np.prod, jnp.prod)


def _npr_np_cumulative(npf, jf):
    def f(a, axis=None, dtype=None, out=None):
        _npr_np_check_out(out)
        x = _npr_np_asarray(a)
        dt = _npr_np_acc_dtype(npf, x, dtype)
        if npf in (np.cumsum, np.cumprod):  # the nan* ones replace NaN before they cast
            x = _npr_np_acc_input(x, dt, 'cast')
        return jf(x, axis=axis, dtype=dt)

    f.__name__ = f.__qualname__ = "npr_np_" + npf.__name__
    return f


npr_np_cumsum = _npr_np_cumulative(np.cumsum, jnp.cumsum)
npr_np_cumprod = _npr_np_cumulative(np.cumprod, jnp.cumprod)
npr_np_nancumsum = _npr_np_cumulative(np.nancumsum, jnp.nancumsum)
npr_np_nancumprod = _npr_np_cumulative(np.nancumprod, jnp.nancumprod)


def npr_np_cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    _npr_np_check_out(out)
    x = _npr_np_asarray(x)
    dt = _npr_np_acc_dtype(np.cumprod, x, dtype)
    x = _npr_np_acc_input(x, dt, 'cast')
    return jnp.cumulative_prod(x, axis=axis, dtype=dt, include_initial=include_initial)


def _npr_np_arg_extreme(jf, largest):
    # np.argmax / np.argmin; complex input as NumPy orders it: by the real part, then the
    # imaginary one, the first occurrence, a NaN in either part first of all
    def f(a, axis=None, out=None, *, keepdims=False):
        _npr_np_check_out(out)
        x = _npr_np_asarray(a)
        if x.dtype.kind != "c":
            return jf(x, axis=axis, keepdims=keepdims)
        flat = axis is None
        y = x.reshape(-1) if flat else x
        ax = 0 if flat else axis
        extreme, bound = (jnp.max, -jnp.inf) if largest else (jnp.min, jnp.inf)
        re, im = jnp.real(y), jnp.imag(y)
        tied = re == extreme(re, axis=ax, keepdims=True)
        pick = tied & (im == extreme(jnp.where(tied, im, bound), axis=ax, keepdims=True))
        nan = jnp.isnan(re) | jnp.isnan(im)
        idx = jnp.where(jnp.any(nan, axis=ax), jnp.argmax(nan, axis=ax), jnp.argmax(pick, axis=ax))
        if keepdims:
            idx = idx.reshape((1,) * x.ndim) if flat else jnp.expand_dims(idx, ax)
        return idx

    f.__name__ = f.__qualname__ = "npr_np_" + jf.__name__
    return f


npr_np_argmax = _npr_np_arg_extreme(jnp.argmax, True)
npr_np_argmin = _npr_np_arg_extreme(jnp.argmin, False)


def _npr_np_moment_dtypes(npf, x, dtype):
    # NumPy computes integer inputs in float64 (float16 in float32) and
    # returns float64 (float16), or dtype= if given.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            rdt = npf(np.ones((2,), x.dtype), dtype=dtype).dtype
    return rdt, (rdt if rdt != np.float16 else np.dtype(np.float32))


def _npr_np_moment(npf, jf, has_ddof):
    # mean/var/std family, with NumPy's signatures.
    if not has_ddof:
        def f(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
            _npr_np_check_out(out)
            if npf is np.mean and isinstance(a, _npr_above.NprMasked) and where is None:
                return a.mean(axis, dtype, keepdims)  # a slice of traced length (windows_more.py)
            x = _npr_np_asarray(a)
            rdt, cdt = _npr_np_moment_dtypes(npf, x, dtype)
            return jf(x, axis=axis, dtype=cdt, keepdims=keepdims, where=where).astype(rdt)
    else:
        def f(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None, correction=None):
            _npr_np_check_out(out)
            if mean is not None:
                raise NotImplementedError("np2ref: mean= is not supported")
            x = _npr_np_asarray(a)
            rdt, cdt = _npr_np_moment_dtypes(npf, x, dtype)
            if correction is not None:
                ddof = correction
            if where is None and isinstance(ddof, (int, float)) and not isinstance(ddof, bool) and x.size and \
                    np.prod([x.shape[d] for d in np.atleast_1d(np.arange(x.ndim) if axis is None else axis)]) <= ddof:
                # NumPy divides by max(n - ddof, 0): inf from a spread, nan from none (jnp: nan)
                spread = jf(x, axis=axis, ddof=0, keepdims=keepdims)
                return jnp.where(spread > 0, jnp.inf, jnp.nan).astype(rdt)
            if rdt == np.float16 and npf in (np.var, np.std):
                return _npr_np_half_var(x, axis, ddof, keepdims, where, npf is np.std)
            if x.dtype.kind == "c" and dtype is None:  # a real result: jnp takes no real dtype= for it
                return jf(x, axis=axis, ddof=ddof, keepdims=keepdims, where=where).astype(rdt)
            return jf(x, axis=axis, dtype=cdt, ddof=ddof, keepdims=keepdims, where=where).astype(rdt)

    f.__name__ = f.__qualname__ = "npr_np_" + npf.__name__
    return f


def _npr_np_half_var(x, axis, ddof, keepdims, where, root):
    """np.var / np.std of float16 as NumPy computes them: every step rounded to float16 (each
    sum accumulated in float32, then rounded), so that a variance past float16's range is inf
    in the standard deviation too (jnp.std in float32 gave 288.8 where NumPy gives inf)."""
    x, half = x.astype(np.float16), np.float16
    total = jnp.sum(x, axis=axis, dtype=jnp.float32, keepdims=True, where=where).astype(half)
    count = jnp.sum(jnp.broadcast_to(True if where is None else where, x.shape), axis=axis, keepdims=True)
    dev = x - total / count.astype(half)
    spread = jnp.sum(dev * dev, axis=axis, dtype=jnp.float32, keepdims=keepdims, where=where).astype(half)
    count = count if keepdims else jnp.squeeze(count, axis=axis)
    var = spread / jnp.maximum(count - ddof, 0).astype(half)
    return jnp.sqrt(var) if root else var


npr_np_mean = _npr_np_moment(np.mean, jnp.mean, False)
npr_np_nanmean = _npr_np_moment(np.nanmean, jnp.nanmean, False)
npr_np_var = _npr_np_moment(np.var, jnp.var, True)
npr_np_std = _npr_np_moment(np.std, jnp.std, True)
npr_np_nanvar = _npr_np_moment(np.nanvar, jnp.nanvar, True)
npr_np_nanstd = _npr_np_moment(np.nanstd, jnp.nanstd, True)


def _npr_np_order_stat(npf, jf, has_q):
    # median/percentile/quantile family: result dtype from NumPy on a
    # stand-in; float results computed in that dtype.
    def f(a, *args, out=None, overwrite_input=False, **kw):
        _npr_np_check_out(out)
        x = _npr_np_asarray(a)
        args = list(args)
        if has_q:
            q = args[0] if args else kw.pop("q")
            args = args[1:]
            qa = _npr_np_asarray(q) if not _npr_np_is_py(q) else q
            rdt = _npr_np_probe(npf, x, q, **{k: v for k, v in kw.items() if k in ("method", "weights")}).dtype
            args = [qa] + args
        else:
            rdt = _npr_np_probe(npf, x).dtype
        if rdt.kind in "fc":
            x = x.astype(rdt)
            if has_q and not _npr_np_is_py(args[0]):
                args[0] = args[0].astype(rdt)
        return jnp.asarray(jf(x, *args, **kw)).astype(rdt)

    f.__name__ = f.__qualname__ = "npr_np_" + npf.__name__
    return f


npr_np_median = _npr_np_order_stat(np.median, jnp.median, False)
npr_np_nanmedian = _npr_np_order_stat(np.nanmedian, jnp.nanmedian, False)
npr_np_percentile = _npr_np_order_stat(np.percentile, jnp.percentile, True)
npr_np_nanpercentile = _npr_np_order_stat(np.nanpercentile, jnp.nanpercentile, True)
npr_np_quantile = _npr_np_order_stat(np.quantile, jnp.quantile, True)
npr_np_nanquantile = _npr_np_order_stat(np.nanquantile, jnp.nanquantile, True)


def npr_np_average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    x = _npr_np_asarray(a)
    if weights is None:
        rdt = _npr_np_inexact(x.dtype)
        avg = jnp.mean(x.astype(rdt), axis=axis, keepdims=keepdims)
        scl = jnp.asarray(np.prod([x.shape[i] for i in range(x.ndim)]) if axis is None else
                          np.prod([x.shape[i] for i in np.atleast_1d(axis)]), dtype=rdt)
        scl = jnp.broadcast_to(scl, avg.shape)
    else:
        w = _npr_np_asarray(weights)
        rdt = np.result_type(x.dtype, w.dtype, np.float64) if x.dtype.kind in "biu" else np.result_type(x.dtype, w.dtype)
        rdt = _npr_np_inexact(rdt)
        avg, scl = jnp.average(x.astype(rdt), axis=axis, weights=w.astype(rdt), returned=True, keepdims=keepdims)
    if returned:
        return avg, scl
    return avg


