"""1-D and 2-D wave equations with Mur's first-order absorbing boundary, which needs the previous
step's boundary and neighbour values: saved with `old_left = u[:2].copy()` BEFORE the update (a
common bug is to save a view, `u[:2]`, which the update then overwrites), three buffers rotated by
`u_prev, u, u_next = u, u_next, u_prev`, a driven point source, and reflected energy measured.
"""
import numpy as np

C = 0.5


def run1d(n, nsteps, save_view):
    u_prev = np.zeros(n)
    u = np.zeros(n)
    u_next = np.zeros(n)
    k = (C - 1) / (C + 1)
    for t in range(nsteps):
        left = u[:2] if save_view else u[:2].copy()
        right = u[-2:].copy()
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + C * C * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_next[n // 2] += np.sin(0.3 * t) * (t < 20)
        u_prev, u, u_next = u, u_next, u_prev
        u[0] = left[1] + k * (u[1] - left[0])
        u[-1] = right[0] + k * (u[-2] - right[1])
    return u, u_prev, float(np.sum(u ** 2))


def run2d(n, nsteps):
    up = np.zeros((n, n))
    u = np.zeros((n, n))
    un = np.zeros((n, n))
    k = (C - 1) / (C + 1)
    energy = []
    for t in range(nsteps):
        old = u.copy()
        un[1:-1, 1:-1] = (2 * u[1:-1, 1:-1] - up[1:-1, 1:-1]
                          + C * C * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1]))
        if t < 15:
            un[n // 2, n // 2] += np.sin(0.4 * t)
        un[0, :] = old[1, :] + k * (un[1, :] - old[0, :])
        un[-1, :] = old[-2, :] + k * (un[-2, :] - old[-1, :])
        un[:, 0] = old[:, 1] + k * (un[:, 1] - old[:, 0])
        un[:, -1] = old[:, -2] + k * (un[:, -2] - old[:, -1])
        up, u, un = u, un, up
        if t % 10 == 0:
            energy.append(np.sum(u ** 2))
    return u, energy


CHECKS = {"run1d": lambda: (50, 80, False), "run1d#view": lambda: (50, 80, True), "run2d": lambda: (24, 40)}

if __name__ == "__main__":
    a = run1d(60, 150, False)
    b = run1d(60, 150, True)
    print(repr(a[2]), repr(b[2]), repr(np.abs(a[0] - b[0]).max()))
    u, energy = run2d(30, 60)
    print(repr(u.sum()), [repr(e) for e in energy])
