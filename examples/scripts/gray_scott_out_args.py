"""Gray-Scott reaction-diffusion with np.roll Laplacians and `out=` work arrays.

Two float64 fields on a periodic grid; the Laplacian is a five-point np.roll stencil written
into a preallocated array with np.add(..., out=) and np.subtract(..., out=); the reaction term
uses np.multiply(u, v * v, out=uvv); the update is in place (`u += ...`). The mean of v is
printed every PRINT_EVERY steps, and the pattern's spread is measured at the end.
"""
import numpy as np

ENTRY = "react"
DU, DV = 0.16, 0.08
PRINT_EVERY = 10


def laplacian(z, out):
    np.add(np.roll(z, 1, axis=0), np.roll(z, -1, axis=0), out=out)
    out += np.roll(z, 1, axis=1)
    out += np.roll(z, -1, axis=1)
    np.subtract(out, 4.0 * z, out=out)
    return out


def react(u, v, F, k, dt, nsteps):
    lu = np.empty_like(u)
    lv = np.empty_like(v)
    uvv = np.empty_like(u)
    for step in range(nsteps):
        laplacian(u, lu)
        laplacian(v, lv)
        np.multiply(u, v * v, out=uvv)
        u += dt * (DU * lu - uvv + F * (1.0 - u))
        v += dt * (DV * lv + uvv - (F + k) * v)
        if step % PRINT_EVERY == 0:
            print(step, repr(float(v.mean())))
    return float(v.std())


def make_inputs(size="small"):
    n = 16 if size == "small" else 64
    u = np.ones((n, n))
    v = np.zeros((n, n))
    c = n // 2
    u[c - 2:c + 2, c - 2:c + 2] = 0.5
    v[c - 2:c + 2, c - 2:c + 2] = 0.25
    rng = np.random.default_rng(5)
    v += 0.01 * rng.random((n, n))
    return dict(u=u, v=v, F=0.035, k=0.065, dt=1.0, nsteps=30)


if __name__ == "__main__":
    inputs = make_inputs("large")
    spread = react(**inputs)
    print(repr(spread), repr(inputs["u"].sum()), repr(inputs["v"][30:34, 30].tolist()))
