"""A single-server queue simulated two ways: arrival times by `np.cumsum` of exponential gaps,
waiting times by the Lindley recursion in an element loop (`w[i] = max(0.0, w[i-1] + s[i-1] - gap[i])`),
a running maximum by `np.maximum.accumulate`, the longest wait by an argmax loop, and the
queue length sampled on a time grid with `np.searchsorted`; integer counters of customers
served per hour via `np.add.at` on int32 buckets.
"""
import numpy as np

N = 80
RATE_IN, RATE_OUT = 1.0, 1.25


def make(seed):
    rng = np.random.default_rng(seed)
    return rng.exponential(1 / RATE_IN, N), rng.exponential(1 / RATE_OUT, N)


def lindley(gaps, service):
    n = gaps.shape[0]
    w = np.zeros(n)
    for i in range(1, n):
        w[i] = max(0.0, w[i - 1] + service[i - 1] - gaps[i])
    return w


def stats(gaps, service):
    arrive = np.cumsum(gaps)
    w = lindley(gaps, service)
    depart = arrive + w + service
    worst = np.maximum.accumulate(w)
    k_best, best = 0, w[0]
    for k in range(1, w.shape[0]):
        if w[k] > best:
            best = w[k]
            k_best = k
    hours = (depart // 10).astype(np.int32)
    served = np.zeros(int(hours.max()) + 1, dtype=np.int32)
    np.add.at(served, hours, 1)
    grid = np.linspace(0.0, arrive[-1], 9)
    in_system = np.searchsorted(arrive, grid, side="right") - np.searchsorted(np.sort(depart), grid, side="right")
    return w, worst, k_best, best, served, in_system


CHECKS = {"stats": lambda: make(5), "lindley": lambda: make(6)}

if __name__ == "__main__":
    w, worst, k, best, served, in_system = stats(*make(5))
    print(repr(w.mean()), repr(worst[-1]), k, type(k).__name__, repr(best), served.tolist(), in_system.tolist())
