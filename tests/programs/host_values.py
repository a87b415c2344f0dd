"""Set-up code feeding a time loop in host code (tests/host/test_host_values.py, issue 37 case 2).

The set-up functions take no array (a generator, a size, Python scalars); host code then writes
into what they return and hands it to a step function that writes its arguments. NumPy gives
host code writable float64 arrays here; a converted set-up function that gave a float32
jax.Array lost the writes (or raised) and the printed energy came out wrong."""
import math

import numpy as np


def make_positions(rng):  # a generator only
    return rng.standard_normal(6)


def make_velocities(rng, n):  # a generator and a size: a tuple of draws
    return rng.uniform(-1.0, 1.0, n), rng.integers(0, 3, size=n)


def init_field(n):  # a size only: allocates, writes, returns
    x = np.zeros(n)
    x[0] = 1.0
    return x


def kick(scale, n):  # Python scalars only
    return np.full(n, scale) / 3.0


def temperature(t0):  # a Python float in, math on it: a Python float out
    return math.sqrt(t0) * 1.5


def jitter(rng):  # a draw, then array work the rules rewrite (no NumPy call)
    x = rng.standard_normal(6)
    return x[x > 0].sum()


def first_draw(rng):  # a draw NumPy returns as a Python float
    return rng.random()


def make_state(rng, n):  # a dict of draws, in the order the program made it
    return {"z": rng.standard_normal(n), "a": rng.integers(0, 9, size=n), "count": n}


def step(x, v, dt):  # writes both arguments
    v -= dt * x
    x += dt * v
    return 0.5 * np.sum(v * v + x * x)


def warmed(rng, n):  # a set-up function called from a function that is traced
    x = make_positions(rng)
    x[:n] += 1.0
    return x


def main():
    rng = np.random.default_rng(7)
    x = make_positions(rng)
    v, kind = make_velocities(rng, 6)
    f = init_field(6)
    k = kick(0.3, 6)
    T = temperature(2.0)
    j = jitter(rng)
    r = first_draw(rng)
    for name, a in (("x", x), ("v", v), ("kind", kind), ("f", f), ("k", k)):
        print(name, type(a).__name__, a.dtype, a.flags.writeable)
    print("scalars", type(T).__name__, type(j).__name__, type(r).__name__)
    x[0] = 0.25  # host code writes into what set-up returned
    v *= 1.0 + T / 10
    f += k
    e = 0.0
    for t in range(20):
        e = step(x, v, 0.05 + j / 100 + r / 1000)
        f[t % 6] += e
    print("energy", type(e).__name__, "%.12g" % e)
    print("x", " ".join("%.12g" % a for a in x))
    print("v", " ".join("%.12g" % a for a in v))
    print("f", " ".join("%.12g" % a for a in f))


if __name__ == "__main__":
    main()
