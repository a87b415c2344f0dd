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


def halve_until_small(x, dt):
    # a progress print in a loop on data, an f-string of array data, a print in a branch on data
    it = 0
    while x.max() > 1.0:
        x = x * 0.5
        it += 1
        print("it", it, "max", x.max(), sep=" | ", end=";\n")
    print(f"dt={dt!r} x={x} shape={x.shape} n={x.size:4d} first={x[0]:.{3}f}")
    if x[0] > 0.1:
        print("first above", x[0])
    return x


def print_values(x, k):
    for i in range(2):
        print(x, x.dtype, x[i], x.sum() > 0, k, int(x[1]), float(x[1]), [1, 2], (x[0], 3))
        # the text of a value known when the program runs, made on the host (was NPR031 at run time)
        print(repr(x[i]), str(x.sum()), f"{repr(x[0])}|{str(x)}", repr(k))
    return x * 2


def print_to_a_file(x, f):
    print(x.sum(), file=f)
    return x * 2
