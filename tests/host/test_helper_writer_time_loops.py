"""A time loop that writes its arrays only through a helper (`sweep(spins, ...)`) and keeps a
history list is a time loop, not set-up code. analysis/module._builders took a function that
"builds Python containers in a loop and writes no array" for host code (NPR021 under
np2ref.compile), looking only at its own statements, not at the module functions it calls.
Found by tests/third_party/scripts6/ising_checkerboard_int8.py."""

import numpy as np

import np2ref
from conftest import assert_same_as_numpy, result_types


def relax(u, alpha):
    u[1:-1] += alpha * (u[2:] - 2.0 * u[1:-1] + u[:-2])


def step_twice(u):
    relax(u, 0.1)
    relax(u, 0.2)


def history(u, steps):
    peaks = []
    for s in range(steps):
        step_twice(u)
        peaks.append(u.max())
    return peaks


def test_a_loop_writing_through_a_helper_keeps_a_history_and_is_translated():
    u = np.zeros(16)
    u[8] = 1.0
    compiled = np2ref.compile(history)
    expected, got = assert_same_as_numpy(history, compiled, u, 6)
    assert result_types(got) == result_types(expected)
    assert "@npr_jit" in compiled.source
