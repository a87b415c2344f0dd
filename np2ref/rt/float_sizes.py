"""Sizes computed from Python float arguments in a converted script.

A converted script's driver calls `rk4(f, 0.0, 50.0, 0.01, y0)` and the function computes
`n = int((b - a) / h)` to size its arrays. Python floats are traced (they are data, like
arrays), so that trace stops with NPR031. The script has no place to say `static_argnames`, so
npr_jit retries the call once with its Python float arguments static: each such value becomes
part of the program, as it is a Python float in NumPy's run (exact; one compile per value).
A dict of parameters (`run(dict(n=17, dt=0.002), ...)`, `n = p["n"]` sizing the grid) is made
static the same way when it holds Python numbers only, and so is a tuple of Python numbers holding
a float (`for a in alphas: results[(a, g)] = sse`, a grid search keying a dict by the values it
tries). The same holds for a `while t < T` loop on float arguments that grows an array (NPR130): with
the floats static it is a Python loop, as in NumPy; and for a result whose structure a float decides
(NPR128: `if mu0 <= 0.0: return None, 0.0`, the sun below the horizon).
np2ref.compile keeps its documented refusal (NPR031 naming the float), the caller there can
pass static_argnames."""

from .arguments import _npr_is_static

# the refusals a traced Python float can cause: a size or bound from it, a loop on it that grows a value
# or appends to a list (NPR034: `while t < T: ys.append(y)`), a result None or an array as it decides (NPR128)
_NPR_FLOAT_SIZED = frozenset({"NPR031", "NPR130", "NPR034", "NPR128"})


def _npr_float_static_names(fn, args, kwargs):
    """The parameters a retry makes static: those static already and every Python float. None
    when the call has no Python float argument or the function names its static ones itself."""
    if fn.static_argnames is not None:
        return None
    try:
        bound = fn.signature.bind(*args, **kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    if not any(_npr_float_like(v) for v in bound.arguments.values()):
        return None
    return frozenset(n for n, v in bound.arguments.items() if _npr_float_like(v) or _npr_is_static(v))


def _npr_float_like(v):
    """A Python float, a dict of numbers, or a tuple of Python numbers holding a float."""
    return type(v) is float or _npr_numbers_dict(v) or type(v) is tuple and any(type(x) is float for x in v) \
        and all(type(x) in (bool, int, float) for x in v)


def _npr_numbers_dict(v):
    """A dict of parameters holding Python numbers and strings only (`p["n"]` sizes the grid):
    static as a whole, keyed by what it holds (arguments._npr_static_key)."""
    return type(v) is dict and all(type(x) in (bool, int, float, str) for x in v.values())


def _npr_float_static_variant(fn, names):
    """fn's twin with `names` static, made once per set of names and kept on fn."""
    variant = fn.float_variants.get(names)
    if variant is None:
        variant = type(fn)(fn.fn, fn.mutated, names, fn.dtype_policy, fn.bounds, fn.python_scalars,
                           fn.lists, fn.copied, fn.changed, fn.trace_budget, fn.items, fn.rebound)
        variant.globals_source, variant.jit_options = fn.globals_source, fn.jit_options
        fn.float_variants[names] = variant
    return variant
