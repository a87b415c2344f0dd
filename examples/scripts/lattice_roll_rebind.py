"""A D1Q3 lattice Boltzmann channel: streaming by `f = np.roll(f, ...)` rebinds, then writes.

Streaming rebinds the populations to new arrays (`fp = np.roll(fp, 1)`), after which the bounce-back
writes (`fp[0] = fm[0]`) go to the new arrays, not to the caller's; the collision writes in
place into whichever buffer the name holds at that point. At the end the caller's arrays hold
only the first step's writes, which the script prints.
"""
import numpy as np

ENTRY = "channel"
W = np.array([4.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0])


def equilibrium(rho, u):
    return W[0] * rho * (1 - 1.5 * u * u), W[1] * rho * (1 + 3 * u + 3 * u * u), \
        W[2] * rho * (1 - 3 * u + 3 * u * u)


def channel(f0, fp, fm, tau, nsteps):
    momentum = []
    for step in range(nsteps):
        rho = f0 + fp + fm
        u = (fp - fm) / rho
        e0, ep, em = equilibrium(rho, u)
        f0 -= (f0 - e0) / tau
        fp -= (fp - ep) / tau
        fm -= (fm - em) / tau
        fp = np.roll(fp, 1)
        fm = np.roll(fm, -1)
        fp[0] = fm[0]
        fm[-1] = fp[-1]
        momentum.append(float((fp - fm).sum()))
    print("momentum", repr(momentum[-1]), "mass", repr(float((f0 + fp + fm).sum())))
    return f0, fp, fm, momentum


def make_inputs(size="small"):
    n = 10 if size == "small" else 100
    x = np.linspace(0.0, 1.0, n)
    rho = 1.0 + 0.1 * np.exp(-30 * (x - 0.5) ** 2)
    f0, fp, fm = equilibrium(rho, 0.05 * np.ones(n))
    return dict(f0=f0, fp=fp, fm=fm, tau=0.8, nsteps=12)


if __name__ == "__main__":
    inputs = make_inputs("large")
    f0, fp, fm, mom = channel(**inputs)
    print(repr(mom[::4]), repr(inputs["f0"].sum()), repr(inputs["fp"].sum()), repr(inputs["fm"].sum()))
