"""Counters and accumulators whose dtype drifts over a whole program.

`x = x * 0.5 + bias` with `bias = np.float64(...)` turns a float32 array into float64 after the
first trip; `n = n * 3` on an np.int32 wraps past 2**31; an int16 histogram `acc += 3000` wraps;
`total += arr.sum()` starts as a Python int and becomes np.int64; `prod *= k` on a uint8 0-d
array wraps. The results' dtypes and types are printed.
"""
import numpy as np

STEPS = 25


def drift(x, steps):
    bias = np.float64(1e-3)
    for i in range(steps):
        x = x * 0.5 + bias
    return x


def wrap_counters(steps):
    n = np.int32(7)
    acc = np.zeros(4, dtype=np.int16)
    total = 0
    arr = np.arange(5, dtype=np.int32)
    small = np.array(1, dtype=np.uint8)
    for k in range(steps):
        with np.errstate(over="ignore"):
            n = n * 3
        acc += 3000
        total += arr.sum()
        arr += 1
        small *= 3
    return n, acc, total, small


def half_steps(y, steps):
    """Float32 in, a Python float step: NEP 50 keeps float32 through the loop."""
    for i in range(steps):
        y = y * 0.9 / (y + 1.0)  # (no multiply-add: XLA contracts those into one float32 FMA)
        if i == steps // 2:
            y = y.astype(np.float64)
    return y


def mixed_mean(a32, b64):
    m = a32.mean()
    s = a32.sum(dtype=np.float64)
    c = a32 + b64
    d = a32 * np.float32(2) + 1
    return m, s, c, d


CHECKS = {
    "drift": lambda: (np.linspace(0, 1, 6, dtype=np.float32), STEPS),
    "wrap_counters": lambda: (STEPS,),
    "half_steps": lambda: (np.linspace(0.1, 1, 5).astype(np.float32), 8),
    "mixed_mean": lambda: (np.linspace(0.1, 1, 5).astype(np.float32), np.linspace(0, 1, 5)),
}

if __name__ == "__main__":
    x = drift(np.linspace(0, 1, 6, dtype=np.float32), STEPS)
    print(x.dtype, repr(x.sum()))
    n, acc, total, small = wrap_counters(STEPS)
    print(repr(n), type(n).__name__, acc.tolist(), acc.dtype, repr(total), type(total).__name__, repr(small), small.dtype)
    y = half_steps(np.linspace(0.1, 1, 5).astype(np.float32), 8)
    print(y.dtype, repr(y.sum()))
    m, s, c, d = mixed_mean(np.linspace(0.1, 1, 5).astype(np.float32), np.linspace(0, 1, 5))
    print(repr(m), type(m).__name__, repr(s), type(s).__name__, c.dtype, d.dtype)
