"""A 0-d parameter rebound to a new array and written (`a = a.copy(); a[...] *= 1; return a`,
fuzz_2c01a05106.py): NumPy returns the new 0-d array, np2ref returned NumPy's scalar, because
rules/zero_d.py took a name that is a parameter for the caller's object even where the one
binding reaching the return rebinds it (under another name, `b = a.copy()`, it was exact). Since
ret11 `_array_ref` asks analysis/reaching.py for that binding. The items of a returned tuple,
list or dict display are noted too (a display's item is `npr_load(a)`: a local's 0-d array in a
list or dict came back a scalar as well). np2ref.compile's 0-d variant (compiled/zero_d_variant.py)
runs these for a 0-d argument; each is also run on a 1-d one (the ordinary program)."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_returns_as_numpy


def copied_and_scaled(a):
    a = a.copy()
    a[...] *= 2
    return a


def in_tuple(a):
    a = a.copy()
    a[...] += 1
    return a, 3


def in_list(a):
    a = a.copy()
    a[...] = 5
    return [a, a.sum()]


def in_dict(a):
    a = a.astype(np.float64)
    a[...] -= 0.5
    return {"a": a}


def made_in_a_list(x):
    b = np.zeros(())
    b[...] = x.sum()
    return [b, x]


def made_in_a_dict(x):
    b = np.zeros(())
    b[...] = x.max()
    return {"b": b, "n": 1}


def not_rebound(a):
    a[...] *= 2
    return a


REBOUND = [copied_and_scaled, in_tuple, in_list, in_dict, not_rebound]


@pytest.mark.parametrize("fn", REBOUND, ids=lambda f: f.__name__)
@pytest.mark.parametrize("arg", [np.array(0.75, np.float32), np.array([1.0, 2.0])], ids=["0-d", "1-d"])
def test_a_rebound_parameters_0d_array_is_returned_as_numpys_array(fn, arg):
    assert_returns_as_numpy(fn, lambda: (arg.copy(),))


@pytest.mark.parametrize("fn", [made_in_a_list, made_in_a_dict], ids=lambda f: f.__name__)
def test_a_made_0d_array_in_a_returned_list_or_dict_is_an_array(fn):
    assert_returns_as_numpy(fn, lambda: (np.array([0.5, -1.0, 2.0]),))


def test_a_parameter_returned_as_itself_is_still_the_callers_object():
    a = np.array(0.75)
    assert np2ref.compile(not_rebound, host_below=0)(a) is a and a == 1.5
