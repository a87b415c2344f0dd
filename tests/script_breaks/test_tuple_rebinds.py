"""`U, V = U + dt * du, V + dt * dv` in a time loop whose body also writes `U` in place
(`np.clip(U, 0, 1, out=U)`: the caller's array on the first trip, a fresh one after): a lax loop
that runs the first trip alone and refills the carried names (rt/rebinds.py), as a rebinding by
one name per statement already was. On main a Python loop (NPR033: "the written array `U` is
rebound in the loop"; corpus/gray_scott_setup_helpers)."""

import inspect

import numpy as np
import pytest

import np2ref
from exactly import loop_notes, run_both


def clipped_pair(U, V, nsteps, dt):
    for step in range(nsteps):
        np.clip(U, 0.0, 1.0, out=U)
        U, V = U + dt * V, V - dt * U
        if step % 2 == 0:
            print(f"step {step:3d}  <V> = {V.mean():.10f}  max {U.max():.10f}")
    return U, V


def state_and_clock(u, t, nsteps, dt):
    for _ in range(nsteps):
        u[0] = 0.0
        u, t = u + dt * np.roll(u, 1), t + dt
    return u, t


def swap_by_name(x, y, nsteps):
    for _ in range(nsteps):
        x[0] += 1.0
        x, y = y, x  # a rotation, not a rebinding to values (rules/rotations.py decides it)
    return x, y


_compiled = {f.__name__: np2ref.compile(f, host_below=0, bitwise=True) for f in (clipped_pair, state_and_clock)}


def test_the_loops_are_lax_loops():
    source = "import numpy as np\n\n\n" + "\n\n".join(inspect.getsource(f) for f in (clipped_pair, state_and_clock))
    assert loop_notes(source) == []


@pytest.mark.parametrize("nsteps", [0, 1, 2, 5])
def test_a_clipped_pair_rebound_by_one_tuple(nsteps):
    rng = np.random.default_rng(1)
    U, V = rng.uniform(-0.2, 1.2, (5, 6)), rng.uniform(0.0, 1.0, (5, 6))
    run_both(clipped_pair, U, V, nsteps, 0.3, compiled=_compiled["clipped_pair"])


def test_an_array_and_a_float_rebound_together():
    run_both(state_and_clock, np.linspace(0.0, 1.0, 7), 0.0, 4, 0.1, compiled=_compiled["state_and_clock"])


def test_a_swap_of_names_is_left_to_the_rotation_rules():
    run_both(swap_by_name, np.zeros(3), np.ones(3), 3)
