"""Calls of objects np2ref cannot see into: npr_opaque (issue 42 item 3).

`SOURCE.draw(shape)` on a module-level object, `sampler.sample(n)` on an object passed in: np2ref
cannot know what the method returns without calling it, and calling it while tracing would make
one call too many and freeze its result. So the call is an ordered host call when the program
runs, in program order, each time NumPy's program makes it (the same values, the same object
state afterwards, the same number of calls), and its result's shape, dtype and Python type are
those of its FIRST call, made on the host at run time: the first call of the function with a
signature that meets an unknown one runs its converted program op by op (jax.disable_jit, every
host call made at once, in order: NprFirstCall, caught by npr_jit), which records what each
call returned; later calls compile with it and check, on every call, that it still holds (NPR040
when it changes). Arguments must be values fixed when the program is traced (shapes, numbers,
strings): an array computed in the function would have to be handed to an object that may keep
it (NPR021 then).
"""

import inspect
import sys
import types

import numpy as np
import jax

from .compat import _npr_eager
from .core import _npr_above, _npr_host_raising, _npr_state, npr_pyreturn, NprError, NprFirstCall
from .host import _npr_callable_kind, _npr_host_result, _npr_unless_failed, npr_call
from .loops import _npr_is_concrete
from .views import _npr_is_ref

# (the method's function or type, method name, the static arguments' repr) -> (shape, dtype, Python type)
_NPR_OPAQUE_SIGNATURES: dict = {}
def npr_opaque(obj, method, *args, **kwargs):
    """`obj.method(*args, **kwargs)` on the host at run time (see the module docstring)."""
    fn = getattr(obj, method)
    if isinstance(obj, types.ModuleType) or _npr_callable_kind(fn) is not None:
        return npr_call(fn, *args, **kwargs)  # a module's function, a generator's draw: as npr_call runs it
    leaves = jax.tree_util.tree_leaves((args, kwargs))
    if any(isinstance(leaf, (jax.Array, jax.Ref)) and not _npr_is_concrete(leaf) for leaf in leaves) or \
            any(_npr_is_ref(leaf) for leaf in leaves):
        raise NprError("NPR021", f"{_npr_name(obj, method)}() is given array data computed in the "
                       "function; np2ref cannot see into it (it could keep the array or write it)")
    key = _npr_key(fn, method, args, kwargs)
    if _npr_eager():
        out = fn(*[_npr_host(v) for v in args], **{k: _npr_host(v) for k, v in kwargs.items()})
        _NPR_OPAQUE_SIGNATURES.setdefault(key, _npr_signature(out, obj, method))
        return out
    known = _NPR_OPAQUE_SIGNATURES.get(key)
    if known is None:
        raise NprFirstCall(key)
    shape, dtype, pytype = known

    def run():
        out = fn(*args, **kwargs)
        got = _npr_signature(out, obj, method)
        if got != known:  # JAX hands the caller its own error holding this one's text: the
            # error itself waits for the caller (npr_host_raised)
            error = NprError("NPR040", f"{_npr_name(obj, method)}() returned {_npr_says(got)} where its "
                             f"first call returned {_npr_says(known)}; a compiled program needs the same each call")
            _npr_host_raising(error)
            raise error
        return np.asarray(out, dtype=dtype)

    run, sent = _npr_unless_failed(run, [], lambda: np.zeros(shape, dtype))  # (none after a failed check)
    out = _npr_host_result(run, shape, dtype, sent)
    return npr_pyreturn(out, pytype) if pytype else out


def _npr_signature(out, obj, method):
    if isinstance(out, (bool, int, float)) and not isinstance(out, np.generic):
        value = np.asarray(out)
        return (), value.dtype, type(out).__name__
    try:  # (a ragged tuple: NumPy's dispatchers, `np.dot`'s `(a, b, out)`, return one to f's frame)
        value = np.asarray(out) if isinstance(out, (np.ndarray, np.generic, list, tuple)) else None
    except (ValueError, TypeError):
        value = None
    if value is None or value.dtype.kind not in "biuf":
        raise NprError("NPR021", f"{_npr_name(obj, method)}() returned a {type(out).__name__}, not "
                       "numbers; np2ref cannot carry it through a compiled program")
    return value.shape, value.dtype, None


def _npr_says(sig):
    shape, dtype, pytype = sig
    return f"a Python {pytype}" if pytype else f"shape {shape} {np.dtype(dtype).name}"


def _npr_key(fn, method, args, kwargs):
    """(code, the arguments by parameter name): the same for npr_opaque's call and for the
    original's call seen by npr_first_call; a method without Python code: by its type and name."""
    func = getattr(fn, "__func__", fn)
    code = getattr(func, "__code__", None)
    if code is None:
        return type(getattr(fn, "__self__", fn)), method, repr((_npr_static(args), _npr_static(kwargs)))
    try:
        bound = inspect.signature(func).bind(*((fn.__self__,) if hasattr(fn, "__func__") else ()), *args, **kwargs)
    except TypeError:
        return code, None
    bound.apply_defaults()
    return code, repr(_npr_static(_npr_drop_self(code, dict(bound.arguments))))


def _npr_drop_self(code, arguments):
    if code.co_argcount and code.co_varnames[0] in ("self", "cls"):
        arguments.pop(code.co_varnames[0], None)
    return arguments


def _npr_frame_key(frame):
    """_npr_key of the call a frame runs, from its arguments as the call bound them."""
    code = frame.f_code
    count = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 4) + bool(code.co_flags & 8)
    arguments = {n: frame.f_locals[n] for n in code.co_varnames[:count] if n in frame.f_locals}
    return code, repr(_npr_static(_npr_drop_self(code, arguments)))


def npr_first_call(original, args, kwargs):
    """The original NumPy function's call (NumPy's values, calls and states, exactly), noting
    what each Python method it calls directly returns: the first call that fixes npr_opaque's
    shapes and dtypes (np2ref.compile runs it when a trace meets one not seen: NprFirstCall)."""
    target, pending = original.__code__, {}

    def profile(frame, event, arg):
        if event == "call" and frame.f_back is not None and frame.f_back.f_code is target:
            pending[id(frame)] = _npr_frame_key(frame)
        elif event == "return" and id(frame) in pending:
            key = pending.pop(id(frame))
            try:
                _NPR_OPAQUE_SIGNATURES.setdefault(key, _npr_signature(arg, None, frame.f_code.co_name))
            except NprError:
                pass  # not numbers: npr_opaque refuses it when the trace meets it
    before = sys.getprofile()
    sys.setprofile(profile)
    try:
        return original(*args, **kwargs)
    finally:
        sys.setprofile(before)


def _npr_static(v):
    return jax.tree_util.tree_map(lambda x: np.asarray(x).tolist() if isinstance(x, jax.Array) else x, v)


def _npr_host(v):
    return np.asarray(v)[()] if isinstance(v, jax.Array) and v.ndim == 0 else np.asarray(v) if isinstance(
        v, jax.Array) else v


def _npr_name(obj, method):
    return f"{type(obj).__name__}.{method}" if obj is not None else method


_npr_above.opaque = npr_opaque  # a draw-named method of an object that is no generator (host.py)
