"""An age-structured SEIR model: four age groups, a contact matrix made symmetric at module level
and scaled so its dominant eigenvalue gives R0, daily forward Euler sub-steps, states as rows of
one (4, groups) float64 array with views `S, E, I, R = y` written in place, a lockdown that
scales the contact matrix in place (`C *= ...` on a copy) between two days (beta from the
next-generation matrix's eigenvalues, np.linalg.eigvals, computed by the caller), int64 daily case
counts by np.rint, records of each day into preallocated arrays, the peak day by np.argmax,
the attack rate per group, progress printed every ten days.
"""
import numpy as np

N_AGE = np.array([2.0e6, 3.5e6, 2.5e6, 1.2e6])
BASE = np.array([[8.0, 3.0, 2.0, 1.0],
                 [3.0, 10.0, 4.0, 1.5],
                 [2.0, 4.0, 6.0, 2.0],
                 [1.0, 1.5, 2.0, 3.0]])
CONTACT = 0.5 * (BASE + BASE.T)
SIGMA = 1 / 5.2
GAMMA = 1 / 7.0
R0 = 2.4
SUSCEPT = np.array([0.6, 1.0, 1.0, 1.2], dtype=np.float32)


def beta_for(contact, r0):
    ngm = contact * (SUSCEPT[:, None] * N_AGE[:, None] / N_AGE[None, :]) / GAMMA
    return r0 / np.max(np.abs(np.linalg.eigvals(ngm)))


def derivs(y, contact, beta, out):
    S, E, I, R = y
    force = beta * SUSCEPT * (contact @ (I / N_AGE))
    new_inf = force * S
    out[0] = -new_inf
    out[1] = new_inf - SIGMA * E
    out[2] = SIGMA * E - GAMMA * I
    out[3] = GAMMA * I
    return new_inf


def simulate(y, beta, days, lock_start, lock_end, lock_scale, substeps=4):
    C = CONTACT.copy()
    dy = np.zeros_like(y)
    cases = np.zeros((days, y.shape[1]), dtype=np.int64)
    prevalence = np.zeros(days)
    dt = 1.0 / substeps
    for day in range(days):
        if day == lock_start:
            C *= lock_scale
        elif day == lock_end:
            C[...] = CONTACT
        daily = np.zeros(y.shape[1])
        for _ in range(substeps):
            daily += dt * derivs(y, C, beta, dy)
            y += dt * dy
        cases[day] = np.rint(daily).astype(np.int64)
        prevalence[day] = y[2].sum() / N_AGE.sum()
        if day % 10 == 0:
            print("day", day, "I", repr(round(float(y[2].sum()), 4)), "cases", cases[day].sum())
    return cases, prevalence


def attack_rate(y):
    S, E, I, R = y
    return R / N_AGE


def initial(seed_infected=10.0):
    y = np.zeros((4, 4))
    y[0] = N_AGE
    y[2, 1] = seed_infected
    y[0, 1] -= seed_infected
    return y


CHECKS = {
    "simulate": lambda: (initial(), beta_for(CONTACT, R0), 40, 15, 30, 0.4),
    "simulate#nolock": lambda: (initial(100.0), 0.04, 25, -1, -1, 1.0, 2),
    "derivs": lambda: (initial(1000.0), CONTACT.copy(), 0.05, np.zeros((4, 4))),
    "beta_for": lambda: (CONTACT.copy(), 1.8),
    "attack_rate": lambda: (initial() + 5.0,),
}

if __name__ == "__main__":
    y = initial()
    beta = beta_for(CONTACT, R0)
    print("beta", repr(round(float(beta), 12)))
    cases, prev = simulate(y, beta, 120, 30, 60, 0.35)
    peak = np.argmax(prev)
    print("peak day", peak, repr(round(float(prev[peak]), 10)), cases.dtype)
    print("cases by group", cases.sum(axis=0))
    print("attack", np.round(attack_rate(y), 8))
