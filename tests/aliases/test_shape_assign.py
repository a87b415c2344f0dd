"""`X.shape = S` (issue 41, NPBench mandelbrot2): right after `X = <a new array>` it is the
rebinding `X = X.reshape(S)` (frontend/shapes.py), exact; on a parameter or a view, where another
name sees the change, NPR205 says so precisely."""

from __future__ import annotations

import jax
import numpy as np
import pytest

import np2ref
from conftest import load_module

SOURCE = """
import numpy as np


def mandel(n, maxiter):
    X = np.linspace(-2.0, 1.0, n * n)
    X.shape = (n, n)
    Y = np.linspace(-1.5, 1.5, n)
    C = X + 1j * Y[:, None]
    Z = np.zeros_like(C)
    N = np.zeros(C.shape, dtype=np.int64)
    for i in range(maxiter):
        I = np.abs(Z) < 2.0
        N[I] = i
        Z[I] = Z[I] ** 2 + C[I]
    flat = N.copy()
    flat.shape = -1
    flat[0] = -1
    return N, flat


def on_parameter(u):
    u.shape = -1
    u[0] = 1.0


def on_view(u):
    w = u[1:]
    w.shape = (2, -1)
    w[0, 0] = 1.0
"""


def test_a_shape_set_on_a_new_array_is_a_reshape(tmp_path):
    module = load_module(SOURCE, tmp_path, "shape_assign")
    compiled = np2ref.compile(module.mandel)
    if jax.default_backend() == "tpu":  # no complex128 there (docs/tpu.md): refused, not aborted
        with pytest.raises(np2ref.Np2RefError, match="NPR302 complex128"):
            compiled(12, 20)
        return
    expected, got = module.mandel(12, 20), compiled(12, 20)
    for e, g in zip(expected, got):
        assert e.shape == g.shape and e.dtype == g.dtype and np.array_equal(e, g)
    body = compiled.source[compiled.source.index("def mandel"):compiled.source.index("def on_parameter")]
    assert "X = X.reshape((n, n))" in body and ".shape =" not in body


@pytest.mark.parametrize("name", ["on_parameter", "on_view"])
def test_a_shape_set_another_name_sees_is_refused_saying_so(tmp_path, name):
    module = load_module(SOURCE, tmp_path, f"shape_assign_{name}")
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(getattr(module, name))
    diag = info.value.diagnostics[0]
    assert diag.code == "NPR205" and "changes the array object in place" in diag.message
