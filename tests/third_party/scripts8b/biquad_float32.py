"""A biquad cascade in float32 (direct form II transposed) run sample by sample with Python float
coefficients, a moving average by cumsum differences, zero-crossing counts by sign changes,
and decimation by `x[::3]` with the decimated view written in place.
"""
import numpy as np


def biquad(x, b, a, state):
    y = np.empty_like(x)
    z1, z2 = state[0], state[1]
    for n in range(x.shape[0]):
        xn = x[n]
        yn = b[0] * xn + z1
        z1 = b[1] * xn - a[1] * yn + z2
        z2 = b[2] * xn - a[2] * yn
        y[n] = yn
    state[0] = z1
    state[1] = z2
    return y


def cascade(x, sections):
    states = np.zeros((len(sections), 2), dtype=np.float32)
    y = x
    for k, (b, a) in enumerate(sections):
        y = biquad(y, b, a, states[k])
        if k % 1 == 0:
            print("section", k, float(y[-1]))
    return y, states


def moving_average(x, w):
    c = np.cumsum(np.insert(x, 0, 0.0))
    return (c[w:] - c[:-w]) / w


def zero_crossings(x):
    s = np.sign(x)
    s[s == 0] = 1
    return int(np.count_nonzero(np.diff(s))), np.nonzero(np.diff(s))[0]


def decimate_inplace(x):
    d = x[::3]
    d *= 2.0
    d -= d.mean()
    return x, d.shape[0]


SECTIONS = [((0.2, 0.4, 0.2), (1.0, -0.5, 0.3)), ((0.1, 0.2, 0.1), (1.0, -0.9, 0.4))]


def make_signal():
    t = np.arange(64, dtype=np.float32) / 16
    rng = np.random.default_rng(2)
    return (np.sin(2 * np.pi * t) + 0.3 * rng.standard_normal(64)).astype(np.float32)


CHECKS = {"cascade": lambda: (make_signal(), SECTIONS),
          "biquad": lambda: (make_signal(), np.array([0.2, 0.4, 0.2]), np.array([1.0, -0.5, 0.3]), np.zeros(2, np.float32)),
          "moving_average": lambda: (make_signal(), 5), "zero_crossings": lambda: (make_signal(),),
          "decimate_inplace": lambda: (make_signal(),)}

if __name__ == "__main__":
    x = make_signal()
    y, st = cascade(x, SECTIONS)
    print(y.dtype, repr(float(y.sum())), st.dtype)
    ma = moving_average(x, 5)
    print(ma.dtype, ma.shape, repr(float(ma[3])))
    n, idx = zero_crossings(x)
    print(n, idx[:5])
    x2, k = decimate_inplace(x.copy())
    print(k, repr(float(x2.sum())), x2.dtype)
