"""`np.full(shape, 2.0)` is float64 whatever it meets (NumPy's dtype of the fill value): jnp.full
of a Python number made a weakly typed array, so `np.full(3, 2.0) + x` with x float32 was float32
where NumPy says float64 (found by the fuzzer's promote_mix family, fuzz5). Differential: values
and dtypes, float32 and int arrays, a Python int and bool fill."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, load_module

SOURCE = '''
import numpy as np


def filled(x, n):
    return np.full(n, 2.5) + x, np.full(n, 3) * x, np.full(n, True) & (x > 0), np.full((), 1.5) + x
'''


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("full_dtypes"), "full_dtypes")


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.float64])
def test_a_full_array_of_a_python_number_has_numpys_dtype(module, dtype):
    x = (np.arange(4) - 1).astype(dtype)
    want = module.filled(x, 4)
    got = np2ref.compile(module.filled, host_below=0)(x, 4)
    for g, w in zip(got, want):
        assert_numpys_bits(np.asarray(g), np.asarray(w))
