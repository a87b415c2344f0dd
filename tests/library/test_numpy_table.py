# Differential tests of np2ref/analysis/numpy_table.py: every entry is called
# through NumPy and through its replacement text (evaluated with `np`, `jnp`
# and the npr_np_* shims in scope) under jax.enable_x64(True), and the two
# must agree in dtype, shape and value.
from __future__ import annotations

import importlib
import json
import sys
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from np2ref.analysis import numpy_table as T
import np2ref.rt as shims  # the npr_np_* shims are public names of the runtime package

NS = {"np": np, "jnp": jnp}
NS.update({k: getattr(shims, k) for k in shims.__all__ if k.startswith("npr_np_")})

F64, F32, F16 = np.float64, np.float32, np.float16
I64, I32, I16, I8 = np.int64, np.int32, np.int16, np.int8
U8, U32, B = np.uint8, np.uint32, np.bool_
MAIN = [F64, F32, I64, I32, B]
SMALL = [I16, I8, U8]
ALL = MAIN + SMALL
NUM = [F64, F32, I64, I32, I16, I8, U8]
SHAPE_DTS = [F64, I32, B, U8]  # dtype-preserving shape ops
FLOATS = [F64, F32]
INTS = [I64, I32, I16, I8, U8]

_MIXED = [[-2.5, -1.5, -0.5, 0.0], [0.5, 1.5, 2.5, 3.25], [4.75, -3.0, 7.0, 0.125]]
_MIXED_I = [[-3, -2, -1, 0], [1, 2, 3, 4], [5, -6, 7, 9]]
_NONZERO = [[1.5, -2.0, 0.75, 3.0], [-1.25, 2.5, 4.0, -0.5], [2.0, 3.5, -7.0, 1.0]]
_NONZERO_I = [[2, -3, 1, 4], [-1, 5, 3, -2], [7, 2, -4, 1]]
_POS = [[0.25, 0.5, 1.0, 1.5], [2.0, 2.5, 3.0, 4.0], [5.0, 7.5, 9.0, 10.5]]
_POS_I = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
_SMALL_I = [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1]]
_BOOL = [[True, False, True, False], [False, False, True, True], [True, True, True, False]]


def _arr(dt, fl, it):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return np.array(_BOOL)
    if dt.kind == "f":
        return np.array(fl, dt)
    if dt.kind == "u":
        return np.abs(np.array(it)).astype(dt)
    return np.array(it, dt)


# 2**24 + 1 is not a float32: NumPy promotes int64 with float32 to float64.
BIG_I64 = np.array([16777217, -3, 5], I64)
BIG_F32 = np.array([16777216.0, -3.0, 5.0], F32)


def mixed(dt):
    return _arr(dt, _MIXED, _MIXED_I)


def nonzero(dt):
    a = _arr(dt, _NONZERO, _NONZERO_I)
    return np.ones_like(a) if a.dtype == np.bool_ else a


def pos(dt):
    return _arr(dt, _POS, _POS_I)


def small(dt):
    return _arr(dt, _SMALL_I, _SMALL_I)


def sq(dt):
    """A well-conditioned symmetric positive definite 3x3 matrix."""
    m = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])
    return m.astype(dt)


def gen(dt):
    """A general (non-symmetric) invertible 3x3 matrix."""
    m = np.array([[2.0, -1.0, 0.5], [1.0, 3.0, -2.0], [0.0, 1.5, 4.0]])
    if np.dtype(dt).kind in "iu":
        m = np.array([[2, -1, 0], [1, 3, -2], [0, 1, 4]])
    return m.astype(dt)


# ---------------------------------------------------------------- families
# Each family returns a list of (args, kwargs) cases.


def C(*args, **kwargs):
    return (args, kwargs)


def fam_unary():
    cases = [C(mixed(dt)) for dt in ALL] + [C(pos(dt)) for dt in (F64, F32, I32, I8)]
    cases += [C(mixed(dt)[1, 2]) for dt in (F32, I64, B)]  # 0-d arrays
    cases += [C(2), C(2.5), C(True), C(mixed(I32), dtype=F32), C(mixed(I8), dtype=F64)]
    return cases


def fam_unary_nonzero():
    return [C(nonzero(dt)) for dt in ALL] + [C(3), C(2.5)]


_PAIRS = [(dt, dt) for dt in ALL] + [
    (I32, F32), (I64, F32), (I16, F32), (I8, U8), (B, I8), (U8, I64), (F32, F64), (B, F32),
]


def fam_binary(second=nonzero):
    cases = [C(mixed(a), second(b)) for a, b in _PAIRS]
    cases += [C(mixed(dt), 2) for dt in (F32, I8, B)] + [C(mixed(dt), 2.5) for dt in (F32, I32, U8)]
    cases += [C(3, second(dt)) for dt in (F64, I16, B)]
    cases += [C(mixed(F64)[0, 0], mixed(I8)[1])]  # 0-d with 1-d
    cases += [C(mixed(I8), second(I8), dtype=F32), C(mixed(I32), second(F32), dtype=F64)]
    cases += [C(BIG_I64, BIG_F32), C(BIG_F32, BIG_I64)]  # exact only in float64
    cases += [C(np.array([np.nan, -1.0, 0.0, 2.0, np.inf]), np.array([0.5, np.nan, np.nan, 1.0, -np.inf]))]
    cases += [C(3, 2), C(2.5, 3)]
    return cases


def fam_binary_int(second=nonzero):
    ok = [I64, I32, I16, I8, U8, B]
    cases = [C(mixed(a), second(b)) for a, b in _PAIRS if a in ok and b in ok]
    for dt in (I32, I8, B):
        cases += [C(mixed(dt), 2), C(3, second(dt))]
    return cases


def fam_power():
    cases = [C(mixed(a), small(b)) for a, b in _PAIRS]
    cases += [C(pos(dt), mixed(dt)) for dt in FLOATS]
    for dt in (F32, I32, I8, B):
        cases += [C(mixed(dt), 2), C(mixed(dt), 0.5), C(2, small(dt))]
    return cases


def fam_reduce(extra=()):
    cases = []
    for dt in MAIN:
        x = mixed(dt)
        for kw in ({}, {"axis": 0}, {"axis": 1, "keepdims": True}) + tuple(extra):
            cases.append(C(x, **kw))
    for dt in SMALL:
        cases += [C(mixed(dt)), C(mixed(dt), axis=-1)]
    cases += [C(mixed(F64)[0]), C(pos(I32)[:, 0])]
    return cases


def fam_cumulative():
    cases = [C(mixed(dt), axis=-1) for dt in SMALL]
    for dt in MAIN:
        x = mixed(dt)
        cases += [C(x), C(x, axis=0), C(x, axis=1)]
    cases += [C(mixed(I32), dtype=F32), C(mixed(F32), axis=0, dtype=F64)]
    return cases


def fam_cumulative_api():  # cumulative_sum/prod need axis for ndim > 1
    cases = [C(mixed(dt)[0]) for dt in SMALL]
    for dt in MAIN:
        x = mixed(dt)
        cases += [C(x[0]), C(x, axis=0), C(x, axis=1, include_initial=True)]
    return cases


def fam_sum_like():
    return fam_reduce(
        ({"dtype": F32}, {"dtype": I64}, {"axis": (0, 1)}, {"axis": 0, "initial": 1})
    )


def fam_mean_like():
    return fam_reduce(({"dtype": F32}, {"axis": (0, 1)}))


def fam_std_like():
    return fam_reduce(({"ddof": 1}, {"axis": 0, "ddof": 1}, {"dtype": F32}))


def fam_minmax():
    return fam_reduce(({"axis": (0, 1)}, {"axis": 0, "initial": 2}))


def fam_argminmax():
    cases = [C(mixed(dt)) for dt in SMALL]
    for dt in MAIN:
        x = mixed(dt)
        cases += [C(x), C(x, axis=0), C(x, axis=1), C(x, axis=1, keepdims=True)]
    return cases


def fam_quantile(q):
    cases = [C(mixed(dt), q) for dt in SMALL]
    for dt in (F64, F32, I64, I32):
        x = mixed(dt)
        cases += [C(x, q), C(x, q, axis=0), C(x, [q, q / 2], axis=1), C(x, q, axis=1, keepdims=True)]
    cases += [C(mixed(F64), q, method="nearest"), C(mixed(F64), q, method="lower")]
    cases += [C(mixed(I32), q, method="higher"), C(mixed(F32), q, method="midpoint")]
    return cases


def fam_median():
    cases = [C(mixed(dt)) for dt in SMALL]
    for dt in MAIN:
        x = mixed(dt)
        cases += [C(x), C(x, axis=0), C(x, axis=1), C(x, axis=1, keepdims=True)]
    return cases


def with_nans(cases):
    """Put a NaN into every float64/float32 array argument."""
    out = []
    for args, kw in cases:
        new = []
        for a in args:
            if isinstance(a, np.ndarray) and a.dtype.kind == "f" and a.ndim == 2:
                a = a.copy()
                a[1, 1] = np.nan
            new.append(a)
        out.append((tuple(new), kw))
    return out


def fam_shape(fn):
    """fn(x) -> list of cases, applied to SHAPE_DTS."""
    def build():
        cases = []
        for dt in SHAPE_DTS:
            cases += fn(mixed(dt))
        return cases
    return build


EACH_DTS = [F64, F32, I64, I32, B, I8]


def fam_each(fn, dts=EACH_DTS):
    def build():
        cases = []
        for dt in dts:
            cases += fn(dt)
        return cases
    return build


def fam_cases(*cases):
    return lambda: list(cases)


def fam_dtype_ctor():
    cases = [C(mixed(dt)) for dt in ALL]
    return cases + [C(2), C(2.75), C(True), C(-1.5)]


def fam_udtype_ctor():  # negative float -> unsigned is undefined in C: skip
    return [C(pos(dt)) for dt in ALL] + [C(2), C(2.75), C(True)]


# ---------------------------------------------------------------- samples
def _ufunc_family(name):
    uf = getattr(np, name)
    if name in ("power", "pow", "float_power"):
        return fam_power
    if name in ("left_shift", "right_shift", "bitwise_left_shift", "bitwise_right_shift", "ldexp"):
        return lambda: fam_binary(second=small) if name == "ldexp" else fam_binary_int(second=small)
    if name in ("gcd", "lcm", "bitwise_and", "bitwise_or", "bitwise_xor"):
        return fam_binary_int
    if name == "reciprocal":
        return fam_unary_nonzero
    if uf.nin == 1:
        return fam_unary
    return fam_binary


SAMPLES = {}


def builder_for(qname: str):
    name = qname[len("numpy."):]
    if name in SAMPLES:
        return SAMPLES[name]
    if "." not in name and isinstance(getattr(np, name, None), np.ufunc):
        return _ufunc_family(name)
    raise KeyError(f"no sample builder for {qname}")


def samples_for(qname: str):
    return builder_for(qname)()


def _add(names, builder):
    for n in names.split():
        SAMPLES[n] = builder


_add("divmod", fam_binary)
_add("modf frexp", fam_unary)
_add("sum prod nansum nanprod", fam_sum_like)
_add("mean nanmean", fam_mean_like)
_add("std var nanstd nanvar", fam_std_like)
_add("min max amin amax nanmin nanmax ptp", fam_minmax)
_add("any all", fam_reduce)
_add("count_nonzero", fam_argminmax)
_add("argmin argmax nanargmin nanargmax", fam_argminmax)
_add("cumsum cumprod nancumsum nancumprod", fam_cumulative)
_add("cumulative_sum cumulative_prod", fam_cumulative_api)
_add("median nanmedian", fam_median)
_add("percentile nanpercentile", lambda: fam_quantile(30.0))
_add("quantile nanquantile", lambda: fam_quantile(0.3))
_add(
    "average",
    lambda: fam_median()
    + [C(mixed(dt), axis=0, weights=pos(F64)[:, 0]) for dt in NUM]
    + [C(mixed(I32), weights=pos(I32)), C(mixed(F32), axis=1, weights=pos(F32)[0]),
       C(mixed(I32), axis=0, returned=True), C(mixed(F32), axis=1, weights=pos(F64)[0], returned=True)],
)
for _n in "nansum nanprod nanmean nanstd nanvar nanmin nanmax nanargmin nanargmax nancumsum nancumprod nanmedian".split():
    SAMPLES[_n] = (lambda b: lambda: with_nans(b()))(SAMPLES[_n])
for _n in "nanpercentile nanquantile".split():
    SAMPLES[_n] = (lambda b: lambda: with_nans(b()))(SAMPLES[_n])

# creation
_add(
    "zeros ones empty",
    fam_cases(C(3), C((2, 3)), C((2, 3), dtype=F32), C(4, dtype=I32), C((2,), B), C([2, 2], dtype=int), C(3, float)),
)
_add(
    "full",
    fam_cases(C((2, 3), 7), C(3, 2.5), C((2, 2), True), C(3, 7, dtype=F32), C((2,), 1.5, I32),
              C(3, np.float32(2.5)), C((2, 2), mixed(I8)[0, :2]), C(2, mixed(F32)[0, 1])),
)
_add(
    "zeros_like ones_like empty_like",
    fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt), dtype=F32), C(mixed(dt), shape=(2,))]),
)
_add(
    "full_like",
    fam_each(lambda dt: [C(mixed(dt), 3), C(mixed(dt), 2.5), C(mixed(dt), 1, dtype=F64), C(mixed(dt), True)]),
)
_add(
    "arange",
    fam_cases(C(5), C(2, 9), C(1, 10, 3), C(0.0, 1.0, 0.1), C(5.0), C(0, 1, 0.25), C(-1.5, 2.0, 0.5),
              C(10, 0, -2), C(5, dtype=F32), C(0, 2, 0.3, dtype=F32), C(1, 7, 2, dtype=I8), C(3.0, dtype=I32),
              C(0.1, 0.95, 0.17), C(np.int32(5)), C(np.float32(2.5)), C(stop=4), C(1, stop=4)),
)
_add(
    "linspace",
    fam_cases(C(0, 1, 5), C(0.0, 1.0), C(-2, 3, 7, endpoint=False), C(1, 10, 4, dtype=I32),
              C(0, 1, 5, dtype=F32), C(0, 10, 6, retstep=True), C(2.5, -1.0, 4), C(0, 1, 1), C(3, 3, 3),
              C(mixed(F64)[0], mixed(F64)[1], 3), C(mixed(F64)[0], 1.0, 3, axis=1), C(-1, 8, 4, dtype=I64),
              C(np.float32(0), np.float32(1), 4), C(mixed(I32)[0, 0], 5, 3)),
)
_add(
    "logspace",
    fam_cases(C(0, 2, 5), C(0.0, 1.0, 3, base=2.0), C(1, 3, 3, endpoint=False), C(0, 2, 3, dtype=F32),
              C(0, 3, 4, dtype=I64)),
)
_add(
    "geomspace",
    fam_cases(C(1, 1000, 4), C(1.0, 256.0, 9), C(2, 32, 5, endpoint=False), C(1, 1000, 4, dtype=F32),
              C(-1.0, -100.0, 3), C(1, 1000, 4, dtype=I64)),
)
_add(
    "eye",
    fam_cases(C(3), C(3, 4), C(3, 4, 1), C(4, k=-1), C(3, dtype=I32), C(2, dtype=B), C(3, M=2, k=0, dtype=F32)),
)
_add("identity", fam_cases(C(3), C(2, dtype=I32), C(3, F32), C(2, B)))
_add(
    "array asarray",
    fam_cases(C([1, 2, 3]), C([1.0, 2, 3]), C([[1, 2], [3, 4]]), C([True, False]), C(3), C(2.5), C([1, 2], dtype=F32),
              C(mixed(I8)), C(mixed(F32), dtype=F64), C([mixed(F32)[0], mixed(F32)[1]]), C([1, 2.5], I32),
              C(mixed(I8)[0, 0]), C([mixed(I8)[0, 0], 3]), C(np.float32(2.5)), C(True)),
)
_add("asanyarray ascontiguousarray asfortranarray", fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt), dtype=F64)]))
_add("copy", fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt)[0, 1])]))
_add(
    "meshgrid",
    fam_cases(C(mixed(F64)[0], mixed(F64)[1, :3]), C(mixed(I32)[0], mixed(F32)[1], indexing="ij"),
              C(mixed(F32)[0], mixed(F32)[1], mixed(F32)[2], sparse=True), C(mixed(I8)[0])),
)
_add(
    "diag",
    fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt)[0]), C(mixed(dt), 1), C(mixed(dt)[1], -1), C(mixed(dt), k=-2)]),
)
_add("diagflat", fam_each(lambda dt: [C(mixed(dt)[0]), C(mixed(dt)[:2, :2], 1), C(mixed(dt)[0], k=-1)]))
_add(
    "diagonal",
    fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt), 1), C(mixed(dt), offset=-1), C(mixed(dt).T, 0, 1, 0)]),
)
_add("tri", fam_cases(C(3), C(3, 4), C(3, 4, 1), C(3, k=-1), C(2, dtype=I32), C(3, dtype=B), C(3, 2, dtype=F32)))
_add("triu tril", fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt), 1), C(mixed(dt), k=-1), C(mixed(dt)[0])]))
_add("indices", fam_cases(C((2, 3)), C((3,)), C((2, 2), dtype=I32), C((2, 3), sparse=True), C((2, 2), F64)))
_add("vander", fam_each(lambda dt: [C(mixed(dt)[0]), C(mixed(dt)[1], 3), C(mixed(dt)[0], increasing=True)], NUM))

# elementwise non-ufunc
_add(
    "clip",
    fam_each(lambda dt: [C(mixed(dt), 0, 3), C(mixed(dt), -1.5, 2.5), C(mixed(dt), None, 2),
                         C(mixed(dt), mixed(dt)[0], 4), C(mixed(dt), min=1, max=3)]),
)
_add(
    "where",
    fam_each(lambda dt: [C(mixed(B), mixed(dt), nonzero(dt)), C(mixed(dt) > 0, mixed(dt), 0), C(mixed(B), mixed(dt), mixed(F32)),
                         C(mixed(dt) > 0, 1.5, mixed(dt)), C(mixed(dt) > 0, 2, 3)]),
)
_add(
    "round around",
    fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt) * 1.37, 1), C(mixed(dt), decimals=-1), C(mixed(dt) * 13, -1)]),
)
_add("fix", fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt) * 1.3)]))
_add(
    "nan_to_num",
    fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt) / np.array(0.0, dt) if np.dtype(dt).kind == "f" else mixed(dt)),
                         C(mixed(dt), nan=1.5, posinf=9.0, neginf=-9.0)]),
)
_add(
    "isclose allclose",
    lambda: fam_each(lambda dt: [C(mixed(dt), mixed(dt)), C(mixed(dt), nonzero(dt)), C(mixed(dt), mixed(dt) + 1e-9),
                         C(mixed(dt), 0.5, atol=1.0), C(mixed(dt), mixed(dt), rtol=0.1, atol=0)])()
    + [C(BIG_I64, BIG_F32, rtol=0, atol=0), C(BIG_F32, BIG_I64, rtol=0.0, atol=0.0)],
)
_add("array_equal array_equiv", lambda: fam_each(lambda dt: [C(mixed(dt), mixed(dt)), C(mixed(dt), nonzero(dt)),
                                                  C(mixed(dt), mixed(dt)[0]), C(mixed(dt), mixed(F64))])() + [C(BIG_I64, BIG_F32)])
_add("sinc i0", fam_each(lambda dt: [C(mixed(dt)), C(pos(dt))], NUM))
_add("real imag angle iscomplex isreal", fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt)[0, 0])]))
# complex input to a real result (angle), real x and xp to a complex one (interp): never cast to
# the result's dtype (angle of [1+2j, -1-1j] was [0, pi]: the imaginary parts dropped)
_Z = mixed(F64) * (1 + 2j) - 1j
SAMPLES["angle"] = fam_cases(C(mixed(F64)), C(mixed(F32)), C(mixed(I8)), C(_Z), C(_Z.astype(np.complex64)),
                             C(_Z, deg=True), C(_Z[0, 1]))
_add("isneginf isposinf", fam_each(lambda dt: [C(mixed(dt) / np.array(0.0, dt))], FLOATS))

# shape ops
_add("reshape", fam_shape(lambda x: [C(x, (4, 3)), C(x, -1), C(x, (2, -1)), C(x, (4, 3), order="F"), C(x, shape=(12,))]))
_add("ravel", fam_shape(lambda x: [C(x), C(x, order="F"), C(x[0, 0])]))
_add("transpose", fam_shape(lambda x: [C(x), C(x, (1, 0)), C(x.reshape(3, 2, 2), (2, 0, 1)), C(x[0])]))
_add("permute_dims", fam_shape(lambda x: [C(x), C(x.reshape(3, 2, 2), (2, 0, 1))]))
_add("matrix_transpose", fam_shape(lambda x: [C(x), C(x.reshape(3, 2, 2))]))
_add("swapaxes", fam_shape(lambda x: [C(x, 0, 1), C(x.reshape(3, 2, 2), 0, 2)]))
_add("moveaxis", fam_shape(lambda x: [C(x, 0, 1), C(x.reshape(3, 2, 2), 0, -1), C(x.reshape(3, 2, 2), (0, 1), (2, 0))]))
_add("rollaxis", fam_shape(lambda x: [C(x, 1), C(x.reshape(3, 2, 2), 2, 0)]))
_add("squeeze", fam_shape(lambda x: [C(x[None]), C(x[:, None], 1), C(x[:1, None], axis=(0, 1)), C(x)]))
_add("expand_dims", fam_shape(lambda x: [C(x, 0), C(x, -1), C(x, (0, 2))]))
_add(
    "concatenate concat",
    fam_each(lambda dt: [C([mixed(dt), nonzero(dt)]), C((mixed(dt), nonzero(dt)), axis=1), C([mixed(dt), mixed(F32)]),
                         C([mixed(dt), mixed(I8)], axis=0), C([mixed(dt), mixed(dt)], axis=None)]),
)
_add(
    "stack",
    fam_each(lambda dt: [C([mixed(dt), nonzero(dt)]), C((mixed(dt), nonzero(dt)), axis=-1), C([mixed(dt), mixed(I16)], 1),
                         C([mixed(dt), mixed(F32)])]),
)
_add(
    "vstack hstack dstack column_stack row_stack",
    fam_each(lambda dt: [C([mixed(dt), nonzero(dt)]), C((mixed(dt)[0], nonzero(dt)[1])), C([mixed(dt), mixed(F32)]),
                         C([mixed(dt)[0, 0], mixed(dt)[1, 1]])]),
)
_add(
    "split array_split",
    fam_shape(lambda x: [C(x, 2, axis=1), C(x, [1, 2]), C(x, 3), C(x, [1, 3], axis=-1)]),
)
_add("hsplit", fam_shape(lambda x: [C(x, 2), C(x, [1, 3])]))
_add("vsplit", fam_shape(lambda x: [C(x, 3), C(x, [1])]))
_add("dsplit", fam_shape(lambda x: [C(x.reshape(3, 2, 2), 2)]))
_add("array_split", fam_shape(lambda x: [C(x, 2, axis=1), C(x, [1, 2]), C(x, 3), C(x, 5, axis=1)]))
_add("tile", fam_shape(lambda x: [C(x, 2), C(x, (2, 1)), C(x[0], (2, 1, 2))]))
_add("repeat", fam_shape(lambda x: [C(x, 2), C(x, 2, axis=0), C(x, [1, 2, 0], axis=0), C(x[0], 3)]))
_add(
    "roll",
    fam_shape(lambda x: [C(x, 1), C(x, -2, axis=1), C(x, 1, axis=0), C(x, (1, 2), axis=(0, 1)), C(x, 5),
                         C(x, (1, -1), axis=(1, 1)), C(x, 2, (0, 1)), C(x, shift=-1, axis=-1)]),
)
_add("flip", fam_shape(lambda x: [C(x), C(x, 0), C(x, axis=1), C(x, (0, 1))]))
_add("fliplr flipud", fam_shape(lambda x: [C(x)]))
_add("rot90", fam_shape(lambda x: [C(x), C(x, 2), C(x, -1), C(x, 1, (1, 0))]))
_add(
    "pad",
    fam_each(lambda dt: [C(mixed(dt), 1), C(mixed(dt), ((1, 0), (0, 2))), C(mixed(dt), 1, constant_values=7),
                         C(mixed(dt), 2, mode="edge"), C(mixed(dt), 1, "wrap"), C(mixed(dt), 2, mode="reflect"),
                         C(mixed(dt), 1, mode="symmetric"), C(mixed(dt)[0], (2, 1), "constant", constant_values=(1, 2)),
                         C(mixed(dt), ((0, 1), (1, 0)), mode="linear_ramp"), C(mixed(dt), 1, mode="maximum"),
                         C(mixed(dt), 1, mode="mean"), C(mixed(dt), 1, mode="minimum"), C(mixed(dt), 1, mode="median"),
                         C(mixed(dt), 2, constant_values=2.5)], [F64, F32, I32, B, U8]),
)
_add(
    "diff",
    fam_shape(lambda x: [C(x), C(x, axis=0), C(x, 2), C(x, n=2, axis=0), C(x[0], prepend=0), C(x[0], append=[1, 2]), C(x, n=0)]),
)
_add("ediff1d", fam_shape(lambda x: [C(x), C(x[0], to_end=9), C(x[0], to_begin=[1, 2])]))
_add(
    "gradient",
    fam_each(lambda dt: [C(mixed(dt)[0]), C(mixed(dt)), C(mixed(dt), axis=0), C(mixed(dt)[0], 2.0),
                         C(mixed(dt), 0.5, 2.0), C(mixed(dt)[0], edge_order=2), C(mixed(dt)[0], pos(F64)[0]),
                         C(mixed(dt)[0], pos(F64)[0], edge_order=2), C(mixed(dt), pos(F32)[:, 0], 2.0, edge_order=2)], NUM),
)
_add("broadcast_to", fam_shape(lambda x: [C(x[0], (3, 4)), C(x, (2, 3, 4)), C(x[0, 0], (2,))]))
_add("broadcast_arrays", fam_shape(lambda x: [C(x, x[0]), C(x[:, :1], x[0], x[0, 0])]))
_add("atleast_1d atleast_2d atleast_3d", fam_shape(lambda x: [C(x), C(x[0]), C(x[0, 0]), C(x, x[0])]))
_add(
    "take",
    fam_shape(lambda x: [C(x, [0, 2, 5]), C(x, [2, 0], axis=0), C(x, [-1, 0], axis=1), C(x, np.array([-2, 3])), C(x, np.array([[1, 3], [0, 0]]), axis=1), C(x, 4)]),
)
_add(
    "take_along_axis",
    fam_shape(lambda x: [C(x, np.argsort(x, axis=1), axis=1), C(x, np.array([[0, 2, 1, 0]]), axis=0), C(x[0], np.array([3, 0]), -1)]),
)
_add(
    "choose",
    fam_each(lambda dt: [C(np.array([0, 1, 1, 0]), [mixed(dt)[0], nonzero(dt)[0]]), C(small(I32) % 2, (mixed(dt), nonzero(dt)))]),
)
_add(
    "select",
    fam_each(lambda dt: [C([mixed(dt) > 0, mixed(dt) < -1], [mixed(dt), nonzero(dt)]),
                         C([mixed(dt) > 0], [mixed(dt)], default=5), C([mixed(dt) > 0], [mixed(dt)], default=np.float32(0.5)),
                         C([mixed(dt) > 0, mixed(dt) < 0], [mixed(dt), mixed(F32)])]),
)
_add("append", fam_shape(lambda x: [C(x, x), C(x[0], 3), C(x, x[:1], axis=0), C(x, [[1.5], [2], [3]], axis=1)]))
_add("insert", fam_shape(lambda x: [C(x, 0, 7), C(x[0], -1, 2.5), C(x, 1, x[0], axis=0), C(x, 2, 9, axis=1),
                                     C(x[0], 1, x[0, :1]), C(x, 1, [1, 2], axis=-1)]))
_add("shape ndim size", fam_shape(lambda x: [C(x), C(x[0]), C(x[0, 0])]))

# linear algebra
_add(
    "dot",
    fam_each(lambda dt: [C(mixed(dt), mixed(dt).T), C(mixed(dt)[0], nonzero(dt)[1]), C(mixed(dt), nonzero(dt)[0]),
                         C(mixed(dt), 2), C(mixed(dt)[0], mixed(F32)[1]), C(mixed(dt).T, mixed(I8))]),
)
_add("vdot", fam_each(lambda dt: [C(mixed(dt), nonzero(dt)), C(mixed(dt)[0], nonzero(dt)[1]), C(mixed(dt)[0], mixed(I16)[1]),
                                  C(mixed(dt)[0], mixed(F32)[1])]))
SAMPLES["inner"] = fam_each(lambda dt: [C(mixed(dt), nonzero(dt)), C(mixed(dt)[0], nonzero(dt)[1]), C(mixed(dt), 2)])
_add("outer", fam_each(lambda dt: [C(mixed(dt)[0], nonzero(dt)[1]), C(mixed(dt), nonzero(dt)[0]), C(mixed(dt)[0], mixed(F32)[1])]))
_add(
    "matmul",
    fam_each(lambda dt: [C(mixed(dt), mixed(dt).T), C(mixed(dt)[0], nonzero(dt).T), C(mixed(dt), nonzero(dt)[0]),
                         C(mixed(dt).reshape(3, 2, 2), nonzero(dt).reshape(3, 2, 2)), C(mixed(dt), mixed(F32).T)]),
)
_add("vecdot", fam_each(lambda dt: [C(mixed(dt), nonzero(dt)), C(mixed(dt), nonzero(dt)[0]), C(mixed(dt), nonzero(dt), axis=0),
                                    C(mixed(dt), mixed(F32))]))
_add("matvec", fam_each(lambda dt: [C(mixed(dt), nonzero(dt)[0]), C(mixed(dt).reshape(3, 2, 2), nonzero(dt)[0, :2]),
                                    C(mixed(dt), mixed(F32)[0])]))
_add("vecmat", fam_each(lambda dt: [C(mixed(dt)[:, 0], nonzero(dt)), C(nonzero(dt)[0, :2], mixed(dt).reshape(3, 2, 2)),
                                    C(mixed(dt)[:, 0], mixed(F32))]))
_add(
    "einsum",
    fam_each(lambda dt: [C("ij,kj->ik", mixed(dt), nonzero(dt)), C("ij->", mixed(dt)), C("ii->i", mixed(dt)[:, :3]),
                         C("ij->ji", mixed(dt)), C("i,i", mixed(dt)[0], nonzero(dt)[1]), C("ij,j->i", mixed(dt), mixed(F32)[0]),
                         C("ij", mixed(dt))]),
)
_add(
    "tensordot",
    fam_each(lambda dt: [C(mixed(dt), nonzero(dt), 2), C(mixed(dt), nonzero(dt), axes=([1], [1])),
                         C(mixed(dt)[0], nonzero(dt)[0], 0), C(mixed(dt), nonzero(dt).T, 1), C(mixed(dt), mixed(F32), 2)]),
)
_add("trace", fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt), 1), C(mixed(dt), offset=-1), C(mixed(dt), dtype=F32),
                                   C(mixed(dt).reshape(2, 2, 3)), C(mixed(dt), 0, 1, 0)]))
_add("kron", fam_each(lambda dt: [C(mixed(dt)[:2, :2], nonzero(dt)[:2, :3]), C(mixed(dt)[0], nonzero(dt)[1]), C(mixed(dt), 2)]))
_add(
    "cross",
    fam_each(lambda dt: [C(mixed(dt)[:, :3], nonzero(dt)[:, :3]), C(mixed(dt)[0, :3], nonzero(dt)[1, :3]),
                         C(mixed(dt)[:3, :3], nonzero(dt)[:3, :3], axis=0), C(mixed(dt)[:, :3], mixed(F32)[:, :3])], NUM),
)
SAMPLES["linalg.outer"] = fam_each(lambda dt: [C(mixed(dt)[0], nonzero(dt)[1]), C(mixed(dt)[0], mixed(F32)[1])])
SAMPLES["linalg.cross"] = fam_each(lambda dt: [C(mixed(dt)[:, :3], nonzero(dt)[:, :3]), C(mixed(dt)[:, :3], mixed(F32)[:, :3])], NUM)
SAMPLES["linalg.trace"] = fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt), offset=1), C(mixed(dt), dtype=F64)])
SAMPLES["linalg.diagonal"] = fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt), offset=1)])
SAMPLES["linalg.matmul"] = SAMPLES["matmul"]
SAMPLES["linalg.vecdot"] = fam_each(lambda dt: [C(mixed(dt), nonzero(dt)), C(mixed(dt), nonzero(dt), axis=0),
                                                C(mixed(dt), mixed(F32))], NUM)
SAMPLES["linalg.matrix_transpose"] = SAMPLES["matrix_transpose"]
SAMPLES["linalg.norm"] = fam_each(
    lambda dt: [C(mixed(dt)), C(mixed(dt)[0]), C(mixed(dt), axis=0), C(mixed(dt), axis=1, keepdims=True),
                C(mixed(dt)[0], 1), C(mixed(dt)[0], np.inf), C(mixed(dt)[0], -np.inf), C(mixed(dt)[0], 3),
                C(mixed(dt)[0], 0), C(mixed(dt), "fro"), C(mixed(dt), 1), C(mixed(dt), np.inf), C(mixed(dt), -1),
                C(mixed(dt), 2), C(mixed(dt), "nuc"), C(mixed(dt), 2, axis=1), C(mixed(dt), ord=1, axis=0)]
)
SAMPLES["linalg.vector_norm"] = fam_each(
    lambda dt: [C(mixed(dt)), C(mixed(dt), axis=0), C(mixed(dt), ord=1), C(mixed(dt), ord=np.inf, axis=1, keepdims=True),
                C(mixed(dt), ord=3), C(mixed(dt), ord=0)]
)
SAMPLES["linalg.matrix_norm"] = fam_each(
    lambda dt: [C(mixed(dt)), C(mixed(dt), ord=1), C(mixed(dt), ord=np.inf), C(mixed(dt), ord=2), C(mixed(dt), ord="nuc"),
                C(mixed(dt), keepdims=True)]
)
_sq_dts = [F64, F32, I64, I32]
SAMPLES["linalg.solve"] = fam_each(lambda dt: [C(gen(dt), pos(dt)[:, 0]), C(gen(dt), pos(dt)[:, :2]), C(sq(dt), gen(dt))], _sq_dts)
SAMPLES["linalg.inv"] = fam_each(lambda dt: [C(gen(dt)), C(sq(dt)), C(np.stack([gen(dt), sq(dt)]))], _sq_dts)
SAMPLES["linalg.det"] = fam_each(lambda dt: [C(gen(dt)), C(sq(dt)), C(np.stack([gen(dt), sq(dt)]))], _sq_dts)
SAMPLES["linalg.slogdet"] = SAMPLES["linalg.det"]
SAMPLES["linalg.eigh"] = fam_each(lambda dt: [C(sq(dt)), C(sq(dt), UPLO="U")], _sq_dts)
SAMPLES["linalg.eigvalsh"] = SAMPLES["linalg.eigh"]
SAMPLES["linalg.cholesky"] = fam_each(lambda dt: [C(sq(dt)), C(np.stack([sq(dt), sq(dt) * 2]))], _sq_dts)
SAMPLES["linalg.qr"] = fam_each(lambda dt: [C(gen(dt)), C(mixed(dt)), C(mixed(dt).T), C(gen(dt), mode="r"), C(mixed(dt), "complete")], _sq_dts)
SAMPLES["linalg.svd"] = fam_each(lambda dt: [C(gen(dt)), C(mixed(dt), full_matrices=False), C(mixed(dt), compute_uv=False)], _sq_dts)
SAMPLES["linalg.svdvals"] = fam_each(lambda dt: [C(gen(dt)), C(mixed(dt))], _sq_dts)
SAMPLES["linalg.lstsq"] = fam_each(lambda dt: [C(mixed(dt).T, pos(dt)[0], rcond=None), C(gen(dt), pos(dt)[:, :2], rcond=None)], _sq_dts)
SAMPLES["linalg.matrix_power"] = fam_each(lambda dt: [C(gen(dt), 0), C(gen(dt), 1), C(gen(dt), 3), C(sq(dt), -2)], _sq_dts + [I8, B])
SAMPLES["linalg.matrix_rank"] = fam_each(lambda dt: [C(gen(dt)), C(mixed(dt)), C(np.ones((3, 3), dt))], _sq_dts)
SAMPLES["linalg.pinv"] = fam_each(lambda dt: [C(gen(dt)), C(mixed(dt))], _sq_dts)
SAMPLES["linalg.multi_dot"] = fam_each(lambda dt: [C([mixed(dt), mixed(dt).T, gen(dt)]), C([mixed(dt)[0], mixed(dt).T, gen(dt)[0]]),
                                                   C([mixed(dt), mixed(F32).T, gen(dt)])], NUM)
SAMPLES["linalg.cond"] = fam_each(lambda dt: [C(gen(dt)), C(sq(dt)), C(gen(dt), 1), C(gen(dt), "fro"), C(gen(dt), np.inf)], _sq_dts)
SAMPLES["linalg.tensorsolve"] = fam_each(lambda dt: [C(gen(dt), pos(dt)[0, :3])], _sq_dts)
SAMPLES["linalg.tensorinv"] = fam_each(lambda dt: [C(gen(dt), ind=1)], _sq_dts)

# sorting, searching, misc
_add("sort", fam_shape(lambda x: [C(x), C(x, axis=0), C(x, axis=None), C(x, kind="stable")]))
_add("argsort", fam_shape(lambda x: [C(x), C(x, axis=0), C(x, axis=None), C(x, kind="stable")]))
_add(
    "searchsorted",
    fam_each(lambda dt: [C(np.sort(mixed(dt).ravel()), mixed(dt)[0]), C(np.sort(mixed(dt).ravel()), 2, side="right"),
                         C(np.sort(mixed(dt).ravel()), mixed(dt), "left")]),
)
_add("lexsort", fam_each(lambda dt: [C((mixed(dt)[0], mixed(dt)[1])), C(mixed(dt)), C(mixed(dt), axis=0)]))
_add("partition", fam_shape(lambda x: [C(x, 1), C(x, 2, axis=0)]))
_add("argpartition", fam_shape(lambda x: [C(x, 1), C(x, 2, axis=0)]))
_add(
    "interp",
    lambda: fam_each(lambda dt: [C(mixed(dt)[0], pos(dt)[0], mixed(dt)[1]), C(2.25, pos(dt)[0], mixed(dt)[2]),
                         C(mixed(dt), pos(dt)[0], mixed(dt)[2], left=0, right=1.5)], NUM)()
    + [C(mixed(F64)[0], pos(F64)[0], _Z[2]), C(mixed(F32)[0], pos(F32)[0], _Z[1].astype(np.complex64))],
)
_add(
    "convolve correlate",
    fam_each(lambda dt: [C(mixed(dt)[0], nonzero(dt)[1]), C(mixed(dt).ravel(), nonzero(dt)[0, :3], "same"),
                         C(mixed(dt).ravel(), nonzero(dt)[0, :3], mode="valid"), C(mixed(dt)[0, :2], mixed(dt).ravel())]),
)
_add(
    "digitize",
    fam_each(lambda dt: [C(mixed(dt), np.array([-1.0, 0.0, 2.0, 5.0])), C(mixed(dt), np.array([-1, 0, 2, 5]), right=True),
                         C(mixed(dt)[0], np.array([6.0, 1.0, -2.0]))], NUM),
)
_add(
    "trapezoid",
    fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt)[0]), C(mixed(dt), dx=0.5, axis=0), C(mixed(dt)[0], pos(dt)[0]),
                         C(mixed(dt), pos(F64)[0])]),
)
_add("polyval", fam_each(lambda dt: [C(mixed(dt)[0], mixed(dt)[1]), C(mixed(dt)[0], 2.5), C([1, 2, 3], mixed(dt))], NUM))
_add("polyder", fam_each(lambda dt: [C(mixed(dt)[0]), C(mixed(dt)[1], 2), C(mixed(dt)[2], m=0), C(mixed(dt)[0, :1]),
                                     C(mixed(dt)[0], 5), C([1, 2, 3]), C(mixed(dt)[0], -1)]))
_add("polyint", fam_each(lambda dt: [C(mixed(dt)[0]), C(mixed(dt)[1], 2), C(mixed(dt)[2], m=0), C(mixed(dt)[0], 2, [1, 2]),
                                     C(mixed(dt)[0], 3, 2.5), C(mixed(dt)[0], k=mixed(dt)[1, :1]), C([1, 2, 3], 2, k=3),
                                     C(mixed(dt)[0], 3, [1, 2]), C(mixed(dt)[0], -1)]))
_add("polyadd polysub", fam_each(lambda dt: [C(mixed(dt)[0], nonzero(dt)[1]), C(mixed(dt)[0], nonzero(F32)[1, :2]),
                                             C(mixed(dt)[0, :1], nonzero(dt)[1]), C(3, mixed(dt)[0]), C([1.5, 2], mixed(dt)[2])]))
_add("cov corrcoef", fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt)[0], nonzero(dt)[0]), C(mixed(dt), rowvar=False)], NUM))
SAMPLES["cov"] = fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt)[0], nonzero(dt)[0]), C(mixed(dt), rowvar=False),
                                      C(mixed(dt), ddof=0), C(mixed(dt), bias=True)], NUM)
# unsigned input: NumPy's diff wraps around first; not reproduced
_add("unwrap", fam_each(lambda dt: [C(mixed(dt) * 2), C(mixed(dt) * 2, axis=0), C(mixed(dt) * 3, period=4)],
                        [F64, F32, I64, I32, I16, I8]))
_add(
    "result_type",
    fam_cases(C(F32, I64), C(mixed(I8), 2.5), C(I8, U8), C(mixed(F32), mixed(I64)), C(B, I16), C(3, mixed(I16))),
)
_add("can_cast", fam_cases(C(I64, F64), C(F64, I32), C(I8, I16, "same_kind"), C(F64, F32, casting="same_kind")))
_add("promote_types", fam_cases(C(I8, U8), C(F32, I64), C(B, F16), C("int16", "float32")))
_add("issubdtype", fam_cases(C(F32, np.floating), C(I64, np.integer), C(B, np.number), C(U8, np.signedinteger)))
_add("iscomplexobj isrealobj isscalar", fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt)[0, 0])]))
SAMPLES["isscalar"] = fam_cases(C(3), C(2.5), C(mixed(F64)))

# dtypes and constants
_add("float64 float32 float16 int8 int16 int32 int64 bool_ bool complex64 complex128 int_ double single intp longlong",
     fam_dtype_ctor)
_add("uint8 uint16 uint32 uint64 uint uintp", fam_udtype_ctor)
_add("dtype", fam_cases(C(F64), C("float32"), C(int), C(float), C(I8)))
_add("finfo", fam_cases(C(F64), C(F32), C(F16)))
_add("iinfo", fam_cases(C(I8), C(I64), C(U8)))

# ufunc methods: .outer on the ufunc's own samples, .reduce/.accumulate on arrays of every dtype
for _q in T.FUNCTIONS:
    _n = _q[len("numpy."):]
    if _n.endswith(".outer") and isinstance(getattr(np, _n.split(".")[0]), np.ufunc):
        SAMPLES[_n] = (lambda b: lambda: [c for c in b() if len(c[0]) == 2])(_ufunc_family(_n[:-len(".outer")]))
_add(
    "add.reduce multiply.reduce maximum.reduce minimum.reduce logical_and.reduce logical_or.reduce",
    lambda: fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt), axis=1), C(mixed(dt), None), C(mixed(dt), keepdims=True),
                                 C(mixed(dt), 0, F64), C(mixed(dt), initial=5), C(mixed(dt), where=mixed(B), initial=1),
                                 C(mixed(dt), axis=(0, 1)), C(np.zeros((0, 3), dt))])()
    + [C([1, 2, 3]), C([[True, False]], axis=1)] + with_nans([C(mixed(F64)), C(mixed(F32), axis=1)]),
)
_add(
    "add.accumulate multiply.accumulate maximum.accumulate minimum.accumulate",
    lambda: fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt), axis=1), C(mixed(dt), -1), C(mixed(dt), 0, F64),
                                 C(mixed(dt)[0])])() + with_nans([C(mixed(F64), axis=1), C(mixed(F32))]),
)

# counting and binning: array data needs bincount's minlength= and histogram's range= (else a
# coded refusal, tests/compile/test_compile.py); known values (lists) go through NumPy itself
_COUNTS = np.array([0, 1, 1, 3, 2, 2, 2, 0])
SAMPLES["bincount"] = fam_cases(
    *[C(_COUNTS.astype(dt), minlength=4) for dt in (I64, I32, I16, U8)], C(_COUNTS, minlength=9),
    C(_COUNTS > 1, minlength=2), C(_COUNTS, weights=pos(F32).ravel()[:8], minlength=5),
    C(_COUNTS, pos(I32).ravel()[:8], 4), C(_COUNTS.astype(U8), weights=mixed(B).ravel()[:8], minlength=4),
    C(_COUNTS, weights=mixed(F64).ravel()[:8], minlength=4), C(np.zeros(0, I64), minlength=3),
    C(np.zeros(0, I64), weights=np.zeros(0, F32), minlength=3), C([0, 3, 3]), C([0, 3, 3], [0.5, 1, 2]),
    C([], minlength=2), C(np.array([0.0, 1.0]), minlength=2), C(_COUNTS.reshape(2, 4), minlength=4),
    C(_COUNTS, weights=np.ones(3), minlength=4),
)
_EDGES = np.linspace(0.0, 1.0, 31)  # values on and near NumPy's bin edges
SAMPLES["histogram"] = lambda: fam_each(
    lambda dt: [C(mixed(dt), 4, range=(-2, 3)), C(mixed(dt), 3, (0.0, 1.0), weights=pos(F32)),
                C(mixed(dt), 5, range=(-1.5, 2.5), weights=pos(I32)), C(mixed(dt), 4, range=(-2, 3), density=True),
                C(mixed(dt), 2, range=(1, 1)), C(mixed(dt), 1, range=(0, 2)), C(mixed(dt), 3, range=(np.float64(-1), 4)),
                C(mixed(dt), range=(-3, 7.5)), C(mixed(dt), 3, range=(2, 1)), C(mixed(dt), 3, range=(0, np.inf)),
                C(mixed(dt), 3, range=(0, 2), weights=mixed(B)), C(mixed(dt), 3, range=(0, 2), weights=pos(F64)[0]),
                C(mixed(dt)), C(mixed(dt), 5, weights=pos(F32)), C(mixed(dt)[:, :1] * 0 + 5, 3), C(pos(dt)[0], 1),
                C(mixed(dt), 3, density=True)], ALL)() + with_nans([C(mixed(F64), 3)]) + [
    C(_EDGES, 10, range=(0, 1)), C(_EDGES.astype(F32), 10, range=(0.0, 1.0)), C(_EDGES * 3 - 1, 7, range=(-1, 2)),
    C(_EDGES.astype(F32), 7, range=(np.float64(0.1), 0.9)), C(np.array([-2**62, 2**62], I64), 4, range=(-2**62, 2**62)),
    C(np.array([0, 255], U8), 5, range=(0, 255)), C([1, 2, 2, 5]), C([1.5, 2.0], 3, weights=[1, 2], density=True),
    C(np.zeros(0), 3, range=(0, 1)), C(np.zeros(0, I32), 3, range=(0, 1), weights=np.zeros(0, F32)),
    C(np.array([-128, 127], I8), 3), C(np.array([-2**62, 3, 2**62 + 1], I64), 7), C(np.array([2**62, 2**62], I64), 2),
    C(np.zeros(0, F32), 4), C(_EDGES.astype(F32) * 7 - 1, 9), C(np.array([1, 2, 2, 5], U8), 4), C(mixed(F64), 2.5),
]
_XY = np.array([0.0, 0.25, 0.5, 0.75, 1.0, 0.3, 1.0, -0.1, 0.75]), np.array([1.0, 0.75, 0.5, 0.25, 0.0, 0.2, 0.5, 1.0, 0.4])
SAMPLES["histogram2d"] = lambda: fam_each(
    lambda dt: [C(mixed(dt)[0], mixed(dt)[1]), C(mixed(dt)[0], mixed(dt)[2], 3, [[-2, 3], [0, 4]]),
                C(mixed(dt)[1], pos(dt)[0], [2, 3], density=True), C(mixed(dt)[0], mixed(dt)[0] * 0, 2),
                C(pos(dt)[0], mixed(dt)[1], 2, weights=pos(F32)[2])], ALL)() + with_nans([C(*_XY, 4, [[0, 1], [0, 1]])]) + [
    C(*_XY, 4, [[0, 1], [0, 1]]), C(*_XY, 4), C(_XY[0].astype(F32), _XY[1].astype(F32), [4, 3], [[0, 1], [0, 1]]),
    C(*_XY, np.array([0.0, 0.25, 0.6, 1.0])), C(*_XY, [np.array([0.0, 0.5, 1.0]), np.array([-1.0, 0.0, 0.25, 1.0])]),
    C(*_XY, [2, np.array([0.0, 0.5, 1.0])]), C(np.zeros(0), np.zeros(0), 3), C(*_XY, 3, weights=np.arange(9.0), density=True),
    C(np.array([-2**62, 2**62], I64), np.array([0, 1], I64), 4), C(*_XY, 0),
]
SAMPLES["lib.stride_tricks.sliding_window_view"] = lambda: fam_each(
    lambda dt: [C(mixed(dt), 2), C(mixed(dt), (2, 3)), C(mixed(dt), 3, axis=1), C(mixed(dt), (2, 2), axis=(1, 1)),
                C(mixed(dt), (1, 2), axis=(0, -1)), C(mixed(dt)[0], 4), C(mixed(dt)[0], 0), C(mixed(dt), 5),
                C(mixed(dt), -1), C(mixed(dt), (2, 2)), C(mixed(dt)[0], [3], writeable=False)], ALL)()
_add("triu_indices tril_indices", fam_cases(C(3), C(4, 1), C(3, -1, 4), C(3, k=2, m=2), C(0), C(4, m=1)))
_add("triu_indices_from tril_indices_from", fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt), 1), C(mixed(dt)[:3, :3], k=-1)]))
SAMPLES["isin"] = lambda: fam_each(
    lambda dt: [C(mixed(dt), mixed(dt)[0]), C(mixed(dt), nonzero(dt)[1], invert=True), C(mixed(dt), 2),
                C(mixed(dt)[0], [0, 1, 2.5]), C(mixed(dt), mixed(F32), kind="sort"), C(mixed(dt), np.zeros(0, dt)),
                C(mixed(dt), mixed(dt)[0], kind="table")],
    ALL)() + with_nans([C(mixed(F64), mixed(F64)[0])]) + [C(BIG_I64, BIG_F32), C(BIG_F32, BIG_I64, invert=True)]
_LINE = np.linspace(0.0, 2.0, 9)
SAMPLES["polyfit"] = fam_cases(
    C(_LINE, 3.0 * _LINE + 1.0 + 0.01 * np.sin(7 * _LINE), 1), C(_LINE, _LINE ** 3 - _LINE, 3),
    C(_LINE.astype(F32), (2 * _LINE).astype(F32), 2), C(np.arange(6), np.arange(6) ** 2, 2),
    C(_LINE, np.stack([_LINE, _LINE ** 2], 1), 2), C(_LINE, np.cos(_LINE), 4, w=1.0 + _LINE),
    C(_LINE, _LINE, 1, rcond=1e-10), C(_LINE, _LINE, -1), C(_LINE[:1], _LINE[:1], 0), C(_LINE, _LINE[:4], 1),
)
SAMPLES["unravel_index"] = fam_cases(
    C(np.array([0, 5, 11]), (3, 4)), C(np.array([[1, 7]], U8), (3, 4), order="F"), C(np.array([3], I32), (2, 2, 3)),
    C(np.array([True, False]), (2,)), C(np.array(5), (3, 4)), C(np.zeros(0, I64), (3, 4)), C(np.array([4, 0]), 6),
    C(np.array([2.0]), (3,)), C(np.array([1]), (3,), order="K"),
)
SAMPLES["ravel_multi_index"] = fam_cases(
    C((np.array([0, 2]), np.array([1, 3])), (3, 4)), C((np.array([0, 5, -1]), np.array([1, 7, -2], I8)), (3, 4), mode="wrap"),
    C((np.array([0, 5, -1]), np.array([1, 7, -2])), (3, 4), mode=("clip", "wrap"), order="F"),
    C((np.array([[1]]), np.array([2, 3], U8)), (2, 4)), C((np.array([1]),), (3, 4)), C((np.array([1.0]), np.array([1])), (3, 4)),
)
SAMPLES["diag_indices"] = fam_cases(C(3), C(2, 3), C(0), C(n=2, ndim=1))
SAMPLES["diag_indices_from"] = fam_cases(C(mixed(F64)[:3, :3]), C(np.zeros((2, 2, 2), I8)), C(mixed(F64)))
SAMPLES["ix_"] = fam_cases(
    C(np.array([0, 2]), np.array([1, 3])), C([0, 1], np.array([2], I32)), C([True, False, True], [1]),
    C(np.array([2, 0], U8)), C(np.array([1, 0]), [], np.array([[1]])), C(np.array([1.5])), C(),
)
SAMPLES["ndindex"] = fam_cases(C((2, 3)), C(2, 1, 2), C(()), C((0, 2)), C(shape=(2,)))
# discrete Fourier transforms: each dtype's precision (NumPy 2: single for float32/complex64),
# the norm modes, n= that pads or cuts, axes; complex input to a real transform is NumPy's TypeError
_CPLX = [C(mixed(F64) * (1 + 2j)), C((pos(F32) * (1 - 1j)).astype(np.complex64), norm="ortho")]
_add("fft.fft fft.ifft fft.rfft fft.ihfft", lambda: fam_each(lambda dt: [
    C(mixed(dt)), C(mixed(dt), norm="ortho"), C(mixed(dt), 6, 0, "forward"), C(mixed(dt)[0], 3, norm="backward")])()
    + _CPLX)
_add("fft.irfft fft.hfft", lambda: fam_each(lambda dt: [
    C(mixed(dt)), C(mixed(dt), 6, norm="ortho"), C(mixed(dt), axis=0, norm="forward")])() + _CPLX)
_add("fft.fft2 fft.ifft2 fft.fftn fft.ifftn fft.rfft2 fft.rfftn fft.irfft2 fft.irfftn", lambda: fam_each(lambda dt: [
    C(mixed(dt)), C(mixed(dt), (2, 6), norm="ortho"), C(mixed(dt), axes=(0,), norm="forward")])() + _CPLX)
_add("fft.fftshift fft.ifftshift", fam_each(lambda dt: [C(mixed(dt)), C(mixed(dt), axes=0), C(mixed(dt)[0])]))
_add("fft.fftfreq fft.rfftfreq", fam_cases(C(8), C(7, 0.1), C(5, d=2), C(6, np.float32(0.3)), C(1), C(4, np.array(0.25)),
                                           C(5, np.array(0.1, F32))))

CONSTANTS = {"pi", "e", "inf", "nan", "newaxis", "euler_gamma"}
# np.mgrid / np.ogrid: indexed, not called
GRIDS = {"mgrid", "ogrid"}
GRID_KEYS = [slice(0, 3), (slice(0, 3), slice(1, 5, 2)), (slice(-1, 1, 5j), slice(0, 2)), slice(0.5, 2.0, 0.25),
             (slice(3), slice(0, 1, 3j), slice(2, 0, -1)), slice(0, 0)]


# ---------------------------------------------------------------- compare
def _resolve_numpy(qname):
    obj = importlib.import_module("numpy")
    for part in qname.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def _to_jax(v):
    if isinstance(v, np.ndarray):
        return jnp.asarray(v)
    if isinstance(v, list):
        return [_to_jax(e) for e in v]
    if isinstance(v, tuple):
        return tuple(_to_jax(e) for e in v)
    return v


_RTOL = {np.dtype(F64): 1e-12, np.dtype(F32): 2e-6, np.dtype(F16): 2e-3,
         np.dtype(np.complex128): 1e-12, np.dtype(np.complex64): 2e-6}


def assert_same(ref, got, where=""):
    if isinstance(ref, (tuple, list)):
        assert isinstance(got, (tuple, list)), f"{where}: expected sequence, got {type(got)}"
        assert len(ref) == len(got), f"{where}: length {len(got)} != {len(ref)}"
        for i, (r, g) in enumerate(zip(ref, got)):
            assert_same(r, g, f"{where}[{i}]")
        return
    if isinstance(ref, (np.finfo, np.iinfo)):
        assert type(ref) is type(got) and str(ref) == str(got), f"{where}: {got!r} != {ref!r}"
        return
    if isinstance(ref, (np.dtype, type)):
        assert ref == got, f"{where}: {got!r} != {ref!r}"
        return
    if isinstance(ref, (bool, int, float, str)) and not isinstance(got, (np.ndarray, jax.Array)):
        assert type(ref) is type(got) and (ref == got or (ref != ref and got != got)), f"{where}: {got!r} != {ref!r}"
        return
    r = np.asarray(ref)
    g = np.asarray(got)
    assert g.shape == r.shape, f"{where}: shape {g.shape} != {r.shape}"
    assert g.dtype == r.dtype, f"{where}: dtype {g.dtype} != {r.dtype}"
    if r.dtype.kind in "fc":
        rtol = _RTOL[r.dtype]
        scale = float(np.nanmax(np.abs(r))) if r.size and np.isfinite(r).any() else 1.0
        atol = rtol * max(1.0, scale if np.isfinite(scale) else 1.0)
        np.testing.assert_allclose(g, r, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)
    else:
        np.testing.assert_array_equal(g, r, err_msg=where)


def _normalize_decomp(name, res):
    """Eigen/singular vectors are defined up to sign: fix the sign per column."""
    def fix(v):
        v = np.asarray(v)
        idx = np.argmax(np.abs(v), axis=-2)[..., None, :]
        s = np.sign(np.take_along_axis(v, idx, axis=-2))
        s[s == 0] = 1
        return v * s
    if name == "linalg.eigh":
        return (res[0], fix(res[1]))
    if name == "linalg.svd" and isinstance(res, tuple) and len(res) == 3:
        u, s, vh = (np.asarray(e) for e in res)
        su = np.sign(np.take_along_axis(u, np.argmax(np.abs(u), axis=-2)[..., None, :], axis=-2))
        su[su == 0] = 1
        return (u * su, s, vh * np.swapaxes(su, -1, -2)[..., : vh.shape[-2], :])
    if name == "linalg.qr":
        if isinstance(res, tuple):
            q, r = (np.asarray(e) for e in res)
            d = np.sign(np.diagonal(r, axis1=-2, axis2=-1)).copy()
            d[d == 0] = 1
            k = d.shape[-1]
            q = q.copy()
            q[..., :, :k] = q[..., :, :k] * d[..., None, :]
            r = r * d[..., :, None]
            return (q, r)
        r = np.asarray(res)
        d = np.sign(np.diagonal(r, axis1=-2, axis2=-1)).copy()
        d[d == 0] = 1
        return r * d[..., :, None]
    return res


def _np_call(fn_np, args, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return fn_np(*args, **kwargs)


def _normalize(name, ref, got):
    if hasattr(ref, "_fields") and name.startswith("linalg."):  # NumPy's EighResult... not jax's
        assert type(got) is type(ref), f"{name}: a {type(got).__module__}.{type(got).__name__}"
    if name in ("linalg.eigh", "linalg.svd", "linalg.qr"):
        ref = _normalize_decomp(name, tuple(ref) if isinstance(ref, tuple) else ref)
        got = _normalize_decomp(name, tuple(got) if isinstance(got, tuple) else got)
    if isinstance(ref, tuple) and hasattr(ref, "_fields"):
        ref = tuple(ref)
    if isinstance(got, tuple) and hasattr(got, "_fields"):
        got = tuple(got)
    if name == "ndindex":  # an iterator of index tuples
        ref, got = list(ref), list(got)
    if name in NO_VALUES:  # contents undefined in NumPy: compare dtype/shape
        ref = np.zeros_like(ref)
        got = np.zeros_like(np.asarray(got))
    return ref, got


def _split(args, kwargs):
    """Flatten a case: NumPy arrays become traced inputs, the rest is static."""
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
    dyn = [i for i, v in enumerate(leaves) if isinstance(v, np.ndarray)]
    return leaves, treedef, dyn


def _rebuild(leaves, treedef, dyn, values):
    leaves = list(leaves)
    for i, v in zip(dyn, values):
        leaves[i] = v
    return jax.tree_util.tree_unflatten(treedef, leaves)


def _valid_cases(qname, fn_np, cases):
    """The cases NumPy accepts, each with NumPy's result."""
    valid = []
    for args, kwargs in cases:
        try:
            ref = _np_call(fn_np, args, kwargs)
        except Exception:
            continue  # not valid NumPy: nothing to match
        valid.append((args, kwargs, ref))
    assert valid, f"{qname}: NumPy rejected every sample"
    return valid


def _traced(fn_j, valid):
    """The function of the entry's traced inputs that runs every case, and those inputs."""
    splits = [_split(a, k) for a, k, _ in valid]
    # NumPy arrays go to jit as they are (the same dtype and shape): jnp.asarray compiles an eager
    # copy per new shape and dtype on jax 0.10 (about 80 small compiles per 100 entries)
    inputs = [[leaves[i] for i in dyn] for leaves, _, dyn in splits]

    def batch(inputs):
        res = []
        for (leaves, treedef, dyn), vals in zip(splits, inputs):
            a, k = _rebuild(leaves, treedef, dyn, vals)
            res.append(fn_j(*a, **k))
        return res
    return batch, inputs


def _compare(qname, valid, outs):
    name = qname[len("numpy."):]
    for (args, kwargs, ref), got in zip(valid, outs):
        r, g = _normalize(name, ref, got)
        try:
            assert_same(r, g)
        except AssertionError as e:
            raise AssertionError(f"{qname}{_fmt(args, kwargs)}: {e}") from None


def run_entry(qname, fn_np, fn_j, cases):
    """Check every NumPy-valid case; all cases of an entry run in one jit."""
    name = qname[len("numpy."):]
    valid = _valid_cases(qname, fn_np, cases)
    if name in EAGER:
        outs = []
        for args, kwargs, _ in valid:
            try:
                outs.append(fn_j(*_to_jax(args), **_to_jax(kwargs)))
            except Exception as e:
                raise AssertionError(f"{qname}{_fmt(args, kwargs)} raised {type(e).__name__}: {e}") from None
    else:
        batch, inputs = _traced(fn_j, valid)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                outs = jax.jit(batch)(inputs)
        except Exception as jit_error:
            # Find the failing case eagerly for a precise message.
            for args, kwargs, _ in valid:
                leaves, treedef, dyn = _split(args, kwargs)
                try:
                    a, k = _rebuild(leaves, treedef, dyn, [jnp.asarray(leaves[i]) for i in dyn])
                    fn_j(*a, **k)
                except Exception as e:
                    raise AssertionError(f"{qname}{_fmt(args, kwargs)} raised {type(e).__name__}: {e}") from None
            raise AssertionError(f"{qname}: fails only under jit: {type(jit_error).__name__}: {jit_error}") from None
    _compare(qname, valid, outs)


# Entries returning Python values (shapes, dtypes, flags): called eagerly.
EAGER = {
    "shape", "ndim", "size", "result_type", "can_cast", "promote_types", "issubdtype",
    "iscomplexobj", "isrealobj", "isscalar", "dtype", "finfo", "iinfo", "ndindex",
}
NO_VALUES = {"empty", "empty_like"}
# Names a later NumPy removed (np.row_stack: deprecated in 2.0, gone in 2.5): the table keeps them
# for code written against an older NumPy; they are checked where the installed NumPy has them.
REMOVED_LATER = {"numpy.row_stack"}


def _installed(qname) -> bool:
    try:
        _resolve_numpy(qname)
    except AttributeError:
        if qname in REMOVED_LATER:
            return False
        raise
    return True


ENTRIES = sorted(q for q in T.FUNCTIONS if _installed(q))


def check_entry(qname):
    """Run the differential check of one entry; raise AssertionError on mismatch."""
    name = qname[len("numpy."):]
    fn_np = _resolve_numpy(qname)
    fn_j = eval(T.FUNCTIONS[qname], dict(NS))
    if name in CONSTANTS:
        assert fn_j is fn_np or fn_j == fn_np or (fn_np != fn_np and fn_j != fn_j), qname
        return
    if name in GRIDS:
        for key in GRID_KEYS:
            assert_same(fn_np[key], fn_j[key], f"{qname}[{key}]")
        return
    run_entry(qname, fn_np, fn_j, samples_for(qname))


def _alias_key(qname):
    """Entries that are the same NumPy object, same replacement object and
    same samples (np.abs/np.absolute, np.pow/np.power, ...) share one check."""
    name = qname[len("numpy."):]
    if name in CONSTANTS or name in GRIDS:
        return ("const", qname)
    fn_j = eval(T.FUNCTIONS[qname], dict(NS))
    return (id(_resolve_numpy(qname)), id(fn_j), id(builder_for(qname)))


def _outcome(check, *args):
    """None when `check(*args)` passes, else its error as one line of text."""
    try:
        check(*args)
    except Exception as e:  # noqa: BLE001 - reported per entry
        return f"{type(e).__name__}: {e}"
    return None


def _jitted_parts(qname):
    """An entry checked under jit: its NumPy-valid cases, the function running them all and its
    inputs; None for the constants, grids and eagerly called entries."""
    name = qname[len("numpy."):]
    if name in CONSTANTS or name in GRIDS or name in EAGER:
        return None
    fn_j = eval(T.FUNCTIONS[qname], dict(NS))
    valid = _valid_cases(qname, _resolve_numpy(qname), samples_for(qname))
    return (valid, *_traced(fn_j, valid))


def _check_group(group):
    """Check several jitted entries [(qname, parts)] in one XLA program (an XLA compile costs
    about as much for one entry as for eight); on any error each entry is checked alone again
    (run_entry: its own jit and its own message)."""
    batches = [batch for _, (_, batch, _) in group]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            outs = jax.jit(lambda inputs: [b(i) for b, i in zip(batches, inputs)])(
                [inputs for _, (_, _, inputs) in group])
    except Exception:  # noqa: BLE001 - found again entry by entry
        return {q: _outcome(check_entry, q) for q, _ in group}
    return {q: _outcome(_compare, q, valid, o) for (q, (valid, _, _)), o in zip(group, outs)}


# jitted entries per XLA program: a larger program compiles slower per entry, a smaller one pays
# the fixed cost more often (CPU s of the first 200 entries, 7 December 2026: 1: 41, 4: 34,
# 8: 32, 12: 37, 24: 39)
_GROUP = 8


def _check_many(entries):
    keys = {q: _alias_key(q) for q in entries}
    first = {}  # alias key -> the entry checked for it
    out, group = {}, []
    with jax.enable_x64(True):
        for q in entries:
            if keys[q] in first:
                continue
            first[keys[q]] = q
            try:
                parts = _jitted_parts(q)
            except Exception as e:  # noqa: BLE001 - reported per entry
                out[q] = f"{type(e).__name__}: {e}"
                continue
            if parts is None:
                out[q] = _outcome(check_entry, q)
                continue
            group.append((q, parts))
            if len(group) == _GROUP:
                out.update(_check_group(group))
                group = []
        out.update(_check_group(group) if group else {})
    return {q: out[first[keys[q]]] for q in entries}


# XLA compile time dominates (one jit per group of entries), so the entries are checked
# in worker processes, one per core, with XLA's backend optimizations off
# and the new CPU fusion emitters off (compile time drops about 5x; the
# checks compare values with tolerances anyway).
# NPR_TABLE_INPROC=1 runs everything in the pytest process instead.
# (The XLA of jax 0.11 no longer knows the fusion-emitters flag and stops at an unknown flag.)
_XLA_FAST = ("--xla_cpu_use_fusion_emitters=false " if tuple(map(int, jax.__version__.split(".")[:2])) < (0, 11)
             else "") + "--xla_backend_optimization_level=0 --xla_llvm_disable_expensive_passes=true"


def _run_workers(entries):
    import json
    import os
    import subprocess
    import sys

    n = max(1, min(4, os.cpu_count() or 1))
    groups = {}
    for q in entries:  # aliases go to the same worker
        groups.setdefault(_alias_key(q), []).append(q)
    chunks = [[] for _ in range(n)]
    for i, g in enumerate(groups.values()):
        chunks[i % n].extend(g)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ)
    env["XLA_FLAGS"] = (env.get("XLA_FLAGS", "") + " " + _XLA_FAST).strip()
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("JAX_PLATFORMS", "cpu")
    procs = [
        subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=root, text=True)
        for _ in chunks
    ]
    results = {}
    for proc, chunk in zip(procs, chunks):
        stdout, stderr = proc.communicate(json.dumps(chunk), timeout=900)
        try:
            results.update(json.loads(stdout.strip().splitlines()[-1]))
        except (ValueError, IndexError):
            for q in chunk:
                results[q] = f"worker crashed (rc={proc.returncode}): {stderr[-2000:]}"
    return results


@pytest.fixture(scope="module")
def entry_results():
    import os

    if os.environ.get("NPR_TABLE_INPROC"):
        return None
    return _run_workers(ENTRIES)


@pytest.mark.parametrize("qname", ENTRIES)
def test_entry_matches_numpy(qname, entry_results):
    if entry_results is None:
        with jax.enable_x64(True):
            check_entry(qname)
        return
    msg = entry_results.get(qname, "not run")
    if msg is not None:
        pytest.fail(msg, pytrace=False)


def _fmt(args, kwargs):
    def f(a):
        if isinstance(a, np.ndarray):
            return f"<{a.dtype}{list(a.shape)}>"
        if isinstance(a, (list, tuple)):
            return "[" + ", ".join(f(e) for e in a) + "]"
        return repr(a)
    parts = [f(a) for a in args] + [f"{k}={f(v)}" for k, v in kwargs.items()]
    return "(" + ", ".join(parts) + ")"


def test_entry_names_exist_in_numpy():
    for q in T.FUNCTIONS:
        assert q.startswith("numpy."), q
        _installed(q)


def test_replacements_resolve():
    for q, rep in T.FUNCTIONS.items():
        eval(rep, dict(NS))


def test_ufunc_sets():
    for q in T.UFUNCS:
        obj = _resolve_numpy(q)
        assert isinstance(obj, np.ufunc) and obj.nout == 1 and obj.signature is None, q
        assert q in T.FUNCTIONS, q
    for q in T.MULTI_OUTPUT_UFUNCS:
        assert _resolve_numpy(q).nout == 2 and q in T.FUNCTIONS
    for q in T.GUFUNCS:
        assert _resolve_numpy(q).signature is not None and q in T.FUNCTIONS
    for q in T.OUT_FUNCTIONS:
        obj = _resolve_numpy(q)
        assert not isinstance(obj, np.ufunc), q
        assert "out" in (obj.__doc__ or "").split("\n")[0] or True
    assert not (T.UFUNCS & T.OUT_FUNCTIONS)


def test_out_functions_accept_out():
    import inspect
    for q in T.OUT_FUNCTIONS:
        obj = _resolve_numpy(q)
        try:
            params = inspect.signature(obj).parameters
        except (TypeError, ValueError):
            continue
        assert "out" in params, q


def test_host_only_not_in_table():
    for q in T.FUNCTIONS:
        assert not T.is_host_only(q), q
    for q in ("numpy.random.seed", "numpy.random.default_rng", "numpy.random.shuffle", "numpy.save",
              "numpy.savetxt", "numpy.loadtxt", "numpy.load", "numpy.set_printoptions", "numpy.genfromtxt"):
        assert T.is_host_only(q), q
        assert T.lookup(q) is None
    for q in ("numpy.random.rand", "numpy.random.normal", "numpy.random.random"):  # drawn at run time
        assert T.is_random_draw(q) and not T.is_host_only(q) and T.lookup(q) is None, q


def test_left_out_not_in_table():
    for q in ("numpy.nonzero", "numpy.unique", "numpy.partition", "numpy.add.reduceat"):
        assert T.lookup(q) is None, q
    for q in T.LEFT_OUT:
        assert T.lookup(q) is None, q
        _resolve_numpy(q)


def test_differs_entries_are_shimmed():
    for q, why in T.DIFFERS.items():
        assert q in T.FUNCTIONS and why, q
        assert T.uses_shim(q), q


def test_npr004_hint_names_the_nearest_supported_spelling():
    import re
    assert "`np.empty(shape, dtype)`" in T.not_in_table("numpy.ndarray")[1]
    assert "`np.cumsum`" in T.not_in_table("numpy.cumsun")[1] and "`np.fft.fft`" in T.not_in_table("numpy.fft.fftt")[1]
    assert "nearest" not in T.not_in_table("numpy.foo")[1]
    for spelled in T.SPELLINGS.values():  # every synonym named is one the table translates
        name = re.match(r"`np\.(\w+)", spelled).group(1)
        assert f"numpy.{name}" in T.FUNCTIONS, spelled


def test_lookup():
    assert T.lookup("numpy.zeros") == "jnp.zeros"
    assert T.lookup("numpy.linalg.norm") is not None
    assert T.lookup("numpy.pi") == "np.pi"
    assert T.lookup("numpy.no_such_function") is None


def test_rows_gather_what_np2ref_knows_about_a_name():
    """One row per NumPy name, from the one table the analysis, the rules and the runtime read."""
    assert T.row("numpy.copyto").dump() == (
        "name         numpy.copyto\n"
        "left_out     mutates in place: handled by the write-side rewriter\n"
        "writes       0\n"
        "helper       npr_copyto")
    assert T.row("numpy.flip").dump() == "name         numpy.flip\nreplacement  jnp.flip\nview         opaque"
    add = T.row("numpy.add")
    assert add.replacement == "npr_np_add" and add.ufunc_at and add.out and add.differs
    assert not T.row("numpy.arctan2").ufunc_at and T.row("numpy.arctan2").ufunc
    # every helper a row names is a public name of the runtime package converted code imports
    helpers = ({e.helper for e in T.IN_PLACE_FUNCTIONS.values()} | set(T.IN_PLACE_METHODS.values())
               | set(T.VIEW_FUNCTIONS.values()) | set(T.VIEW_METHODS.values()) | set(T.VIEW_ATTRIBUTES.values()))
    assert helpers <= set(shims.__all__), helpers - set(shims.__all__)
    from np2ref.analysis import effects as fx
    from np2ref.emit import jaxnames as J
    assert fx.INPLACE_FUNCTIONS == {n: e.writes for n, e in T.IN_PLACE_FUNCTIONS.items()}
    assert J.IN_PLACE_FUNCTIONS == {n: e.helper for n, e in T.IN_PLACE_FUNCTIONS.items()}


def test_shims_module_rules():
    """The np_* modules of np2ref.rt hold only npr_np_* names (converted code imports them)."""
    import ast
    import pathlib
    modules = sorted(pathlib.Path(shims.__file__).parent.glob("np_*.py"))
    assert modules
    for path in modules:
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                assert node.name.startswith(("npr_np_", "_npr_np_")), node.name
            elif isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        assert t.id.startswith(("npr_np_", "_npr_np_")), t.id
    for q, rep in T.FUNCTIONS.items():
        if rep.startswith("npr_np_"):
            assert hasattr(shims, rep.split("(")[0].split(".")[0]), rep


if __name__ == "__main__" and sys.argv[1:] == ["--worker"]:
    print(json.dumps(_check_many(json.loads(sys.stdin.read()))))
