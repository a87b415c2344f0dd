"""`x.compress(cond)`: np.compress is refused (NPR004, its output shape is data), but the method
went to jax.Array's namesake: a list condition (`x.compress([True, False, True])`) stopped with
JAX's raw TypeError, an array one with a misleading NPR030. The method is refused as the function
is (rewrite/rules/names.py). Found beside tests/third_party/scripts10 (a probe of array methods);
a module's own `zlib.compress(...)` is not the array method."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref


def listed(x):
    return x.compress([True, False, True]).sum()


def masked(x):
    return x.reshape(3, 4).compress(x[:4] > 0.5, axis=1)


@pytest.mark.parametrize("fn", [listed, masked], ids=lambda f: f.__name__)
def test_the_compress_method_is_refused_as_np_compress_is(fn):
    fn(np.linspace(0.0, 1.0, 12))  # NumPy runs it
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(fn, host_below=0)(np.linspace(0.0, 1.0, 12))
    assert {d.code for d in info.value.diagnostics} == {"NPR004"}
