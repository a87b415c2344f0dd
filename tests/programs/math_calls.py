"""Python's math module in translated functions (tests/python/test_math_calls.py, issue 37 case 5): a
pure function of numbers, never a random draw (`math.gamma` was read as `rng.gamma`)."""
import math

import numpy as np


def constants(x):  # on numbers known at trace time: Python's own values
    return (x * math.gamma(2.5) + math.lgamma(3.5) + math.erf(0.5) + math.erfc(0.25)
            + math.factorial(4) + math.comb(5, 2) + math.perm(4, 2) + math.gcd(12, 18))


def static_ints(x, n):  # a static int argument: Python's math on it
    return x * math.factorial(n) + math.comb(n + 2, n) + math.gamma(n + 0.5)


def traced(x):  # on traced float64 data: the functions with an exact jnp counterpart
    a, b = x[0], x[1]
    return np.array([math.sqrt(a), math.exp(b), math.log(a), math.cos(b), math.sin(a), math.tanh(b),
                     math.atan2(a, b), math.hypot(a, b), math.floor(b), math.fabs(-a), math.pow(a, b)])


def traced_gamma(x):
    return x * math.gamma(x[0])


def traced_lgamma(x):
    return x + math.lgamma(x[1])


def traced_erf(x):
    return x + math.erf(x[0])


def traced_factorial(x, k):
    return x * math.factorial(k[0])
