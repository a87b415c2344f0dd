"""jax.grad of `np.power(x, 3)` at a negative x where the exponent is traced (made inside a loop
body, or under the caller's jax.jit): rt/promotion._npr_half_power picks NumPy's fast forms (0.5:
sqrt, 2.0: square, -1.0: 1 / x) per call with jnp.where, and the sqrt it did not pick met x < 0:
0 * NaN made the gradient NaN (on main: jax.jit(jax.grad) of np.power(x, 3), a Cahn-Hilliard
step's `np.power(c, 3, out=mu)` under plain jax.grad). Now each fast form is computed on ones
where it is not picked; values are NumPy's as before."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

from conftest import program
from survey import inputs
from transform_harness import outcomes

MODULE = program("caller_transforms")
f = np.array
WAYS = ("jit", "vmap", "grad", "jit_grad", "jvp")
EXACT = dict.fromkeys(WAYS, "exact")
CASES = {
    "power_in_loop": (f([0.5, -0.3, 1.2, -2.0]), 3),
    "power_of_param": (f([0.5, -0.3, 1.2, -2.0]), 2.0),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_grad_of_a_power_with_a_traced_exponent_is_numpys(name):
    assert outcomes(getattr(MODULE, name), CASES[name], ways=WAYS) == EXACT


def test_cahn_hilliard_steps_differentiate():
    """tests/third_party/scripts8/cahn_hilliard.py's evolve (4 steps on an 8 x 8 grid)."""
    fn, args, _ = inputs("scripts8/cahn_hilliard:lap")
    c = args[0]
    with contextlib.redirect_stdout(io.StringIO()):
        got = outcomes(fn.__globals__["evolve"], (c, 0.5, 0.01, 1.0, 4, 2), ways=("grad", "jit_grad"))
    assert got == {"grad": "exact", "jit_grad": "exact"}
