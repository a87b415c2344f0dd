"""A `while` loop on data appending to a list, under jax.vmap of `.pure`: the loop's history is
handed to the host by an ordered io_callback (rt/histories.py), which JAX's while-loop batching
rule refuses with a bare `Exception("Ordered IO effects not supported in vmap.")`. np2ref refuses
it with NPR034 (a batch member's loop runs its own number of trips); the compiled call itself
stays exact (fuzz12's while_history family, tests/regressions/fuzz_d289a215de.py)."""

import jax
import numpy as np
import pytest

import np2ref
from np2ref.rt.compile_api import NprError
from tests.conftest import numpys_values


def newton(x):
    c = np.abs(x) + 1.0
    z = c.copy()
    steps = []
    it = 0
    e = np.max(np.abs(z * z - c))
    while e > 1e-9 and it < 20:
        z = z - (z * z - c) / (2.0 * z)
        e = np.max(np.abs(z * z - c))
        steps.append(z.copy())
        it += 1
    return z, it


def test_the_compiled_call_agrees_with_numpy():
    x = np.array([0.5, -3.0, 7.25])
    want = newton(x.copy())
    got = np2ref.compile(newton)(x.copy())
    assert numpys_values(got[0], want[0]) and got[1] == want[1] and type(got[1]) is type(want[1])


def test_a_history_in_a_while_on_data_under_vmap_is_npr034():
    compiled = np2ref.compile(newton)
    batch = np.array([[0.5, -3.0, 7.25], [2.0, 1.0, -0.5]])
    with pytest.raises(NprError) as caught, jax.enable_x64(True):  # (was JAX's bare Exception)
        jax.vmap(compiled.pure)(batch)
    assert caught.value.code == "NPR034"
