"""Threshold-crossing detection in a noisy relaxation signal, helpers that return early on data.

`first_crossing(x, level)` scans with `for i in range(n): if x[i] < level: return i` (the
front of the spreading signal) and returns -1 after the loop; `settle_time` returns early from a `while` (`k = x.size - 1`, counting down: a Python int)
when the signal has settled; the
driver relaxes the signal step by step, records the crossing index each step in an int array
and a Python list, and prints a summary.
"""
import numpy as np

ENTRY = "track"


def first_crossing(x, level):
    for i in range(x.size):
        if x[i] < level:
            return i
    return -1


def settle_time(x, tol):
    k = x.size - 1
    while k > 0:
        if abs(x[k] - x[k - 1]) > tol:
            return k
        k -= 1
    return 0


def track(x, level, rate, nsteps, tol):
    crossings = np.full(nsteps, -2, dtype=np.int64)
    settled = []
    for step in range(nsteps):
        x[1:] += rate * (x[:-1] - x[1:])
        crossings[step] = first_crossing(x, level)
        settled.append(settle_time(x, tol))
    print("crossings", crossings.tolist(), "settled", settled[-1])
    return crossings, settled


def make_inputs(size="small"):
    n = 12 if size == "small" else 80
    x = np.zeros(n)
    x[0] = 1.0
    return dict(x=x, level=0.05, rate=0.4, nsteps=8, tol=1e-3)


if __name__ == "__main__":
    inputs = make_inputs("large")
    crossings, settled = track(**inputs)
    print(crossings.tolist(), settled, repr(inputs["x"].sum()))
