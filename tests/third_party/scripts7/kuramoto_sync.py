"""Kuramoto oscillators with an RK2 step: pairwise phase differences by broadcasting, the
order parameter r e^{i psi} from a complex mean, phases wrapped with `theta %= 2 pi` in place,
natural frequencies drawn with `np.random.seed` + `np.random.standard_cauchy` clipped, the
coupling swept in an outer loop with a fresh copy of the phases, and `out=` helpers.
"""
import numpy as np

N = 48
DT = 0.05


def rhs(theta, omega, K, out):
    diff = np.sin(theta[None, :] - theta[:, None])
    np.multiply(diff.mean(axis=1), K, out=out)
    out += omega
    return out


def order(theta):
    z = np.exp(1j * theta).mean()
    return np.abs(z), np.angle(z)


def integrate(theta, omega, K, nsteps):
    k1 = np.empty_like(theta)
    k2 = np.empty_like(theta)
    rs = np.zeros(nsteps)
    for n in range(nsteps):
        rhs(theta, omega, K, k1)
        rhs(theta + DT * k1, omega, K, k2)
        theta += 0.5 * DT * (k1 + k2)
        theta %= 2.0 * np.pi
        rs[n], _ = order(theta)
    return theta, rs


def sweep(theta0, omega, couplings, nsteps):
    final = []
    for K in couplings:
        theta = theta0.copy()
        theta, rs = integrate(theta, omega, K, nsteps)
        final.append(rs[-10:].mean())
        print("K", repr(K), repr(rs[-1]))
    return np.array(final)


def make_inputs():
    np.random.seed(4)
    theta0 = np.random.uniform(0, 2 * np.pi, N)
    omega = np.clip(0.3 * np.random.standard_cauchy(N), -3.0, 3.0)
    return theta0, omega


CHECKS = {
    "integrate": lambda: (*make_inputs(), 1.5, 40),
    "sweep": lambda: (*make_inputs(), [0.5, 2.0], 30),
}

if __name__ == "__main__":
    theta0, omega = make_inputs()
    print(repr(sweep(theta0, omega, np.linspace(0.0, 3.0, 4), 60)))
    r, psi = order(theta0)
    print(repr(r), repr(psi))
