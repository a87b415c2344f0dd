"""Module-level values a compiled function reads, changed by the caller between calls
(tests/python/test_module_globals.py): NumPy reads them again on every call."""

import types

import numpy as np

W = np.ones(3)
ALPHA = 0.1
CFG = {"k": 2.0, "shifts": [1, 2]}
PARAMS = types.SimpleNamespace(beta=0.5, table=np.arange(3.0))


class Grid:
    h = 0.25


def _scaled(x):
    return x * CFG["k"] + PARAMS.table


def weighted(x):
    return x * W + ALPHA + _scaled(x) * PARAMS.beta / Grid.h


def stepped(u, steps):
    for _ in range(steps):
        u[1:] += ALPHA * u[:-1] * W[0]
    return u


def with_params(params, x):
    """A plain object passed in: np2ref keys it by identity; its attributes are read per call."""
    return x * params.beta + params.table[: x.shape[0]]
