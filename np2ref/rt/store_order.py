"""Stores ordered for XLA:CPU's copy insertion, which orders in-place updates by data dependencies
alone: a store made to depend on the one before it into another Ref (_npr_after), and a loop body
that stores one element of the Refs this trace stored into back as it was, so they are loop
state rather than constants whose reads XLA rebuilds from a copy (_npr_loop_touching). Values are
bit for bit unchanged (an always-false select)."""

import dis as _npr_dis
import types as _npr_types
import jax
import jax.numpy as jnp
import numpy as np

from jax import lax

from .compat import _npr_current_trace, _npr_trace_of
from .core import _npr_state
from .lowering import _npr_LOWERING


def _npr_ordering() -> bool:
    """Whether stores are ordered for copy insertion (_npr_after, _npr_loop_touching): the
    peepholes on and `order` True, or None and not on a TPU. Both were measured on XLA:CPU,
    where each saved whole-array copies; each touch is a slice and an update of the array a
    trip, which on a TPU are kernels of their own in loops of microsecond trips (jacobi_poisson2d's
    sweep: 13 instructions in its loop body, 9 without them, the hand port's 9; wave1d 1.29 of
    the hand port on the chip with the peepholes, 1.08 without: docs/benchmarks.md, "chip7";
    benchmarks/tpu_chip7.py times both). Values are the same either way: the selects are
    always false."""
    on = _npr_LOWERING['order']
    return _npr_LOWERING['peepholes'] and (jax.default_backend() != "tpu" if on is None else bool(on))


def _npr_after_other(t, cur):
    """The array the last store of this trace put into another Ref than t (None when there was
    none, or the store was traced elsewhere): _npr_after makes t's store depend on it."""
    last = _npr_state.get("stored")
    if last is None or last[0] is t or not _npr_ordering():
        return None
    tr = _npr_trace_of(cur)
    return last[1] if tr is not None and _npr_trace_of(last[1]) is tr else None


def _npr_after(prev, block):
    """block, as a value that XLA sees computed from one element of prev (an always-false
    select): in a loop, `u[i, j] = tmp[i, j]; tmp[i, j] = 0.0` updates tmp in place only when
    that update is ordered after the one of u that reads tmp. XLA:CPU's copy insertion orders
    by data dependencies alone (optimization barriers are gone by then), and without one it
    copied tmp every iteration: 5.4 µs per element store at 128x128 instead of 0.01."""
    p = lax.real(jnp.reshape(prev, -1)[0]) if jnp.iscomplexobj(prev) else jnp.reshape(prev, -1)[0]
    never = lax.convert_element_type(p, np.float32) > np.inf  # not folded by XLA (nor are the
    other = jnp.broadcast_to(lax.convert_element_type(p, block.dtype), block.shape)  # arms equal)
    return lax.select(jnp.broadcast_to(never, block.shape), other, block)


def _npr_loop_touching(one, refs):
    """The loop body `one(k, c)`, first storing one element of each of `refs` that this trace
    stored into back as it was (an always-false select on k: _npr_after). Such a ref then is
    loop state rather than a constant of the loop, which XLA:CPU does not hoist a read of out
    of the loop: a read of a region stored just before (`Q[:, k]` in Gram-Schmidt's inner loop,
    after `Q[:, k] = A[:, k] / R[k, k]`) it otherwise rebuilt from the array before that store,
    which made it copy that array and the one the loop updates (Q and A) before each loop."""
    seen = _npr_state.get("stored_refs")
    if seen is None or seen[0] is not _npr_current_trace() or not _npr_ordering():
        return one
    written = _npr_stored_through_at(getattr(one, "_npr_body", None))  # loop state already: the body
    touch = [r for r in refs if id(r) in seen[1] and seen[1][id(r)] is r and isinstance(r, jax.Ref) and r.size
             and id(r) not in written]  # stores into them (a touch made XLA copy them per trip)
    if not touch:
        return one

    def touched(k, c):
        for r in touch:
            at = (0,) * r.ndim
            r[at] = _npr_after(k, r[at])
        return one(k, c)
    return touched


def _npr_stored_through_at(fn):
    """ids of the Refs the converted loop body `fn` stores into through `npr_at(name)`, read off
    its bytecode and its nested functions' (the names are its closure's cells); empty when it
    cannot tell. Touching one of them (_npr_loop_touching) costs XLA:CPU copies of it per trip:
    `A[i, j] -= A[i, k] * A[k, j]` after `A[i, k] /= A[k, k]` (LU) copied A twice a step."""
    code = getattr(fn, "__code__", None)
    if code is None or not fn.__closure__:
        return set()
    names, stack = set(), [code]
    while stack:
        co = stack.pop()
        ins = list(_npr_dis.get_instructions(co))
        for a, b in zip(ins, ins[1:]):
            if a.opname in ("LOAD_GLOBAL", "LOAD_NAME") and a.argval == "npr_at" and b.opname.startswith("LOAD_"):
                names.add(b.argval)
        stack += [c for c in co.co_consts if isinstance(c, _npr_types.CodeType)]
    out = set()
    for name, cell in zip(code.co_freevars, fn.__closure__):
        if name in names:
            try:
                out.add(id(cell.cell_contents))
            except ValueError:  # an empty cell
                pass
    return out
