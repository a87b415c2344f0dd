"""Gibson-Bruck next reaction method for a small gene-expression network: putative firing times
kept in a binary min-heap stored in two arrays (times and reaction ids) with an index map
`where[r]`, sift-up and sift-down written as `while` loops that swap entries in place, a
dependency graph as a boolean matrix, propensities recomputed only for dependants with the
time rescaling `t + (a_old / a_new) * (tau - t)`, int64 counts updated by `x += NU[r]`, the
state recorded on a regular time grid into preallocated arrays; random numbers drawn from a
Generator passed in.
"""
import numpy as np

NU = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]], dtype=np.int64)  # mRNA, protein
RATES = np.array([2.0, 0.2, 1.5, 0.05])
DEPENDS = np.array([[False, True, True, False],
                    [False, True, True, False],
                    [False, False, False, True],
                    [False, False, False, True]])


def propensities(x, k, out):
    out[0] = k[0]
    out[1] = k[1] * x[0]
    out[2] = k[2] * x[0]
    out[3] = k[3] * x[1]


def swap(times, ids, where, i, j):
    times[i], times[j] = times[j], times[i]
    ids[i], ids[j] = ids[j], ids[i]
    where[ids[i]] = i
    where[ids[j]] = j


def sift_down(times, ids, where, i, n):
    while True:
        left = 2 * i + 1
        right = left + 1
        small = i
        if left < n and times[left] < times[small]:
            small = left
        if right < n and times[right] < times[small]:
            small = right
        if small == i:
            return
        swap(times, ids, where, i, small)
        i = small


def sift_up(times, ids, where, i):
    while i > 0:
        parent = (i - 1) // 2
        if times[parent] <= times[i]:
            break
        swap(times, ids, where, i, parent)
        i = parent


def update(times, ids, where, r, new_time):
    i = where[r]
    old = times[i]
    times[i] = new_time
    if new_time < old:
        sift_up(times, ids, where, i)
    else:
        sift_down(times, ids, where, i, times.shape[0])


def simulate(x, k, t_grid, rng, max_events=5000):
    m = k.shape[0]
    a = np.zeros(m)
    propensities(x, k, a)
    tau = np.where(a > 0, rng.exponential(1.0, m) / np.where(a > 0, a, 1.0), np.inf)
    times = tau.copy()
    ids = np.arange(m)
    where = np.arange(m)
    for i in range(m // 2 - 1, -1, -1):
        sift_down(times, ids, where, i, m)
    rec = np.zeros((t_grid.shape[0], x.shape[0]), dtype=np.int64)
    g = 0
    events = 0
    t = 0.0
    while g < t_grid.shape[0] and events < max_events:
        t_next = float(times[0])
        while g < t_grid.shape[0] and t_grid[g] < t_next:
            rec[g] = x
            g += 1
        if g == t_grid.shape[0]:
            break
        r = ids[0]
        t = t_next
        x += NU[r]
        events += 1
        a_old = a.copy()
        propensities(x, k, a)
        update(times, ids, where, r, t + rng.exponential(1.0) / a[r] if a[r] > 0 else np.inf)
        for d in range(m):
            if DEPENDS[r, d] and d != r:
                if a[d] > 0 and a_old[d] > 0:
                    new = t + (a_old[d] / a[d]) * (times[where[d]] - t)
                elif a[d] > 0:
                    new = t + rng.exponential(1.0) / a[d]
                else:
                    new = np.inf
                update(times, ids, where, d, new)
    return rec, events, t


def heap_ok(times):
    n = times.shape[0]
    for i in range(1, n):
        if times[(i - 1) // 2] > times[i]:
            return False
    return True


def heapify_inputs():
    times = np.array([5.0, 3.0, 8.0, 1.0, 4.0, 7.0, 0.5])
    return times, np.arange(7), np.arange(7), 0, 7


CHECKS = {
    "simulate": lambda: (np.array([0, 0], dtype=np.int64), RATES.copy(), np.linspace(0, 20, 11),
                         np.random.default_rng(3)),
    "simulate#cap": lambda: (np.array([5, 10], dtype=np.int64), RATES.copy(), np.linspace(0, 50, 26),
                             np.random.default_rng(4), 60),
    "sift_down": heapify_inputs,
    "sift_up": lambda: (np.array([1.0, 3.0, 2.0, 4.0, 0.5]), np.arange(5), np.arange(5), 4),
    "update": lambda: (np.array([1.0, 3.0, 2.0, 4.0, 5.0]), np.arange(5), np.arange(5), 0, 4.5),
    "heap_ok": lambda: (np.array([1.0, 3.0, 2.0, 4.0, 0.5]),),
}

if __name__ == "__main__":
    rng = np.random.default_rng(2025)
    x = np.array([0, 0], dtype=np.int64)
    grid = np.linspace(0, 100, 21)
    rec, events, t = simulate(x, RATES, grid, rng)
    print("events", events, "t", repr(float(t)), rec.dtype)
    print(rec[::4])
    print("mean protein", repr(float(rec[10:, 1].mean())))
    times = np.array([5.0, 3.0, 8.0, 1.0, 4.0, 7.0, 0.5])
    ids, where = np.arange(7), np.arange(7)
    for i in range(2, -1, -1):
        sift_down(times, ids, where, i, 7)
    print(times, ids, where, heap_ok(times))
