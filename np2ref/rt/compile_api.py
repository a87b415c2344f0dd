"""What np2ref's host side (np2ref.compile in np2ref/compiled/, np2ref.plain_lowering, the fuzzer)
reads of the runtime: public names over rt's private ones, so that it reaches no private name or
attribute of rt. Converted files do not import it (rt/__init__ does not export it)."""

import contextlib

from . import compat_jaxpr as _npr_jaxpr
from . import divisions as _npr_divisions
from . import fission as _npr_fission
from . import loops as _npr_loops
from .arguments import _NPR_GENERAL
from .bounds import _npr_effects_made
from .core import _NPR_TRACE_GAPS, _npr_trace_gap_kind, npr_host_raised as _npr_host_raised
from .core import NprError, NprFirstCall, NprTraceGap  # noqa: F401 (the runtime's errors, by .code)
from .jit import _NPR_ASKING, _npr_zero_d_args
from .fastpath import _npr_arg_types, _npr_forget_flat, _NprNotFlat
from .host_words import _npr_settled
from .lowering import _npr_plain_lowering
from .module_globals import _npr_moved
from .opaque import npr_first_call  # noqa: F401 (an opaque call's first call, run on the host)
from .pallas import _npr_PALLAS_NOTES

NPR_PALLAS_NOTES = _npr_PALLAS_NOTES  # (file, line) -> what the last trace made of a loop nest (loops='pallas')
NPR_ASKING = _NPR_ASKING  # what converted code calls to ask a value's type or text (a 0-d argument: the original runs)
npr_zero_d_args = _npr_zero_d_args  # whether a NumPy 0-d array is among the arguments
NPR_GENERAL = _NPR_GENERAL  # a straight-line call's answer: not its signature, the general path decides
NprNotFlat = _NprNotFlat  # a flat run traced for new arguments would return another shape of result
npr_arg_types = _npr_arg_types  # the arguments' types: the key of an entry's flat runs
NPR_TRACE_GAPS = _NPR_TRACE_GAPS  # JAX's errors that are np2ref's known gaps: (code, message, hint)
npr_plain_lowering = _npr_plain_lowering  # `with np2ref.plain_lowering():` stores without peepholes
npr_effects_made = _npr_effects_made  # NumPy's error from a trace: the draws NumPy made before it, made
npr_settled = _npr_settled  # a call's result once its prints and host calls have run (host_words.py)
# a traced program's structure, read through compat_jaxpr (the host's cost model, compiled/routes.py)
npr_eqns, npr_eqn_name, npr_params = _npr_jaxpr._npr_eqns, _npr_jaxpr._npr_eqn_name, _npr_jaxpr._npr_params
npr_invars, npr_outvars, npr_constvars = _npr_jaxpr._npr_invars, _npr_jaxpr._npr_outvars, _npr_jaxpr._npr_constvars
npr_effects, npr_is_literal, npr_aval = _npr_jaxpr._npr_effects, _npr_jaxpr._npr_is_literal, _npr_jaxpr._npr_aval
npr_value_aval, npr_inner_jaxprs = _npr_jaxpr._npr_value_aval, _npr_jaxpr._npr_inner_jaxprs


def npr_positional(fn):
    """The entry's parameter names in order (None: it has *args, **kwargs or keyword-only ones)."""
    return fn._positional


def npr_flat_runs(fn, device=False):
    """The entry's flat jitted runs of jax.Array arguments (device: those returning on the
    device), by npr_arg_types (fastpath.py); the entry's own dict, filled as calls come."""
    return fn._device_fast if device else fn._fast


def npr_numpy_runs(fn):
    """The entry's straight-line calls of NumPy arguments, by npr_arg_types (numpycall.py)."""
    return fn._numpy_fast


def npr_reads_layout(fn):
    """Whether the entry's program reads its arguments' memory layout (None: not known yet)."""
    return fn._layout


def npr_forget_flat(fn, flat):
    """Drop the flat run `flat` from every table of the entry (it raised NprNotFlat)."""
    _npr_forget_flat(fn, flat)


def npr_globals_moved(fn):
    """Whether a module-level value the entry's program read was rebound since it was traced
    (its plans then forgotten: module_globals.py), for a call a flat run takes."""
    return fn._watch.checks and _npr_moved(fn)


def npr_host_raised(exc):
    """np2ref's own error a host call raised while the program ran, which JAX handed back as
    `exc` (a JaxRuntimeError holding its text), else None (core.npr_host_raised)."""
    return _npr_host_raised(exc)


def npr_known_gap(exc):
    """(code, message, hint) of a JAX error met while tracing that is one of np2ref's known gaps
    (core._NPR_TRACE_GAPS), else None."""
    kind = _npr_trace_gap_kind(exc)
    return None if kind is None else _NPR_TRACE_GAPS[kind]


@contextlib.contextmanager
def npr_fission(on: bool):
    """Loop fission (fission.py) forced on or off while the block runs (by default it is on only
    on a TPU); the programs traced in it keep that choice."""
    table = _npr_fission._npr_FISSION
    before = table["on"]
    table["on"] = on
    try:
        yield
    finally:
        table["on"] = before


def npr_fission_splits() -> int:
    """How many loops fission has split in this process (a count to compare before and after)."""
    return _npr_fission._npr_FISSION.get("split", 0)


@contextlib.contextmanager
def npr_rewrites_recorded():
    """The (traced, rewritten) programs the peepholes make while the block traces: a list."""
    outer, _npr_divisions._npr_REWRITES = _npr_divisions._npr_REWRITES, []
    try:
        yield _npr_divisions._npr_REWRITES
    finally:
        _npr_divisions._npr_REWRITES = outer


@contextlib.contextmanager
def npr_trips_recorded():
    """[(Python trips, operations a trip)] of the loops made lanes while the block traces
    (loops.py _npr_note_lanes): a list."""
    outer, _npr_loops._npr_trips.tally = getattr(_npr_loops._npr_trips, "tally", None), []
    try:
        yield _npr_loops._npr_trips.tally
    finally:
        _npr_loops._npr_trips.tally = outer


def npr_x64(fn):
    """A context manager: jax_enable_x64 as the entry's dtype policy sets it for its calls."""
    return fn._x64()


def npr_split(fn, args, kwargs):
    """(bound arguments, static ones, dynamic ones) of a call of the entry, as it splits them."""
    return fn._split(args, kwargs)


def npr_check_lines(exc):
    """(file, line) of the converted lines whose traced run-time check raised `exc` (bounds.py)."""
    return getattr(exc, "_npr_lines", ())
