"""`jax.jacfwd` of `compiled.pure` (rt/forward.py): the Jacobian of every float output against
central differences of the NumPy original and against jax.jacrev of the same `.pure`; a hand
jax.numpy port's jacfwd where one is short. On main every converted program raised JAX's
"at vmap out_axes[0], got axis spec None but output was batched on axis 0" (JAX 0.10.2 batches
a Ref's primal with its tangents, and jacfwd asks for an unbatched primal)."""

from __future__ import annotations

import copy
import functools
import inspect
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import np2ref
from conftest import program

MODULE = program("caller_transforms")
f = np.array


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(MODULE, name), host_below=0)


def _outputs_numpy(name, x, rest):
    """The float outputs of the original, flattened and concatenated: result leaves, then the
    final value of each float array argument."""
    args = copy.deepcopy((x, *rest))
    result = getattr(MODULE, name)(*args)
    leaves = [np.asarray(v, np.float64).ravel() for v in jax.tree_util.tree_leaves(result)
              if np.asarray(v).dtype.kind == "f"]
    leaves += [a.ravel() for a in args if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    return np.concatenate(leaves)


def _outputs_pure(name, x, rest):
    result, finals = compiled(name).pure(x, *rest)
    leaves = [jnp.ravel(v) for v in jax.tree_util.tree_leaves(result) if jnp.issubdtype(jnp.result_type(v), jnp.floating)]
    finals_in_order = [finals.get(n, a) for n, a in zip(_params(name), (x, *rest))
                       if isinstance(a, (np.ndarray, jax.Array)) and jnp.issubdtype(jnp.result_type(a), jnp.floating)]
    return jnp.concatenate(leaves + [jnp.ravel(v) for v in finals_in_order])


def _params(name):
    return list(inspect.signature(getattr(MODULE, name)).parameters)


def _central(name, x, rest, eps=1e-6):
    cols = []
    for k in range(x.size):
        e = np.zeros_like(x)
        e.flat[k] = eps
        cols.append((_outputs_numpy(name, x + e, rest) - _outputs_numpy(name, x - e, rest)) / (2 * eps))
    return np.stack(cols, axis=1)


# programs smooth at these inputs (no element at a kink), with their other arguments
CASES = {
    "view_write": (f([0.7, -0.3, 1.1, -2.0]), ()),
    "scatter_add": (f([0.7, -0.3, 1.1, -2.0]), (f([1, 3, 1, 0]),)),
    "argmax_pick": (f([0.7, -0.3, 1.1, -2.0]), ()),
    "masked_sqrt_store": (f([0.5, -0.3, 1.2, -2.0]), ()),
    "recurrence": (f([0.7, 0.3, 1.1, 2.0]), (0.3,)),
    "stencil": (f([0.7, 0.3, 1.1, 2.0, 0.5]), (3,)),
    "while_on_data": (f([0.7, 0.3, 1.1, 2.0]), ()),
    "bool_path": (f([0.7, -0.3, 1.1, 2.0]), (f([True, False, True, False]),)),
}


def _jacobian(name, how):
    x, rest = CASES[name]
    with jax.enable_x64(True), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(how(lambda v: _outputs_pure(name, v, rest))(jnp.asarray(x)))


@pytest.mark.parametrize("name", sorted(CASES))
def test_jacfwd_of_pure_is_the_originals_jacobian(name):
    x, rest = CASES[name]
    got = _jacobian(name, jax.jacfwd)
    np.testing.assert_allclose(got, _central(name, x, rest), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(got, _jacobian(name, jax.jacrev), rtol=1e-12, atol=1e-12)


def _stencil_port(u, steps):
    for _ in range(steps):
        u = u.at[1:-1].set(u[1:-1] + 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2]))
    return u


def test_jacfwd_matches_a_hand_port_under_jit_and_vmap():
    """jax.jit(jax.jacfwd(.pure)) and jax.vmap(jax.jacfwd(.pure)) over members: each member's
    Jacobian is the hand jax.numpy port's."""
    c = compiled("stencil")
    members = np.stack([CASES["stencil"][0], CASES["stencil"][0][::-1], np.linspace(0.0, 1.0, 5)])
    with jax.enable_x64(True), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = jax.jacfwd(lambda u: c.pure(u, 3)[0])
        want = jax.vmap(jax.jacfwd(lambda u: _stencil_port(u, 3)))(jnp.asarray(members))
        batched = np.asarray(jax.vmap(ours)(jnp.asarray(members)))
        jitted = np.asarray(jax.jit(ours)(jnp.asarray(members[1])))
    np.testing.assert_allclose(batched, np.asarray(want), rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(jitted, np.asarray(want[1]), rtol=1e-13, atol=1e-13)


def test_jacfwd_returns_the_primal_with_has_aux():
    """jax.jacfwd(..., has_aux=True): the primal outputs come back unbatched and NumPy's."""
    x, rest = CASES["recurrence"]
    c = compiled("recurrence")
    with jax.enable_x64(True), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        jac, y = jax.jacfwd(lambda v: (c.pure(v, *rest)[0],) * 2, has_aux=True)(jnp.asarray(x))
    np.testing.assert_allclose(np.asarray(y), MODULE.recurrence(x.copy(), *rest), rtol=1e-15)
    np.testing.assert_allclose(np.asarray(jac), _central("recurrence", x, rest)[:4], rtol=1e-6, atol=1e-7)
