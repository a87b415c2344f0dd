"""Explicit 1-D heat equation, written the way many course scripts write it.

`u_new` is allocated once before the loop and `u = u_new` rebinds at the end of each step, so
from the second step on `u` and `u_new` are ONE buffer: the Dirichlet/Neumann update
`u_new[0] = u[1]` then reads the value just written. A second solver swaps properly
(`u, u_new = u_new, u`). A progress counter, `time.time()` and a `print` sit in the hot loop.
"""
import time

import numpy as np

NX = 41
ALPHA = 0.23
NSTEPS = 30
PRINT_EVERY = 10


def initial(nx):
    x = np.linspace(0.0, 1.0, nx)
    u = np.exp(-80.0 * (x - 0.4) ** 2)
    u[nx // 2:] += 0.25
    return u


def heat_aliased(u, r, nsteps):
    u_new = np.zeros_like(u)
    t0 = time.time()
    done = 0
    for n in range(nsteps):
        u_new[1:-1] = u[1:-1] + r * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        u_new[0] = u[1]          # after step 1 this reads the buffer being written
        u_new[-1] = 0.5 * (u[-2] + u_new[-2])
        u = u_new
        done += 1
        if n % PRINT_EVERY == 0:
            print("step", n, repr(float(u.sum())), done)
    elapsed = time.time() - t0
    return u, u_new, elapsed >= 0.0


def heat_swapped(u, r, nsteps):
    u_new = np.empty_like(u)
    for n in range(nsteps):
        u_new[1:-1] = u[1:-1] + r * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        u_new[0] = u[1]
        u_new[-1] = u_new[-2]
        u, u_new = u_new, u
    return u, u_new


def heat_inplace_arg(u, r, nsteps):
    """Writes into the caller's array through a rebound name on odd steps only."""
    work = u
    for n in range(nsteps):
        nxt = work.copy()
        nxt[1:-1] += r * (work[2:] - 2.0 * work[1:-1] + work[:-2])
        if n % 2 == 0:
            work[:] = nxt
        else:
            work = nxt
    return work


def make_inputs(size="small"):
    return (initial(NX), ALPHA, NSTEPS if size == "small" else 400)


CHECKS = {
    "heat_aliased": make_inputs,
    "heat_swapped": make_inputs,
    "heat_inplace_arg": lambda: (initial(NX), ALPHA, 7),
    "heat_inplace_arg#even": lambda: (initial(NX), ALPHA, 6),
}

if __name__ == "__main__":
    u0 = initial(NX)
    a, a_new, ok = heat_aliased(u0.copy(), ALPHA, NSTEPS)
    print("aliased", repr(a.sum()), a is a_new, ok, repr(a[0]), repr(a[-1]))
    b, b_new = heat_swapped(u0.copy(), ALPHA, NSTEPS)
    print("swapped", repr(b.sum()), repr(b_new.sum()), repr(float(np.abs(a - b).max())))
    c0 = u0.copy()
    c = heat_inplace_arg(c0, ALPHA, 7)
    print("inplace", repr(c.sum()), repr(c0.sum()), c is c0)
