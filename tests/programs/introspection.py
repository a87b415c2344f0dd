"""isinstance, type, str and f-strings on values the translation holds as JAX arrays."""
import numpy as np


def scale_if_float(x, s):
    if isinstance(s, float):     # a Python float argument
        return x * s
    return x


def kinds(x):
    y = x * 2
    return (isinstance(x, np.ndarray), isinstance(y, np.ndarray), isinstance(x[0], float),
            isinstance(x[0], (np.floating, int)), isinstance(x.sum(), np.ndarray),
            type(x) is np.ndarray, type(x[0]) is np.float64, isinstance(float(x[0]), np.float64),
            isinstance(int(x[0]), int), isinstance(x[0] > 0, np.bool_))


def sized_label(x):
    n = x.shape[0]
    return x * 2, f"n={n}", str(n), "{}-{:03d}".format("a", n)


def label_of_data(x):
    return f"{x[0]:.3f}"


def key_of_data(x):
    d = {}
    d[str(int(x[0]))] = 1.0
    return d
