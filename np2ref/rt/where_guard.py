"""npr_where_guarded: `np.where(cond, x, y)` whose branch meets a pole (rewrite/rules/where_guard.py),
the branch given as `lambda _npr_g: ...` with its operands passed through a guard.

Under jax.grad the elements np.where discards still reach the branch's pole (`np.sqrt(x)` of a
negative x, `1.0 / r` at r == 0), and their zero cotangent times an infinite or NaN derivative
made the gradient NaN where NumPy's function has derivative 0. The guard replaces, in an operand
being differentiated, the elements the condition discards by one it keeps (ones where it keeps
none), so the branch meets no pole there; the kept elements are the operand's own. It acts only
where the condition broadcasts into the operand's shape (an operand of another shape, a scalar,
an integer or boolean array is passed as it is) and only while a value is being differentiated:
otherwise the branch is the value it was."""

import jax.numpy as jnp

from .np_creation import npr_np_where
from .refs import _npr_differentiated
from .views import npr_load


def npr_where_guarded(condition, x, y):
    """np.where(condition, x, y), a branch given as a function of its guard (a lambda)."""
    c = npr_load(condition)
    x = x(lambda v: _npr_where_guard(v, c, True)) if callable(x) else x
    y = y(lambda v: _npr_where_guard(v, c, False)) if callable(y) else y
    return npr_np_where(condition, x, y)


def _npr_where_guard(v, condition, kept):
    """v with the elements np.where discards (condition != kept) replaced by the first one it
    keeps; v itself where nothing is differentiated or the condition does not fit v's shape."""
    value = npr_load(v)
    if not _npr_differentiated([value]):
        return v
    c = jnp.asarray(npr_load(condition))
    shape = jnp.shape(value)
    if c.dtype != jnp.bool_ or not jnp.issubdtype(jnp.result_type(value), jnp.inexact) or not shape:
        return v
    try:
        if jnp.broadcast_shapes(c.shape, shape) != shape:
            return v
    except ValueError:
        return v
    keep = jnp.broadcast_to(c if kept else ~c, shape)
    if keep.size == 0:
        return v
    flat, rows = jnp.reshape(keep, -1), jnp.reshape(value, -1)
    first = jnp.argmax(flat)
    fill = jnp.where(flat[first], rows[first], jnp.ones_like(rows[first]))
    return jnp.where(keep, value, fill)
