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

A `return` inside an `if` on array data (frontend/returns.py made it one exit, `_return_n`
assigned in each branch): _npr_if_returning checks the two returned values' types.
"""

from jax import lax
import jax
import jax.numpy as jnp
import numpy as np

from .carried_kinds import _NPR_FALSE, _npr_python_flag
from .compat import _npr_Tracer, _npr_weak_astype
from .core import npr_pyreturn, NprUnsupported
from .promotion import _npr_mark_either
from .unbound import npr_unset
from .refs import _npr_batched, _npr_differentiated
from .views import NprView


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


def _npr_if_returning(pred, then_fn, else_fn, values, returns, npr_if):
    """npr_if on traced `pred` where the values at positions `returns` are what the function
    returns (a `return` in each branch, frontend/returns.py): as a conditional expression, the
    two must have one shape and dtype (NumPy's result type would otherwise depend on the data:
    NPR128); a Python number and a NumPy value of that dtype give the NumPy type, two Python
    numbers (or bools) a Python number (bool) again. A tuple or list (`return x, it + 1, True`)
    is returned item by item: the two of one structure, each item by these rules. Each branch also
    gives, per returned leaf, whether it is a Python number (a flag: an inner `if` on data that
    returns a Python float or NumPy's scalar, as its own data picks, gives its own flag), so that
    the leaf is Python's where the path the data took gave Python's (a NumPy scalar or Python number
    on either side: noted either with that flag). (npr_if is passed in by its caller, branches.py,
    the floor above.)"""
    seen = [[None, None] for _ in returns]
    shown = [[None, None] for _ in returns]  # per branch, each leaf's flag as the branch gave it
    n, single = len(values), len(values) == 1

    def typed(k, fn):
        def run(*v):
            out = fn(*v[:n])
            for slot, flags, i in zip(seen, shown, returns):
                kind = _npr_return_kinds(out if single else out[i])
                slot[k] = kind
                other = slot[1 - k]
                if other is not None and (other[0] != kind[0] or any(
                        a[:2] != b[:2] for a, b in zip(other[1], kind[1]))):
                    raise NprUnsupported(
                        "NPR128", f"the two branches of an `if` on array data return values of "
                        f"different types ({_npr_return_describe(slot[0])} and {_npr_return_describe(slot[1])}): "
                        f"NumPy's result type would depend on the data")
                flags[k] = tuple(map(_npr_python_flag, _npr_return_leaves(out if single else out[i])))
            return (*((out,) if single else out), *(flags[k] for flags in shown))
        return run

    out = list(npr_if(pred, typed(0, then_fn), typed(1, else_fn), *values, *(npr_unset,) * len(returns)))
    out, python = out[:n], out[n:]
    for (t0, t1), (f0, f1), flag, i in zip(seen, shown, python, returns):
        leaves = _npr_return_leaves(out[i])
        for j, (a, b) in enumerate(zip(t0[1], t1[1])):
            if a[3] and b[3]:  # both Python bools: a Python bool when returned
                leaves[j] = npr_pyreturn(leaves[j], "bool")
            elif a[2] and b[2]:  # both Python numbers: a Python number again, Python's type when returned
                leaves[j] = _npr_weak_astype(leaves[j], a[1])  # (`return np.inf` ... `return 0.25`, which no
                # note of the return reaches: np.float64 before round 14)
                leaves[j] = npr_pyreturn(leaves[j], {"i": "int", "u": "int", "c": "complex"}.get(a[1].kind, "float"))
            elif not (f0[j] is f1[j] is _NPR_FALSE):  # NumPy's scalar or a Python number as the path
                # the data took (an inner `if`'s own flag too): refused where that shows
                _npr_mark_either(leaves[j], (flag[j], True))
        out[i] = jax.tree_util.tree_unflatten(t0[0], leaves)
    return out[0] if single else tuple(out)


def _npr_return_leaves(v):
    return jax.tree_util.tree_leaves(v, is_leaf=lambda x: not isinstance(x, tuple))


def _npr_return_kinds(v):
    """(tree structure, ((shape, dtype, weak, a Python bool) of each leaf)) of a returned value."""
    if isinstance(v, tuple) and any(isinstance(x, tuple) for x in v):
        raise NprUnsupported("NPR128", "a function returns, from a branch on array data, a tuple "
                             "holding a tuple (one level of items is translated)")
    leaves, tree = jax.tree_util.tree_flatten(v, is_leaf=lambda x: not isinstance(x, tuple))
    return tree, tuple((*_npr_return_type(x), type(x) is bool) for x in leaves)


def _npr_return_describe(kind):
    tree, leaves = kind
    items = ", ".join(_npr_ifexp_describe(leaf[:3]) for leaf in leaves)
    return items if tree == jax.tree_util.tree_structure(0) else f"({items})"


def _npr_return_type(v):
    if isinstance(v, (jax.Ref, NprView)):
        raise NprUnsupported("NPR128", "a function returns, from a branch on array data, an "
                             "array that is written (which array a later write changes would depend on data)")
    return _npr_ifexp_type(v)


def _npr_join_refs(fixed, rest):
    rest = list(rest) if isinstance(rest, tuple) else [rest]
    size = len(rest) + len(fixed) - 1
    out = [fixed[i] if i in fixed else rest.pop(0) for i in range(size)]
    return tuple(out) if fixed["tuple"] else out[0]


def _npr_ifexp_type(v):
    """(shape, dtype, weak) of an operand of a conditional on traced data: an array, a NumPy or
    Python number (a Python int, float or complex is weak, as NEP 50 has it)."""
    if isinstance(v, (jax.Ref, NprView)):
        raise NprUnsupported("NPR128", "a conditional expression on array data chooses between "
                             "arrays that are written (which array a later write changes would depend "
                             "on data)")
    if isinstance(v, bool):
        return (), np.dtype(bool), False
    if isinstance(v, (int, float, complex)):
        return (), jnp.asarray(v).dtype, True
    if isinstance(v, (np.ndarray, np.generic)):
        return v.shape, v.dtype, False
    if isinstance(v, (jax.Array, _npr_Tracer)):
        return v.shape, v.dtype, bool(jax.typeof(v).weak_type)
    raise NprUnsupported("NPR128", f"a conditional expression on array data gives a "
                         f"{type(v).__name__}, not an array or a number")


def _npr_ifexp_describe(kind):
    shape, dtype, weak = kind
    if weak:
        return f"a Python {dtype.kind == 'f' and 'float' or dtype.kind == 'c' and 'complex' or 'int'}"
    return f"{dtype} of shape {shape}" if shape else f"a {dtype} scalar"


