"""Leapfrog orbits written with ufunc `out=` into the inputs themselves.

`np.add(x, dt * v, out=x)`, `np.multiply(v, damping, out=v)`, `np.subtract(x, center, out=d)`
into a work array, `np.negative(d, out=d)`, `np.divide(d, r3[:, None], out=a)`, and
`np.add(v, a * dt, out=v[:, ::-1])`-free code: every write is into an argument or a work buffer
the function allocates once. Also `np.clip(x, -L, L, out=x)` for the walls.
"""
import numpy as np

ENTRY = "orbit"


def accel(x, center, d, a):
    np.subtract(x, center, out=d)
    np.negative(d, out=d)
    r3 = np.sum(d * d, axis=1) ** 1.5 + 1e-3
    np.divide(d, r3[:, None], out=a)


def orbit(x, v, center, dt, damping, nsteps, L):
    d = np.empty_like(x)
    a = np.empty_like(x)
    accel(x, center, d, a)
    radii = []
    for step in range(nsteps):
        np.add(v, 0.5 * dt * a, out=v)
        np.add(x, dt * v, out=x)
        np.clip(x, -L, L, out=x)
        accel(x, center, d, a)
        np.add(v, 0.5 * dt * a, out=v)
        np.multiply(v, damping, out=v)
        radii.append(np.sqrt((d * d).sum(axis=1)).mean())
    print("mean radius", repr(radii[-1]))
    return np.array(radii)


def make_inputs(size="small"):
    n = 5 if size == "small" else 200
    rng = np.random.default_rng(4)
    x = rng.uniform(-1.0, 1.0, (n, 2))
    v = np.stack([-x[:, 1], x[:, 0]], axis=1)
    return dict(x=x, v=v, center=np.zeros(2), dt=0.02, damping=0.999, nsteps=30, L=1.5)


if __name__ == "__main__":
    inputs = make_inputs("large")
    radii = orbit(**inputs)
    print(repr(radii[::10].tolist()), repr(inputs["x"].sum()), repr(inputs["v"].sum()))
