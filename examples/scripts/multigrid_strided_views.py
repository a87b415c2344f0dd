"""A two-grid cycle for the 1-D Poisson problem written with strided views of the fine grid.

Smoothing is a helper that writes a view it is given (`gauss_seidel_(u[::1], f)`, and the red
and black halves `u[1::2]`), restriction is the view `coarse = r[::2]` scaled in place
(`coarse *= 0.5`: a write into the residual array), and prolongation adds through strided
views (`u[::2] += e`, `u[1:-1:2] += 0.5 * (e[:-1] + e[1:])`).
"""
import numpy as np

ENTRY = "two_grid"


def jacobi_(u, f, h2, w):
    u[1:-1] = (1 - w) * u[1:-1] + w * 0.5 * (u[2:] + u[:-2] + h2 * f[1:-1])


def residual(u, f, h2):
    r = np.zeros_like(u)
    r[1:-1] = f[1:-1] - (2 * u[1:-1] - u[2:] - u[:-2]) / h2
    return r


def two_grid(u, f, cycles):
    n = u.size
    h2 = (1.0 / (n - 1)) ** 2
    norms = []
    for c in range(cycles):
        for _ in range(3):
            jacobi_(u, f, h2, 2.0 / 3.0)
        r = residual(u, f, h2)
        coarse = r[::2]
        coarse *= 0.5
        coarse[1:-1] += 0.25 * (r[1:-2:2] + r[3::2])
        e = np.zeros_like(coarse)
        for _ in range(20):
            jacobi_(e, coarse, 4 * h2, 1.0)
        u[::2] += e
        u[1:-1:2] += 0.5 * (e[:-1] + e[1:])
        norms.append(np.linalg.norm(residual(u, f, h2)))
        print("cycle", c, repr(float(norms[-1])))
    return norms


def make_inputs(size="small"):
    n = 9 if size == "small" else 129
    x = np.linspace(0.0, 1.0, n)
    return dict(u=np.zeros(n), f=np.sin(np.pi * x) * np.pi ** 2, cycles=4)


if __name__ == "__main__":
    inputs = make_inputs("large")
    norms = two_grid(**inputs)
    print(repr(norms), repr(inputs["u"].sum()))
