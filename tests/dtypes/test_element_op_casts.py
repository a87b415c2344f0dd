"""`a[i] op= v` at one element of an integer or bool array, the result a float (found by the fuzz
family pallas_nest: `Q[i] -= Q[i - 1] * 0.25 + Q[i]` on uint8 gave 0 where NumPy gives 255).
NumPy computes the NumPy scalar `a[i] op v` and stores it as `a[i] = that` does: a float into an
unsigned array as x86-64 casts it (-1.75 -> 255 in uint8), into a signed one through int() (NaN
raises ValueError, beyond the dtype OverflowError). np2ref cast the op='s float result with XLA's
saturating convert (-1.75 -> 0). NumPy's own run is the oracle on every case."""

from __future__ import annotations

import functools
import platform

import numpy as np
import pytest

import np2ref
from np2ref.verify.compare import first_difference

pytestmark = pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                                reason="np2ref follows x86-64 NumPy's float -> integer cast")


def straight(Q, v):
    Q[0] -= Q[3] * 0.25 + Q[0]
    Q[1] += v
    Q[-1] *= v


def scan(Q, v):
    for i in range(Q.shape[0]):
        Q[i] -= Q[i - 1] * 0.25 + Q[i]
        Q[i - 1] += v


def unrolled(Q, v):
    for i in range(4):
        Q[i] -= 2.5 * v


FNS = [straight, scan, unrolled]
DTYPES = [np.uint8, np.uint16, np.int8, np.int16, np.int32, np.int64, np.bool_]
VALUES = [2.5, -1.75, 0.0, 300.7, float("nan")]
# converted at first use, not at collection (each xdist worker collects every module)
_compiled = functools.cache(lambda fn: np2ref.compile(fn, host_below=0))


def _outcome(fn, Q, v):
    try:
        with np.errstate(all="ignore"):
            fn(Q, v)
    except (ValueError, OverflowError) as exc:
        return type(exc)
    return None


@pytest.mark.parametrize("fn", FNS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_element_op_assign_stores_numpys_cast(fn, dtype):
    compared = 0
    for v in VALUES:
        data = np.array([0, 3, 200, 7], dtype=np.int64).astype(dtype)
        want, got = data.copy(), data.copy()
        raised = _outcome(fn, want, np.float64(v))
        if raised is not None:  # NumPy raises: np2ref raises the same type, the argument unwritten
            with pytest.raises(raised):
                _compiled(fn)(got, np.float64(v))
            assert first_difference(data, got, "Q") is None
            continue
        _compiled(fn)(got, np.float64(v))
        diff = first_difference(want, got, f"Q (v={v})")
        assert diff is None, diff
        compared += 1
    assert compared
