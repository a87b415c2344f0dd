"""npr_fold_for: a loop whose only carried dependence is one `R[P] += value` (or `-=`), run as an
ordered fold: every trip's reads made at once, then one chain of additions in NumPy's order
(rewrite/ordered_fold.py proves the form; the default, exact mode).

    for k in range(K):                            def _reads_k(k):
        C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]  return npr_get(A)[i, k], npr_get(A)[:i + 1, k]
                                            ->    def _trip_k(_read_k):
                                                      return alpha * _read_k[0] * _read_k[1]
                                                  def _fold_k(_trips_k):
                                                      npr_at(C)[i, :i + 1] = npr_fold(npr_get(C)[i, :i + 1], '+', _trips_k)
                                                  npr_fold_for(npr_range(K), _loop_k, _reads_k, _trip_k, _fold_k)

`_reads_k(k)` gives the reads of trip k whose index names k, made under jax.vmap over every k of
the range (a read is the same element under vmap: exact; each a gather, one array laid out trip by
trip). npr_fold reads R[P] once, then runs `acc = acc + _trip_k(reads of trip k)` for k in order
as a lax.scan over the stacked reads whose step is traced once and which XLA unrolls: in one pass
(no loop left) while trips x reads stay within NPR_FOLD_ONE_PASS, else in a lax loop of passes of
NPR_FOLD_UNROLL trips (the compile no longer grows with the trips). Each step is trip k's own
operations on trip k's values, then the addition NumPy rounds for `R[P] += value` (the value's
dtype must be R's: else NumPy adds in a wider dtype and casts each trip, and the loop runs); the
sum is stored once. XLA fuses the unrolled trips into one elementwise pass (syrk's lanes: one
fusion instead of K trips of a masked update); divisions.py fences every product in the step
(`_npr_fold_step`), since LLVM contracts a product and its sum into one FMA there even at -O0
(bitwise=True), which NumPy rounds twice: the fold is NumPy's bits in either mode. A window whose
length is known only at run time (`C[i, :i + 1]` in the lanes over i) is read, added and stored
as one masked value: nothing is added outside it (no zero, which would turn -0.0 into +0.0), and
the mask is applied once, by the store.

The loop runs instead (npr_for, exact) outside a lanes body but on a TPU (_npr_FOLD), for a float64
sum on a TPU (its pair's chain measured slower than the loop: docs/tpu.md), when the
range is not known when traced, when the stacked reads would hold more than NPR_FOLD_ELEMENTS
elements, when a read cannot be made under vmap or its masked length moves with k, when R is not
a float array (a complex product is real products that XLA contracts below the fences; integer
and boolean sums are left to the loop), when the value's dtype would widen R's addition, or when
anything in the fold fails to trace. With no trips nothing is stored.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .bounds import _npr_note_range
from .compat import _npr_weak_astype
from .lane_dots import _NPR_LANES
from .lane_reads import _npr_note_lane
from .loops import _npr_is_concrete, _npr_python_int, npr_for
from .masked import NprMasked
from .np_dtypes import _npr_np_kind0
from .promotion import _npr_weak_value
from .refs import _npr_differentiated
from .core import _npr_state

NPR_FOLD = True  # False: npr_fold_for runs the loop (the tests and benchmarks compare the two)
# None: outside a lanes body (npr_vfor) the fold runs on a TPU only. On a CPU a loop's trip over a
# plain vector costs about what the fold's pass costs per trip plus its stacked reads' copy
# (gemv_minus, 400 x 240: loop 0.073 ms, fold 0.104); in syrk's lanes a trip is a masked update of
# every row (loop 0.078 ms, fold 0.035). On a TPU a trip is a round of its scalar unit.
# "scalar": the same for a carried accumulator's chain (npr_fold_scalar). On a CPU a loop's trip over a
# scalar costs ~10 ns: the chain measured no faster (dot, n = 1000: loop 8.2-16.2 us, fold 8.3-21.5;
# e2e 18.1 against 22.7) and compiles 0.1-0.2 s longer (docs/loops.md, "Scalar accumulators")
_npr_FOLD = {"outside lanes": None, "scalar": None}
NPR_FOLD_ONE_PASS = 288  # trips x reads unrolled into one pass, no loop left (XLA:CPU's compile ~1 s there)
NPR_FOLD_UNROLL = 16  # else trips in each unrolled pass of a lax loop (docs/loops.md measures both)
NPR_FOLD_SCALAR_ONE_PASS = 128  # a carried accumulator's chain this short: one unrolled pass, no loop left
NPR_FOLD_SCALAR_UNROLL = 16  # else trips in each unrolled pass of its lax loop (docs/loops.md measures them)
NPR_FOLD_ELEMENTS = 1 << 22  # the most elements the stacked reads may hold (else the loop)


class _NprNotFold(Exception):
    """The fold cannot be NumPy's additions here: the loop runs."""


def npr_fold_for(rng, loop, reads, trip, fold, *init):
    """`for k in range(...)` whose body only adds into one R[P] (module docstring): `loop(k)` the
    body as npr_for runs it, `reads(k)` trip k's reads that name k, `trip(r)` trip k's value from
    them, `fold(trips)` the store of npr_fold's chain. With `init` (one carried accumulator s,
    rewrite/scalar_fold.py): `fold(s, v)` is the loop's step of s, and the result is s after the
    chain of steps over every trip's value (npr_fold_scalar)."""
    start, stop, step = rng.start, rng.stop, rng.step
    here = _npr_fold_here("scalar" if init else "outside lanes")
    if not NPR_FOLD or not all(_npr_is_concrete(v) for v in (start, stop, step)) or not here:
        return npr_for(rng, loop, *init)
    ks = range(int(start), int(stop), int(step))
    if not len(ks):
        return init[0] if init else None  # no trips: NumPy adds nothing
    if init:
        try:
            return npr_fold_scalar(_npr_stacked_reads(reads, ks, slices=True), trip, fold, init[0], len(ks))
        except Exception:  # anything the fold cannot trace: the loop, exact (its own error if any)
            return npr_for(rng, loop, *init)
    try:
        trips = _NprTrips(_npr_stacked_reads(reads, ks), trip, len(ks))
        fold(trips)  # one store, made last: a failure before it has stored nothing
    except Exception:  # anything the fold cannot trace: the loop, exact (its own error if any)
        return npr_for(rng, loop)
    return None


def _npr_fold_here(key="outside lanes"):
    """Whether a fold runs where this loop is traced: in a lanes body, or as _npr_FOLD[key] says."""
    outside = _npr_FOLD[key]
    return _NPR_LANES[0] > 0 or (jax.default_backend() == "tpu" if outside is None else outside)


def npr_fold(cur, op, trips):
    """`cur op v_0 op v_1 ... op v_{K-1}`, v_k trip k's value, each step NumPy's `R[P] op= v_k`
    on R's dtype (cur: R[P] as read, a masked value for a window of run-time length). One trip is
    traced, as the step of a lax.scan over the stacked reads that XLA unrolls in passes
    (_npr_pass): the trace does not grow with the trip count."""
    dt = np.dtype(cur.dtype)
    if dt.kind != 'f' or op not in ('+', '-'):  # (a complex product is real products XLA contracts
        raise _NprNotFold("an integer, boolean, complex or other accumulation")  # below the fences)
    if dt.itemsize == 8 and jax.default_backend() == "tpu":  # (the chip's float64 is a float32 pair: its
        raise _NprNotFold("a float64 sum on a TPU")  # chain cost more than the loop, docs/tpu.md)
    meta = (cur.lens, cur.offs) if isinstance(cur, NprMasked) else None

    def _npr_fold_step(data, rows):  # (its name: divisions.py fences every product in it)
        acc = data if meta is None else NprMasked(data, *meta)
        v = _npr_same_type(trips.trip(tuple(r if m is None else NprMasked(r, *m)
                                            for r, (_, m) in zip(rows, trips.stacked))), dt)
        return _npr_carried(acc + v if op == '+' else acc - v, meta), None

    out, _ = lax.scan(_npr_fold_step, cur.data if meta is not None else jnp.asarray(cur),
                      [d for d, _ in trips.stacked], unroll=_npr_pass(trips))
    return out if meta is None else NprMasked(out, *meta)


def npr_fold_scalar(stacked, trip, step, s, count):
    """s after `s = step(s, v_k)` for k in order, v_k trip k's value (rewrite/scalar_fold.py):
    every trip's value computed at once (_npr_fold_values: one vector tanh where the loop made
    `count` scalar ones; the reads that name k are slices, lane_reads.py), then the loop's own
    steps as a lax.scan, in one unrolled pass up to NPR_FOLD_SCALAR_ONE_PASS trips, else in passes
    of NPR_FOLD_SCALAR_UNROLL. The first step is traced on its own, as the loop's first trip
    (a Python float start becomes what NumPy's first step makes of it; divisions.py fences its
    literal `0.0 + v`: NumPy's 0.0 + -0.0 is 0.0); a later step that would change the type, a 0-d
    array carried or made, or a masked read: _NprNotFold (the loop runs)."""
    if any(m is not None for _, m in stacked) or np.ndim(s) or _npr_np_kind0(s) in ("array", "open"):
        raise _NprNotFold("a masked read, or an accumulator that may be an array")
    made = _npr_state.get("array0_made", 0)
    values = _npr_fold_values(trip, [d for d, _ in stacked], count)
    first = jnp.asarray(step(s, values[0]))
    kind = (first.shape, first.dtype, _npr_weak_value(first))
    if first.shape or "c" in (np.dtype(values.dtype).kind, np.dtype(first.dtype).kind):
        raise _NprNotFold("an accumulator that becomes an array, or a complex one")  # (a complex
        # product is real products that XLA contracts into FMAs where no fence reaches: the loop)

    def _npr_fold_step(acc, v):  # (its name: divisions.py fences every product in it)
        new = jnp.asarray(step(acc, v))
        if (new.shape, new.dtype, _npr_weak_value(new)) != kind:
            raise _NprNotFold("a step that changes the accumulator's type")
        return new, None
    rest = max(1, count - 1)
    unroll = rest if rest <= NPR_FOLD_SCALAR_ONE_PASS else min(NPR_FOLD_SCALAR_UNROLL, rest)
    out, _ = lax.scan(_npr_fold_step, first, values[1:], unroll=unroll)
    if _npr_state.get("array0_made", 0) != made:
        raise _NprNotFold("a 0-d array made in a trip (its kind is the loop's to settle)")
    return out


def _npr_fold_values(trip, data, count):
    """Every trip's value, [count], from the stacked reads `data`: the trip under vmap (elementwise
    operations are the scalar ones), in a call whose products and outputs divisions.py fences (its
    name; _npr_fence_outputs): XLA fuses the values' multiply into the chain's pass, where LLVM
    contracted it with the step's addition into one FMA (`s += a[k] * b[k]`, 1 ulp from NumPy in
    the default mode; an optimization barrier is gone by then)."""
    def _npr_fold_values(*rows):
        return jnp.asarray(trip(rows[:-1]))
    values = jax.jit(jax.vmap(_npr_fold_values))(*data, jnp.arange(count))  # (k: a batched input
    if np.shape(values) != (count,):  # even where no read is left)
        raise _NprNotFold("a trip whose value is not 0-d")
    return values


def _npr_pass(trips):
    """Trips in one unrolled pass: all of them while trips x reads stay within NPR_FOLD_ONE_PASS
    (syrk's 70 x 2 compile in 0.55 s, syr2k's 70 x 4 in 0.89 s; syrk's 128 x 2 in 0.97 s), else
    NPR_FOLD_UNROLL (a lax loop of passes: its compile no longer grows with the trips)."""
    if trips.count * max(1, len(trips.stacked)) <= NPR_FOLD_ONE_PASS:
        return trips.count
    return min(NPR_FOLD_UNROLL, trips.count)


def _npr_carried(new, meta):
    """The data of a step's sum, which must be laid out as R[P] was (the same masked lengths and
    starts, by identity: no roll or pad between trips); else _NprNotFold."""
    if meta is None:
        if isinstance(new, NprMasked):
            raise _NprNotFold("a masked value added into an array of a static shape")
        return new
    if not isinstance(new, NprMasked) or len(new.lens) != len(meta[0]) or any(
            a is not b for a, b in zip((*new.lens, *new.offs), (*meta[0], *meta[1]))):
        raise _NprNotFold("a sum laid out other than R[P]")
    return new.data


def _npr_same_type(v, dt):
    """v as `R[P] op= v` adds it when NumPy's result type is R's own dtype dt; else _NprNotFold."""
    if isinstance(v, NprMasked):
        if v.dtype != dt:
            raise _NprNotFold("a value of another dtype")
        return v
    if isinstance(v, (bool, int, float, complex)) and not isinstance(v, np.generic):
        if np.result_type(dt, type(v)(0)) != dt:  # NEP 50: a Python scalar takes dt's kind
            raise _NprNotFold("a Python value of a wider kind")
        return jnp.asarray(v, dt)
    x = jnp.asarray(v)
    if x.dtype == dt or (_npr_weak_value(x) and jnp.result_type(dt, x) == dt):
        return x.astype(dt)
    raise _NprNotFold("a value of another dtype")


class _NprTrips:
    """The reads stacked over the range and `trip`, trip k's value from trip k's reads."""

    def __init__(self, stacked, trip, count):
        self.stacked, self.trip, self.count = stacked, trip, count


def _npr_stacked_reads(reads, ks, slices=False):
    """[(data stacked over ks, the masked lengths and starts or None)] per read of `reads(k)`;
    the lengths and starts are a probe trace's, checked to be the same in every trip. The reads
    are gathers (k is not noted as a lane, lane_reads.py): XLA:CPU makes each one array, trip by
    trip, before the chain, where the slices' transpose was fused into the chain's pass as a
    strided read of A per element (syrk's fold 0.052 against 0.034 ms)."""
    k0 = _npr_python_int(jnp.asarray(ks[0]))
    _npr_note_range(k0, min(ks), max(ks))
    probe = [_npr_split(r) for r in _npr_tuple(reads(k0))]
    if len(ks) * sum(int(np.size(d)) for d, _ in probe) > NPR_FOLD_ELEMENTS:
        raise _NprNotFold("the stacked reads would be too large")
    layouts, slices = [], slices and not _npr_differentiated([d for d, _ in probe])

    def lane(k):
        k = _npr_python_int(_npr_weak_astype(k, k.dtype))
        _npr_note_range(k, min(ks), max(ks))
        if slices:  # `x[k]` a slice of x, not a gather (lane_reads.py; a scalar chain: npr_fold_scalar)
            _npr_note_lane(k, ks.start, ks.step)
        got = [_npr_split(r) for r in _npr_tuple(reads(k))]
        layouts.append([_npr_layout(d, m) for d, m in got])
        return [d for d, _ in got], [m for _, m in got]  # a meta that moves with k: vmap refuses it

    data, _ = jax.vmap(lane, out_axes=(0, None))(_npr_trip_indices(ks))
    if layouts[-1] != [_npr_layout(d, m) for d, m in probe]:
        raise _NprNotFold("the reads' layout differs from the probe's")
    return [(d, m) for d, (_, m) in zip(data, probe)]


def _npr_trip_indices(ks):
    """The range's values as `start + step * iota`: not a constant array, which XLA:CPU took
    0.3 s more to compile (constant-folding the reads' index computations over it)."""
    dt = jnp.asarray(ks[0]).dtype
    return ks.start + ks.step * lax.iota(dt, len(ks))


def _npr_tuple(r):
    return r if isinstance(r, tuple) else (r,)


def _npr_split(r):
    """(data, (lens, offs) or None) of one read."""
    if isinstance(r, NprMasked):
        return r.data, (r.lens, r.offs)
    if not isinstance(r, jax.Array):
        raise _NprNotFold("a read that is not an array")
    return r, None


def _npr_layout(data, meta):
    return (tuple(np.shape(data)), str(data.dtype), _npr_weak_value(data),
            None if meta is None else tuple(n is None for n in meta[0]))
