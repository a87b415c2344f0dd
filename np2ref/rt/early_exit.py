"""A `for` loop with a `break` that depends on array data, ended at the break.

frontend/jumps.py turns `break` into a carried flag; the loop is a fori_loop whose iterations
after the break do nothing (each still runs a `cond`). An early-exit search (`for i in range(n):
if x[i] > t: k = i; break`) then costs the whole trip count: 0.31 ms at n = 10^5 with the break
at 10, 8 ms at 10^6 (NumPy: 0.01 ms). Here the loop becomes a lax.while_loop that tests the
flag, stopping where Python stops, when that keeps reverse-mode differentiation working:

- the carried values are all integers or bools and the refs the body reaches hold no floats, so
  no tangent goes through the loop (JAX cannot transpose a while_loop that carries one; one that
  carries none is left out of the linear part, also under `jax.grad(jax.jit(pure))`);
- the trace is not batched (vmap of a while_loop with ref effects fails on JAX 0.10) and not
  differentiated (JVP tracers among its values).

Otherwise the fori_loop stays (a float accumulator before a break: `jax.grad` goes through it).
"""

from jax import lax
import jax
import jax.numpy as jnp


def _npr_exit_ok(one, c0, refs):
    leaves = jax.tree_util.tree_leaves(c0)
    if any(jnp.issubdtype(jnp.result_type(v), jnp.inexact) for v in leaves):
        return False
    if any(jnp.issubdtype(r.dtype, jnp.inexact) for r in refs):
        return False
    objs = [one, c0] + list(refs)
    return not (_npr_batched(objs) or _npr_differentiated(objs))


def _npr_break_flag(fixed, stop):
    """carry -> the break flag at position `stop` of the carried values (refs among them were
    split off by loops._npr_split_refs: `fixed`)."""
    def flag(c):
        full = _npr_join_refs(fixed, c) if fixed else c
        return full[stop] if isinstance(full, tuple) else full
    return flag


def _npr_fori_loop(bounds, one, c0, flag, refs=()):
    """lax.fori_loop(*bounds, one, c0), or, when `flag` (carry -> the break flag) is given and
    _npr_exit_ok, a while_loop that also stops once the flag is set (exact: the iterations it
    leaves out are the ones the fori_loop would skip)."""
    if flag is None or not _npr_exit_ok(one, c0, refs):
        return lax.fori_loop(*bounds, one, c0)
    lo, hi = bounds
    dt = jnp.result_type(lo, hi)
    lo, hi = lax.convert_element_type(lo, dt), lax.convert_element_type(hi, dt)

    def cond(state):
        k, c = state
        return (k < hi) & jnp.logical_not(flag(c))

    def body(state):
        k, c = state
        return k + 1, one(k, c)

    return lax.while_loop(cond, body, (lo, c0))[1]


# The runtime's modules call one another's functions: imported once this module is complete.
from .refs import _npr_batched, _npr_differentiated  # noqa: E402
from .loops import _npr_join_refs  # noqa: E402
