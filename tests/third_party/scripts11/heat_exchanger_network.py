"""A counter-flow heat exchanger network: three exchangers, each discretised into cells, hot and
cold stream temperatures kept in lists of arrays (one array per exchanger, of different
lengths), per-exchanger UA values and flow heat capacities in lists of Python floats, the hot
outlet of one exchanger feeding the next through `hot[k + 1][0] = hot[k][-1]`, an explicit
pseudo-transient march with helpers that update their arguments in place, duty per exchanger
accumulated into a float64 array, the approach temperature by min over a list comprehension,
convergence by the largest change over all arrays with a `break`, and a fouling factor that
scales UA every few iterations.
"""
import numpy as np

CELLS = [8, 12, 6]
UA = [450.0, 600.0, 300.0]       # W/K per exchanger
C_HOT = 2000.0                   # W/K
C_COLD = [1500.0, 1800.0, 1200.0]
T_HOT_IN = 420.0
T_COLD_IN = [290.0, 300.0, 285.0]
RELAX = 0.4


def make_streams(cells):
    hot = [np.full(n + 1, T_HOT_IN) for n in cells]
    cold = [np.full(n + 1, t) for n, t in zip(cells, T_COLD_IN)]
    return hot, cold


def sweep(th, tc, ua, ch, cc):
    """One relaxation sweep of one exchanger: hot flows left to right, cold right to left."""
    n = th.shape[0] - 1
    q = ua / n * (0.5 * (th[:-1] + th[1:]) - 0.5 * (tc[:-1] + tc[1:]))
    new_h = th[0] - np.cumsum(q) / ch
    new_c = tc[-1] + np.cumsum(q[::-1])[::-1] / cc
    change = max(np.abs(new_h - th[1:]).max(), np.abs(new_c - tc[:-1]).max())
    th[1:] += RELAX * (new_h - th[1:])
    tc[:-1] += RELAX * (new_c - tc[:-1])
    return q.sum(), change


def solve_network(hot, cold, ua, maxit=400, tol=1e-8, foul_every=50, foul=0.99):
    duty = np.zeros(len(hot))
    ua = list(ua)
    its = maxit
    for it in range(maxit):
        worst = 0.0
        for k in range(len(hot)):
            if k > 0:
                hot[k][0] = hot[k - 1][-1]
            duty[k], change = sweep(hot[k], cold[k], ua[k], C_HOT, C_COLD[k])
            worst = max(worst, change)
        if (it + 1) % foul_every == 0:
            ua = [u * foul for u in ua]
        if worst < tol:
            its = it + 1
            break
    approach = min([float(np.min(h - c)) for h, c in zip(hot, cold)])
    return duty, its, approach


def lmtd(th_in, th_out, tc_in, tc_out):
    d1 = th_in - tc_out
    d2 = th_out - tc_in
    return (d1 - d2) / np.log(d1 / d2)


CHECKS = {
    "make_streams": lambda: (CELLS,),
    "sweep": lambda: (np.linspace(420, 380, 9), np.linspace(330, 290, 9), 450.0, C_HOT, 1500.0),
    "solve_network": lambda: (*make_streams(CELLS), UA),
    "solve_network#short": lambda: {"hot": make_streams([4, 5])[0], "cold": make_streams([4, 5])[1],
                                    "ua": [200.0, 250.0], "maxit": 30, "foul_every": 10},
    "lmtd": lambda: (420.0, 380.0, np.array([290.0, 300.0]), np.array([320.0, 335.0])),
}

if __name__ == "__main__":
    hot, cold = make_streams(CELLS)
    duty, its, approach = solve_network(hot, cold, UA)
    print("iterations", its, "approach", repr(round(approach, 8)))
    print("duties", np.round(duty, 6))
    for k in range(len(hot)):
        print(k, repr(round(float(hot[k][-1]), 8)), repr(round(float(cold[k][0]), 8)),
              repr(round(float(lmtd(hot[k][0], hot[k][-1], cold[k][-1], cold[k][0])), 8)))
