"""Jacobi relaxation with the slips hand-written scripts carry, kept as NumPy runs them.

`u_old = u` is an alias, not a copy, so the convergence test `np.max(np.abs(u - u_old))` reads
zero and the `while` stops after one sweep (the classic slip); a helper returns a view of the
interior that the caller writes through (`interior(u)[...] = ...`); a column is set through the
transpose (`u.T[0] = ...`), every seventh element through a flattened view (`u.reshape(-1)[::7]
*= 0.5`), a reversed view is added to itself (`w[::-1] += w`, an overlap NumPy buffers),
`np.copyto(v, u, where=mask)` copies under a mask, and a work array is reset with `.fill(0.0)`.
"""
import numpy as np

ENTRY = "relax"
TOL = 1e-6


def interior(a):
    return a[1:-1, 1:-1]


def sweep(u):
    return 0.25 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2])


def finish(u, v, w):
    u.T[0] = 1.0
    u.reshape(-1)[::7] *= 0.5
    w[::-1] += w
    mask = u > 0.3
    np.copyto(v, u, where=mask)
    scratch = np.empty_like(w)
    scratch.fill(0.0)
    scratch[::2] = w[::2]
    return scratch


def relax(u, v, w, maxit):
    it = 0
    change = np.inf
    while change > TOL and it < maxit:
        u_old = u                        # the slip: an alias
        interior(u)[...] = sweep(u)
        change = np.max(np.abs(u - u_old))
        it += 1
    scratch = finish(u, v, w)
    print(it, repr(float(change)), repr(float(u.sum())), repr(w.tolist()))
    return it, scratch


def relax_local(u, v, w, maxit):
    """The same with the interior view bound in the loop (`inner = u[1:-1, 1:-1]`)."""
    it = 0
    change = np.inf
    while change > TOL and it < maxit:
        u_old = u
        inner = u[1:-1, 1:-1]
        inner[...] = sweep(u)
        change = np.max(np.abs(u - u_old))
        it += 1
    scratch = finish(u, v, w)
    print(it, repr(float(change)), repr(float(u.sum())), repr(w.tolist()))
    return it, scratch


def make_inputs(size="small"):
    n = 6 if size == "small" else 30
    u = np.zeros((n, n))
    u[0, :] = 1.0
    return dict(u=u, v=np.full((n, n), -1.0), w=np.arange(7.0), maxit=50)


CHECKS = {"relax": lambda: make_inputs("small"), "relax_local": lambda: make_inputs("small")}

if __name__ == "__main__":
    inputs = make_inputs("large")
    it, scratch = relax_local(**inputs)
    print(repr(it), repr(scratch.tolist()), repr(inputs["u"].sum()), repr(inputs["v"].sum()))
    inputs = make_inputs("large")
    it, scratch = relax(**inputs)
    print(repr(it), repr(scratch.tolist()), repr(inputs["u"].sum()), repr(inputs["v"].sum()))
