"""Two-body orbits propagated two ways, in the pattern of celestial-mechanics teaching codes: the
analytic Kepler propagator (mean anomaly -> eccentric anomaly by Newton's method in a `while` on
the residual, a starting guess that depends on e, an iteration cap with an early return of the
last iterate), and the Yoshida fourth-order symplectic integrator (three drift-kick-drift
substeps with the w0/w1 weights) for a batch of orbits of several eccentricities, the state
written in place by helpers; energies and angular momenta compared with the conserved values,
the position error against the analytic orbit printed every few periods.
"""
import numpy as np

MU = 1.0
ECC = [0.0, 0.3, 0.7, 0.95]
CBRT2 = 2.0 ** (1.0 / 3.0)
W1 = 1.0 / (2.0 - CBRT2)
W0 = -CBRT2 / (2.0 - CBRT2)
C_COEF = np.array([W1 / 2, (W0 + W1) / 2, (W0 + W1) / 2, W1 / 2])
D_COEF = np.array([W1, W0, W1])


def solve_kepler(M, e, tol=1e-14, max_it=50):
    """E - e sin E = M for one orbit, Newton from E0 = M (e < 0.8) or pi."""
    E = M if e < 0.8 else np.pi
    f = E - e * np.sin(E) - M
    it = 0
    while abs(f) > tol:
        E = E - f / (1.0 - e * np.cos(E))
        f = E - e * np.sin(E) - M
        it += 1
        if it >= max_it:
            return E, it
    return E, it


def kepler_state(a, e, t):
    """Position of a periapsis-at-t=0 orbit in its plane, at time t."""
    n = np.sqrt(MU / a ** 3)
    M = np.mod(n * t, 2.0 * np.pi)
    E, it = solve_kepler(M, e)
    x = a * (np.cos(E) - e)
    y = a * np.sqrt(1.0 - e * e) * np.sin(E)
    return np.array([x, y]), it


def initial_states(a, eccs):
    """Periapsis positions and velocities (vis-viva) of a batch of orbits."""
    ecc = np.asarray(eccs, dtype=float)
    q = np.zeros((ecc.size, 2))
    p = np.zeros_like(q)
    q[:, 0] = a * (1.0 - ecc)
    p[:, 1] = np.sqrt(MU * (1.0 + ecc) / (a * (1.0 - ecc)))
    return q, p


def accel(q, out):
    r2 = (q * q).sum(axis=1)
    out[...] = -MU * q / (r2 * np.sqrt(r2))[:, None]


def yoshida_step(q, p, dt, work):
    for k in range(3):
        q += C_COEF[k] * dt * p
        accel(q, work)
        p += D_COEF[k] * dt * work
    q += C_COEF[3] * dt * p


def invariants(q, p):
    r = np.sqrt((q * q).sum(axis=1))
    energy = 0.5 * (p * p).sum(axis=1) - MU / r
    lz = q[:, 0] * p[:, 1] - q[:, 1] * p[:, 0]
    return energy, lz


def propagate(q, p, a, eccs, dt, steps, every):
    work = np.empty_like(q)
    e0, l0 = invariants(q, p)
    errs = np.zeros((steps // every, len(eccs)))
    for n in range(1, steps + 1):
        yoshida_step(q, p, dt, work)
        if n % every == 0:
            row = errs[n // every - 1]
            for j, e in enumerate(eccs):
                exact, _ = kepler_state(a, e, n * dt)
                row[j] = np.sqrt(((q[j] - exact) ** 2).sum())
            energy, lz = invariants(q, p)
            print("t", round(n * dt, 3), "max dE", "%.3e" % np.abs(energy - e0).max(),
                  "dL below 1e-12", bool(np.abs(lz - l0).max() < 1e-12))
    return errs


CHECKS = {
    "solve_kepler": lambda: (1.0, 0.3),
    "solve_kepler#high_e": lambda: (0.05, 0.95),
    "solve_kepler#capped": lambda: (2.0, 0.99, 1e-14, 3),
    "solve_kepler#periapsis": lambda: (0.0, 0.3),
    "solve_kepler#apoapsis": lambda: (np.pi, 0.9),
    "kepler_state": lambda: (1.0, 0.7, 2.5),
    "initial_states": lambda: (1.0, ECC),
    "accel": lambda: (np.array([[1.0, 0.0], [0.3, -0.4], [-0.0, 2.0]]), np.zeros((3, 2))),
    "yoshida_step": lambda: (*initial_states(1.0, ECC), 0.01, np.zeros((4, 2))),
    "propagate": lambda: (*initial_states(1.0, ECC[:3]), 1.0, ECC[:3], 0.02, 60, 20),
}

if __name__ == "__main__":
    for M, e in [(1.0, 0.3), (0.05, 0.95), (3.0, 0.0)]:
        E, it = solve_kepler(M, e)
        print("M", M, "e", e, "E", "%.12f" % E, "iterations", it)
    q, p = initial_states(1.0, ECC)
    errs = propagate(q, p, 1.0, ECC, 0.005, 600, 150)
    print("errors by orbit", np.array2string(errs[-1], precision=3))
    worst = int(np.argmax(errs[-1]))
    print("worst orbit e =", ECC[worst], "growth", "%.3f" % (errs[-1, worst] / errs[0, worst]))
