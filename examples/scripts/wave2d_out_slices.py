"""2-D wave equation, leapfrog, with ufunc `out=` slices and a three-array rotation.

The five-point Laplacian is accumulated straight into the interior of the new array with
np.add(..., out=un[1:-1, 1:-1]), np.subtract(..., out=...) and np.multiply(..., out=...);
Dirichlet walls stay zero; a point source is added in place each step (`un[src] += ...`);
the arrays rotate with `u_prev, u, un = u, un, u_prev`; the energy is printed every few steps.
The caller's `u` and `u_prev` buffers are reused by the rotation and hold the last two fields.
"""
import numpy as np

ENTRY = "propagate"
C = 0.5                     # Courant number squared times c^2 dt^2 / h^2


def energy(u, u_prev):
    return float(np.sum((u - u_prev) ** 2) + C * np.sum(np.diff(u, axis=0) ** 2))


def propagate(u, u_prev, nsteps, freq):
    un = np.zeros_like(u)
    src = (u.shape[0] // 3, u.shape[1] // 2)
    first, second = u, u_prev
    for step in range(nsteps):
        np.add(u[2:, 1:-1], u[:-2, 1:-1], out=un[1:-1, 1:-1])
        un[1:-1, 1:-1] += u[1:-1, 2:]
        un[1:-1, 1:-1] += u[1:-1, :-2]
        np.subtract(un[1:-1, 1:-1], 4.0 * u[1:-1, 1:-1], out=un[1:-1, 1:-1])
        np.multiply(un[1:-1, 1:-1], C, out=un[1:-1, 1:-1])
        un[1:-1, 1:-1] += 2.0 * u[1:-1, 1:-1] - u_prev[1:-1, 1:-1]
        un[src] += np.sin(freq * step)
        u_prev, u, un = u, un, u_prev
        if step % 5 == 0:
            print(step, repr(energy(u, u_prev)))
    first[...] = u
    second[...] = u_prev
    return energy(u, u_prev)


def make_inputs(size="small"):
    n = 10 if size == "small" else 60
    return dict(u=np.zeros((n, n)), u_prev=np.zeros((n, n)), nsteps=11, freq=0.7)


if __name__ == "__main__":
    inputs = make_inputs("large")
    e = propagate(**inputs)
    print(repr(e), repr(inputs["u"].sum()), repr(inputs["u_prev"][20, 28:32].tolist()))
