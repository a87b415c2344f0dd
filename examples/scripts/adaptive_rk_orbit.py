"""Kepler orbit by an adaptive embedded Runge-Kutta (Bogacki-Shampine 3(2)), step rejection.

The state (x, y, vx, vy) is integrated with error control: a `while t < tend` loop computes
the stage derivatives, the local error from the embedded pair, and either rejects the step
(`continue` after shrinking h) or accepts it, writing the state in place (`state[:] = ynew`)
and appending the time to a list. The step size is clipped with min/max of Python floats;
the number of accepted and rejected steps and the energy drift are printed.
"""
import numpy as np

ENTRY = "orbit"
MU = 1.0
SAFETY = 0.9


def deriv(s):
    r3 = (s[0] ** 2 + s[1] ** 2) ** 1.5
    return np.array([s[2], s[3], -MU * s[0] / r3, -MU * s[1] / r3])


def energy(s):
    return 0.5 * (s[2] ** 2 + s[3] ** 2) - MU / np.sqrt(s[0] ** 2 + s[1] ** 2)


def orbit(state, tend, tol, h0):
    t = 0.0
    h = h0
    e0 = energy(state)
    times = [t]
    rejected = 0
    while t < tend:
        h = min(h, tend - t)
        k1 = deriv(state)
        k2 = deriv(state + 0.5 * h * k1)
        k3 = deriv(state + 0.75 * h * k2)
        ynew = state + h * (2.0 * k1 + 3.0 * k2 + 4.0 * k3) / 9.0
        k4 = deriv(ynew)
        err = h * np.max(np.abs(-5.0 * k1 / 72.0 + k2 / 12.0 + k3 / 9.0 - k4 / 8.0))
        factor = SAFETY * (tol / max(err, 1e-300)) ** (1.0 / 3.0)
        if err > tol:
            h *= max(0.2, factor)
            rejected += 1
            continue
        state[:] = ynew
        t += h
        times.append(t)
        h *= min(5.0, factor)
    print(len(times) - 1, rejected, repr(float(energy(state) - e0)))
    return np.array(times), rejected


def make_inputs(size="small"):
    ecc = 0.6
    state = np.array([1.0 - ecc, 0.0, 0.0, np.sqrt(MU * (1 + ecc) / (1 - ecc))])
    return dict(state=state, tend=1.0 if size == "small" else 6.3, tol=1e-6, h0=0.01)


if __name__ == "__main__":
    inputs = make_inputs("large")
    times, rejected = orbit(**inputs)
    print(repr(times[-1]), repr(len(times)), repr(rejected), repr(inputs["state"].tolist()))
