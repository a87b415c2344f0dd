"""1-D linear finite elements for -(k u')' + c u = f on a graded mesh: element matrices scattered
with np.add.at into a tridiagonal matrix held as three bands (`band[0]` super, `band[1]` diagonal,
`band[2]` sub), Dirichlet rows overwritten, a Thomas solve that overwrites copies of the bands
in place, the load assembled both by np.add.at and by a loop over elements, an L2 error against
the exact solution by two-point Gauss quadrature.
"""
import numpy as np

K = 1.0
C = 4.0


def mesh(n, grade=1.3):
    s = np.linspace(0.0, 1.0, n + 1)
    return s ** grade


def source(x):
    return (np.pi ** 2 * K + C) * np.sin(np.pi * x)


def assemble(x):
    n = x.size - 1
    h = np.diff(x)
    band = np.zeros((3, n + 1))
    rhs = np.zeros(n + 1)
    left = np.arange(n)
    right = left + 1
    kd = K / h + C * h / 3.0
    ko = -K / h + C * h / 6.0
    np.add.at(band[1], left, kd)
    np.add.at(band[1], right, kd)
    band[0, :-1] += ko
    band[2, 1:] += ko
    xm = 0.5 * (x[:-1] + x[1:])
    fm = source(xm) * h / 2.0
    np.add.at(rhs, left, fm)
    np.add.at(rhs, right, fm)
    return band, rhs


def assemble_loop(x):
    n = x.size - 1
    band = np.zeros((3, n + 1))
    rhs = np.zeros(n + 1)
    for e in range(n):
        h = x[e + 1] - x[e]
        band[1, e] += K / h + C * h / 3.0
        band[1, e + 1] += K / h + C * h / 3.0
        band[0, e] += -K / h + C * h / 6.0
        band[2, e + 1] += -K / h + C * h / 6.0
        f = source(0.5 * (x[e] + x[e + 1])) * h / 2.0
        rhs[e] += f
        rhs[e + 1] += f
    return band, rhs


def dirichlet(band, rhs, ua, ub):
    band[1, 0] = 1.0
    band[0, 0] = 0.0
    rhs[0] = ua
    band[1, -1] = 1.0
    band[2, -1] = 0.0
    rhs[-1] = ub


def thomas(band, rhs):
    a, b, c = band[2].copy(), band[1].copy(), band[0].copy()
    d = rhs.copy()
    n = d.size
    for i in range(1, n):
        w = a[i] / b[i - 1]
        b[i] -= w * c[i - 1]
        d[i] -= w * d[i - 1]
    u = np.empty(n)
    u[-1] = d[-1] / b[-1]
    for i in range(n - 2, -1, -1):
        u[i] = (d[i] - c[i] * u[i + 1]) / b[i]
    return u


def l2_error(x, u):
    g = np.array([-1.0, 1.0]) / np.sqrt(3.0)
    err = 0.0
    for e in range(x.size - 1):
        h = x[e + 1] - x[e]
        for gp in g:
            t = 0.5 * (gp + 1.0)
            uh = u[e] * (1.0 - t) + u[e + 1] * t
            err += 0.5 * h * (uh - np.sin(np.pi * (x[e] + t * h))) ** 2
    return np.sqrt(err)


def solve(n, loop=False):
    x = mesh(n)
    band, rhs = assemble_loop(x) if loop else assemble(x)
    dirichlet(band, rhs, 0.0, 0.0)
    u = thomas(band, rhs)
    return u, l2_error(x, u)


CHECKS = {
    "solve": lambda: (12,),
    "solve#loop": lambda: (9, True),
    "assemble": lambda: (mesh(7),),
    "thomas": lambda: (np.array([[1.0, -0.5, -0.5, 0.0], [2.0, 2.5, 3.0, 1.0], [0.0, -1.0, -0.25, -0.5]]),
                       np.array([1.0, 0.0, 2.0, -1.0])),
    "dirichlet": lambda: (np.ones((3, 5)), np.arange(5.0), 1.0, -2.0),
}

if __name__ == "__main__":
    prev = None
    for n in (8, 16, 32):
        u, err = solve(n)
        u2, err2 = solve(n, loop=True)
        rate = "" if prev is None else repr(np.log2(prev / err))
        print(n, repr(err), repr(np.abs(u - u2).max()), rate)
        prev = err
    band, rhs = assemble(mesh(4))
    print(band)
    print(repr(rhs.sum()))
