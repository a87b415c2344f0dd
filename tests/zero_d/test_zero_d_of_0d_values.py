"""0-d arrays made of a 0-d value (fixes13): a copy, astype, np.array, reshape(()), `x[...]` of a
0-d parameter, of a local 0-d array or of a NumPy scalar, returned, in a returned display or
through a helper. NumPy's kinds (NumPy 2):

| made of a 0-d array `a`          | NumPy       | | made of a NumPy scalar `s` | NumPy       |
|----------------------------------|-------------|-|----------------------------|-------------|
| `a.copy()`, `np.copy(a)`         | 0-d array   | | `s.copy()`                 | scalar      |
| `a.astype(t)`                    | 0-d array   | | `s.astype(t)`              | scalar      |
| `np.array(a)`, `np.asarray(a)`   | 0-d array   | | `np.array(s)`, `np.copy(s)`| 0-d array   |
| `a.reshape(())`, `a.squeeze()`   | 0-d array   | | `s.reshape(())`, `.T`      | scalar      |
| `a[...]`, `a[0, ...]` of 1-d     | 0-d array   | | `s[...]`                   | 0-d array   |
| `a[()]`                          | scalar      | | `s[()]`                    | scalar      |

and each kind is kept through `return`, a returned tuple, list or dict display, a list that is
returned, and a helper that returns it. Three were wrong on main (np2ref returned NumPy's
scalar): `return a[...]` of a parameter's name rebound to a new array (a copy that is then
written: fuzz_38bdbe6d67; a local 0-d array's reshape or `[...]`; an element `z[()]`), and a helper's copy
of its parameter given a 0-d array (`copy_of(a)`, a written or local 0-d array's too: the
caller passes its load); `def f(a): return a.copy()` (no array work)
given a 0-d array was refused (NPR041: np2ref.compile's namespace holds every runtime name, the
asking ones too, which the entry read as its module asking a value's type)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import assert_returns_as_numpy


def rebound_copy_read(a):  # fuzz_38bdbe6d67
    a[...] = a * 2 + 1
    a = a.copy()
    return a[...]


def rebound_astype_read(a):
    a[...] += 1
    a = a.astype(np.float32)
    return a[...]


def rebound_array_read(a):
    a[...] += 1
    a = np.array(a)
    return a[...]


def rebound_copy_in_list(a):
    a[...] += 1
    a = np.copy(a)
    return [a[...], 2]


def local_reshaped_read(a):
    z = np.zeros(())
    z[...] = a * 2
    a = z.reshape(())  # (the parameter's name rebound: a Ref's view; under a new name it was exact)
    return a[...]


def one_element_reshaped_read(a):
    z = np.zeros(1)
    z[0] = a * 2
    a = z.reshape(())
    return a[...], {"k": a[...]}


def element_read(a):
    z = np.zeros(())
    z[...] = a * 2
    a = z[()]  # NumPy's scalar, whose `[...]` is a 0-d array
    return a[...]


def copy_of(x):
    return x.copy()


def astype_of(x):
    return x.astype(np.float32)


def via_helper_copy(a, w):
    w[0] += 1
    return copy_of(a)


def via_helper_astype(a, w):
    w[0] += 1
    return [astype_of(a), np.copy(a)]


def no_array_work(a):
    return a.copy(), a[...], np.array(a), a.reshape(()), a[()]


def no_array_work_helper(a):
    return copy_of(a)


def copy_only(a):
    return a.copy()


WRITTEN = [rebound_copy_read, rebound_astype_read, rebound_array_read, rebound_copy_in_list,
           local_reshaped_read, one_element_reshaped_read, element_read, no_array_work]


@pytest.mark.parametrize("fn", WRITTEN, ids=lambda f: f.__name__)
def test_a_0d_array_made_of_a_0d_value_is_numpys_array(fn):
    assert_returns_as_numpy(fn, lambda: (np.array(-1.75),))


@pytest.mark.parametrize("fn", [rebound_copy_read, rebound_astype_read, rebound_copy_in_list],
                         ids=lambda f: f.__name__)
def test_the_same_of_a_1d_array(fn):
    assert_returns_as_numpy(fn, lambda: (np.array([0.5, -1.0]),))


@pytest.mark.parametrize("fn", [via_helper_copy, via_helper_astype], ids=lambda f: f.__name__)
@pytest.mark.parametrize("make", [lambda: np.array(2.5), lambda: np.float64(2.5), lambda: np.array([1.0, 2.0])],
                         ids=["0-d", "scalar", "1-d"])
def test_a_helpers_copy_of_a_0d_argument_is_numpys_kind(fn, make):
    assert_returns_as_numpy(fn, lambda: (make(), np.zeros(2)))


@pytest.mark.parametrize("make", [lambda: np.array(2.5), lambda: np.float64(2.5)], ids=["0-d", "scalar"])
@pytest.mark.parametrize("fn", [no_array_work_helper, copy_only], ids=lambda f: f.__name__)
def test_a_function_with_no_array_work_takes_a_0d_array(fn, make):
    assert_returns_as_numpy(fn, lambda: (make(),))


def written_then_helper_copy(a, w):
    a[...] += 1
    return copy_of(a)


def local_then_helper_copy(a, w):
    z = np.zeros(())
    z[...] = a * 2
    return copy_of(z), astype_of(z)


@pytest.mark.parametrize("fn", [written_then_helper_copy, local_then_helper_copy], ids=lambda f: f.__name__)
def test_a_helpers_copy_of_a_written_0d_array(fn):
    """The caller passes its Ref's load `a[...]`, a new value: noted NumPy's 0-d array
    (rules/zero_d.py _loads_passed), the helper's copy of it one too."""
    assert_returns_as_numpy(fn, lambda: (np.array(2.5), np.zeros(2)))
