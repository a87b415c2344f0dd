"""A loop with static bounds whose carried array changes shape each trip (seam carving's
`img = remove_seam(img, seam)`, a column dropped per trip; scripts14b's seam_carving): NumPy
runs it with a new shape per iteration, so a lax loop cannot carry it (NPR130), but a Python
loop traced trip by trip can, exactly (rt/python_loops._npr_python_loop_reason). A loop whose
trip count is array data keeps its refusal: after it the shape depends on the data."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest

import np2ref

SOURCE = '''
import numpy as np


def drop_columns(img, n):
    total = 0.0
    for k in range(n):
        j = np.argmin(img.sum(axis=0))
        total += img[0, j]
        cols = np.arange(img.shape[1] - 1)
        cols = cols + (cols >= j)
        img = img[:, cols] * 1.5
    return img, total


def grow(x, n):
    hist = np.zeros(0)
    for k in range(n):
        hist = np.append(hist, x[k % x.size] * k)
    return hist


def drop_while(img, limit):
    k = 0
    while img[0, 0] < limit:
        img = img[:, 1:] * 2.0
        k += 1
    return img, k
'''


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    path = tmp_path_factory.mktemp("shrink") / "shrinking.py"
    path.write_text(SOURCE)
    namespace = {"__name__": "shrinking", "__file__": str(path)}
    exec(compile(SOURCE, str(path), "exec"), namespace)
    return namespace


@functools.cache
def _compiled(fn):
    return np2ref.compile(fn, host_below=0)


def _same(got, want):
    assert type(got) is type(want)
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            _same(g, w)
    elif isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
    else:
        assert got == want


@pytest.mark.parametrize("n", [0, 1, 4])
def test_a_static_loop_dropping_a_column_each_trip_is_numpys(module, n):
    img = np.arange(30.0).reshape(3, 10) % 7.0
    want = module["drop_columns"](img.copy(), n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _compiled(module["drop_columns"])(img.copy(), n)
    _same(got, want)


def test_a_static_loop_growing_an_array_is_numpys(module):
    x = np.array([1.0, -2.0, 0.5])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(_compiled(module["grow"])(x, 5), module["grow"](x, 5))


def test_a_shrinking_while_on_data_stays_refused(module):
    img = np.ones((2, 6))
    with pytest.raises(np2ref.Np2RefError, match="NPR130"):
        _compiled(module["drop_while"])(img, 9.0)
