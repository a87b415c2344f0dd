"""`np2ref.grad_into`: add a converted function's gradient into a caller-owned buffer, in place.

`jax.grad` of a loss that reads `x[idx]` from a large `x` returns a fresh dense gradient: it
allocates and zero-fills `x.size` elements on every call to scatter a few values into them.
`grad_into(compiled, "x", g, *args)` adds the same gradient into `g` instead, and `g` keeps its
buffer:

- the pullback runs with `jax.vjp(...).with_refs(g_ref)` where JAX has it (jax 0.10.2 does for
  array arguments; 0.11 too): the transpose of each read `x[idx]` becomes `g_ref[idx] += ct`,
  one scatter straight into the buffer, with no dense zeros;
- where it is missing, the dense cotangent is added to the donated buffer (`g + ct`), which XLA
  folds into a scatter-add on `g`: the same result, in place.

The name says what it does: `grad` (jax.grad's derivative of a scalar result) `into` a buffer
(accumulated, `+=`, never overwritten: zero the buffer yourself for a fresh gradient).
"""

from __future__ import annotations

import functools
import weakref

import jax
import jax.numpy as jnp
import numpy as np

from ..rt.compile_api import npr_split, npr_x64

# None: use vjp(...).with_refs when JAX has it; False: always the donated `g + ct` route.
USE_WITH_REFS: bool | None = None

_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def grad_into(compiled, argname: str, grad_buffer, *args, **kwargs):
    """Add d compiled(*args, **kwargs) / d argname into `grad_buffer`; return (value, buffer).
    The value is the function's result: a NumPy scalar for a NumPy buffer, else a JAX scalar.

    `compiled` is an `np2ref.compile` result whose return value is a real scalar. The function is
    evaluated as `compiled.pure` evaluates it (its arguments are not written back). `grad_buffer`
    has the shape and dtype JAX gives the argument (float64 under the default dtype policy):

    - a `jax.Ref`: accumulated in place; the same Ref is returned;
    - a `jax.Array`: donated and accumulated in its own memory; use the returned array (the
      argument is deleted, as with any donated buffer);
    - a NumPy array: updated in place on the host, which costs a copy to the device and back;
      keep the buffer on the device (a Ref or an Array) when it is large.

    Pass the other arrays as `jax.Array`s (jnp.asarray once, outside the loop) so that a large `x`
    is not copied to the device on every call. The sum of two contributions to one element
    (`x[i]` read twice) is added to the buffer one after the other, as `np.add.at` would, so with
    a nonzero buffer it can differ from `g + jax.grad(...)` in the last bit; from zeros it is
    jax.grad's gradient exactly.
    """
    is_host = isinstance(grad_buffer, np.ndarray)
    entry = getattr(compiled, "_entry", compiled)
    with npr_x64(entry):
        buffer = jnp.asarray(grad_buffer) if is_host else grad_buffer
        jitted, dynamic = _prepare(compiled, entry, argname, buffer, args, kwargs)
        if isinstance(buffer, jax.Ref):
            value = jitted(buffer, dynamic)
        else:
            value, buffer = jitted(buffer, dynamic)
    if is_host:
        np.copyto(grad_buffer, np.asarray(buffer))
        return np.asarray(value)[()], grad_buffer
    return value, buffer  # no host round trip: float(value) reads it


def lower_grad_into(compiled, argname: str, grad_buffer, *args, **kwargs):
    """`jax.jit(...).lower` of what `grad_into` runs for these arguments (memory_analysis, HLO)."""
    entry = getattr(compiled, "_entry", compiled)
    with npr_x64(entry):
        buffer = jnp.asarray(grad_buffer) if isinstance(grad_buffer, np.ndarray) else grad_buffer
        jitted, dynamic = _prepare(compiled, entry, argname, buffer, args, kwargs)
        return jitted.lower(buffer, dynamic)


@functools.cache
def has_with_refs() -> bool:
    """Whether this JAX's vjp can accumulate cotangents into refs (`jax.vjp(...)[1].with_refs`)."""
    return hasattr(jax.vjp(lambda v: v, 0.0)[1], "with_refs")


def _prepare(compiled, entry, argname, buffer, args, kwargs):
    """(the jitted accumulation, the dynamic arguments), under the entry's x64 setting."""
    if argname not in entry.signature.parameters:
        raise ValueError(f"grad_into: {entry.__name__}() has no argument `{argname}`")
    _, static, dynamic = npr_split(entry, args, kwargs)
    if argname not in dynamic:
        raise TypeError(f"grad_into: `{argname}` of {entry.__name__}() is static (a Python int or "
                        "bool); differentiate with respect to a float array")
    x = jax.ShapeDtypeStruct(np.shape(dynamic[argname]), jnp.result_type(dynamic[argname]))
    if tuple(buffer.shape) != tuple(x.shape) or buffer.dtype != x.dtype:
        raise ValueError(f"grad_into: the buffer is {buffer.dtype}{list(buffer.shape)} but `{argname}` "
                         f"is {x.dtype}{list(x.shape)}; the gradient has the argument's shape and dtype")
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        raise TypeError(f"grad_into: `{argname}` is {x.dtype}; only float arguments have gradients")
    with_refs = USE_WITH_REFS is not False and has_with_refs()
    kind = "ref" if isinstance(buffer, jax.Ref) else "array"
    key = (argname, kind, with_refs, tuple(sorted((k, repr(v)) for k, v in static.items())),
           tuple(sorted(dynamic)))
    cache = _CACHE.setdefault(compiled, {})
    if key not in cache:
        cache[key] = _build(entry, argname, static, kind, with_refs)
    return cache[key], dynamic


def _build(entry, argname, static, kind, with_refs):
    def pullback(dynamic):
        rest = {k: v for k, v in dynamic.items() if k != argname}

        def value_of(x):
            result, _ = entry.pure(**static, **rest, **{argname: x})
            result = jnp.asarray(result)
            if result.shape != () or not jnp.issubdtype(result.dtype, jnp.floating):
                raise TypeError(f"grad_into: {entry.__name__}() must return a real scalar to be "
                                f"differentiated; it returns {result.dtype}{list(result.shape)}")
            return result

        value, vjp = jax.vjp(value_of, dynamic[argname])
        return value, vjp, jnp.ones((), value.dtype)

    def into_ref(g_ref, dynamic):
        value, vjp, ct = pullback(dynamic)
        if with_refs:
            vjp.with_refs(g_ref)(ct)  # the transpose of x[idx] is g_ref[idx] += ct: no dense zeros
        else:
            (gx,) = vjp(ct)
            g_ref[...] += gx
        return value

    def into_array(g, dynamic):
        if with_refs:
            g_ref = jax.new_ref(g)  # made from the donated buffer: freeze hands the same memory back
            return into_ref(g_ref, dynamic), jax.freeze(g_ref)
        value, vjp, ct = pullback(dynamic)
        (gx,) = vjp(ct)
        return value, g + gx  # XLA folds zeros + scatter + add into a scatter-add on donated g

    if kind == "ref":
        return jax.jit(into_ref)
    return jax.jit(into_array, donate_argnums=0)
