"""`with np.errstate(...)` in a compiled function (rewrite/rules/errstate.py, rt/casts.py
npr_errstate): the block is translated, and the NumPy warnings np2ref issues (invalid casts,
the mean of an empty selection) follow the block's error state, as NumPy's do: compared with
NumPy's own results and warnings. 'raise' and the other modes, and any other `with`, are refused."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import np2ref
from conftest import load_module

SOURCE = '''
import numpy as np


def safe_ratio(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        r = a / b
    r[~np.isfinite(r)] = 0.0
    return r


def cast_in_block(x):
    with np.errstate(invalid="ignore"):
        i = x.astype(np.int64)
    j = x.astype(np.int32)
    return i, j


def _to_int(x):
    return x.astype(np.int16)


def cast_in_helper(x):
    with np.errstate(all="ignore"):
        i = _to_int(x)
    return i, _to_int(x)


def empty_mean(x, t):
    with np.errstate(invalid="ignore"):
        m = x[x > t].mean()
    return m


def raising(a, b):
    with np.errstate(divide="raise"):
        return a / b


def other_with(a):
    with open("log.txt") as f:
        a = a * 2
    return a
'''


@pytest.fixture(scope="module")
def mod(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("errstate"), "np2ref_errstate_case")


def _run(fn, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args)
    return result, [(w.category, str(w.message)) for w in caught]


@pytest.mark.parametrize("name, args", [
    ("safe_ratio", (np.array([1.0, 0.0, 2.0]), np.array([0.0, 0.0, 4.0]))),
    ("cast_in_block", (np.array([1.5, np.nan, -2.5]),)),  # one warning: the cast after the block
    ("cast_in_helper", (np.array([1.5, np.inf]),)),  # the state reaches the function it calls
    ("empty_mean", (np.array([1.0, 2.0]), 5.0)),  # 'Mean of empty slice' is not an FP error: issued
    ("empty_mean", (np.array([1.0, 2.0]), 1.5)),
])
def test_the_blocks_warnings_are_numpys(mod, name, args):
    fn = getattr(mod, name)
    expected, expected_warnings = _run(fn, *args)
    got, got_warnings = _run(np2ref.compile(fn, host_below=0), *args)
    np.testing.assert_array_equal(np.asarray(got, dtype=object).astype(float) if isinstance(got, tuple) else got,
                                  np.asarray(expected, dtype=object).astype(float) if isinstance(expected, tuple)
                                  else expected)
    assert got_warnings == expected_warnings


def test_the_block_is_still_a_with_in_the_converted_source(mod):
    source = np2ref.compile(mod.safe_ratio, host_below=0).source
    assert 'with npr_errstate(divide="ignore", invalid="ignore"):' in source


def test_modes_that_raise_and_other_blocks_are_refused_at_the_line(mod):
    with pytest.raises(np2ref.Np2RefError, match=r"NPR015 np.errstate\(divide=...\) is not translated") as refused:
        np2ref.compile(mod.raising, host_below=0)
    assert "NPR004" not in str(refused.value)
    with pytest.raises(np2ref.Np2RefError, match="NPR021|NPR015"):
        np2ref.compile(mod.other_with, host_below=0)
