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
