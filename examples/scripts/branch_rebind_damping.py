"""A damped oscillator lattice where one branch rebinds the state and the other writes it.

On damping steps the script rebinds `x = x * damp` (a new array: the caller's no longer
changes), on others it writes in place (`x += dt * v`): whether the caller sees the last steps
depends on which branch ran first. `v` is written through a view bound once (`vi = v[1:-1]`)
and rebound in a branch to a copy (`vi = vi.copy()`), after which its writes miss `v`.
"""
import numpy as np

ENTRY = "oscillate"


def force(x, k):
    f = np.zeros_like(x)
    f[1:-1] = k * (x[2:] - 2.0 * x[1:-1] + x[:-2])
    return f


def oscillate(x, v, k, dt, nsteps, damp_every):
    vi = v[1:-1]
    energies = []
    for step in range(nsteps):
        f = force(x, k)
        vi += dt * f[1:-1]
        if step % damp_every == damp_every - 1:
            x = x * 0.9
            vi = vi.copy()
        else:
            x += dt * v
        energies.append(0.5 * float(np.dot(v, v)) + 0.5 * k * float(np.sum(np.diff(x) ** 2)))
    print("final energy", repr(energies[-1]), "steps", len(energies))
    return x, vi, energies


def make_inputs(size="small"):
    n = 10 if size == "small" else 64
    rng = np.random.default_rng(11)
    return dict(x=rng.standard_normal(n), v=np.zeros(n), k=1.5, dt=0.05, nsteps=12, damp_every=4)


CHECKS = {"oscillate": lambda: make_inputs("small"),
          "oscillate#late": lambda: dict(make_inputs("small"), damp_every=7)}

if __name__ == "__main__":
    inputs = make_inputs("large")
    x, vi, e = oscillate(**inputs)
    print(repr(x.sum()), repr(vi.sum()), repr(e[::4]), repr(inputs["x"].sum()), repr(inputs["v"].sum()))
