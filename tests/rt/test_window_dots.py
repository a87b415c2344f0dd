"""Products of windows in an unrolled loop taken from one product (np2ref/rt/dots.py).

Checked three ways: compiled programs give NumPy's values (to a dot product's rounding, which
is XLA's either way); the rewrite happened where it should (the optimized module holds one dot
where it held one per loop copy: the rewrite falls back silently on any error, so only the form
shows it); and it did not happen where it must not (a rolled loop, an operand that changes from
one copy to the next, windows that cover little of the array)."""

from __future__ import annotations

import functools

import jax
import numpy as np
import pytest

import np2ref
from conftest import load_module
from np2ref.rt import peepholes
from np2ref.rt.compile_api import npr_eqn_name, npr_eqns, npr_inner_jaxprs

SOURCE = '''
import numpy as np


def conv(x, w):
    k, c, kh, kw = w.shape
    h, wd = x.shape[1] - kh + 1, x.shape[2] - kw + 1
    out = np.zeros((k, h, wd))
    for i in range(kh):
        for j in range(kw):
            out += np.tensordot(w[:, :, i, j], x[:, i:i + h, j:j + wd], axes=1)
    return np.maximum(out, 0.0)


def taps(a, x):
    n = x.shape[1] - a.shape[2] + 1
    y = np.zeros((a.shape[0], n))
    for t in range(a.shape[2]):
        y = y + a[:, :, t] @ x[:, t:t + n]
    return y


def taps_changing(a, x):
    n = x.shape[1] - a.shape[2] + 1
    y = np.zeros((a.shape[0], n))
    for t in range(a.shape[2]):
        y = y + a[:, :, t] @ x[:, t:t + n]
        x = x * 0.5
    return y
'''


@functools.cache
def _module(tmp):
    return load_module(SOURCE, tmp, "window_dots_case")


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    return _module(tmp_path_factory.mktemp("window_dots"))


@pytest.fixture(autouse=True)
def dots_on(monkeypatch):  # (on by default but on a TPU, where it was slower: forced on here)
    monkeypatch.setitem(peepholes._npr_PEEPHOLES, "dots", True)


def test_on_by_default_but_on_a_tpu(monkeypatch):
    monkeypatch.setitem(peepholes._npr_PEEPHOLES, "dots", None)
    assert peepholes._npr_dots_on() == (jax.default_backend() != "tpu")
    monkeypatch.setattr(peepholes.jax, "default_backend", lambda: "tpu")
    assert not peepholes._npr_dots_on()


def _dots(compiled, *args):
    """The matrix products XLA:CPU makes of the program (on a TPU too: a TPU's float64 product is
    several float32 ones, named otherwise)."""
    with jax.default_device(jax.devices("cpu")[0]):
        return compiled.lower(*args).compile().as_text().count(" dot(")


def _check(fn, *args):
    compiled = np2ref.compile(fn)
    expected = fn(*args)
    got = compiled(*args)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    return compiled


def test_a_convolution_by_shifted_windows_is_one_product(mod):
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((4, 24, 24)), rng.standard_normal((6, 4, 3, 3))
    compiled = _check(mod.conv, x, w)
    assert _dots(compiled, x, w) == 1


def test_matmul_taps_in_a_short_loop_are_one_product(mod):
    rng = np.random.default_rng(1)
    a, x = rng.standard_normal((5, 3, 4)), rng.standard_normal((3, 40))
    compiled = _check(mod.taps, a, x)
    assert _dots(compiled, a, x) == 1


def test_switched_off_each_copy_keeps_its_product(mod, monkeypatch):
    monkeypatch.setitem(peepholes._npr_PEEPHOLES, "dots", False)
    rng = np.random.default_rng(1)
    a, x = rng.standard_normal((5, 3, 4)), rng.standard_normal((3, 40))
    assert _dots(_check(mod.taps, a, x), a, x) == 4


def test_a_rolled_loop_is_left_as_it_is(mod):
    rng = np.random.default_rng(2)
    a, x = rng.standard_normal((2, 3, 40)), rng.standard_normal((3, 120))  # 40 taps: not unrolled
    compiled = _check(mod.taps, a, x)
    assert _dots(compiled, a, x) == 1 and "while" in compiled.lower(a, x).compile().as_text()


def test_an_operand_that_changes_between_copies_is_left_as_it_is(mod):
    rng = np.random.default_rng(3)
    a, x = rng.standard_normal((5, 3, 4)), rng.standard_normal((3, 40))
    compiled = _check(mod.taps_changing, a, x)
    assert _dots(compiled, a, x) == 4


def test_windows_that_cover_little_of_the_array_are_left_as_they_are(mod):
    rng = np.random.default_rng(4)
    a, x = rng.standard_normal((5, 3, 4)), rng.standard_normal((3, 8))  # windows of 5 of 8 columns
    compiled = _check(mod.taps, a, x)
    assert _dots(compiled, a, x) == 4


def test_the_route_estimates_numpys_products_and_the_one_product(mod):
    # np2ref.compile's route on a CPU (compiled/routes.py): NumPy's time on the nine products the
    # program had before the rewrite (not nine copies of the one), the jitted call's on the one
    # product, computed once (the unrolled copies share it): the translation's route, which
    # measured 0.6 against NumPy's 0.9 ms on this layer (docs/benchmarks.md)
    from np2ref.compiled import routes
    rng = np.random.default_rng(0)
    x, w = rng.random((16, 64, 64)), rng.random((32, 16, 3, 3))
    compiled = np2ref.compile(mod.conv, host_below=16384)
    jaxpr, rewrites = compiled._traced_for_route((x, w))[:2]
    assert len(rewrites) == 1
    numpy_us, jit_us = routes.estimate(jaxpr, (x, w), [], rewrites)
    assert 3 * numpy_us < routes.estimate(jaxpr, (x, w), [])[0]
    product = [routes._equation(e)[1] for e in _equations(jaxpr) if npr_eqn_name(e) == "dot_general"]
    assert len(product) == 1 and jit_us < 2 * product[0] + routes.JIT_CALL
    compiled._host_route(("conv",), (x, w))
    assert jit_us < numpy_us and compiled._choices[("conv",)].first == "jit"  # timed first


def _equations(jaxpr):
    for eqn in npr_eqns(jaxpr):
        yield eqn
        for inner in npr_inner_jaxprs(eqn):
            yield from _equations(inner)
