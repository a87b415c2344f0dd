"""The float64 formulations accurate64.py splices in for a TPU: sin, cos, tan, exp, log, tanh, pow,
atan2, sqrt, cbrt and their kin, each from float64 additions, multiplications and divisions alone
(which keep the emulated float64 pair's precision): a range reduction by exact scalings and a short
polynomial, or one Newton step from the float32 function's answer (fdlibm's constants). Exact to
a few ulps in IEEE float64 (the CPU tests run them there); the table of which primitive each
replaces, _NPR_A64_UNARY and _NPR_A64_BINARY, is here too."""

import math
import numpy as np
from jax import lax


_NPR_A64_F64 = np.dtype(np.float64)
_LN2_HI, _LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10  # fdlibm: k * HI exact
# fdlibm's pi/2 in four parts (33, 33, 33 bits and the rest): k * part exact for |k| < 2**20
_NPR_A64_PIO2 = (1.57079632673412561417e+00, 6.07710050630396597660e-11, 2.02226624871116645580e-21,
         8.47842766036889956997e-32)
_SMALL, _LARGE = 2.0 ** -125, 2.0 ** 125  # where x as a float32 is a normal number: the reductions'


def _npr_a64_c(v, x):
    return lax.full_like(x, v)


def _npr_a64_where(m, a, b):
    return lax.select(m, a, b)


def _npr_a64_div64(a, b, original=lax.div):
    """a / b for 0-d operands with two Newton corrections: a TPU divides 0-d float64 values (its
    scalar unit) to float32's precision, as it computes their exp and sin (benchmarks/tpu_probe.py:
    `exp_0d` 3e7 ulps, the arrays' 63), and implicit_diffusion_thomas's `cc / m` in a loop kept
    a 2e-8 error after every transcendental was fixed. Each step's remainder a - q * b is
    float32's error in q, so q + remainder / b is the pair's precision. Arrays divide as traced."""
    q = original(a, b)
    if np.shape(q) != ():
        return q
    ok = lax.bitwise_and(lax.is_finite(q), lax.ne(q, _npr_a64_c(0.0, q)))
    for _ in range(2):
        r = a - q * b
        q = _npr_a64_where(ok, q + original(r, b), q)
    return q


def _npr_a64_horner(coeffs, r):
    """coeffs[0] + r * (coeffs[1] + r * (...)), highest last."""
    acc = _npr_a64_c(coeffs[-1], r)
    for c in reversed(coeffs[:-1]):
        acc = acc * r + _npr_a64_c(c, r)
    return acc


def _npr_a64_two_pow(k):
    """2.0 ** k for a float64 integer-valued k in [-1100, 1100], as two exact products of powers
    of two (no bit casts: a TPU's int64 shifts failed to compile, issue 38)."""
    k = lax.clamp(_npr_a64_c(-1100.0, k), k, _npr_a64_c(1100.0, k))
    half = lax.floor(k * 0.5)
    out = []
    for m in (half, k - half):  # |m| <= 550: each factor's powers stay finite
        mi = lax.convert_element_type(lax.abs(m), np.int32)
        p = _npr_a64_c(1.0, k)
        for j in range(10):
            bit = lax.ne(lax.bitwise_and(mi, lax.full_like(mi, 1 << j)), lax.full_like(mi, 0))
            p = _npr_a64_where(bit, p * _npr_a64_c(2.0 ** (2 ** j), k), p)
        out.append(_npr_a64_where(lax.lt(m, _npr_a64_c(0.0, m)), _npr_a64_c(1.0, k) / p, p))
    return out


_NPR_A64_EXP_TAYLOR = [1.0 / math.factorial(n) for n in range(15)]  # |r| <= ln2 / 2: r**15 / 15! < 2e-19


def _npr_a64_exp64(x):
    k = lax.round(x * (1.0 / math.log(2.0)), lax.RoundingMethod.TO_NEAREST_EVEN)
    k = lax.clamp(_npr_a64_c(-1100.0, x), k, _npr_a64_c(1100.0, x))
    r = (x - k * _LN2_HI) - k * _LN2_LO
    a, b = _npr_a64_two_pow(k)
    y = _npr_a64_horner(_NPR_A64_EXP_TAYLOR, r) * a * b
    y = _npr_a64_where(lax.gt(x, _npr_a64_c(709.782712893384, x)), _npr_a64_c(np.inf, x), y)
    y = _npr_a64_where(lax.lt(x, _npr_a64_c(-745.2, x)), _npr_a64_c(0.0, x), y)
    return _npr_a64_where(lax.ne(x, x), x, y)


_NPR_A64_EXPM1_TAYLOR = [0.0] + [1.0 / math.factorial(n) for n in range(1, 20)]  # |x| < 0.5: x**20/20! < 1e-24


def _npr_a64_expm1_64(x):
    small = lax.lt(lax.abs(x), _npr_a64_c(0.5, x))
    xs = _npr_a64_where(small, x, _npr_a64_c(0.0, x))
    return _npr_a64_where(small, _npr_a64_horner(_NPR_A64_EXPM1_TAYLOR, xs), _npr_a64_exp64(x) - _npr_a64_c(1.0, x))


def _npr_a64_ok(x):
    """x > 0 within float32's normal range (where x's float32 gives the exponent)."""
    return lax.bitwise_and(lax.ge(x, _npr_a64_c(_SMALL, x)), lax.le(x, _npr_a64_c(_LARGE, x)))


def _npr_a64_log64(x, original):
    """log(x) = e * ln2 + 2 atanh(s), m = x / 2**e near 1, s = (m - 1) / (m + 1); e from
    float32's log2 of x (any nearby integer will do: |s| < 1/3 needs 18 terms)."""
    ok = _npr_a64_ok(x)
    xs = _npr_a64_where(ok, x, _npr_a64_c(1.0, x))
    e = lax.round(lax.convert_element_type(lax.log(lax.convert_element_type(xs, np.float32))
                                           * np.float32(1.0 / math.log(2.0)), np.float64),
                  lax.RoundingMethod.TO_NEAREST_EVEN)
    a, b = _npr_a64_two_pow(-e)
    m = xs * a * b
    s = (m - _npr_a64_c(1.0, x)) / (m + _npr_a64_c(1.0, x))
    s2 = s * s
    series = _npr_a64_horner([2.0 / (2 * n + 1) for n in range(20)], s2) * s
    y = (e * _LN2_HI + series) + e * _LN2_LO
    return _npr_a64_where(ok, y, original(x))


def _npr_a64_log1p64(x, original):
    """Kahan's log1p: log(u) * x / (u - 1), u = 1 + x (x where u is 1)."""
    u = lax.optimization_barrier(x + _npr_a64_c(1.0, x))  # else XLA simplifies (1 + x) - 1 to x
    ok = _npr_a64_ok(u)
    d = _npr_a64_where(lax.eq(u, _npr_a64_c(1.0, x)), _npr_a64_c(1.0, x), u - _npr_a64_c(1.0, x))
    y = _npr_a64_where(lax.eq(u, _npr_a64_c(1.0, x)), x, _npr_a64_log64(_npr_a64_where(ok, u, _npr_a64_c(2.0, x)), lax.log) * (x / d))
    return _npr_a64_where(ok, y, original(x))


_NPR_A64_SIN_TAYLOR = [(-1.0) ** n / math.factorial(2 * n + 1) for n in range(12)]  # |r| <= pi/4


_NPR_A64_COS_TAYLOR = [(-1.0) ** n / math.factorial(2 * n) for n in range(12)]


def _npr_a64_quadrant(x):
    """(r, q): x = r + q * pi/2 with |r| <= pi/4 (Cody and Waite: three parts of pi/2), q mod 4."""
    k = lax.round(x * (2.0 / math.pi), lax.RoundingMethod.TO_NEAREST_EVEN)
    r = (((x - k * _NPR_A64_PIO2[0]) - k * _NPR_A64_PIO2[1]) - k * _NPR_A64_PIO2[2]) - k * _NPR_A64_PIO2[3]
    q = k - 4.0 * lax.floor(k * 0.25)
    return r, q


def _npr_a64_sin_cos(r):
    r2 = r * r
    return _npr_a64_horner(_NPR_A64_SIN_TAYLOR, r2) * r, _npr_a64_horner(_NPR_A64_COS_TAYLOR, r2)


_NPR_A64_TRIG_LIMIT = 2.0 ** 19  # k * _NPR_A64_PIO2[0] exact in 48 bits (the TPU's pair): beyond, the primitive


def _npr_a64_sin64(x, original):
    ok = lax.lt(lax.abs(x), _npr_a64_c(_NPR_A64_TRIG_LIMIT, x))
    r, q = _npr_a64_quadrant(_npr_a64_where(ok, x, _npr_a64_c(0.0, x)))
    s, c = _npr_a64_sin_cos(r)
    y = _npr_a64_where(lax.eq(q, _npr_a64_c(0.0, x)), s, _npr_a64_where(lax.eq(q, _npr_a64_c(1.0, x)), c,
               _npr_a64_where(lax.eq(q, _npr_a64_c(2.0, x)), -s, -c)))
    return _npr_a64_where(ok, y, original(x))


def _npr_a64_cos64(x, original):
    ok = lax.lt(lax.abs(x), _npr_a64_c(_NPR_A64_TRIG_LIMIT, x))
    r, q = _npr_a64_quadrant(_npr_a64_where(ok, x, _npr_a64_c(0.0, x)))
    s, c = _npr_a64_sin_cos(r)
    y = _npr_a64_where(lax.eq(q, _npr_a64_c(0.0, x)), c, _npr_a64_where(lax.eq(q, _npr_a64_c(1.0, x)), -s,
               _npr_a64_where(lax.eq(q, _npr_a64_c(2.0, x)), -c, s)))
    return _npr_a64_where(ok, y, original(x))


def _npr_a64_tan64(x, original):
    ok = lax.lt(lax.abs(x), _npr_a64_c(_NPR_A64_TRIG_LIMIT, x))
    r, q = _npr_a64_quadrant(_npr_a64_where(ok, x, _npr_a64_c(0.0, x)))
    s, c = _npr_a64_sin_cos(r)
    odd = lax.eq(q - 2.0 * lax.floor(q * 0.5), _npr_a64_c(1.0, x))
    return _npr_a64_where(ok, _npr_a64_where(odd, -c / s, s / c), original(x))


def _npr_a64_tanh64(x, original):
    a = lax.abs(x)
    big = lax.gt(a, _npr_a64_c(22.0, x))  # tanh is 1.0 in float64 from 19.06
    e = _npr_a64_expm1_64(_npr_a64_c(2.0, x) * _npr_a64_where(big, _npr_a64_c(0.0, x), a))
    t = _npr_a64_where(big, _npr_a64_c(1.0, x), e / (e + _npr_a64_c(2.0, x)))
    return _npr_a64_where(lax.ne(x, x), x, _npr_a64_where(lax.lt(x, _npr_a64_c(0.0, x)), -t, t))


def _npr_a64_sinh64(x, original):
    a = lax.abs(x)
    ok = lax.lt(a, _npr_a64_c(709.0, x))
    e = _npr_a64_expm1_64(_npr_a64_where(ok, a, _npr_a64_c(0.0, x)))
    y = _npr_a64_c(0.5, x) * (e + e / (e + _npr_a64_c(1.0, x)))
    y = _npr_a64_where(lax.lt(x, _npr_a64_c(0.0, x)), -y, y)
    return _npr_a64_where(ok, y, original(x))


def _npr_a64_cosh64(x, original):
    a = lax.abs(x)
    ok = lax.lt(a, _npr_a64_c(709.0, x))
    e = _npr_a64_exp64(_npr_a64_where(ok, a, _npr_a64_c(0.0, x)))
    return _npr_a64_where(ok, _npr_a64_c(0.5, x) * (e + _npr_a64_c(1.0, x) / e), original(x))


def _npr_a64_pow64(x, y, original):
    """x ** y for x > 0 (in float32's range): exp(y * log(x)); the primitive elsewhere (signs,
    zeros, infinities, NaN)."""
    ok = _npr_a64_ok(x)
    lg = _npr_a64_log64(_npr_a64_where(ok, x, _npr_a64_c(1.0, x)), lax.log)
    return _npr_a64_where(ok, _npr_a64_exp64(y * lg), original(x, y))


def _npr_a64_sqrt64(x, original):
    """One Newton step from the primitive's root (exact where the primitive already is)."""
    y = original(x)
    ok = _npr_a64_ok(x)
    ys = _npr_a64_where(ok, y, _npr_a64_c(1.0, x))
    return _npr_a64_where(ok, _npr_a64_c(0.5, x) * (ys + _npr_a64_where(ok, x, _npr_a64_c(1.0, x)) / ys), y)


def _npr_a64_newton_angle(theta, y, x):
    """One Newton step for theta with (sin theta, cos theta) along (x, y)... that is, for
    x * sin(theta) - y * cos(theta) = 0 (theta from float32's answer)."""
    s, c = _npr_a64_sin64(theta, lax.sin), _npr_a64_cos64(theta, lax.cos)
    f, df = x * s - y * c, x * c + y * s
    ok = lax.ne(df, _npr_a64_c(0.0, df))
    return _npr_a64_where(ok, theta - f / _npr_a64_where(ok, df, _npr_a64_c(1.0, df)), theta)


def _npr_a64_f32(x):
    return lax.convert_element_type(x, np.float32)


def _npr_a64_atan2_64(y, x, original):
    ok = lax.bitwise_and(lax.bitwise_and(lax.lt(lax.abs(x), _npr_a64_c(_LARGE, x)), lax.lt(lax.abs(y), _npr_a64_c(_LARGE, y))),
                         lax.bitwise_or(lax.ne(x, _npr_a64_c(0.0, x)), lax.ne(y, _npr_a64_c(0.0, y))))
    xs, ys = _npr_a64_where(ok, x, _npr_a64_c(1.0, x)), _npr_a64_where(ok, y, _npr_a64_c(0.0, y))
    theta = lax.convert_element_type(lax.atan2(_npr_a64_f32(ys), _npr_a64_f32(xs)), np.float64)
    # the Newton step works on sin/cos of theta: keep it on the branch's side of +-pi
    return _npr_a64_where(ok, _npr_a64_newton_angle(theta, ys, xs), original(y, x))


def _npr_a64_atan64(x, original):
    return _npr_a64_atan2_64(x, _npr_a64_c(1.0, x), lambda y, _: original(y))


def _npr_a64_asin64(x, original):
    ok = lax.le(lax.abs(x), _npr_a64_c(1.0, x))
    xs = _npr_a64_where(ok, x, _npr_a64_c(0.0, x))
    c = _npr_a64_sqrt64((_npr_a64_c(1.0, x) - xs) * (_npr_a64_c(1.0, x) + xs), lax.sqrt)
    return _npr_a64_where(ok, _npr_a64_atan2_64(xs, c, lax.atan2), original(x))


def _npr_a64_acos64(x, original):
    ok = lax.le(lax.abs(x), _npr_a64_c(1.0, x))
    xs = _npr_a64_where(ok, x, _npr_a64_c(0.0, x))
    s = _npr_a64_sqrt64((_npr_a64_c(1.0, x) - xs) * (_npr_a64_c(1.0, x) + xs), lax.sqrt)
    return _npr_a64_where(ok, _npr_a64_atan2_64(s, xs, lax.atan2), original(x))


def _npr_a64_cbrt64(x, original):
    a = lax.abs(x)
    ok = _npr_a64_ok(a)
    y0 = lax.convert_element_type(lax.cbrt(_npr_a64_f32(_npr_a64_where(ok, a, _npr_a64_c(1.0, a)))), np.float64)
    for _ in range(2):  # float32's 24 bits, 48, then the rounding
        y0 = y0 - (y0 * y0 * y0 - _npr_a64_where(ok, a, _npr_a64_c(1.0, a))) / (_npr_a64_c(3.0, a) * y0 * y0)
    y = y0
    return _npr_a64_where(ok, _npr_a64_where(lax.lt(x, _npr_a64_c(0.0, x)), -y, y), original(x))


def _npr_a64_asinh64(x, original):
    a = lax.abs(x)
    ok = lax.lt(a, _npr_a64_c(_LARGE ** 0.5, x))
    a = _npr_a64_where(ok, a, _npr_a64_c(0.0, x))
    y = _npr_a64_log1p64(a + a * a / (_npr_a64_c(1.0, x) + _npr_a64_sqrt64(_npr_a64_c(1.0, x) + a * a, lax.sqrt)), lax.log1p)
    return _npr_a64_where(ok, _npr_a64_where(lax.lt(x, _npr_a64_c(0.0, x)), -y, y), original(x))


def _npr_a64_atanh64(x, original):
    a = lax.abs(x)
    ok = lax.lt(a, _npr_a64_c(1.0, x))
    a = _npr_a64_where(ok, a, _npr_a64_c(0.0, x))
    y = _npr_a64_c(0.5, x) * _npr_a64_log1p64(_npr_a64_c(2.0, x) * a / (_npr_a64_c(1.0, x) - a), lax.log1p)
    return _npr_a64_where(ok, _npr_a64_where(lax.lt(x, _npr_a64_c(0.0, x)), -y, y), original(x))


def _npr_a64_acosh64(x, original):
    ok = lax.bitwise_and(lax.ge(x, _npr_a64_c(1.0, x)), lax.lt(x, _npr_a64_c(_LARGE ** 0.5, x)))
    t = _npr_a64_where(ok, x, _npr_a64_c(1.0, x)) - _npr_a64_c(1.0, x)
    y = _npr_a64_log1p64(t + _npr_a64_sqrt64(_npr_a64_c(2.0, x) * t + t * t, lax.sqrt), lax.log1p)
    return _npr_a64_where(ok, y, original(x))


def _npr_a64_integral(adjusted, step, x):
    """adjusted + step (a float64 integer moved by -1, 0 or 1), or x where |x| >= 2**52 (an integer
    already: there the moved integer may not be a float64); a zero takes x's sign, as NumPy's
    rint, floor and ceil of a value in (-1, 1) do (ceil(-0.3) is -0.0): x * 0.0, no sign-bit read."""
    y = adjusted + step
    y = _npr_a64_where(lax.eq(y, _npr_a64_c(0.0, x)), x * _npr_a64_c(0.0, x), y)
    return _npr_a64_where(lax.ge(lax.abs(x), _npr_a64_c(2.0 ** 52, x)), x, y)  # (those are integers, inf too)


def _npr_a64_round64(x, original, away=False):
    """rint(x) (ties to even; `away`: lax.round's ties away from zero) from the backend's, made
    the nearest integer: a TPU rounds the pair's leading float32, so 855469.47 (a leading
    855469.5) came back 855470. x - r is exact (r an integer within one of x); NaN and inf keep r."""
    r = original(x)
    d, half = x - r, _npr_a64_c(0.5, x)
    if away:
        up_tie, down_tie = lax.gt(x, _npr_a64_c(0.0, x)), lax.lt(x, _npr_a64_c(0.0, x))
    else:
        up_tie = down_tie = lax.ne(lax.rem(r, _npr_a64_c(2.0, x)), _npr_a64_c(0.0, x))  # r odd
    up = lax.bitwise_or(lax.gt(d, half), lax.bitwise_and(lax.eq(d, half), up_tie))
    down = lax.bitwise_or(lax.lt(d, -half), lax.bitwise_and(lax.eq(d, -half), down_tie))
    one = _npr_a64_c(1.0, x)
    return _npr_a64_integral(r, _npr_a64_where(up, one, _npr_a64_where(down, -one, _npr_a64_c(0.0, x))), x)


def _npr_a64_floor64(x, original):
    """floor(x) from the backend's, moved to the largest integer not above x (compared with x
    itself: f - x would round, f = 1 for x = 1e-20 gave a difference of 1.0)."""
    f, one, zero = original(x), _npr_a64_c(1.0, x), _npr_a64_c(0.0, x)
    return _npr_a64_integral(f, _npr_a64_where(lax.gt(f, x), -one, _npr_a64_where(lax.le(f + one, x), one, zero)), x)


def _npr_a64_ceil64(x, original):
    """ceil(x) from the backend's, moved to the smallest integer not below x."""
    c, one, zero = original(x), _npr_a64_c(1.0, x), _npr_a64_c(0.0, x)
    return _npr_a64_integral(c, _npr_a64_where(lax.lt(c, x), one, _npr_a64_where(lax.ge(c - one, x), -one, zero)), x)


_NPR_A64_UNARY = {"exp": lambda x, o: _npr_a64_exp64(x), "expm1": lambda x, o: _npr_a64_expm1_64(x), "log": _npr_a64_log64, "log1p": _npr_a64_log1p64,
          "sin": _npr_a64_sin64, "cos": _npr_a64_cos64, "tan": _npr_a64_tan64, "tanh": _npr_a64_tanh64, "sinh": _npr_a64_sinh64, "cosh": _npr_a64_cosh64,
          "sqrt": _npr_a64_sqrt64, "rsqrt": lambda x, o: _npr_a64_c(1.0, x) / _npr_a64_sqrt64(x, lax.sqrt),
          "exp2": lambda x, o: _npr_a64_exp64(x * math.log(2.0)), "atan": _npr_a64_atan64, "asin": _npr_a64_asin64, "acos": _npr_a64_acos64,
          "cbrt": _npr_a64_cbrt64, "asinh": _npr_a64_asinh64, "atanh": _npr_a64_atanh64, "acosh": _npr_a64_acosh64,
          "round": _npr_a64_round64, "floor": _npr_a64_floor64, "ceil": _npr_a64_ceil64}


# rewritten on arrays too: the trigonometric functions' range reduction, and the roundings,
# which a TPU takes of the pair's leading float32 (np.round(x, 3): 8 of 320 values 0.001 off)
_NPR_A64_ARRAYS = frozenset({"sin", "cos", "tan", "round", "floor", "ceil"})


_NPR_A64_BINARY = {"pow": _npr_a64_pow64, "atan2": _npr_a64_atan2_64, "div": lambda a, b, o: _npr_a64_div64(a, b, o)}


_NPR_A64_PRODUCT_ROOM = 2 ** 24  # elements of x * y broadcast that one product may make at once
