"""An M/M/1 queue by discrete events with a fixed customer count: arrival and service times from
`rng.exponential` up front, start times by the recursion `start[i] = max(arrival[i], finish[i-1])`
in a Python loop, waiting times, the time-averaged queue length by sweeping merged event times
(`np.argsort(kind="stable")`, `np.cumsum` of +1/-1 steps), a busy-period count, and the per-run
statistics appended to lists across replications.
"""
import numpy as np


def simulate(inter, service):
    n = inter.shape[0]
    arrival = np.cumsum(inter)
    start = np.empty(n)
    finish = np.empty(n)
    busy_periods = 0
    prev_finish = 0.0
    for i in range(n):
        if arrival[i] >= prev_finish:
            busy_periods += 1
        start[i] = max(arrival[i], prev_finish)
        finish[i] = start[i] + service[i]
        prev_finish = finish[i]
    wait = start - arrival
    return arrival, finish, wait, busy_periods


def mean_queue_length(arrival, finish):
    times = np.concatenate([arrival, finish])
    steps = np.concatenate([np.ones(arrival.size, dtype=np.int64), -np.ones(finish.size, dtype=np.int64)])
    order = np.argsort(times, kind="stable")
    times = times[order]
    inq = np.cumsum(steps[order])
    dt = np.diff(times)
    return (inq[:-1] * dt).sum() / (times[-1] - times[0]), inq.max()


def replicate(lam, mu, n, reps, seed):
    rng = np.random.default_rng(seed)
    waits, lengths, peaks = [], [], []
    for r in range(reps):
        inter = rng.exponential(1.0 / lam, n)
        service = rng.exponential(1.0 / mu, n)
        arrival, finish, wait, busy = simulate(inter, service)
        L, peak = mean_queue_length(arrival, finish)
        waits.append(wait.mean())
        lengths.append(L)
        peaks.append(peak)
        print(r, busy, repr(wait.mean()), repr(L))
    return np.array(waits), np.array(lengths), max(peaks)


CHECKS = {"replicate": lambda: (0.8, 1.0, 60, 3, 2),
          "simulate": lambda: (np.full(5, 1.0), np.array([0.5, 2.5, 0.2, 3.0, 0.1]))}

if __name__ == "__main__":
    w, l, peak = replicate(0.8, 1.0, 200, 4, 2)
    print(repr(w.mean()), repr(l.mean()), peak, type(peak).__name__)
