"""Array-API style functions (issue 42): the namespace passed in, aliased, or taken from the array."""
import numpy as np

xnp = np


def shift_double(x, xp):
    y = xp.zeros_like(x)
    y[1:] = x[:-1] * 2
    return y


def norms(x, xp):
    total = xp.sum(xp.abs(x))
    return xp.linalg.norm(x) + total + xp.max(x)


def int_sum(x, xp):
    y = xp.empty_like(x)
    y[...] = x * 3
    return xp.sum(y), xp.cumsum(y)


def aliased(x):
    y = xnp.empty_like(x)
    y[...] = x[::-1]
    y[0] += xnp.sqrt(2.0)
    return y


def from_array(x):
    xp = x.__array_namespace__()
    y = xp.asarray(x)
    y[0] = -1.0
    return xp.sum(y ** 2)


def from_compat(x):
    from array_api_compat import array_namespace
    xp = array_namespace(x)
    out = xp.zeros_like(x)
    out[1:] = xp.cumsum(x[:-1])
    return out


def clipped_by_methods(a, xp):
    """xp used only with names an array has too (clip, sum): no call tells the module from an array."""
    a[...] = xp.clip(a, -1, 1.5)
    return a, xp.sum(a)


def reduced_by_methods(x, xp):
    return xp.max(x) - xp.min(x), xp.clip(x, 0, 2)


def array_methods_of_a_parameter(a, b, r):
    """b, used only as `b.sum(0)`, `b.clip(...)`, is an array (the same calls as above)."""
    r[...] = b.sum(0)
    r[1] += b.clip(a[0], 1.5).max()
    return r
