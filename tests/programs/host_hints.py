"""Clocks and a module-level logger in a time loop (tests/host/test_host_hints.py), and the
rewrites NPR021's hints give for them."""
import logging
import time

import numpy as np

log = logging.getLogger("np2ref_host_hints")


def timed_relax(u, nsteps):
    t0 = time.perf_counter()
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
    elapsed = time.perf_counter() - t0
    assert elapsed >= 0.0
    return u


def relax(u, nsteps):  # timed_relax as the hint writes it: the caller times the call
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
    return u


def relax_logged(u, nsteps, every):
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
        if step % every == 0:
            log.info("step %d residual %.4e", step, np.abs(u).max())
    return u


def relax_residuals(u, nsteps):  # relax_logged as the hint writes it: the values returned
    res = np.zeros(nsteps)
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
        res[step] = np.abs(u).max()
    return u, res


def log_residuals(res, every):  # ... and logged by the caller
    for step in range(0, len(res), every):
        log.info("step %d residual %.4e", step, res[step])


def relax_saved(u, nsteps, path):
    energy = []
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
        energy.append(np.sum(u ** 2))
    np.savez(path, energy=np.array(energy), u=u)
    return u


def relax_energy(u, nsteps):  # relax_saved as the hint writes it: the caller saves
    energy = []
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])
        energy.append(np.sum(u ** 2))
    return u, np.array(energy)
