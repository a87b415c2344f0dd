"""The jitted call's program rewrites (np2ref/rt/peepholes.py): reads of regions no store since
has touched are sliced from the array before those stores (or from the value stored), and a
sum, max or min over a short leading axis is added up slice by slice, in NumPy's order.

Each rewrite is checked three ways: the rewritten jaxpr computes what the traced one computes
(on programs built for the edge cases: a slice that meets a store in part, traced starts, a
Ref taken by another equation in between), it has the form that spares XLA:CPU its copies
(it would otherwise pass silently: the rewrite falls back to the program as traced on any
error), and compiled programs that use it give NumPy's values."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import np2ref
from conftest import assert_numpys_bits, assert_same_as_numpy
from np2ref.rt import peepholes
from np2ref.rt.compat_jaxpr import _npr_core

jax.config.update("jax_enable_x64", True)


def _prims(jaxpr):
    return [e.primitive.name for e in jaxpr.eqns]


def _sources(jaxpr):
    """{the var a slice reads: how many slices read it}."""
    found = {}
    for e in jaxpr.eqns:
        if e.primitive.name == "slice":
            found[e.invars[0]] = found.get(e.invars[0], 0) + 1
    return found


def _same_values(fn, *args):
    closed = jax.make_jaxpr(fn)(*args)
    new = peepholes._npr_peephole_jaxpr(closed.jaxpr)
    want = _npr_core.eval_jaxpr(closed.jaxpr, closed.consts, *args)
    got = _npr_core.eval_jaxpr(new, closed.consts, *args)
    for w, g in zip(want, got):
        np.testing.assert_array_equal(np.asarray(w), np.asarray(g))
    return closed.jaxpr, new


def planes(f, g, m):
    """Latt's bounce-back as the runtime traces it: each plane read after the stores before it."""
    r = jax.new_ref(f)
    for i in range(4):
        cur = r[...]
        r[...] = lax.dynamic_update_slice(cur, jnp.where(m, g[3 - i], cur[i])[None], (i, 0, 0))
    return r[...]


def test_a_plane_read_after_stores_to_other_planes_reads_the_array_before_them():
    f, g = jnp.arange(24.0).reshape(4, 2, 3), -jnp.arange(24.0).reshape(4, 2, 3)
    old, new = _same_values(planes, f, g, jnp.array([[True, False, True], [False, True, False]]))
    f_var = old.invars[0]
    # traced: plane i is sliced from the array the store of plane i - 1 made; rewritten: every
    # plane of the ref's array comes from the array passed in
    assert _sources(old).get(f_var, 0) == 0 and _sources(new).get(f_var, 0) == 4, new


def partly(f, v, k):
    r = jax.new_ref(f)
    r[...] = lax.dynamic_update_slice(r[...], v, (1, 0))   # rows 1..2
    within = r[...][1:3].reshape(-1)                        # the stored rows: from v itself
    across = r[...][0:2].reshape(-1)                        # row 0 (older) and row 1 (stored)
    other = r[...][3:4].reshape(-1)                         # untouched: from f
    kept = r[...][3:4]                                      # not reshaped: as traced
    r[...] = lax.dynamic_update_slice(r[...], v, (k, 0))   # a traced start: nothing known
    after = r[...][3:4].reshape(-1)
    jax.ref.addupdate(r, ..., f)                            # another use of the ref
    last = r[...][0:1].reshape(-1)
    return within, across, other, kept, after, last


def test_slices_meeting_stores_in_part_traced_starts_and_other_uses_of_the_ref():
    f, v = jnp.arange(12.0).reshape(4, 3), 100 + jnp.arange(6.0).reshape(2, 3)
    old, new = _same_values(partly, f, v, 2)
    reads = [e.invars[0] for e in new.eqns if e.primitive.name == "slice"]
    within, across, other, kept, after, last = reads
    assert within is old.invars[1] and other is old.invars[0]  # v, and f
    produced = {v: e.primitive.name for e in new.eqns for v in e.outvars}
    # in part stored: as traced; past a store at a traced start: not (the store itself may be
    # read, the same value as the load); after addupdate: the load
    assert produced[across] == "get" and produced[after] in ("get", "dynamic_update_slice")
    assert produced[last] == "get" and produced[kept] == "get"


def final(f, v):
    """A time step's whole-slice stores: B's interior, then A's from B's, neither updated again."""
    a, b = jax.new_ref(f), jax.new_ref(f)
    b[...] = lax.dynamic_update_slice(b[...], v * a[...][1:3], (1, 0))
    inner = b[...][1:3].reshape(-1)   # the region stored, of an array no equation updates again
    a[...] = lax.dynamic_update_slice(a[...], jnp.reshape(inner, (2, 3)) + b[...][0:2], (1, 0))
    return a[...], b[...]


def test_a_region_of_a_final_store_is_read_from_that_store_not_recomputed():
    # sliced from v, XLA computed v again inside the fusion updating a in place, reading a at
    # other offsets: it copied those slices of a apart first (jacobi_2d, 2.6x its hand port)
    f, v = jnp.arange(12.0).reshape(4, 3), 100 + jnp.arange(6.0).reshape(2, 3)
    old, new = _same_values(final, f, v)
    stored = [e.invars[1] for e in new.eqns if e.primitive.name == "dynamic_update_slice"][0]
    assert stored not in _sources(new), new


def rmw(f, g):
    """`f[0] = 1; f[1:] -= g[1:]` as traced: a read-modify-write of the rows after a store."""
    r = jax.new_ref(f)
    r[...] = lax.dynamic_update_slice(r[...], jnp.ones((1, 3)), (0, 0))
    cur = r[...]
    r[...] = lax.dynamic_update_slice(cur, cur[1:] - g[1:], (1, 0))
    return r[...]


def test_a_read_modify_write_of_the_same_shape_reads_the_current_array():
    # read from f (before the row-0 store), XLA:CPU kept f alive beside that in-place store:
    # a copy of it a step (fdtd_2d, 3x its hand port); read from the current array, XLA sees
    # an elementwise update in place
    f, g = jnp.arange(12.0).reshape(4, 3), -jnp.arange(12.0).reshape(4, 3)
    old, new = _same_values(rmw, f, g)
    assert _sources(new).get(new.invars[0], 0) == 0, new


def leading(x, y, z):
    return jnp.sum(x, axis=0), jnp.max(y, axis=0), jnp.min(z, axis=0), jnp.sum(x, axis=1), jnp.sum(x[:, :2, :3], axis=0)


def test_short_leading_reductions_become_chains_of_slices():
    rng = np.random.default_rng(0)
    x, y, z = (jnp.asarray(rng.standard_normal((9, 40, 30))) for _ in range(3))
    closed = jax.make_jaxpr(leading)(x, y, z)
    old, new = closed.jaxpr, peepholes._npr_peephole_jaxpr(closed.jaxpr)
    got = _npr_core.eval_jaxpr(new, closed.consts, x, y, z)
    want = [np.sum(np.asarray(x), axis=0), np.max(np.asarray(y), axis=0), np.min(np.asarray(z), axis=0)]
    for w, g in zip(want, got):  # NumPy's order: bit for bit (a TPU's float64: its 48 bits)
        assert_numpys_bits(np.asarray(g), w)
    assert _prims(old).count("reduce_sum") == 3 and _prims(new).count("reduce_sum") == 2  # axis 1, and 6 elements
    assert "reduce_max" not in _prims(new) and "reduce_min" not in _prims(new)


def test_the_rewrites_switched_off_leave_the_program_as_traced(monkeypatch):
    monkeypatch.setitem(peepholes._npr_PEEPHOLES, "slices", False)
    monkeypatch.setitem(peepholes._npr_PEEPHOLES, "reductions", False)
    closed = jax.make_jaxpr(leading)(*(jnp.ones((9, 40, 30)),) * 3)
    assert peepholes._npr_peepholed(closed.jaxpr) is closed.jaxpr


def density(f):
    return np.sum(f, axis=0), np.max(f, axis=0)


def bounce(fout, fin, obstacle):
    for i in range(9):
        fout[i, obstacle] = fin[8 - i, obstacle]
    return fout


def test_compiled_leading_sums_are_numpys_bit_for_bit():
    """NumPy adds a C-ordered array's rows one after another along axis 0: so does the chain
    (XLA's own reduce adds in another order, and differed in the last bit)."""
    f = np.random.default_rng(1).standard_normal((9, 64, 48)) * 1e3
    s, m = np2ref.compile(density, host_below=0)(f)
    assert_numpys_bits(s, np.sum(f, axis=0))
    assert_numpys_bits(m, np.max(f, axis=0))


@pytest.mark.parametrize("seed", [0, 1])
def test_compiled_plane_stores_match_numpy(seed):
    rng = np.random.default_rng(seed)
    fin = rng.standard_normal((9, 20, 16))
    assert_same_as_numpy(bounce, np2ref.compile(bounce, host_below=0), rng.standard_normal((9, 20, 16)), fin,
                         rng.random((20, 16)) < 0.3)


def stepping_indices(f, a):
    f[[6, 7, 8], -1, :] = f[[6, 7, 8], -2, :]      # Latt's outflow: a slice 6:9
    f[[2, 1, 0], 0, :] = f[[8, 7, 6], 0, :] * 2.0  # descending
    f[np.array([0, 2, 4]), 1] += 1.0                # a step of 2, augmented
    f[[-1, -2], 2, 1:3] -= 0.5                      # negative, beside a slice
    a[:, [0, 1], :, 0] = 7.0                         # parted by a slice: NumPy's dims go first
    a[[1, 1], 0] = a[[0, 1], 1]                      # the same index twice: the last wins
    b = f[[0, 1, 2]]                                 # still NumPy's copy, not a view
    b[0] = -1.0
    f[0, [1, 2], 0] = f[[3, 4], :, 1].sum(axis=1)    # an int beside a slice: dims first
    return f, a, b


def wraps(w):
    w[[0, 1]] = np.int64(2 ** 33 + 5)  # an advanced store casts as NumPy's does: it wraps
    return w


def test_stores_through_indices_that_step_are_numpys_and_no_scatter():
    f, a = np.arange(9 * 4 * 5.0).reshape(9, 4, 5), np.arange(2 * 3 * 2 * 2.0).reshape(2, 3, 2, 2)
    compiled = np2ref.compile(stepping_indices, host_below=0)
    assert_same_as_numpy(stepping_indices, compiled, f, a)
    assert_same_as_numpy(wraps, np2ref.compile(wraps, host_below=0), np.zeros(3, np.int32))
    only_f = np2ref.compile(latt_outflow, host_below=0)
    assert "scatter" not in only_f.lower(f.copy()).as_text()


def latt_outflow(f):
    f[[6, 7, 8], -1, :] = f[[6, 7, 8], -2, :]
    f[[2, 1, 0], 0, :] += 1.0
    return f
