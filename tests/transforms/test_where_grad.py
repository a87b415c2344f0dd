"""jax.grad of `.pure` through `np.where` whose discarded branch meets a pole (rewrite/rules/
where_guard.py, rt/where_guard.py): NumPy's function has derivative 0 where np.where discards
the branch, JAX multiplied that zero cotangent by sqrt's (power's, arcsin's, 1/r's) derivative
there, NaN, and the whole gradient was NaN on main (the "double where" problem). Each program
here, at an input where a discarded element meets the pole: jax.grad and jax.jvp of `.pure`
against central differences of the original, and jit and vmap of `.pure` still NumPy's values."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import program
from transform_harness import outcomes

MODULE = program("caller_transforms")
f = np.array
CASES = {
    "where_sqrt": (f([0.5, -0.3, 1.2, -2.0]),),
    "where_power": (f([0.5, -0.3, 1.2, -2.0]),),
    "where_arcsin": (f([0.5, -1.3, 0.2, 2.0]),),
    # a self-pair's r2 == 0 stays 0 whatever the positions: NumPy's derivative is 0 there
    "pair_potential": (f([[0.0, 0.0], [1.0, 0.2], [0.3, 1.1]]),),
    # an operand that is not elementwise (x.sum()) is not guarded: its value is every element's
    "where_scaled": (f([0.5, -0.3, 1.2, -2.0]),),
    # a condition wider than the operand (m 2-d, x 1-d) leaves the operand as it is
    "where_grown": (f([0.5, 0.3, 1.2]), f([[True, False, True], [True, True, False]])),
}
EXPECTED = {name: {"jit": "exact", "vmap": "exact", "grad": "exact", "jvp": "exact"} for name in CASES}


@pytest.mark.parametrize("name", sorted(CASES))
def test_grad_through_where_with_a_pole_is_numpys_derivative(name):
    got = outcomes(getattr(MODULE, name), CASES[name], ways=("jit", "vmap", "grad", "jvp"))
    assert got == EXPECTED[name]


def test_an_output_that_does_not_read_the_pole_has_a_finite_jacobian_row():
    """`y[...] = np.where(x != 0, 1.0 / x, x)`, x a parameter: `1.0 / x` is emitted through npr_pyop, and the
    guard wrapped the quotient, not x: y[0] (which reads x[0] only) had d y[0] / d x[1] = NaN at x[1] = 0
    (0 times 1/x's derivative there) where NumPy's is 0 (fuzz14's gradient check: a jacrev row)."""
    import jax

    import np2ref

    compiled = np2ref.compile(MODULE.where_reciprocal_written)
    x = f([0.5, 0.0, 1.2, -2.0])
    with jax.enable_x64(True):
        rows = np.asarray(jax.jit(jax.jacrev(lambda v: compiled.pure(v, np.zeros(4))[1]["y"]))(x))
    np.testing.assert_array_equal(rows[[0, 2, 3]][:, 1], 0.0)
    np.testing.assert_allclose(np.diag(rows)[[0, 2, 3]], [-4.0, -1 / 1.44, -0.25])
