"""NumPy's IndexError for indices known only at run time, and npr_get."""

import sys as _npr_sys

from jax import lax
import jax
import jax.numpy as jnp
import numpy as np

from .compat import (
    _npr_affine, _npr_current_trace, _npr_lifted_from, _npr_linear, _npr_traced, _npr_unbatched)
from .core import _npr_state, NprError


# ---- bounds: NumPy's IndexError for indices known only at run time --------------------------
# An index known at trace time is checked then, by NumPy (on a zero-memory dummy). A traced one
# is checked when the program runs: the NumPy-facing call (NprFunction) makes a _npr_Bounds, each
# check records into its slot, and the call raises NumPy's IndexError after the program ran and
# before anything is written back. Without one (`.pure`, bounds='unchecked', a caller's own jit)
# traced indices are not checked: reads clamp and stores drop or clamp them, as JAX does.

class _npr_Bounds:
    """The run-time index checks of one trace: the Ref `site` holds 0 until a check fails, then
    that check's number, and the Ref `value` the index that failed it; `sites` lists each
    check's (exception type, message with `{}` for the value, _npr_site_lines()), numbered from 1 in the order
    they were traced. (Two scalar Refs: in a
    loop body XLA:CPU updates them for about 0.2 ns a check, a 2-vector for 15 ns.)"""

    def __init__(self):
        it = jnp.asarray(0).dtype  # int64, or int32 without x64
        self.site, self.value = jax.new_ref(jnp.zeros((), it)), jax.new_ref(jnp.zeros((), it))
        self.sites = []
        self.done = {}  # (id(value), check, id(trace)) -> (value, trace): checked already there
        self.ranges = {}  # id(a loop variable) -> (its lowest value, its highest, the variable)
        # NumPy's RuntimeWarnings due in this run (casts.py): bit k of `warn` set when the k-th
        # of `warnings` (a host function that issues it) is due; issued once, after the run.
        # Not from loop bodies: a data-dependent update of a second Ref in a lax loop costs
        # ~5 us an iteration on XLA:CPU (1e5 iterations: 1 ms -> 540 ms, measured)
        self.warn, self.warnings = jax.new_ref(jnp.zeros((), jnp.int32)), []
        self.trace = _npr_current_trace()  # the call's own trace (not a loop body's)


_npr_RANGES = {}  # id(a traced loop variable) -> (lo, hi, it), for every trace (windows.py)


def _npr_note_range(i, lo, hi):
    """Note that the traced loop variable `i` runs from lo to hi (inclusive): an index check of
    i itself against an axis that holds that range is decided now, and so is whether a window
    `x[i:i + w]` lies inside its axis (windows.py)."""
    if _npr_traced(i):
        if len(_npr_RANGES) > 256:  # the oldest notes (loop variables of traces that ended) dropped;
            # never all of them: an outer loop's variable, noted just before, is read in the inner
            # loop's body (clearing every note there made `x[:, i:i + K]` a window of traced
            # length in whichever trace crossed the limit: NPR111, or another program)
            for key in list(_npr_RANGES)[:-128]:
                del _npr_RANGES[key]
        _npr_RANGES[id(i)] = (lo, hi, i)
    bounds = _npr_state.get("bounds")
    if bounds is not None and _npr_traced(i):
        bounds.ranges[id(i)] = (lo, hi, i)


def _npr_known_range(i):
    """(lowest, highest) value of the traced loop variable i, when a static loop noted it."""
    known = _npr_RANGES.get(id(i))
    return known[:2] if known is not None and known[2] is i else None


def _npr_affine_range(x):
    """(lowest, highest) value of the traced int x when it is a noted loop variable times and
    plus int literals (`2 * i`, `2 * i + 2`, `k - 1`), followed back through the jaxpr being
    traced, and under vmap through the lanes' values (a lane variable's `2 * k` is a new
    batched value over the noted one's); else None. windows.py proves a window `x[2 * i:2 * i +
    2]` inside its axis by it (the CNN's 2x2 pooling: a window not proved full is an NprMasked,
    read clamped and masked, its max checked for an empty window in every lane)."""
    known = _npr_known_range(x)
    if known is not None:
        return known
    unbatched = _npr_unbatched(x)
    if unbatched is None:
        noted = _npr_known_range
    else:
        vals = {id(_npr_unbatched(r[2])[0]): r[:2] for r in list(_npr_RANGES.values())
                if _npr_unbatched(r[2]) is not None}  # the lane variables', by their lanes' value
        x, noted = unbatched[0], lambda t: vals.get(id(t))
    base, m, c = _npr_linear(x, lambda t: noted(t) is not None)
    span = noted(base)
    if span is None:
        return None
    ends = (span[0] * m + c, span[1] * m + c)
    return min(ends), max(ends)

def _npr_bounds_error(sites, site, value):
    """NumPy's error for a run's record (`sites`: _npr_Bounds.sites), or None."""
    site = int(site)
    if not site:
        return None
    kind, message, lines = sites[site - 1]
    error = kind(*message) if isinstance(message, tuple) else kind(message.format(int(value)))
    error._npr_lines = lines  # raised after the run: no traceback through the program's lines
    return error


def _npr_site_lines():
    """(file, line) of each frame of a converted program (code exec'd as "<np2ref: ...>",
    np2ref.compile) in the stack that is tracing a check, outermost first: np2ref.compile
    places the refusal a failed check raises there."""
    frame, lines = _npr_sys._getframe(1), []
    while frame is not None:
        if frame.f_code.co_filename.startswith("<np2ref"):
            lines.append((frame.f_code.co_filename, frame.f_lineno))
        frame = frame.f_back
    return tuple(lines[::-1])


def _npr_check_bounds(e, axis, size):
    """NumPy's IndexError, when the program runs, for the traced integer index `e` (a scalar or
    an array) out of range of an axis of `size`."""
    bounds = _npr_state.get("bounds")
    if bounds is not None and _npr_traced(e) and np.ndim(e) == 0:
        # the loop variable itself, or it plus a literal (`u[i - 2, j + 1]` in a stencil):
        # decided from the loop's range; an outer loop's variable, lifted into an inner loop's
        # trace, followed back to it (25 run-time checks less per element of a 5x5 stencil)
        noted = lambda x: id(x) in bounds.ranges and bounds.ranges[id(x)][2] is x  # noqa: E731
        base, c = _npr_affine(e, stop=noted)
        for _ in range(8):
            outer = None if noted(base) else _npr_lifted_from(base)
            if outer is None:
                break
            base, d = _npr_affine(outer, stop=noted)
            c += d
        if noted(base) and -size <= bounds.ranges[id(base)][0] + c and bounds.ranges[id(base)][1] + c < size:
            return
        if _npr_lane_inside(e, size, bounds):
            return
    _npr_check_run(e, _npr_out_of_range(size), IndexError, f"index {{}} is out of bounds for axis {axis} with size {size}")


def _npr_lane_inside(e, size, bounds):
    """Whether the vmapped index e is a noted vmapped loop variable plus a literal, inside the
    axis over the variable's range (`A[i - 1]` in the lanes of `for i in range(1, n - 1)`,
    vectorise.py). The lanes outside the range, which are computed and dropped, may index
    outside; the lanes in it, NumPy's iterations, do not. Seen through the values under the
    batching (the affine form is read off the jaxpr): recorded under vmap, the check failed to
    trace, and the loop ran as a lax loop instead of lanes when called with NumPy arrays."""
    under = _npr_unbatched(e)
    if under is None:
        return False
    lanes = {}
    for lo, hi, var in bounds.ranges.values():
        u = _npr_unbatched(var)
        if u is not None and u[1] == under[1]:
            lanes[id(u[0])] = (lo, hi, u[0])
    base, c = _npr_affine(under[0], stop=lambda x: id(x) in lanes and lanes[id(x)][2] is x)
    known = lanes.get(id(base))
    return known is not None and known[2] is base and -size <= known[0] + c and known[1] + c < size


def _npr_wide(e):
    """An integer index array (or traced integer) of fewer than 64 bits as int64: JAX makes a
    negative index positive in the index's own dtype (an int8 index into an axis of 300 raised
    OverflowError, a uint8 one compared with 300 cast to 44); NumPy indexes by value."""
    dt = getattr(e, "dtype", None)
    if dt is None or np.dtype(dt).kind not in "iu" or np.dtype(dt).itemsize >= 8 or isinstance(e, np.generic):
        return e
    # (int32 under a `.pure` the caller runs without x64: canonicalized, so JAX warns of nothing)
    return e.astype(np.int64) if isinstance(e, np.ndarray) else jnp.asarray(e).astype(_npr_wide_dtype(np.int64))


def _npr_nonnegative(e):
    """Whether the traced 0-d signed int e is never negative, proved from the loop ranges it is
    computed from (`_npr_affine_range`: `n - 1` for n in range(2, N)). Its read or store then
    needs no wrap (`e < 0 ? e + n : e`, which jnp and index.py add to a traced index): on a TPU
    each is scalar work between a trip's kernels (iir_filter's `y[n - 1]`, `y[n - 2]`)."""
    if not (_npr_traced(e) and np.ndim(e) == 0 and jnp.issubdtype(jnp.result_type(e), jnp.signedinteger)):
        return False
    span = _npr_affine_range(e)
    return span is not None and span[0] >= 0


def _npr_index_wide(e):
    """_npr_wide(e) for a read's index; a traced index proved never negative as an unsigned int
    of its width, which jnp reads without the wrap (the same element)."""
    if _npr_nonnegative(e):
        return jnp.asarray(e).astype(_npr_wide_dtype(np.uint64))
    return _npr_wide(e)


def _npr_out_of_range(size):
    """Whether integer indices fall outside an axis of `size`, compared by value: in 64 bits, so
    that a uint8 or int8 index array and an axis of 300 (not 300 cast to the index's dtype, 44)
    are compared as NumPy compares them."""
    def out(x):
        if x.dtype.kind == "u":
            return x.astype(_npr_wide_dtype(np.uint64)) >= size
        x = x.astype(_npr_wide_dtype(np.int64))
        return (x < -size) | (x >= size)
    return out


def _npr_wide_dtype(dt):
    """int64/uint64, or their 32-bit forms where JAX runs without x64 (a `.pure` called plainly)."""
    return jax.dtypes.canonicalize_dtype(dt)


def _npr_check_run(e, out, kind, message):
    """Check the traced integers `e` (a scalar or an array) when the program runs: `out(e)` is
    True where NumPy raises kind(message.format(that value)). The first check of a run that
    fails is what the call raises. An array costs one fused pass (any); which element failed
    is looked for only when one did."""
    bounds = _npr_state.get("bounds")
    if bounds is None or not _npr_traced(e) or e.size == 0:
        return
    # the same value checked the same way earlier in the same trace (a loop variable indexing
    # several arrays of one size) failed there first, if at all: once is enough
    trace = _npr_current_trace()
    key = (id(e), kind, message, id(trace))
    if trace is not None and key in bounds.done:
        return
    bounds.done[key] = (e, trace)
    if e.ndim:
        flat = e.reshape(-1)
        bad = jnp.any(out(flat))
        e = lax.cond(bad, lambda: flat[jnp.argmax(out(flat))], lambda: jnp.zeros((), flat.dtype))
    else:
        bad = out(e)
    _npr_record_check(bounds, bad, e, kind, message)


def _npr_record_check(bounds, bad, e, kind, message):
    """Add a run-time check to the record `bounds`: where the traced bool `bad` holds (and no
    earlier check failed), the call raises kind(message.format(e)), or kind(*message) when
    `message` is a tuple (the arguments of the exception itself; `e` None: no value to record,
    one Ref update less, which counts in a loop body)."""
    bounds.sites.append((kind, message, _npr_site_lines()))
    seen = bounds.site[...]
    hit = bad & (seen == 0)
    bounds.site[...] = jnp.where(hit, jnp.asarray(len(bounds.sites), seen.dtype), seen)
    if e is not None:
        bounds.value[...] = jnp.where(hit, e.astype(seen.dtype), bounds.value[...])


def npr_bounds_ok():
    """False (traced) once a run-time index check of this call has failed, else True: a loop
    whose test is data stops there (NumPy would have raised; its clamped data might never let
    it end). True when nothing is checked."""
    bounds = _npr_state.get("bounds")
    return True if bounds is None else bounds.site[...] == 0


# ---- checks in the lanes of a vectorised loop (vectorise.py) ---------------------------------
# Each lane (one iteration of the loop, run under vmap) records into a check record of its own:
# a copy of the call's record sharing its sites, whose `site` and `value` are per-lane Refs that
# start as the record's values then. A branch on a lane's data becomes a select of both branches
# under vmap, so a check in a branch is kept only in the lanes that take it: the branches' record
# goes through the cond as written state (refs.py _npr_lift_refs), as the slots' Refs do; a cond
# closing over the Refs themselves cannot be batched ("State effect not supported in
# vmap-of-cond", so the loop ran as a lax loop with a cond per element). After the lanes, the
# first lane in loop order whose check failed, among the iterations the range holds, goes into
# the enclosing record once: the call raises what NumPy raises at that iteration.

def _npr_lane_record():
    """The check record of the lanes being traced, or None (outside lanes, or no checks)."""
    bounds = _npr_state.get("bounds")
    return bounds if getattr(bounds, "lanes", False) else None


def _npr_lane_start(width):
    """The enclosing record's (site, value) broadcast over `width` lanes (the lanes' records
    start there: after a failed check, a lane's npr_bounds_ok is False as the loop's was), or
    None without checks."""
    bounds = _npr_state.get("bounds")
    if bounds is None:
        return None
    return tuple(jnp.broadcast_to(r[...], (width,)) for r in (bounds.site, bounds.value))


class _npr_lane_checks:
    """Around a lane's trace (or a lifted branch's, refs.py), with `site` and `value` its
    record's Refs: the checks traced record there, with the sites of the enclosing record (`site`
    None: nothing changes)."""

    def __init__(self, site, value, lanes=True):
        self.site, self.value, self.lanes = site, value, lanes

    def __enter__(self):
        self.saved = outer = _npr_state.get("bounds")
        if outer is not None and self.site is not None:
            record = _npr_Bounds.__new__(_npr_Bounds)
            record.__dict__.update(outer.__dict__, site=self.site, value=self.value)
            if self.lanes:  # (a `while` loop's lifted body keeps the record's own kind, refs.py)
                record.lanes = True
            _npr_state["bounds"] = record
        return self

    def __exit__(self, *exc):
        _npr_state["bounds"] = self.saved


def _npr_lanes_checked(site, value, mask, reverse):
    """Record the lanes' checks (`site`, `value`: each lane's record after it ran) in the
    enclosing record: the first lane in loop order (`reverse`: a negative step, the last lane
    first) among those `mask` holds whose record failed a check there."""
    bounds = _npr_state.get("bounds")
    if bounds is None:
        return
    seen = bounds.site[...]
    failed = (site != 0) & mask
    if reverse:
        failed = failed[::-1]
        site, value = site[::-1], value[::-1]
    k = jnp.argmax(failed)
    hit = jnp.any(failed) & (seen == 0)
    bounds.site[...] = jnp.where(hit, site[k], seen)
    bounds.value[...] = jnp.where(hit, value[k], bounds.value[...])


class _npr_no_checks:
    """Around a trace made only to inspect a function (its effects, its types): its checks are
    not part of the program."""

    def __enter__(self):  # ("aside": what must be refused when the program has no checks is not, here)
        self.saved = _npr_state.get("bounds"), _npr_state.get("aside")
        _npr_state["bounds"], _npr_state["aside"] = None, True

    def __exit__(self, *exc):
        _npr_state["bounds"], _npr_state["aside"] = self.saved


# ---- generators' state at NumPy's error raised while tracing ---------------------------------
# A draw (npr_random), a seeding, a generator made: ordered host calls that run with the program.
# NumPy's error that np2ref raises while tracing (an index known then, out of range: `a +=
# rng.normal(); Y[0] = X[9]`) stops the call before its program runs, where NumPy's run made the
# draws before the error. The call's trace notes each such host call (_npr_note_effect); on that
# error the NumPy-facing call makes them then, in order (_npr_effects_made), each one it can make
# again: no operand from the program, staged in the call's own trace (not in a loop body or a
# branch, which may run it any number of times); else it refuses (NPR023). Nothing else is written
# back: the arrays stay as they were (docs/semantics.md).

class _npr_Effects(list):
    """The host calls on generators' state a call's trace staged, in program order (None: one
    that cannot be made again on the host)."""

    def __init__(self):
        super().__init__()
        self.trace = _npr_current_trace()  # the call's own trace (_npr_Bounds.trace, when checked)


def _npr_note_effect(run, operands=(), lost=False):
    """Note `run`, a host call on a generator's state the call's trace stages (run() makes it
    again); None, or operands from the program, or a trace of a loop body or branch: one that
    cannot be made again. `lost`: one that cannot is not noted (a print of the program's values:
    not made, as before, where a draw's loss would leave the generator elsewhere: NPR023)."""
    noted = _npr_state.get("effects")
    if noted is None:
        return
    bounds = _npr_state.get("bounds")
    own = bounds.trace if bounds is not None else noted.trace
    again = run is not None and not operands and _npr_current_trace() is own
    if again or not lost:
        noted.append(run if again else None)


def _npr_effects_made(exc):
    """`exc` leaving a NumPy-facing call: where it is NumPy's error from the call's trace, the host
    calls on generators' state staged before it are made now, in order, as NumPy's run made them.
    The error to raise: `exc`, or NPR023 when one of them cannot be made again."""
    noted = getattr(exc, "_npr_effects", None)
    if not noted:
        return exc
    del exc._npr_effects  # (made once, by the outermost call)
    if None in noted:
        return NprError("NPR023", f"a draw (or a seeding) comes before NumPy's {type(exc).__name__} ({exc}) and "
                        "is made in a loop or branch, or from the program's values: np2ref raises the error "
                        "before the program runs and cannot leave the generator where NumPy's run leaves it",
                        hint="check the index (or the shapes) before the draws")
    for run in noted:
        run()
    return exc
