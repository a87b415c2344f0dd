"""An FIR/IIR filter bank written the way scipy.signal.lfilter is documented (direct form II
transposed), for a script that cannot import scipy: coefficients normalised in place
(`b /= a[0]; a /= a[0]` on copies), the state `z` carried between blocks and updated element by
element (`z[k] = b[k + 1] * x[n] + z[k + 1] - a[k + 1] * y[n]`), a bank of second-order
band-passes designed by the RBJ cookbook with Python floats, block processing of a long
signal through views (`x[start:stop]`) with the states of every band kept in one (bands, order)
array whose rows go to the helper as views, a moving-average FIR by `np.convolve` for
comparison, band energies and decimation by `y[::M]`, a float32 input handed in as a list.
"""
import math

import numpy as np

FS = 1000.0
CENTRES = [50.0, 120.0, 250.0]
Q = 4.0
BLOCK = 64


def bandpass(f0, q):
    w0 = 2.0 * math.pi * f0 / FS
    alpha = math.sin(w0) / (2.0 * q)
    b = np.array([alpha, 0.0, -alpha])
    a = np.array([1.0 + alpha, -2.0 * math.cos(w0), 1.0 - alpha])
    return b, a


def lfilter(b, a, x, z):
    # y and the final state; z (len(a) - 1) is written in place
    b = np.asarray(b, dtype=np.float64).copy()
    a = np.asarray(a, dtype=np.float64).copy()
    b /= a[0]
    a /= a[0]
    order = a.size - 1
    y = np.empty(x.size)
    for n in range(x.size):
        y[n] = b[0] * x[n] + z[0]
        for k in range(order - 1):
            z[k] = b[k + 1] * x[n] + z[k + 1] - a[k + 1] * y[n]
        z[order - 1] = b[order] * x[n] - a[order] * y[n]
    return y


def run_bank(x, coeffs, states, out):
    # blocks of the signal through every band; states rows are the bands' filter memories
    n = x.size
    for start in range(0, n, BLOCK):
        stop = min(start + BLOCK, n)
        block = x[start:stop]
        for i, (b, a) in enumerate(coeffs):
            out[i, start:stop] = lfilter(b, a, block, states[i])
    return out


def moving_average(x, width):
    kernel = np.ones(width) / width
    return np.convolve(x, kernel, mode="same")


def band_energies(out, decim):
    e = np.zeros(out.shape[0])
    for i in range(out.shape[0]):
        d = out[i, ::decim]
        e[i] = np.mean(d * d)
    return e


def process(samples, decim=4):
    x = np.asarray(samples, dtype=np.float32).astype(np.float64)
    coeffs = [bandpass(f, Q) for f in CENTRES]
    states = np.zeros((len(coeffs), 2))
    out = np.empty((len(coeffs), x.size))
    run_bank(x, coeffs, states, out)
    return band_energies(out, decim), states


def make_signal(n, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n) / FS
    x = np.sin(2 * np.pi * 50 * t) + 0.5 * np.sin(2 * np.pi * 250 * t) + 0.2 * rng.standard_normal(n)
    return x.astype(np.float32)


def make_input(n, seed):
    return make_signal(n, seed).tolist()


CHECKS = {
    "lfilter": lambda: (*bandpass(120.0, 2.0), np.sin(np.arange(40) * 0.3), np.zeros(2)),
    "lfilter#fir": lambda: (np.array([0.2, 0.3, 0.5, -0.1]), np.array([2.0, 0.0, 0.0, 0.0]),
                            np.linspace(-1.0, 1.0, 15), np.array([0.1, 0.0, -0.2])),
    "run_bank": lambda: (np.cos(np.arange(150) * 0.7), [bandpass(f, Q) for f in CENTRES], np.zeros((3, 2)),
                         np.zeros((3, 150))),
    "process": lambda: (make_input(100, 3),),
    "band_energies": lambda: (np.arange(24.0).reshape(3, 8), 3),
    "moving_average": lambda: (np.arange(10.0) ** 2, 3),
    "make_input": lambda: (8, 1),
}

if __name__ == "__main__":
    samples = make_signal(1000, 2026).tolist()
    energies, states = process(samples)
    print("energies", repr(np.round(energies, 8)))
    print("final states", repr(np.round(states, 8)))
    smooth = moving_average(np.asarray(samples), 5)
    print("moving average", round(float(smooth[:50].std()), 8), smooth.dtype)
    # the whole signal in one call agrees with the blocks
    b, a = bandpass(CENTRES[0], Q)
    y = lfilter(b, a, np.asarray(samples, dtype=np.float64), np.zeros(2))
    print("one call", repr(round(float(np.mean(y[::4] ** 2)), 8)))
