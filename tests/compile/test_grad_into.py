"""np2ref.grad_into: a converted function's gradient added into a caller-owned buffer, in place."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from np2ref.compiled import grad as grad_module


def sparse_loss(x, idx, w):
    return np.sum(np.sin(x[idx]) * w)


def looped_reads(x, idx):
    total = 0.0
    for k in range(idx.shape[0]):
        total += x[idx[k]] ** 2
    return total


def writes_its_argument(x, idx):
    x[idx] *= 2.0
    return np.sum(x * x)


def not_a_scalar(x, idx):
    return x[idx]


@functools.cache
def compiled(name):
    return np2ref.compile(globals()[name])


@functools.cache
def data(n=200, reads=40, duplicates=True):
    rng = np.random.default_rng(0)
    x = rng.random(n)
    idx = rng.integers(0, n, reads) if duplicates else rng.permutation(n)[:reads]
    if duplicates:
        idx[:4] = idx[4]
    return x, idx, rng.random(reads)


def dense_grad(name, *args):
    c = compiled(name)
    with jax.enable_x64(True):
        return np.asarray(jax.jit(jax.grad(lambda x, *rest: c.pure(x, *rest)[0]))(*map(jnp.asarray, args)))


@pytest.fixture(params=[None, False], ids=["with_refs", "donated_add"])
def route(request, monkeypatch):
    if request.param is None and not grad_module.has_with_refs():
        pytest.skip("this JAX has no vjp(...).with_refs")
    monkeypatch.setattr(grad_module, "USE_WITH_REFS", request.param)
    return request.param


def test_from_zeros_it_is_jax_grad_exactly(route):
    x, idx, w = data()
    expected = dense_grad("sparse_loss", x, idx, w)
    with jax.enable_x64(True):
        g = jnp.zeros_like(jnp.asarray(x))
        pointer = g.unsafe_buffer_pointer()
        value, g2 = np2ref.grad_into(compiled("sparse_loss"), "x", g, jnp.asarray(x), idx, w)
        assert g.is_deleted() and g2.unsafe_buffer_pointer() == pointer  # the same memory, donated
    assert np.array_equal(np.asarray(g2), expected)
    assert float(value) == pytest.approx(sparse_loss(x, idx, w), rel=1e-14)


def test_into_a_ref_accumulates_in_place(route):
    x, idx, w = data(duplicates=False)
    expected = dense_grad("sparse_loss", x, idx, w)
    with jax.enable_x64(True):
        g_ref = jax.new_ref(jnp.full(x.shape, 0.5))
        for _ in range(3):
            _, same = np2ref.grad_into(compiled("sparse_loss"), "x", g_ref, x, idx, w)
            assert same is g_ref
        got = np.asarray(g_ref[...])
    assert np.array_equal(got, ((0.5 + expected) + expected) + expected)  # distinct reads: exact


def test_into_a_numpy_buffer(route):
    x, idx, w = data()
    expected = dense_grad("sparse_loss", x, idx, w)
    g = np.zeros_like(x)
    value, same = np2ref.grad_into(compiled("sparse_loss"), "x", g, x, idx, w)
    assert same is g and np.array_equal(g, expected) and isinstance(value, np.floating)
    np2ref.grad_into(compiled("sparse_loss"), "x", g, x, idx, w)
    assert np.allclose(g, 2 * expected, rtol=1e-15, atol=0)  # repeated reads add one at a time


def test_reads_inside_a_loop_and_a_written_argument():
    x, idx, _ = data()
    for name in ("looped_reads", "writes_its_argument"):
        got = np2ref.grad_into(compiled(name), "x", np.zeros_like(x), x.copy(), idx)[1]
        assert np.array_equal(got, dense_grad(name, x, idx)), name
    # the argument is evaluated as .pure evaluates it: not written back
    x2 = x.copy()
    np2ref.grad_into(compiled("writes_its_argument"), "x", np.zeros_like(x), x2, idx)
    assert np.array_equal(x2, x)


def test_memory_is_sparse():
    n = 100_000
    x, idx, w = np.random.default_rng(1).random(n), np.arange(0, n, 997), np.ones(101)
    with jax.enable_x64(True):
        g = jnp.zeros(n)
        m = grad_module.lower_grad_into(compiled("sparse_loss"), "x", g, x, idx, w).compile().memory_analysis()
        dense = jax.jit(jax.grad(lambda x: compiled("sparse_loss").pure(x, idx, w)[0])).lower(x)
        d = dense.compile().memory_analysis()
    assert m.alias_size_in_bytes == 8 * n                       # the buffer is updated in place
    fresh = m.output_size_in_bytes + m.temp_size_in_bytes - m.alias_size_in_bytes
    assert fresh < 8 * n // 20
    assert d.output_size_in_bytes >= 8 * n                      # jax.grad: a fresh dense gradient


@pytest.mark.parametrize("name, argname, buffer, error, match", [
    ("sparse_loss", "x", np.zeros(5), ValueError, "shape and dtype"),
    ("sparse_loss", "x", np.zeros(200, np.float32), ValueError, "shape and dtype"),
    ("sparse_loss", "y", np.zeros(200), ValueError, "no argument `y`"),
    ("sparse_loss", "idx", np.zeros(40, np.int64), TypeError, "only float arguments"),
    ("not_a_scalar", "x", np.zeros(200), TypeError, "real scalar"),
])
def test_refusals(name, argname, buffer, error, match):
    x, idx, w = data()
    args = (x, idx, w) if name == "sparse_loss" else (x, idx)
    with pytest.raises(error, match=match):
        np2ref.grad_into(compiled(name), argname, buffer, *args)
