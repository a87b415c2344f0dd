"""float64 transcendental functions from float64 additions, multiplications and divisions, for
a backend whose own float64 `sin`, `exp`, `tanh`... are not NumPy's to 1e-9 (issue 38: the
TPU, docs/tpu.md).

A TPU has no float64 unit: XLA emulates float64 with a pair of float32 values (about 48 bits
of mantissa, float32's exponent range), and its float64 transcendental functions lost up to
float32's precision (iir_filter's coefficients `np.sin(w0)`, `np.cos(w0)`: a relative error of
5e-7 in the result; measured in benchmarks/tpu_probe.py). Additions, multiplications and
divisions keep the pair's precision (1e-14), so a function computed from them alone does too:
each formulation (float64_math.py) is a range reduction by exact scalings and a short polynomial (or one
Newton step from the float32 function's answer), exact to a few ulps in IEEE float64 (the CPU
tests run them there) and to the emulation's precision on the TPU.

The rewrite replaces each float64 equation of these primitives in the jitted call's program
(loop and branch bodies included) by the equations of its formulation, traced by JAX. Another
float64 transcendental the table does not cover (erf, lgamma, asin, ...) is refused on such a
backend (NPR302, naming the operation), never run at float32's precision. Values outside
float32's range (|x| > 3.4e38, or below 1.2e-38) are outside what a TPU's float64 holds at all:
the formulations hand those to the primitive (CPU tests), docs/tpu.md says so.
"""


import functools

import jax
import numpy as np
from jax import lax

from .compat_jaxpr import (
    _npr_aval, _npr_bind, _npr_constvars, _npr_effects, _npr_eqn_name, _npr_eqns, _npr_invars,
    _npr_is_literal, _npr_outvars, _npr_params, _npr_replace, _npr_rewritable, _npr_rewrite_body,
    _npr_struct)
from .core import NprError
from .float64_math import (
    _npr_a64_ceil64, _npr_a64_floor64, _NPR_A64_ARRAYS, _NPR_A64_BINARY, _NPR_A64_F64, _NPR_A64_PRODUCT_ROOM, _NPR_A64_UNARY)


# None: on where the default backend is a TPU; True/False: forced (tests run it on the CPU)
_npr_ACCURATE64 = {"on": None}


# float64 primitives a TPU computes at float32's precision that no formulation above covers
_NPR_A64_REFUSED = frozenset({"erf", "erfc", "erf_inv", "lgamma", "digamma", "igamma", "igammac", "bessel_i0e",
                      "bessel_i1e", "logistic", "polygamma", "zeta", "random_gamma_grad",
                      "regularized_incomplete_beta"})


# what XLA's TPU compiler does not implement of float64 (benchmarks/tpu_linalg64.py's probe on the chip, 2026-12-07, jax
# 0.10.2): an LU ("Only F32 and C64 types are implemented in LuDecomposition"); cholesky, eigh, qr, svd,
# triangular and tridiagonal solves of float64 compile there (eig is refused everywhere, NPR004)
_NPR_A64_UNCOMPILED = {"lu": "np.linalg.solve, inv, det, slogdet"}


def _npr_refuse_linalg(eqn, name):
    """NPR302 for a float64 decomposition the backend cannot compile (its raw UNIMPLEMENTED error
    at the first call before: fem1d_chained_rows's np.linalg.solve on the chip)."""
    if name in _NPR_A64_UNCOMPILED and any(np.dtype(_npr_aval(v).dtype) == _NPR_A64_F64 for v in _npr_invars(eqn)):
        raise NprError("NPR302", f"float64 `{name}` ({_NPR_A64_UNCOMPILED[name]}) on {jax.default_backend().upper()}, "
                       f"whose compiler does not implement it", "dtype_policy='float32', or run it on a CPU")


def _npr_a64_enabled() -> bool:
    """On a TPU (or forced). The float64 formulations apply under x64 alone: without it
    (dtype_policy="float32") the program holds no float64 that the backend computes, and a
    formulation's float64 constants would be float32; the products' HIGHEST applies to both."""
    on = _npr_ACCURATE64["on"]
    return jax.default_backend() == "tpu" if on is None else on


def _npr_formulation(eqn):
    """The equations (a ClosedJaxpr) of eqn's formulation for its operands; None when the
    table has none."""
    name, invars = _npr_eqn_name(eqn), _npr_invars(eqn)
    unary, binary = _NPR_A64_UNARY.get(name), _NPR_A64_BINARY.get(name)
    if name == "round":  # lax.round's ties: away from zero (0) or to even (jnp.round, np.round)
        unary = functools.partial(unary, away=int(_npr_params(eqn)["rounding_method"]) == 0)
    if unary is not None and len(invars) == 1:
        fn = lambda x: unary(x, lambda v: _npr_bind(eqn, v))  # noqa: E731
    elif binary is not None and len(invars) == 2:
        fn = lambda x, y: binary(x, y, lambda u, v: _npr_bind(eqn, u, v))  # noqa: E731
    else:
        return None
    args = [_npr_struct(v) for v in invars]
    with jax.enable_x64(True):
        closed = jax.make_jaxpr(fn)(*args)
    if name == "div" or not any(np.shape(_npr_aval(v)) == () for e in _npr_eqns(closed.jaxpr) for v in _npr_outvars(e)):
        return closed
    return _npr_replace(closed, jaxpr=_npr_refined_divisions(closed.jaxpr))


def _npr_refined_divisions(jaxpr):
    """A formulation's 0-d float64 divisions (tanh's e / (e + 2), log's s) as _npr_a64_div64's."""
    eqns = []
    for eqn in _npr_eqns(jaxpr):
        if _npr_eqn_name(eqn) == "div" and _npr_aval(_npr_outvars(eqn)[0]).shape == () and \
                np.dtype(_npr_aval(_npr_outvars(eqn)[0]).dtype) == _NPR_A64_F64:
            eqns.extend(_npr_splice_formulation(_npr_formulation(eqn), eqn))
        else:
            eqns.append(eqn)
    return _npr_replace(jaxpr, eqns=eqns)


def _npr_accurate_jaxpr(jaxpr):
    """jaxpr with each float64 equation of the table replaced by its formulation's equations
    (bodies walked); NprError NPR302 for a refused one."""
    eqns, changed, x64 = [], False, bool(jax.config.jax_enable_x64)
    for eqn in _npr_eqns(jaxpr):
        params = {k: _npr_rewrite_body(p, _npr_accurate_jaxpr) for k, p in _npr_params(eqn).items()}
        if any(params[k] is not _npr_params(eqn)[k] for k in params):
            eqn, changed = _npr_replace(eqn, params=params), True
        name = _npr_eqn_name(eqn)
        if name in ("dot_general", "conv_general_dilated") and _npr_wide_ints(eqn):
            eqns.extend(_npr_splice_formulation(_npr_int_product(eqn), eqn))
            changed = True
            continue
        if name in ("dot_general", "conv_general_dilated"):
            eqn, changed = _npr_highest(eqn), True
            eqns.append(eqn)
            continue
        if name == "convert_element_type" and x64 and _npr_float64_to_int(eqn):
            eqns.extend(_npr_splice_formulation(_npr_truncated_cast(eqn), eqn))
            changed = True
            continue
        if name == "bitcast_convert_type" and _npr_wide_bitcast(eqn):
            raise NprError("NPR302", f"a float64 sign or exponent read (a float64 bitcast to a 64-bit integer: "
                           f"np.signbit, np.copysign, np.frexp, np.nextafter, np.spacing) on "
                           f"{jax.default_backend().upper()}, whose compiler rejects the 64-bit shifts that "
                           f"follow it", "dtype_policy='float32', or run it on a CPU")
        _npr_refuse_complex128(eqn)
        _npr_refuse_linalg(eqn, name)
        outs = _npr_outvars(eqn)
        f64 = x64 and len(outs) == 1 and np.dtype(_npr_aval(outs[0]).dtype) == _NPR_A64_F64 and \
            all(np.dtype(_npr_aval(v).dtype) == _NPR_A64_F64 for v in _npr_invars(eqn))
        if f64 and name in _NPR_A64_REFUSED:
            raise NprError("NPR302", f"float64 `{name}` on {jax.default_backend().upper()}: the backend "
                           f"computes it to float32's precision, not NumPy's float64 answer",
                           "dtype_policy='float32' where float32 is precise enough, or run it on a CPU")
        # arrays kept their digits on the TPU (tpu_probe.py: exp 63 ulps, log 173) but for the
        # trigonometric functions' range reduction (sin of |x| < 700: 6.7e7 ulps); 0-d values
        # (the scalar unit) lost float32's in every function measured, and in divisions
        wanted = f64 and (_npr_aval(outs[0]).shape == () or name in _NPR_A64_ARRAYS)
        closed = _npr_formulation(eqn) if wanted and (name in _NPR_A64_UNARY or name in _NPR_A64_BINARY) else None
        if closed is None:
            eqns.append(eqn)
            continue
        eqns.extend(_npr_splice_formulation(closed, eqn))
        changed = True
    return _npr_shield_constants(_npr_replace(jaxpr, eqns=eqns) if changed else jaxpr)


def _npr_shield_constants(jaxpr):
    """jaxpr with each 0-d float64 addition or subtraction of a constant (the formulations'
    own `1.0 - a` too) given _npr_shielded's barrier; bodies are their own call's."""
    eqns, changed = [], False
    known = set(_npr_constvars(jaxpr))  # values XLA knows when it compiles: constants and what they make
    for eqn in _npr_eqns(jaxpr):
        out = _npr_aval(_npr_outvars(eqn)[0]) if len(_npr_outvars(eqn)) == 1 else None
        if _npr_eqn_name(eqn) in ("add", "sub") and getattr(out, "shape", None) == () and \
                np.dtype(out.dtype) == _NPR_A64_F64 and any(_npr_known(v, known) for v in _npr_invars(eqn)):
            eqns.extend(_npr_shielded(eqn, known))
            changed = True
            continue
        if not _npr_effects(eqn) and all(_npr_known(v, known) for v in _npr_invars(eqn)):
            known.update(_npr_outvars(eqn))
        eqns.append(eqn)
    return _npr_replace(jaxpr, eqns=eqns) if changed else jaxpr


def _npr_known(v, known):
    return _npr_is_literal(v) or v in known


def _npr_shielded(eqn, known):
    """A 0-d float64 addition or subtraction with its constant operands behind an optimization
    barrier. A TPU's float64 emulation of `c - x` (and `-x + c`, which XLA makes it) for a
    compile-time constant c keeps only float32's precision: `1.0 - w` was 2.5e-8 off, where
    the same subtraction of two traced operands is 1e-15 (benchmarks/tpu_probe.py,
    `const_sub_0d`); helper_returns.py's `A *= 1.0 - w` lost 1.7e-7 of its energy that way.
    Behind the barrier the constant is an operand like any other."""
    shield = [_npr_known(v, known) for v in _npr_invars(eqn)]

    def fn(*xs):
        return _npr_bind(eqn, *[lax.optimization_barrier(x) if s else x for x, s in zip(xs, shield)])
    args = [jax.ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in map(_npr_aval, _npr_invars(eqn))]
    with jax.enable_x64(True):
        closed = jax.make_jaxpr(fn)(*args)
    return _npr_splice_formulation(closed, eqn)


def _npr_refuse_complex128(eqn):
    """NPR302 for a complex128 value: a TPU has no complex128 (its compiler aborts the whole
    process on the conversion to it, `Unsupported CVT X{64|128} expansion`), so the program
    must not reach XLA."""
    for v in (*_npr_invars(eqn), *_npr_outvars(eqn)):
        if np.dtype(getattr(_npr_aval(v), "dtype", None) or np.float32) == np.complex128:
            raise NprError("NPR302", f"complex128 (`{_npr_eqn_name(eqn)}`) on "
                           f"{jax.default_backend().upper()}, which has no complex128: its compiler aborts the "
                           f"process on it", "dtype_policy='float32' computes in complex64, or run it on a CPU")


def _npr_wide_bitcast(eqn):
    """A float64 bitcast to or from a 64-bit integer (a sign or exponent read)."""
    pair = (np.dtype(_npr_aval(_npr_invars(eqn)[0]).dtype), np.dtype(_npr_params(eqn)["new_dtype"]))
    return _NPR_A64_F64 in pair and all(d.itemsize == 8 for d in pair)


def _npr_float64_to_int(eqn):
    return np.dtype(_npr_aval(_npr_invars(eqn)[0]).dtype) == _NPR_A64_F64 and \
        np.dtype(_npr_params(eqn)["new_dtype"]).kind in "iu"


def _npr_truncated_cast(eqn):
    """The equations (a ClosedJaxpr) of a float64-to-integer cast of x truncated first (floor or
    ceil made NumPy's, float64_math.py): a TPU casts the pair part by part, and 855469.97 (a
    leading 855470.0) came back 855470 (156 of 16,000 values on the chip, 2026-12-06); an
    integer-valued pair casts exactly."""
    def cast(x):
        negative = lax.lt(x, lax.full_like(x, 0.0))
        whole = lax.select(negative, _npr_a64_ceil64(x, lax.ceil), _npr_a64_floor64(x, lax.floor))
        return _npr_bind(eqn, whole)
    with jax.enable_x64(True):
        return jax.make_jaxpr(cast)(_npr_struct(_npr_invars(eqn)[0]))


def _npr_wide_ints(eqn):
    dtypes = [np.dtype(_npr_aval(v).dtype) for v in _npr_invars(eqn)]
    return any(d.kind in "iu" and d.itemsize == 8 for d in dtypes)


def _npr_int_product(eqn):
    """The equations (a ClosedJaxpr) of a 64-bit integer matrix product as multiplications and
    sums: a TPU's compiler has no 64-bit integer dot (`UNIMPLEMENTED: While rewriting computation
    to not contain X{64|128} element types ... dot`, trmm on int64 on the chip, 2026-12-06).
    Integer sums wrap modulo 2**64 in any order, so the products' sum is NumPy's bit for bit.
    A product larger than _NPR_A64_PRODUCT_ROOM elements is summed one contracted index at a time."""
    if _npr_eqn_name(eqn) != "dot_general":
        raise NprError("NPR302", f"a 64-bit integer convolution on {jax.default_backend().upper()}, whose "
                       f"compiler has none", "dtype_policy='float32' (int32), or run it on a CPU")
    (lc, rc), (lb, rb) = _npr_params(eqn)["dimension_numbers"]
    out = np.dtype(_npr_aval(_npr_outvars(eqn)[0]).dtype)

    def product(x, y):
        lf = [d for d in range(x.ndim) if d not in lc and d not in lb]
        rf = [d for d in range(y.ndim) if d not in rc and d not in rb]
        x = lax.transpose(x, (*lb, *lf, *lc)).astype(out)
        y = lax.transpose(y, (*rb, *rf, *rc)).astype(out)
        nb, nx, ny = len(lb), len(lf), len(rf)
        k = int(np.prod([x.shape[nb + nx + i] for i in range(len(lc))], dtype=np.int64))
        x = x.reshape(x.shape[:nb + nx] + (1,) * ny + (k,))
        y = y.reshape(y.shape[:nb] + (1,) * nx + y.shape[nb:nb + ny] + (k,))
        shape = tuple(max(a, b) for a, b in zip(x.shape[:-1], y.shape[:-1]))
        if int(np.prod(shape, dtype=np.int64)) * k <= _NPR_A64_PRODUCT_ROOM:
            return (x * y).sum(axis=-1, dtype=out)
        return lax.fori_loop(0, k, lambda i, acc: acc + x[..., i] * y[..., i], lax.full(shape, 0, out))
    args = [_npr_struct(v) for v in _npr_invars(eqn)]
    with jax.enable_x64(True):
        return jax.make_jaxpr(product)(*args)


def _npr_highest(eqn):
    """A matrix product or convolution at Precision.HIGHEST: a TPU's default multiplies float32
    (and float64's float32 halves) in bfloat16 passes, three digits."""
    hi = lax.Precision.HIGHEST
    return _npr_replace(eqn, params={**_npr_params(eqn), "precision": (hi, hi)})


def _npr_splice_formulation(closed, eqn):
    """closed's equations reading eqn's operands and writing eqn's result var."""
    if closed.consts or len(_npr_outvars(closed.jaxpr)) != 1:  # pragma: no cover (constants folded in)
        raise ValueError("accurate64: a formulation with constants")
    names = dict(zip(_npr_invars(closed.jaxpr), _npr_invars(eqn)))
    result = _npr_outvars(closed.jaxpr)[0]
    if result in names or not any(result in _npr_outvars(e) for e in _npr_eqns(closed.jaxpr)):  # pragma: no cover
        raise ValueError("accurate64: the formulation returned an operand")
    names[result] = _npr_outvars(eqn)[0]
    out = []
    for e in _npr_eqns(closed.jaxpr):
        invars = [names.get(u, u) if not _npr_is_literal(u) else u for u in _npr_invars(e)]
        outvars = [_npr_outvars(eqn)[0] if u is result else u for u in _npr_outvars(e)]
        out.append(_npr_replace(e, invars=invars, outvars=outvars))
    return out


def _npr_accurate64(jaxpr):
    """The jitted call's program (a core.Jaxpr) with float64 transcendentals made NumPy's on a
    backend that needs it (_npr_a64_enabled()); the same object elsewhere."""
    if not _npr_a64_enabled() or not _npr_rewritable():
        return jaxpr
    return _npr_accurate_jaxpr(jaxpr)
