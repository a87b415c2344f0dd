"""Particles in a box advanced with ufunc `out=` arguments into the caller's arrays
(`np.add(x, dt * v, out=x)`, `np.multiply(v, damp, out=v)`, `np.clip(x, 0, L, out=x)`), wall
reflections by boolean masks, kinetic energy kept in a preallocated history array, and a
helper that writes its result into an `out` parameter that is sometimes one of its inputs.
"""
import numpy as np

L = 1.0
N = 30
STEPS = 40


def forces(x, out):
    np.subtract(0.5 * L, x, out=out)
    out *= 4.0
    return out


def step(x, v, a, dt):
    np.add(v, 0.5 * dt * a, out=v)
    np.add(x, dt * v, out=x)
    hit = (x < 0.0) | (x > L)
    v[hit] *= -1.0
    np.clip(x, 0.0, L, out=x)
    forces(x, a)
    np.add(v, 0.5 * dt * a, out=v)


def run(x, v, dt, steps):
    a = np.zeros_like(x)
    forces(x, a)
    ke = np.empty(steps)
    for s in range(steps):
        step(x, v, a, dt)
        np.multiply(v, 0.999, out=v)
        ke[s] = 0.5 * np.dot(v, v)
    return ke, a


def self_out(x):
    """forces writing into its own input: `out is x`."""
    y = x.copy()
    forces(y, y)
    np.sqrt(np.abs(y), out=y)
    return y


def make_inputs(size="small"):
    rng = np.random.default_rng(5)
    return (rng.random(N), rng.standard_normal(N), 0.02, STEPS)


CHECKS = {"run": make_inputs, "self_out": lambda: (np.linspace(0, 1, 9),), "forces": lambda: (np.linspace(0, 1, 9), np.zeros(9))}

if __name__ == "__main__":
    x, v, dt, steps = make_inputs()
    ke, a = run(x, v, dt, steps)
    print(repr(ke[0]), repr(ke[-1]), repr(x.sum()), repr(v.sum()), repr(a.sum()))
    print(np.round(self_out(np.linspace(0, 1, 9)), 12).tolist())
