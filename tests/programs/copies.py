"""copy.copy / copy.deepcopy of arrays, as simulation codes keep the previous state."""
import copy
from copy import deepcopy

import numpy as np


def leapfrog_with_deepcopy(u, steps):
    u_old = deepcopy(u)
    for _ in range(steps):
        u_new = 2 * u - u_old
        u_new[1:-1] += 0.1 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_old = copy.deepcopy(u)
        u[:] = u_new
    return u_old


def copy_is_not_a_view(u):
    v = copy.copy(u)
    v[0] = -1.0
    state = copy.deepcopy([u, 2.0])
    return v, state[0] * state[1], u
