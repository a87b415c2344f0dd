"""Arithmetic of a Python float parameter and math's constants, returned: NumPy's program returns a
Python float (tests/python/test_math_constants_returned.py)."""
import math
from math import pi as PI

import numpy as np


def attribute(x, h):
    x *= 2
    return math.pi * h


def body_import(x, h):
    from math import pi
    x *= 2
    return x, pi * h


def module_alias(x, h):
    x *= 2
    return PI * h - math.e


def literal(x, h):
    x *= 2
    return x.sum(), 3.25 * h
