"""A product of two slices of one run-time length inside independent lanes (rt/vectorise.py) at a
matrix product's cost, exactly (issue 39: trmm's `A[i + 1:, i] @ B[i + 1:, j]`).

A masked product zero-fills both operands outside the slice (rt/masked.py), so that each product
NumPy does not form is 0 * 0: B may hold inf or NaN in the rows the slice leaves out, and 0 * inf
is NaN. Under vmap over i and j that is a batched product of an (m, m, n) masked B: the mask moves
with i while B's data moves with j. Filling only the left operand makes the right one B itself, and
the lanes one matrix product, `where(k > i, A, 0).T @ B`; the terms NumPy does not form are then
0 * B[k, j], which is 0 (of either sign) wherever B is finite, and adding a zero leaves a sum as it
was (a sum that starts at +0 never becomes -0 by it). So the one-sided fill is exact when B's data
is finite everywhere, in every lane; `lax.cond` takes it then, the two-sided fill otherwise (both
exact, in XLA's order of the sum, which NumPy's `@`/`dot` does not promise either).

"Finite in every lane" is one flag for the whole batch: `_npr_lanes_all` under vmap reduces over
the batch axis too (jax.custom_batching.custom_vmap), so the flag is not batched and the cond stays
a cond, run once, not a select of both branches. Its input has its gradient stopped (a boolean
needs none; custom_vmap has no reverse-mode rule). Outside lanes nothing changes: a sequential
loop would pay a cond and a scan of the column per step for nothing.
"""

import contextlib

import jax.numpy as jnp
from jax import lax
from jax.custom_batching import custom_vmap

_NPR_LANES = [0]  # how many lanes traces (npr_vfor) enclose the current trace


@contextlib.contextmanager
def _npr_in_lanes():
    """Around the trace of a lanes body under vmap."""
    _NPR_LANES[0] += 1
    try:
        yield
    finally:
        _NPR_LANES[0] -= 1


@custom_vmap
def _npr_lanes_all(x):
    """Whether every element of the boolean x is true, in every lane of every enclosing vmap."""
    return jnp.all(x)


@_npr_lanes_all.def_vmap
def _npr_lanes_all_batched(axis_size, in_batched, x):
    return _npr_lanes_all(x), False  # (x holds every lane: its batch axis is one more axis)


def _npr_one_product(fn, left, right, filled, same=True):
    """fn(left, right) when right is finite everywhere and `same` (the slices start at the same
    place) holds in every lane, else filled() (both operands zero-filled); inside lanes only
    (None outside: the caller fills both)."""
    if not _NPR_LANES[0]:
        return None
    flag = same
    if jnp.issubdtype(right.dtype, jnp.inexact):  # (integers and booleans: 0 * x is 0, always)
        flag = jnp.logical_and(flag, jnp.all(jnp.isfinite(lax.stop_gradient(right))))
    if flag is True:
        return fn(left, right)
    return lax.cond(_npr_lanes_all(lax.stop_gradient(flag)), lambda: fn(left, right), filled)
