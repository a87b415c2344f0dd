"""`from math import exp, sqrt, pi` (at module level or in a function body) and the names
called bare, as scripts write them: the same functions as `math.exp(x)`."""
import numpy as np
from math import exp, sqrt, floor


def damp(u, rate, dt):
    u *= exp(-rate * dt)
    return u.sum() / sqrt(len(u))


def gaussian_row(x, sigma):
    out = np.zeros_like(x)
    for i in range(len(x)):
        out[i] = exp(-0.5 * (x[i] / sigma) ** 2) / (sigma * sqrt(2.0))
    return out


def cells(x, h):
    from math import pi
    counts = np.zeros(4, dtype=np.int64)
    for i in range(len(x)):
        counts[int(floor(x[i] / h)) % 4] += 1
    return counts, pi * h
