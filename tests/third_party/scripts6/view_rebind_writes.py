"""Relaxation through named views: `v = u[1:-1]` then writes through `v`, a view of a view
(`w = v[::2]`), `inner = grid[1:-1, 1:-1]` written with `[...]`, a row view filled in place,
`np.clip(..., out=view)`, and a view rebound to a different slice of the same base mid-loop.
"""
import numpy as np

N = 23
STEPS = 12


def smooth_views(u, steps):
    v = u[1:-1]
    left, right = u[:-2], u[2:]
    for s in range(steps):
        v += 0.2 * (left - 2.0 * v + right)
        w = v[::2]
        w *= 0.99
        if s % 4 == 3:
            v = u[2:-2] if v.shape[0] == N - 2 else u[1:-1]
            left, right = (u[1:-3], u[3:-1]) if v.shape[0] == N - 4 else (u[:-2], u[2:])
    return u.sum()


def grid_views(grid, steps):
    inner = grid[1:-1, 1:-1]
    top = grid[0]
    for s in range(steps):
        inner[...] = 0.25 * (grid[2:, 1:-1] + grid[:-2, 1:-1] + grid[1:-1, 2:] + grid[1:-1, :-2])
        top.fill(float(s))
        np.clip(inner, 0.0, 2.0, out=inner)
        corner = inner[:3, :3]
        corner += 0.01
    return grid


def strided_pair(x):
    evens, odds = x[::2], x[1::2]
    for k in range(5):
        evens[1:] += odds[:evens.shape[0] - 1]
        odds -= 0.5 * evens[:odds.shape[0]]
    tail = x[-4:]
    tail[::-1] = tail.copy()
    return x


def make_grid():
    g = np.zeros((9, 11))
    g[-1] = 3.0
    g[:, -1] = np.linspace(0.0, 3.0, 9)
    return g


CHECKS = {
    "smooth_views": lambda: (np.sin(np.linspace(0, 3, N)) + 1.0, STEPS),
    "grid_views": lambda: (make_grid(), 8),
    "strided_pair": lambda: (np.arange(15.0) ** 1.5,),
}

if __name__ == "__main__":
    u = np.sin(np.linspace(0, 3, N)) + 1.0
    s = smooth_views(u, STEPS)
    print("smooth", repr(s), type(s).__name__, repr(u[0]), repr(u[-1]), repr(u[N // 2]))
    g = grid_views(make_grid(), 8)
    print("grid", repr(g.sum()), repr(g[0, 0]), repr(g[4, 5]))
    x = strided_pair(np.arange(15.0) ** 1.5)
    print("strided", np.round(x, 10).tolist())
