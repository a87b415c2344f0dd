"""When fencing XLA's rewrites fails (a JAX whose internals moved), rt/divisions.py runs the
program as traced and says so with a RuntimeWarning; under the test suite
(NP2REF_STRICT_REWRITES, tests/conftest.py) the failure raises, so np2ref's own bug there is
loud (session 10: an unhashable Literal made every chain of constants run unfenced, silently)."""

import numpy as np
import pytest

import np2ref
from np2ref.rt import divisions


def cells(x):
    return (x + 0.1 + 0.7).astype(np.int64)


def _broken(*args, **kwargs):
    raise TypeError("an internal moved")


def test_a_fence_that_fails_raises_in_the_suite(monkeypatch):
    monkeypatch.setattr(divisions, "_npr_fence_jaxpr", _broken)
    with pytest.raises(TypeError, match="an internal moved"):
        np2ref.compile(cells, host_below=0)(np.arange(10.0))


def test_a_fence_that_fails_is_said_and_the_program_runs_as_traced(monkeypatch):
    monkeypatch.setattr(divisions, "_npr_fence_jaxpr", _broken)
    monkeypatch.delenv("NP2REF_STRICT_REWRITES")
    x = np.arange(10.0)
    with pytest.warns(RuntimeWarning, match="could not fence XLA's rewrites"):
        got = np2ref.compile(cells, host_below=0)(x)
    assert got.dtype == np.int64 and got.shape == (10,)
