"""Module-level sizes a script binds once by tuple unpacking (`m, n = 6, 6`) after its functions:
constants, so a function reading them is compiled, not kept host code (NPR021 "changes after
defining it"). A number bound once cannot be changed by a call it is handed to (the script's
`randint(0, m)`), as `N = 6` could not; a name bound twice stays a changing global.
Found in a public Ising script (docs/scripts.md)."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, load_module

ISING = """
import numpy as np

def energy(A):
    s = 0
    for i in range(m):
        for j in range(n):
            s += A[i, j] * A[i, (j + 1) % n] + A[i, j] * A[(i + 1) % m, j]
    return -s

def pick(k):          # a call np2ref cannot see into, handed the sizes
    return k - 1

(m, n), q = [5, 4], 3
A = np.ones((m, n))
last = pick(m) + pick(n) + pick(q)
"""


def test_sizes_bound_by_tuple_unpacking_are_module_constants(tmp_path):
    mod = load_module(ISING, tmp_path)
    A = np.where(np.random.default_rng(0).random((5, 4)) < 0.5, -1.0, 1.0)
    assert_same_as_numpy(mod.energy, np2ref.compile(mod.energy), A)


def test_a_size_bound_twice_still_keeps_its_reader_host_code(tmp_path):
    mod = load_module(ISING + "m, n = 4, 4\n", tmp_path)
    with pytest.raises(np2ref.Np2RefError, match="NPR021"):
        np2ref.compile(mod.energy)(np.ones((4, 4)))
