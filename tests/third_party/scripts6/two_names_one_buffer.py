"""Aliasing decided per call: `relax(src, dst)` is called with two buffers, with the same
buffer twice (Gauss-Seidel by accident), and with overlapping views of one base; a helper
`axpy(a, x, y, out)` is called with `out is y`; `b = a` then `b += 1` inside a loop, and
`c = a[:]` (a view) against `d = a[:].copy()`.
"""
import numpy as np


def relax(src, dst):
    dst[1:-1] = 0.5 * (src[:-2] + src[2:])


def relax_loop(a, b, same, steps):
    for s in range(steps):
        if same:
            relax(a, a)
        else:
            relax(a, b)
            a, b = b, a
    return a


def axpy(alpha, x, y, out):
    np.multiply(alpha, x, out=out)
    out += y
    return out


def chain(x, y, steps):
    for s in range(steps):
        axpy(0.5, x, y, y)
        axpy(-0.25, y, x, x)
    return x.sum() + y.sum()


def names(a, steps):
    b = a
    c = a[:]
    d = a[:].copy()
    for s in range(steps):
        b += 1
        c *= 0.5
        d -= 1
    return a, d


def overlap(base):
    relax(base[:-2], base[2:])
    return base


CHECKS = {
    "relax_loop": lambda: (np.linspace(0, 1, 11) ** 2, np.zeros(11), False, 5),
    "relax_loop#same": lambda: (np.linspace(0, 1, 11) ** 2, np.zeros(11), True, 5),
    "chain": lambda: (np.arange(6.0), np.ones(6), 4),
    "names": lambda: (np.arange(5.0), 3),
    "overlap": lambda: (np.arange(12.0) ** 2,),
}

if __name__ == "__main__":
    a = np.linspace(0, 1, 11) ** 2
    print(np.round(relax_loop(a.copy(), np.zeros(11), False, 5), 12).tolist())
    print(np.round(relax_loop(a.copy(), np.zeros(11), True, 5), 12).tolist())
    a2 = a.copy()
    relax(a2, a2)
    print(np.round(a2, 12).tolist())
    print(repr(chain(np.arange(6.0), np.ones(6), 4)))
    x, d = names(np.arange(5.0), 3)
    print(x.tolist(), d.tolist())
    print(overlap(np.arange(12.0) ** 2).tolist())
