"""A module-level array of strings (`CHARS = np.array([".", "#", "~"])`, a falling-sand script's
characters for printing its grid) indexed by array data in a function np2ref converts: NumPy
gives the characters, np2ref stops with JAX's raw TypeError ("Error interpreting argument to
stage as a JAX value") from npr_get's jnp.asarray of the table. An argument of that dtype is
refused with a TypeError that names it (rt/arguments._npr_device_ready); the module's table is
not. Found by tests/third_party/scripts11/sand_water_ca.py (`show`); left (the function should
stay NumPy host code, as one reading a string table cannot run under jit): a strict xfail."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import assert_returns_as_numpy

CHARS = np.array([".", "#", "~"])


def labels(grid):
    return CHARS[grid]


@pytest.mark.xfail(strict=True, reason="a module-level string array indexed by array data: JAX's raw TypeError")
def test_a_module_string_table_indexed_by_data():
    assert_returns_as_numpy(labels, lambda: (np.array([[0, 1], [2, 0]]),))
