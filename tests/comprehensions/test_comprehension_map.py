"""`np.array([f(x) for x in X])` traced once as a lax.map body (rewrite/rules/comprehensions.py,
rt/comprehensions.py). Differential: NumPy originals against np2ref.compile; the mapped form
against the comprehension traced row by row (`if True` keeps it unmapped), bit for bit, for
reductions of many lengths (NumPy's pairwise blocks start past 8 and 128 elements)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import np2ref
from tests.conftest import assert_same_as_numpy, load_module, numpys_values, on_tpu

SOURCE = '''
import numpy as np


def dist(X, Y):
    return np.array([[np.sum((x - y) ** 2) for x in X] for y in Y])


def dist_rows(X, Y):
    return np.array([[np.sum((x - y) ** 2) for x in X if True] for y in Y if True])


def norms(X):
    return np.array([np.sqrt(x @ x) for x in X])


def counts(M):
    return np.array([np.count_nonzero(m > 0.5) for m in M])


def over_range(X, n):
    return np.array([X[k].sum() for k in range(n)])


def python_if(X):
    return np.array([x.sum() if x[0] > 0.5 else -1.0 for x in X])


def seen(X):
    hist = []
    out = np.array([hist.append(1) or x.sum() for x in X])
    return out, len(hist)
'''


@pytest.fixture(scope="module")
def ns(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("comps"))


@pytest.fixture(scope="module")
def compiled(ns):
    cache = {}

    def get(name, **options):
        key = (name, tuple(sorted(options.items())))
        if key not in cache:
            cache[key] = np2ref.compile(getattr(ns, name), **options)
        return cache[key]
    return get


def test_a_comprehension_of_reductions_is_traced_once(ns, compiled):
    rng = np.random.default_rng(1)
    X, Y = rng.random((60, 3)), rng.random((50, 3))  # 3,000 reductions: far past the budget row by row
    assert_same_as_numpy(ns.dist, compiled("dist", trace_budget=400), X, Y)
    assert "npr_comp_map(" in compiled("dist", trace_budget=400).source


@pytest.mark.parametrize("d", [1, 2, 3, 7, 8, 9, 16, 17, 100, 128, 129, 300])
def test_mapped_reductions_add_as_the_row_by_row_ones(ns, compiled, d):
    rng = np.random.default_rng(d)
    X, Y = rng.standard_normal((4, d)) * 1e3, rng.standard_normal((3, d))
    mapped, rows = compiled("dist")(X, Y), compiled("dist_rows")(X, Y)
    assert mapped.dtype == rows.dtype == ns.dist(X, Y).dtype
    if on_tpu():  # a float32 pair (docs/tpu.md): the mapped and the row-by-row sums to 1e-13
        assert numpys_values(mapped, rows)
    else:
        assert np.array_equal(mapped.view(np.int64), rows.view(np.int64))  # bit for bit
    np.testing.assert_allclose(mapped, ns.dist(X, Y), rtol=1e-13)


@pytest.mark.parametrize("name,args", [
    ("norms", (np.arange(12.0).reshape(4, 3),)),
    ("counts", (np.linspace(0, 1, 20).reshape(5, 4),)),
    ("over_range", (np.arange(12.0).reshape(4, 3), 3)),          # a range: as written
    ("python_if", (np.linspace(0, 1, 12).reshape(4, 3),)),       # a row's value in Python: as written
    ("seen", (np.arange(6.0).reshape(3, 2),)),                   # a list changed per row: as written
])
def test_forms_and_fallbacks_are_numpys(ns, compiled, name, args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        expected, got = assert_same_as_numpy(getattr(ns, name), compiled(name), *args)
    assert np.asarray(got[0] if name == "seen" else got).dtype == np.asarray(expected[0] if name == "seen" else expected).dtype
