"""`u, un = un, u` where `u` is the caller's array and only `un[...]` is written (the double
buffer of every stencil script): a lax loop with the buffers' contents swapped, the names and
contents put back after the loop as NumPy's parity leaves them (rt/loops.npr_rotated). On main a
Python loop (NPR033: one trace a trip), since the parameter `u` counted as one that may hold a
Python number; only a parameter that `op=` rebinds may (rules/rotations._op_targets)."""

import inspect

import numpy as np
import pytest

import np2ref
from exactly import loop_notes, run_both


def heat_swap(u, nsteps, k):
    un = np.empty_like(u)
    for step in range(nsteps):
        un[1:-1] = u[1:-1] + k * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        un[0] = u[0]
        un[-1] = u[-1]
        u, un = un, u
        if step % 2 == 0:
            print(f"step {step}: max {u.max():.6e} |u| {np.linalg.norm(u):.6e}")
    return u


def wave_three(u, nsteps, c2):
    um = u.copy()
    up = np.zeros_like(u)
    for n in range(1, nsteps + 1):
        up[1:-1] = 2.0 * u[1:-1] - um[1:-1] + c2 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        um, u, up = u, up, um
    return u, um


def swap_both_params(a, b, nsteps):
    for _ in range(nsteps):
        b[...] = 0.5 * (a + np.roll(a, 1))
        a, b = b, a
    return a.sum()


def scalar_partner(x, y, nsteps):
    for _ in range(nsteps):
        x += 1.0
        x, y = y, x
    return x, y


_compiled = {f.__name__: np2ref.compile(f, host_below=0, bitwise=True)
             for f in (heat_swap, wave_three, swap_both_params)}


def _source(*fns):
    return "import numpy as np\n\n\n" + "\n\n".join(inspect.getsource(f) for f in fns)


def test_the_swaps_are_lax_loops():
    assert loop_notes(_source(heat_swap, wave_three, swap_both_params)) == []


@pytest.mark.parametrize("nsteps", [0, 1, 4, 7])
def test_a_double_buffer_over_the_callers_array(nsteps):
    printed = run_both(heat_swap, np.linspace(0.0, 1.0, 11) ** 2, nsteps, 0.2, compiled=_compiled["heat_swap"])
    assert printed.count("step") == (nsteps + 1) // 2


@pytest.mark.parametrize("nsteps", [1, 2, 3, 6])
def test_three_buffers_rotated(nsteps):
    u = np.sin(np.linspace(0.0, np.pi, 13))
    run_both(wave_three, u, nsteps, 0.3, compiled=_compiled["wave_three"])


@pytest.mark.parametrize("nsteps", [2, 5])
def test_two_parameters_swapped(nsteps):
    run_both(swap_both_params, np.arange(6.0), np.zeros(6), nsteps, compiled=_compiled["swap_both_params"])


def test_a_parameter_that_op_rebinds_stays_a_python_loop():
    # x may hold a Python number (`x += 1.0` then rebinds): swapping contents would be wrong
    assert loop_notes(_source(scalar_partner)) != []
    run_both(scalar_partner, 1.0, np.zeros(3), 3)
