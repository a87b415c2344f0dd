"""np.round / np.around / ndarray.round with decimals > 0 against NumPy, bit for bit.

NumPy rounds as `rint(x * 10**d) / 10**d`, a true division. XLA's simplifier turns a division
by a constant into a multiplication by its reciprocal, one ulp off for most decimal fractions
(`np.round(0.7, 2)` came back 0.7000000000000001, `np.round(float32(0.1), 2)` one ulp low): the
printed text of a rounded value differed from NumPy's. rt/np_creation.py divides truly.
"""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, on_tpu


def rounded(x):
    y = x * 1.0
    return np.round(y, 2), np.around(y, 1), y.round(3), np.round(y, 5)


def rounded_in_loop(x, n):
    out = np.zeros((n, x.size), dtype=x.dtype)
    for i in range(n):
        out[i] = np.round(x * (i + 1), 2)
    return out


COMPILED = np2ref.compile(rounded, host_below=0)
LOOPED = np2ref.compile(rounded_in_loop, host_below=0)


def _values(dtype):
    rng = np.random.default_rng(0)
    base = np.concatenate([np.arange(0.0, 2.0, 0.1), np.round(rng.uniform(-50, 50, 200), 3),
                           rng.uniform(-1e3, 1e3, 100)])
    return base.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_round_decimals_bitwise(dtype):
    x = _values(dtype)
    for want, got in zip(rounded(x), COMPILED(x)):
        assert got.dtype == want.dtype
        if on_tpu():  # (a TPU's float64 is a float32 pair, its float32 division 1 ulp: docs/tpu.md)
            assert_numpys_bits(got, want)
        else:
            assert got.tobytes() == want.tobytes(), (x[got != want], got[got != want], want[got != want])


def test_round_in_loop_bitwise():
    x = _values(np.float64)[:40]
    want, got = rounded_in_loop(x, 5), LOOPED(x, 5)
    assert got.dtype == want.dtype
    if on_tpu():  # x * 5 near a decimal tie (31.585 * 5) is the pair's product, rounded to either side
        scaled = x * np.arange(1, 6)[:, None] * 100.0
        ties = np.abs(scaled - np.floor(scaled) - 0.5) < 1e-9
        assert_numpys_bits(got[~ties], want[~ties])
    else:
        assert got.tobytes() == want.tobytes()
