"""Velocity-Verlet chain of particles with a rescaling thermostat, logging and timing in the loop.

The hot loop calls `logging.getLogger(__name__).debug`/`info`, reads `time.perf_counter()`,
checks `assert np.isfinite(...)`, appends the kinetic energy (a NumPy float64) and the step's
temperature (a Python float) to lists, and rescales the velocities in place when the
temperature leaves a band (`v *= scale`, a data-dependent branch).
"""
import logging
import time

import numpy as np

ENTRY = "simulate"
log = logging.getLogger(__name__)


def forces(x, k, r0):
    d = np.diff(x)
    f_bond = k * (d - r0)
    f = np.zeros_like(x)
    f[:-1] += f_bond
    f[1:] -= f_bond
    return f


def simulate(x, v, k, r0, dt, nsteps, target):
    kinetic = []
    temps = []
    f = forces(x, k, r0)
    start = time.perf_counter()
    for step in range(nsteps):
        v += 0.5 * dt * f
        x += dt * v
        f = forces(x, k, r0)
        v += 0.5 * dt * f
        ke = 0.5 * np.sum(v * v)
        temp = float(2.0 * ke / x.size)
        if temp > 1.5 * target or temp < 0.5 * target:
            v *= np.sqrt(target / temp)
            log.info("rescaled at step %d", step)
        assert np.isfinite(ke), "blew up"
        kinetic.append(ke)
        temps.append(temp)
        log.debug("step %d T=%g", step, temp)
    wall = time.perf_counter() - start
    print("steps", nsteps, "final T", repr(temps[-1]), "wall>=0", wall >= 0.0)
    return kinetic, temps


def make_inputs(size="small"):
    n = 8 if size == "small" else 100
    rng = np.random.default_rng(2)
    x = np.arange(n, dtype=float) + 0.05 * rng.standard_normal(n)
    return dict(x=x, v=rng.standard_normal(n), k=10.0, r0=1.0, dt=0.01, nsteps=25, target=0.8)


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    inputs = make_inputs("large")
    kinetic, temps = simulate(**inputs)
    print(repr(kinetic[-1]), repr(temps[::5]), repr(inputs["x"].sum()), repr(inputs["v"].sum()))
