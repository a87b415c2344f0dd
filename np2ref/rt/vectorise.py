"""npr_vfor: a loop whose iterations are independent, run as one array operation over its range.

The rewrite (rewrite/lanes.py) proves, on the source, that each iteration of `for j in range(...)`
touches each array it writes only at one element or block `R[P(j)]` (P: scalar indices, j one of
them, the others the same in every iteration), that it reads those arrays only there, and that
it calls nothing that could have an effect. Then iteration j reads nothing another iteration
writes, and the loop's result is every iteration's run on the state before the loop. It emits
the loop body twice: `_loop_j(j)` as for npr_for, and `_lanes_j(j, *slots)`, the same statements
with each `R[P(j)]` read and written through a Ref of its own (the slot). npr_vfor runs the
lanes body under jax.vmap over every position of the slot axis (j = 0 .. n - 1 of the axis P(j)
indexes), each lane's slot loaded from R[P(j)], and stores the lanes whose j the range holds
back into R[P(:)] with one `where`: the same elementwise operations on the same values as the
loop, so the same results bit for bit (a reduction inside the body is the loop's own reduction,
of one iteration's operands).

Lanes the range does not hold compute values that are dropped (each its own j, so XLA sees an
iota; under differentiation they run iteration `start`, one NumPy runs, so no NaN derivative
enters the gradient). The lanes are only traced where nothing a lane does can be observed but
its slot and its run-time checks: each lane records its checks (index, cast, assert) into a record
of its own, a branch's only in the lanes that take it, and the first lane in loop order whose
check failed, among the range's iterations, goes into the call's record (bounds.py
_npr_lane_checks): NumPy's error at NumPy's iteration. The loop itself runs instead (exact,
as before) when the range leaves the slot axis (NumPy's IndexError, or a negative index's
wrap-around) or is empty, when a slot's other indices are not known inside their axes, or when
the lanes body cannot be traced under vmap. Traced bounds: decided by their loop variables' noted
ranges (`offsets`) where they are `v + c`; else the lanes are stored where a traced flag says the
range is inside the axis and the loop runs after them with no trips there (a lax.cond with the
refs closed over copied the written arrays on every call).
"""

import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_known_range, _npr_lane_checks, _npr_lane_start, _npr_lanes_checked, _npr_note_range
from .compat import _npr_equations, _npr_staging_trace, _npr_weak_astype
from .compat_jaxpr import _npr_aval
from .loops import (
    _npr_drop_lanes, _npr_is_concrete, _npr_note_lanes, _npr_tally_length, _npr_trips_of, npr_for, NprRange)
from .refs import _npr_differentiated
from .stores import npr_at
from .views import npr_get
from .lane_dots import _npr_in_lanes
from .lane_reads import _npr_note_lane


class _NprLane:
    """The loop variable's place in a slot's index (`(C, (i, npr_lane))`: the slot C[i, j])."""

    def __repr__(self):
        return "npr_lane"


npr_lane = _NprLane()
npr_whole = slice(None)  # a whole axis before the loop variable in a slot (`(out, (npr_whole, npr_lane))`: out[:, j])
NPR_VECTORISE = True  # False: npr_vfor runs the loop (the differential tests compare the two)


def npr_vfor(rng, loop, lanes, *slots, offsets=None, nonneg=(), mirror=(), tri=()):
    """`for j in range(...)` whose iterations are independent: `loop(j)` is the body as npr_for
    runs it, `lanes(j, *slot_refs)` the body on its slots, `slots` the (array, index) pairs, the
    index holding npr_lane where j goes (module docstring). `offsets`: for a traced start and
    stop, (v, c) where the bound is the loop variable v plus the integer c (else None), so a
    static loop's note of v's range bounds them (`range(i + 1)` inside `for i in range(n)`).
    `nonneg`: values that must be >= 0, known now, for the reads the rewrite proved apart from
    every slot (`B[i + 1:, j]` beside the slot B[i, j]); else the loop runs. `mirror`: the slots
    R[a, j] (of a square R) whose copies `R[j, a] = R[a, j]` end the body (rewrite/mirrors.py): the
    row a, once the lanes are stored, copied into the column a over the range. `tri`: (slot k, c,
    stop, kind) per row slot R[j, :] of a square R whose iteration j also copied its row part
    R[j, j + c:stop] into its column (rewrite/tri_mirrors.py): done for all lanes after they are
    stored, `kind` "range" or "slice" saying what stop means."""
    start, stop, step = rng.start, rng.stop, rng.step
    if not NPR_VECTORISE or not _npr_is_concrete(step) or int(step) == 0 or not slots \
            or not all(_npr_scalar_index(e) or _npr_whole_axis(e) for _, ix in slots for e in ix if e is not npr_lane):
        return npr_for(rng, loop)  # (an index array beside j would move the lane axis: NumPy's rules)
    step = int(step)
    slots = [(r, ix, k in mirror) for k, (r, ix) in enumerate(slots)]
    if any(m and (len(ix) != 2 or _npr_shape(r)[0] != _npr_shape(r)[1]) for r, ix, m in slots):
        return npr_for(rng, loop)  # (a copy between axes of different lengths: the loop's own errors)
    tri = [(k, c, _npr_tri_stop(slots[k][0], stop_, kind) if tuple(slots[k][1]) == (npr_lane,) else None)
           for k, c, stop_, kind in tri]
    if any(t is None for _, _, t in tri):
        return npr_for(rng, loop)  # (not square, or an end the lanes do not know: the loop's own)
    slots = [(r, ix, m or [t for t in tri if t[0] == k] or False) for k, (r, ix, m) in enumerate(slots)]
    if not all((_npr_bound_span(v, (v, 0)) or (-1, -1))[0] >= 0 for v in nonneg):
        return npr_for(rng, loop)
    if not all(_npr_index_inside(e, n) for r, ix, _ in slots for e, n in zip(ix, _npr_shape(r))
               if e is not npr_lane and not _npr_whole_axis(e)):
        return npr_for(rng, loop)  # the lanes load R[i, :] whatever the body does: never out of its axis
    width = min(int(_npr_shape(r)[_npr_lane_axis(ix)]) for r, ix, _ in slots)
    if all(_npr_is_concrete(v) for v in (start, stop)):
        js = range(int(start), int(stop), step)
        if not len(js) or min(js) < 0 or max(js) >= width:
            return npr_for(rng, loop)  # empty, or NumPy's IndexError / wrap-around: the loop's own
        _npr_lanes_or_loop(rng, loop, lanes, slots, width, (min(js), max(js)))
        return None
    spans = [_npr_bound_span(v, hint) for v, hint in zip((start, stop), offsets or (None, None))]
    if None not in spans:  # every range the bounds allow lies inside the axis: no fallback loop
        (lo, hi), (slo, shi) = spans
        inside = (lo >= 0 and shi <= width) if step > 0 else (slo >= -1 and hi < width)
        if inside:  # the lanes, or the loop where they cannot trace: either way done
            _npr_lanes_or_loop(rng, loop, lanes, slots, width, (0, width - 1))
            return None
    trips = _npr_trips(start, stop, step)
    last = start + (trips - 1) * step
    ok = (trips > 0) & (jnp.minimum(start, last) >= 0) & (jnp.maximum(start, last) < width)
    if _npr_lanes_or_loop(rng, loop, lanes, slots, width, (0, width - 1), ok):
        # the loop once more, with no trips where the lanes were right (no cond: a lax.cond with
        # the refs closed over copies the arrays it writes on every call, 3x C in syrk)
        npr_for(NprRange(start, jnp.where(ok, start, stop), step), loop)
    return None


def _npr_lanes_or_loop(rng, loop, lanes, slots, width, span, ok=True):
    """The lanes program when it traces, storing the lanes where `ok` (a traced flag: the range
    inside the slot axis; True where static) and returning True; else the loop, returning False
    (the loop has run: a caller must not run it again)."""
    since, eqns = _npr_tally_length(), _npr_count_eqns()
    trips = len(range(rng.start, rng.stop, rng.step)) if all(map(_npr_is_concrete, (rng.start, rng.stop))) else width
    try:
        with _npr_trips_of(trips):
            new, olds, record = _npr_lanes(rng, lanes, slots, width, span)
    except Exception:  # anything the vmapped trace cannot do: the loop, exact as before
        _npr_drop_lanes(since)
        npr_for(rng, loop)
        return False
    _npr_note_lanes(trips, _npr_count_eqns() - eqns)  # (the route's estimate of NumPy)
    if record is not None:  # the lanes' failed checks: the first iteration's, once (bounds.py)
        _npr_lanes_checked(*record, olds[0][1] & ok, int(rng.step) < 0)
    for (r, ix, mirrored), new, (old, valid) in zip(slots, new, olds):
        at = _npr_slot_axis(ix)  # the lane axis of R[all lanes] (after the whole axes before it)
        mask = jnp.reshape(valid & ok, (1,) * at + valid.shape + (1,) * (old.ndim - 1 - at))
        npr_at(r)[_npr_all_lanes(ix)] = jnp.where(mask, new, old)
        if isinstance(mirrored, list):  # each lane's row part into its column part (tri_mirrors.py)
            _npr_tri_copy(r, valid & ok, *mirrored[0][1:])
        elif mirrored:  # R[j, a] = R[a, j] over the range: the stored row a into the column a
            npr_at(r)[:, ix[0]] = jnp.where(valid & ok, npr_get(r)[ix[0], :], npr_get(r)[:, ix[0]])
    return True


def _npr_count_eqns():
    trace = _npr_staging_trace()
    return len(_npr_equations(trace) or ()) if trace is not None else 0


def _npr_lanes(rng, lanes, slots, width, span):
    """(new slot values, [(old values, lane mask)], each lane's check record (site, value) or
    None) of the lanes run under vmap (nothing stored)."""
    start, stop, step = rng.start, rng.stop, rng.step
    j = jnp.arange(width)
    if step > 0:
        valid = (j >= start) & (j < stop) & ((j - start) % step == 0)
    else:
        valid = (j <= start) & (j > stop) & ((start - j) % -step == 0)
    at = j  # every lane its own j: an iota, so XLA reads A[j, :] of all lanes as A itself (syrk: a
    # matrix product, not a gather of n copies of A); the lanes outside the range are dropped. Under
    # differentiation they run iteration `start` instead: their cotangent is zero, and a NaN
    # derivative of an iteration NumPy never runs (sqrt of a negative) would make 0 * NaN
    differentiated = _npr_differentiated([lanes, slots])
    if differentiated:
        at = jnp.where(valid, j, start if _npr_is_concrete(start) else jnp.clip(start, 0, width - 1))
    olds = [jnp.asarray(npr_get(r)[_npr_all_lanes(ix)]) for r, ix, _ in slots]

    record = _npr_lane_start(width)

    def lane(k, *values):
        # weakly typed, as npr_for's index is: j is a Python int in NumPy (`u8[j] = j * 100`
        # raises NumPy's OverflowError past 255, recorded in the lane's own check record)
        k = _npr_weak_astype(k, k.dtype)
        _npr_note_range(k, *span)
        if not differentiated:  # lane j is j: `A[k - 1]` a slice of A (lane_reads.py)
            _npr_note_lane(k, 0, 1)
        refs = [jax.new_ref(v) for v in values]  # (the record's two first, when there is one)
        with _npr_lane_checks(*(refs[:2] if record is not None else (None, None))):
            lanes(k, *refs[2 if record is not None else 0:])
        return [s[...] for s in refs]

    axes = [_npr_slot_axis(ix) for _, ix, _ in slots]
    # the lanes first (a Ref made under vmap from a value batched along another axis fails its stores)
    with _npr_in_lanes():  # (a product of two slices then one matrix product: rt/lane_dots.py)
        new = jax.vmap(lane)(at, *(record or ()), *[jnp.moveaxis(jnp.take(o, at, axis=a) if differentiated else  # (lanes 0 .. width - 1:
                                                 jax.lax.slice_in_dim(o, 0, width, axis=a), a, 0)  # a slice, no gather)
                                    for o, a in zip(olds, axes)])
    if record is not None:
        record, new = new[:2], new[2:]
    new = [jnp.moveaxis(v, 0, a) for v, a in zip(new, axes)]
    return new, [(o, valid) for o in olds], record


def _npr_tri_stop(r, stop, kind):
    """The end of the column parts as a row count (slice stops normalised as NumPy does), or None
    when R is not square or the end is not known now (or, for a range, past the axis: the loop
    raises NumPy's IndexError)."""
    shape = _npr_shape(r)
    if len(shape) != 2 or shape[0] != shape[1]:
        return None
    n = int(shape[0])
    if stop is None:
        return n
    if not _npr_is_concrete(stop) or not _npr_scalar_index(stop):
        return None
    stop = int(stop)
    if kind == "range":
        return stop if stop <= n else None
    return min(max(stop + n if stop < 0 else stop, 0), n)


def _npr_tri_copy(r, lanes, c, stop):
    """R[p, q] = R[q, p] where q is a stored lane and q + c <= p < stop: every iteration's copy of
    its row part into its column part, made at once after the rows are final."""
    n = _npr_shape(r)[0]
    p, q = jnp.arange(n)[:, None], jnp.arange(n)[None, :]
    cur = npr_get(r)[...]
    npr_at(r)[...] = jnp.where(lanes[None, :] & (p >= q + c) & (p < stop), cur.T, cur)


def _npr_scalar_index(e):
    """Whether e indexes as one integer (a Python or NumPy int, or a 0-d integer array)."""
    if isinstance(e, bool) or not hasattr(e, "dtype") and not isinstance(e, int):
        return False
    return np.ndim(e) == 0 and (isinstance(e, int) or np.issubdtype(e.dtype, np.integer))


def _npr_bound_span(v, hint):
    """(lowest, highest) value of a range bound: itself when concrete, else its loop variable's
    noted range plus the offset, or None."""
    if _npr_is_concrete(v):
        return int(v), int(v)
    span = _npr_known_range(hint[0]) if hint is not None else None
    return None if span is None else (span[0] + hint[1], span[1] + hint[1])


def _npr_index_inside(e, n):
    """Whether the integer index e is inside an axis of n (negative ones count from the end),
    known now: a concrete e, or a loop variable whose static loop noted its range."""
    span = (int(e), int(e)) if _npr_is_concrete(e) or _npr_aval(e) is None and isinstance(e, int) \
        else _npr_known_range(e)
    return span is not None and -n <= span[0] and span[1] < n


def _npr_whole_axis(e):
    return isinstance(e, slice) and e == slice(None)


def _npr_slot_axis(ix):
    """The lane axis of R[_npr_all_lanes(ix)]: the whole axes before npr_lane (scalars drop theirs)."""
    return sum(_npr_whole_axis(e) for e in ix[:_npr_lane_axis(ix)])


def _npr_lane_axis(ix):
    return next(k for k, e in enumerate(ix) if e is npr_lane)


def _npr_all_lanes(ix):
    """The slot index with the whole lane axis in place of j: R[i, :] for the slot R[i, j]."""
    return tuple(slice(None) if e is npr_lane else e for e in ix)


def _npr_shape(r):
    return tuple(np.shape(r) if not hasattr(r, "shape") else r.shape)


def _npr_trips(start, stop, step):
    span = stop - start
    trips = (span + step - 1) // step if step > 0 else (span + step + 1) // step
    return jnp.maximum(trips, 0)


