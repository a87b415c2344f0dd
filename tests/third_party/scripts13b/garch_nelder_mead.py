"""GARCH(1,1) by maximum likelihood with a hand-written Nelder-Mead (the pattern of econometrics
course scripts that avoid scipy): returns simulated from the recurrence with a Generator, the
conditional variance filled element by element into a preallocated array (`s2[t] = omega +
alpha * r[t - 1] ** 2 + beta * s2[t - 1]`), the negative log-likelihood returning `np.inf`
outside the stationary region (early returns), a Nelder-Mead simplex kept as a (p + 1, p) array
ordered by `np.argsort` (`simplex[...] = simplex[order]`), reflection, expansion, contraction and
shrink written into rows in place, `while` on the spread of the values with an iteration cap,
a one-step variance forecast and the persistence printed.
"""
import numpy as np


def simulate(omega, alpha, beta, n, rng):
    r = np.zeros(n)
    s2 = np.zeros(n)
    s2[0] = omega / (1.0 - alpha - beta)
    r[0] = np.sqrt(s2[0]) * rng.standard_normal()
    for t in range(1, n):
        s2[t] = omega + alpha * r[t - 1] ** 2 + beta * s2[t - 1]
        r[t] = np.sqrt(s2[t]) * rng.standard_normal()
    return r


def variance(params, r, s2):
    omega, alpha, beta = params
    s2[0] = r.var()
    for t in range(1, r.size):
        s2[t] = omega + alpha * r[t - 1] * r[t - 1] + beta * s2[t - 1]


def neg_loglik(params, r, s2):
    omega, alpha, beta = params
    if omega <= 0.0 or alpha < 0.0 or beta < 0.0:
        return np.inf
    if alpha + beta >= 1.0:
        return np.inf
    variance(params, r, s2)
    return 0.5 * np.sum(np.log(2.0 * np.pi) + np.log(s2) + r * r / s2)


def nelder_mead(x0, r, steps, max_iter=200, tol=1e-8):
    p = x0.size
    s2 = np.empty(r.size)
    simplex = np.empty((p + 1, p))
    simplex[0] = x0
    for i in range(p):
        simplex[i + 1] = x0
        simplex[i + 1, i] += steps[i]
    f = np.array([neg_loglik(row, r, s2) for row in simplex])
    it = 0
    while it < max_iter and f.max() - f.min() > tol:
        order = np.argsort(f, kind="stable")
        simplex[...] = simplex[order]
        f[...] = f[order]
        centre = simplex[:-1].mean(axis=0)
        xr = centre + (centre - simplex[-1])
        fr = neg_loglik(xr, r, s2)
        if fr < f[0]:
            xe = centre + 2.0 * (centre - simplex[-1])
            fe = neg_loglik(xe, r, s2)
            if fe < fr:
                simplex[-1], f[-1] = xe, fe
            else:
                simplex[-1], f[-1] = xr, fr
        elif fr < f[-2]:
            simplex[-1], f[-1] = xr, fr
        else:
            xc = centre + 0.5 * (simplex[-1] - centre)
            fc = neg_loglik(xc, r, s2)
            if fc < f[-1]:
                simplex[-1], f[-1] = xc, fc
            else:
                simplex[1:] = simplex[0] + 0.5 * (simplex[1:] - simplex[0])
                for i in range(1, p + 1):
                    f[i] = neg_loglik(simplex[i], r, s2)
        it += 1
        if it % 40 == 0:
            print("iter", it, "best", round(float(f.min()), 6))
    best = np.argmin(f)
    return simplex[best].copy(), f[best], it


def forecast(params, r):
    s2 = np.empty(r.size)
    variance(params, r, s2)
    omega, alpha, beta = params
    return omega + alpha * r[-1] ** 2 + beta * s2[-1]


CHECKS = {
    "nelder_mead": lambda: (np.array([0.05, 0.1, 0.8]), simulate(0.1, 0.1, 0.85, 80, np.random.default_rng(3)),
                            np.array([0.02, 0.05, 0.05]), 30),
    "neg_loglik": lambda: (np.array([0.1, 0.1, 0.85]), np.linspace(-1.0, 1.0, 12), np.zeros(12)),
    "neg_loglik#outside": lambda: (np.array([0.1, 0.3, 0.75]), np.linspace(-1.0, 1.0, 12), np.zeros(12)),
    "forecast": lambda: (np.array([0.1, 0.1, 0.85]), np.linspace(-1.0, 1.0, 12)),
    "simulate": lambda: (0.1, 0.1, 0.85, 20, np.random.default_rng(4)),
}

if __name__ == "__main__":
    rng = np.random.default_rng(2026)
    r = simulate(0.05, 0.08, 0.9, 400, rng)
    print("sample var", round(float(r.var()), 8))
    est, nll, its = nelder_mead(np.array([0.1, 0.1, 0.8]), r, np.array([0.02, 0.05, 0.05]))
    print("estimate", repr(np.round(est, 5)), "nll", round(float(nll), 6), "iterations", its)
    print("persistence", round(float(est[1] + est[2]), 6))
    print("forecast", round(float(forecast(est, r)), 6))
