"""np.polyder, np.polyint, np.polyadd and np.polysub inside a compiled function, with NumPy's
dtypes and values bit for bit; the polynomial helpers whose output shape depends on data
(np.roots, np.poly1d, np.polymul) refused with their reason (NPR004)
(tests/programs/ufunc_at_and_selections.py)."""

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("ufunc_at_and_selections")


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(P, name), host_below=0)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.bool_])
def test_polynomial_calculus_matches_numpy(dtype):
    """np.polyder / np.polyint (m=, k= as a list and as a scalar) / np.polyadd / np.polysub:
    NumPy's own steps, so NumPy's dtypes (float32 and ints integrate to float64, a float32
    derivative is float64: the int64 arange) and values, bit for bit."""
    p = np.array([3, -2, 1, 5], dtype)
    expected, got = assert_same_as_numpy(P.poly_calculus, compiled("poly_calculus"), p)
    for e, g in zip(expected, got):
        assert np.asarray(g).dtype == np.asarray(e).dtype and np.array_equal(e, g)


@pytest.mark.parametrize("name, reason", [("poly_roots", "np.roots` is not translated: its output shape"),
                                          ("poly_object", "np.poly1d` is not translated: a polynomial object"),
                                          ("poly_product", "np.polymul` is not translated: its output shape")])
def test_polynomial_helpers_of_data_dependent_shape_are_refused_with_their_reason(name, reason):
    getattr(P, name)(np.array([1.0, 2.0, 3.0]))
    with pytest.raises(np2ref.Np2RefError, match="NPR004") as err:
        compiled(name)(np.array([1.0, 2.0, 3.0]))
    assert reason in str(err.value)
