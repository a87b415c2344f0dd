"""Float -> integer casts as NumPy does them on x86-64, with its warning and store errors."""

import warnings

import jax
import jax.numpy as jnp
import numpy as np

from .bounds import _npr_check_run, _npr_record_check, npr_bounds_ok
from .compat import _npr_current_trace, _npr_traced
from .core import _npr_has_jax, _npr_state, NprUnsupported
from .host_words import _npr_note_callback


# NumPy casts floats to integers with C's conversion, which x86-64 compiles to cvttss2si /
# cvttsd2si: truncation toward zero, INT_MIN (the "integer indefinite") for NaN, infinities and
# what is out of range, with FE_INVALID -> NumPy's RuntimeWarning "invalid value encountered in
# cast". int8/int16/uint8/uint16 keep the low bits of the int32 conversion, int32 and int64 are
# the conversions, uint32 keeps the low bits of the int64 one, uint64 converts x - 2**63 where
# x >= 2**63 (the top bit set back); float16 goes through float32. Measured on NumPy 2.4
# (tests/dtypes/test_float_int_casts.py compares the grid). One exception: NumPy's uint32 of a
# contiguous float32/float64 array, for values outside (-2**31, 2**32), depends on the
# neighbouring elements (its SIMD loop); np2ref gives NumPy's scalar (and strided) result there.
# XLA's convert saturates instead (NaN -> 0, 1e20 -> INT_MAX, 300.7 -> 255 in uint8).

def _npr_cvt(x, bits):
    """(int32_t)x or (int64_t)x on x86-64: (the integers, True where the conversion is invalid)."""
    # without x64 (dtype_policy="float32") int64 is JAX's int32: its bounds, not int64's (an
    # OverflowError tracing pic_cic_deposit's `s.astype(np.int64)`)
    it = jax.dtypes.canonicalize_dtype(jnp.int32 if bits == 32 else jnp.int64)
    bits = 8 * it.itemsize
    t = jnp.trunc(x)
    ok = (t >= -2.0 ** (bits - 1)) & (t < 2.0 ** (bits - 1))  # NaN: False
    return jnp.where(ok, x.astype(it), jnp.asarray(-2 ** (bits - 1), it)), ~ok


def _npr_x86_cast(x, dt):
    """NumPy's x.astype(dt) (x86-64) for a JAX float array x and an integer dtype dt, and where
    NumPy's FE_INVALID flag is raised (its warning)."""
    if x.dtype == np.float16:
        x = x.astype(np.float32)
    if dt.itemsize < 4 or dt == np.int32:
        r, bad = _npr_cvt(x, 32)
        return r.astype(dt), bad
    if dt != np.uint64:
        r, bad = _npr_cvt(x, 64)
        return r.astype(dt), bad  # int64 -> uint32 keeps the low bits
    big = x >= 2.0 ** 63
    low, bad_low = _npr_cvt(x, 64)
    high, bad_high = _npr_cvt(jnp.where(big, x - 2.0 ** 63, 0), 64)
    r = jnp.where(big, high ^ jnp.asarray(-2 ** 63, high.dtype), low)
    return jax.lax.bitcast_convert_type(r, dt), jnp.where(big, bad_high, bad_low)


def npr_cast(x, dtype, op="cast"):
    """x.astype(dtype) with NumPy's values: a JAX float array cast to an integer dtype as x86-64
    NumPy casts it (above), with NumPy's RuntimeWarning 'invalid value encountered in <op>'
    where NumPy raises FE_INVALID (issued now for concrete values, else on the host when the
    compiled call runs; `op`: 'reduce' for sum(dtype=), a ufunc's name for its out= cast).
    Any other cast is JAX's astype, which is NumPy's."""
    dt = np.dtype(dtype)
    if not isinstance(x, jax.Array) or x.dtype.kind != "f" or dt.kind not in "iu":
        return jnp.asarray(x).astype(dt)
    r, bad = _npr_x86_cast(x, dt)
    _npr_warn_cast(jnp.any(bad), x.dtype, dt, op)
    return r


_NPR_ERR_KEYS = ("divide", "over", "under", "invalid")


class npr_errstate:
    """`with np.errstate(divide="ignore", ...)` in a translated function (rewrite/rules/errstate.py):
    np.errstate itself while the block is traced (NumPy's warnings at trace time, from concrete
    values, follow it), and the state noted in _npr_state, under which each warning traced in
    the block is issued when the call runs (_npr_errstated). 'ignore' and 'warn' only."""

    def __init__(self, **kwargs):
        for key, mode in kwargs.items():
            if key not in ("all", *_NPR_ERR_KEYS) or mode not in ("ignore", "warn"):
                raise NprUnsupported("NPR015", f"np.errstate({key}={mode!r}) is not translated: np2ref "
                                     "keeps 'ignore' and 'warn'; the others need a test of every operation's "
                                     "floating-point flags", call="np.errstate")
        self.kwargs = kwargs

    def __enter__(self):
        self.outer = _npr_state.get("errstate")
        state = dict(self.outer or np.geterr())
        state.update((k, self.kwargs["all"]) for k in _NPR_ERR_KEYS if "all" in self.kwargs)
        state.update((k, v) for k, v in self.kwargs.items() if k != "all")
        _npr_state["errstate"] = {k: state[k] for k in _NPR_ERR_KEYS}
        self.numpy = np.errstate(**self.kwargs)
        self.numpy.__enter__()
        return None

    def __exit__(self, *exc):
        _npr_state["errstate"] = self.outer
        return self.numpy.__exit__(*exc)


def _npr_errstated(warn):
    """`warn` (a host function issuing NumPy's warnings), issued under the error state of the
    `with np.errstate` block it is traced in; `warn` itself outside one. Its `key` tells warnings
    traced under different states apart."""
    state = _npr_state.get("errstate")
    if not state:
        warn.key = ()
        return warn

    def issue(*args):
        with np.errstate(**state):
            return warn(*args)
    issue.key = tuple(sorted(state.items()))
    return issue


def _npr_warn_cast(bad, src, dt, op):
    """NumPy's warning for an invalid float -> integer cast (NumPy's own, from a cast of NaN,
    for astype and reductions) when `bad` holds: now, or when the compiled call runs (unless a
    run-time check failed before: NumPy raised there): noted in the call's record (one scalar
    or), issued after the run (_npr_issue_warnings); without one (.pure, a caller's jit or
    vmap) by a host callback, which runs only when `bad` holds. A cast in a loop body or a
    branch of an np2ref call issues none (its values are NumPy's)."""
    def warn(flag, src=np.dtype(src), dt=dt):
        if not np.any(flag):
            return
        if op == "cast":
            np.full(1, np.nan, src).astype(dt)
        elif op == "reduce":
            np.add.reduce(np.full(1, np.nan, src), dtype=dt)
        elif np.geterr()["invalid"] != "ignore":
            warnings.warn(f"invalid value encountered in {op}", RuntimeWarning, stacklevel=2)
    warn = _npr_errstated(warn)
    if not _npr_traced(bad):
        warn(np.asarray(bad))
        return
    bad = bad & npr_bounds_ok()
    bounds = _npr_state.get("bounds")
    if bounds is not None and _npr_current_trace() is not bounds.trace:
        return  # in a loop body or branch: no warning (a record or a callback per iteration costs ~5 us)
    if bounds is not None and bad.ndim == 0:  # one scalar or into the call's record
        key = (src, dt, op, warn.key)
        k = next((i for i, w in enumerate(bounds.warnings) if w.key == key), len(bounds.warnings))
        if k < 31:
            if k == len(bounds.warnings):
                warn.key = key
                bounds.warnings.append(warn)
            bounds.warn[...] = bounds.warn[...] | jnp.where(bad, jnp.int32(1 << k), jnp.int32(0))
            return
    # under vmap the cond becomes a select that runs both branches: the flag decides on the host
    _npr_note_callback()
    jax.lax.cond(jnp.any(bad), lambda f: jax.debug.callback(warn, f), lambda f: None, bad)


def npr_astype(x, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """`x.astype(dtype)`: NumPy's own for NumPy values, npr_cast for JAX arrays (a casting= other
    than 'unsafe' checked by NumPy on a stand-in, with its TypeError). With copy=True (NumPy's
    default) the result is a new value even when the dtype is x's own: JAX's cast hands back x
    itself, which the call would take for the argument returned (the caller's own array)."""
    if not isinstance(x, jax.Array):
        return x.astype(dtype, order=order, casting=casting, subok=subok, copy=copy)
    if casting != "unsafe":
        np.zeros(1, x.dtype).astype(dtype, casting=casting)
    out = npr_cast(x, dtype)
    return jnp.array(out, copy=True) if copy and out is x else out


def npr_scalar_type(t, *args):
    """`np.int32(x)`, `np.uint8(x)`...: NumPy's cast (npr_cast) of JAX float values, the type
    itself (jnp's) on anything else."""
    if len(args) == 1 and isinstance(args[0], jax.Array) and args[0].dtype.kind == "f" \
            and np.dtype(t).kind in "iu":
        return npr_cast(args[0], t)
    return t(*args)


def _npr_store_cast(v, dt, how):
    """A JAX value v converted for a store into an array of dtype dt (core._npr_conv). NumPy
    stores a scalar float (a 0-d value: NumPy scalars are what 0-d floats are in NumPy code)
    into a signed integer array through Python's int(): NaN raises ValueError, infinities and
    what is out of the dtype's range OverflowError (when the call runs, as index checks do),
    for one element (`how` 'item') and basic indexes ('set'); other stores cast."""
    v = jnp.asarray(v)
    if how in ("item", "set") and v.ndim == 0 and v.dtype.kind == "c" and np.dtype(dt).kind in "iuf" \
            and jax.typeof(v).weak_type:  # a Python complex: NumPy converts it with float() / int()
        raise TypeError("float() argument must be a string or a real number, not 'complex'"
                        if np.dtype(dt).kind == "f" else
                        "int() argument must be a string, a bytes-like object or a real number, not 'complex'")
    if how in ("item", "set") and v.ndim == 0 and v.dtype.kind == "f" and np.dtype(dt).kind in "iu":
        # unsigned: a Python float (weakly typed) is range-checked as into a signed dtype (-3.5
        # into uint8 raises); NumPy's float scalar is cast (np.float64(-3.5) is 253, NaN 0)
        python = bool(jax.typeof(v).weak_type)
        if np.dtype(dt).kind == "i" or python:
            _npr_check_int_store(v, np.dtype(dt), python)
    if how != "cast":
        _npr_check_weak_int(v, dt)  # a Python int (traced) beyond an integer dtype: OverflowError
    return npr_cast(v, dt)


def _npr_check_list_store(obj, dt):
    """np.array([x[0], 2.5], dtype=int): NumPy stores each float scalar of the list as a[i] = v
    does (Python's int() into a signed dtype: _npr_check_int_store)."""
    if np.dtype(dt).kind != "i" or not isinstance(obj, (list, tuple)):
        return
    for e in obj:
        if isinstance(e, (list, tuple)):
            _npr_check_list_store(e, dt)
        elif (isinstance(e, jax.Array) and e.ndim == 0 and e.dtype.kind == "f") or type(e) is float:
            _npr_check_int_store(e, np.dtype(dt))


def _npr_check_int_store(v, dt=None, python=False):
    """NumPy's error for storing the float scalar v into an array of the integer dtype dt, or
    (dt None) Python's for int(v): NaN, infinities (and out of dt's range), when the call runs.
    `python`: v stands for a Python float (checked as one when concrete)."""
    if not _npr_traced(v):
        if dt is not None:  # NumPy raises its own error (for a NumPy scalar, or a Python float)
            np.empty(1, dt)[0] = float(np.asarray(v)) if python else np.asarray(v)[()]
        elif not np.isfinite(np.asarray(v)):
            int(float(np.asarray(v)))  # Python's ValueError / OverflowError
        return
    bounds = _npr_state.get("bounds")
    if bounds is None:
        return
    x = v.astype(np.float32) if v.dtype == np.float16 else v
    i = _npr_cvt(x, 64)[0]
    checks = [(jnp.isnan(x), ValueError, ("cannot convert float NaN to integer",)),
              (jnp.isinf(x), OverflowError, ("cannot convert float infinity to integer",))]
    if dt is not None:
        t = jnp.trunc(x)
        finite = jnp.isfinite(x)
        long = finite & (t >= -2.0 ** 63) & (t < 2.0 ** 63)
        info = np.iinfo(dt)
        checks += [(finite & ~long, OverflowError, ("Python int too large to convert to C long",)),
                   (long & ((i < info.min) | (i > info.max)), OverflowError,
                    f"Python integer {{}} out of bounds for {dt.name}")]
    for bad, kind, message in checks:
        _npr_record_check(bounds, bad, i, kind, message)


def _npr_issue_warnings(bounds):
    """After a run (rt/jit.py): one host callback, only when a warning is due, issuing each
    warning noted in the record `bounds`, in the order they were traced."""
    warnings_ = tuple(bounds.warnings)
    if not warnings_:
        return

    def issue(bits):
        for k, warn in enumerate(warnings_):
            if int(bits) >> k & 1:
                warn(True)
    bits = bounds.warn[...]
    _npr_note_callback()
    jax.lax.cond(bits != 0, lambda b: jax.debug.callback(issue, b), lambda b: None, bits)


def _npr_conv(v, dt, how='cast', nd=0):
    """v as dtype dt. JAX values: astype (NumPy's unsafe cast). Static values: NumPy itself
    stores them into a scratch array, so its conversions and errors are exact; `how` names
    the store: 'item' (one element of an nd-dim array), 'set' (basic index), 'adv' (advanced
    index), 'cast' (astype) or f(scratch, v) (np.put, np.putmask, ...)."""
    if isinstance(v, jax.Array) or (isinstance(v, (list, tuple)) and _npr_has_jax(v)):
        return _npr_store_cast(jnp.asarray(v), dt, how)  # floats to integers as NumPy casts them
    if how == 'cast':
        return np.asarray(v).astype(dt)
    if how == 'item':
        t = np.empty((1,) * nd, dt)
        t[(0,) * nd] = v
        return t.reshape(())
    t = np.empty(np.shape(v) if how == 'set' else (1,) + np.shape(v) if how == 'adv' else np.shape(v) or (1,), dt)
    if how == 'set':
        t[...] = v
    elif how == 'adv':
        t[[0]] = v
        t = t[0]
    else:
        how(t, v)
    return t


def _npr_weak(v):
    return isinstance(v, jax.Array) and jax.typeof(v).weak_type


def _npr_weak_int(v):
    """A Python int traced (a loop's variable, `i * 100`): a weakly typed 0-d integer."""
    return isinstance(v, jax.Array) and v.ndim == 0 and np.dtype(v.dtype).kind in "iu" and _npr_weak(v)


def _npr_check_weak_int(v, dt):
    """NumPy's OverflowError where the Python int `v` (traced: weakly typed) is outside the range
    of the integer dtype `dt` it meets (`u8 += i`, `u8[k] = i * 100`): now if v is concrete,
    when the call runs if it is traced. jax.numpy would wrap it around."""
    dt = np.dtype(dt)
    if not _npr_weak_int(v) or dt.kind not in "iu":
        return
    info, wide = np.iinfo(dt), np.iinfo(np.dtype(v.dtype))
    lo, hi = max(int(info.min), int(wide.min)), min(int(info.max), int(wide.max))
    if lo == wide.min and hi == wide.max:
        return
    message = f"Python integer {{}} out of bounds for {dt.name}"
    if not _npr_traced(v):
        if not lo <= int(v) <= hi:
            raise OverflowError(message.format(int(v)))
        return
    _npr_check_run(v, lambda e: (e < lo) | (e > hi), OverflowError, message)




_NPR_EXACT_INT = {"+": jnp.add, "-": jnp.subtract, "*": jnp.multiply, "//": jnp.floor_divide, "%": jnp.remainder,
                  "**": jnp.power, "<<": jnp.left_shift}


def _npr_check_int_exact(op, a, b, out):
    """`out` of `a op b`, an operand of which may stand for a Python int as well as NumPy's narrow
    integer scalar (`v = min(v16 + 1, vmax, gap)`: promotion's note on a max()/min()): NumPy's int
    does not wrap, its int16 does, so the two agree where the int16 result is the exact one:
    checked when the program runs, in int64 (NPR128 where it is not: the int16 wrapped). A 64-bit
    or unsigned 32-bit and wider `out` is not checked here (rt/pyscalars.py: Python ints traced)."""
    f = _NPR_EXACT_INT.get(op)
    d = np.dtype(getattr(out, "dtype", object))
    if f is None or d.kind not in "iu" or d.itemsize >= 8 or not _npr_traced(out):
        return
    wide = [jnp.asarray(v).astype(jnp.int64) if hasattr(v, "dtype") else v for v in (a, b)]
    _npr_check_run(f(*wide) != out.astype(jnp.int64), lambda e: e, NprUnsupported,
                   ("NPR128", f"{d.name} arithmetic (`{op}`) on a max()/min() on array data that may be a Python "
                              f"int (NumPy's int does not wrap, its {d.name} does) wrapped around"))
