"""The last-wins scatter: a store through integer-array indices as one flat scatter, NumPy's
semantics for a duplicate index (the last write wins) made deterministic on every backend and
right for gradients, by dropping every write but the last of each target (pairwise, by a
scatter-max of positions, or by a stable sort); _npr_lin lays the selected positions out as
NumPy lays out the result."""

import jax.numpy as jnp
import numpy as np

from jax import lax

from .compat import _npr_traced
from .core import _npr_isarr


def _npr_lin(shape, ents, sel):
    """Flat C-order positions of the elements `ents` selects, laid out as NumPy lays out the
    result (the advanced block where it stands if contiguous, else first). Out-of-range traced
    entries get position `size`, which scatters drop."""
    size = int(np.prod(shape))
    traced = any(_npr_traced(e) for e in ents)
    xp, it = (jnp, jnp.int32 if size < 2 ** 31 else jnp.int64) if traced else (np, np.intp)
    adv = [k for k, e in enumerate(ents) if e is not None and e is not Ellipsis and not isinstance(e, range)]
    bshape, b0 = (), 0
    if any(_npr_isarr(ents[k]) for k in adv):
        bshape = np.broadcast_shapes(*[np.shape(ents[k]) for k in adv])
        if adv[-1] - adv[0] + 1 == len(adv):
            b0 = sum(1 for e in ents[:adv[0]] if e is None or isinstance(e, range))
    nb, nd = len(bshape), len(sel)
    lin, ok, a, d = xp.zeros((), it), True, 0, 0
    for e in ents:
        if e is Ellipsis:
            continue
        if isinstance(e, range):
            ax = a + nb if a >= b0 else a
            c = xp.arange(e.start, e.stop, e.step, dtype=it).reshape((1,) * ax + (-1,) + (1,) * (nd - ax - 1))
        elif e is not None:
            c = xp.asarray(e).astype(it)
            c = c.reshape((1,) * (b0 + nb - c.ndim) + c.shape + (1,) * (nd - b0 - nb))
            if _npr_traced(e):
                ok = ok & (c >= 0) & (c < shape[d])
        if e is not None:
            lin, d = lin + c * int(np.prod(shape[d + 1:])), d + 1
        a += e is None or isinstance(e, range)
    lin = xp.broadcast_to(lin, sel)
    return lin if ok is True else jnp.where(ok, lin, size)


_npr_PAIRWISE_MAX = 128  # traced duplicate-index stores up to this many indices: pairwise, no sort


def _npr_last_only(lin, size):
    """Traced flat indices `lin` (at most _npr_PAIRWISE_MAX) with each one that occurs again later
    replaced by `size`, out of range, so that a scatter dropping those writes each target once,
    the last occurrence winning, on every backend. Compared pairwise: no sorted copies kept.
    None for static or many indices (_npr_scatter sorts those)."""
    if isinstance(lin, np.ndarray) or not 0 < lin.size <= _npr_PAIRWISE_MAX:
        return None
    flat = lin.reshape(-1)
    k = np.arange(flat.size)
    later = jnp.any((flat[None, :] == flat[:, None]) & (k[None, :] > k[:, None]), axis=1)
    return jnp.where(later, size, flat).reshape(lin.shape)


def _npr_unflat(flat, shape):
    """A flat scatter's result reshaped to `shape`, behind an optimization barrier: XLA:CPU
    (jaxlib 0.10.2) miscompiles a reshaped flat scatter whose result is then updated with a
    reversed or rolled read of itself (`a[:2] ^= a[:2, ::-1]` after `np.multiply.at(a, ...)`
    gave wrong values under jit; tests/regressions/fuzz_2f3d265977.py)."""
    return lax.optimization_barrier(jnp.reshape(flat, shape))


def _npr_scatter(cur, lin, val):
    """cur with cur.flat[lin] = val, the last occurrence of a duplicate winning. Deduplicated
    first, so the scatter is deterministic on every backend and its gradient is right: by a
    scatter-max of each index's position where the target is not much larger than the indices
    (XLA:CPU's sort took 1 µs an index: `x[idx] += v` at 100,000 was 200x NumPy's time), else
    by a stable sort."""
    shape, size = cur.shape, cur.size
    flat, lin, val = jnp.reshape(cur, -1), lin.reshape(-1), jnp.reshape(val, -1)
    if lin.size == 0:
        return cur
    if isinstance(lin, np.ndarray):
        keep = lin.size - 1 - np.unique(lin[::-1], return_index=True)[1]
        if keep.size < lin.size:
            lin, val = lin[keep], val[keep]
        return _npr_unflat(flat.at[lin].set(val, unique_indices=True, mode='promise_in_bounds'), shape)
    last = _npr_last_only(lin, size)
    if last is not None:
        return _npr_unflat(flat.at[last].set(val, mode='drop'), shape)
    if size <= max(4 * lin.size, 1 << 20):  # each target's last position by a scatter-max: no sort
        pos = jnp.arange(lin.size, dtype=np.int64)
        latest = jnp.full(size, -1, np.int64).at[lin].max(pos, mode='drop')
        keep = latest.at[lin].get(mode='fill', fill_value=-1) == pos
        return _npr_unflat(flat.at[jnp.where(keep, lin, size)].set(val, mode='drop'), shape)
    order = jnp.argsort(lin, stable=True)
    sl = lin[order]
    last = jnp.append(sl[1:] != sl[:-1], True)
    return _npr_unflat(flat.at[jnp.where(last, sl, size)].set(val[order], mode='drop'), shape)
