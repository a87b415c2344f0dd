"""Biquad IIR filtering of a sampled signal (direct form I).

Domain: conditioning of a noisy sensor trace with a second-order low-pass
section designed by the bilinear transform (RBJ cookbook), applied twice in
cascade. Each section runs a scalar recurrence over the samples; the
running output energy is accumulated alongside and stored per sample.
"""
import numpy as np

ENTRY = "filter_signal"


def design_lowpass(fc, fs, q):
    w0 = 2.0 * np.pi * fc / fs
    alpha = np.sin(w0) / (2.0 * q)
    cw = np.cos(w0)
    a0 = 1.0 + alpha
    b0 = (1.0 - cw) / 2.0 / a0
    b1 = (1.0 - cw) / a0
    b2 = (1.0 - cw) / 2.0 / a0
    a1 = -2.0 * cw / a0
    a2 = (1.0 - alpha) / a0
    return b0, b1, b2, a1, a2


def biquad(x, y, energy, b0, b1, b2, a1, a2):
    """Filter x into y; energy[n] receives the cumulative sum of y**2."""
    N = x.shape[0]
    y[0] = b0 * x[0]
    y[1] = b0 * x[1] + b1 * x[0] - a1 * y[0]
    e = y[0] * y[0] + y[1] * y[1]
    energy[0] = y[0] * y[0]
    energy[1] = e
    for n in range(2, N):
        y[n] = b0 * x[n] + b1 * x[n - 1] + b2 * x[n - 2] - a1 * y[n - 1] - a2 * y[n - 2]
        e += y[n] * y[n]
        energy[n] = e
    return e


def filter_signal(x, y, energy, fc, fs, q):
    """Two cascaded low-pass sections; x is overwritten by the first stage."""
    b0, b1, b2, a1, a2 = design_lowpass(fc, fs, q)
    stage = np.zeros_like(x)
    biquad(x, stage, energy, b0, b1, b2, a1, a2)
    x[:] = stage
    total = biquad(x, y, energy, b0, b1, b2, a1, a2)
    return total


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        N = 40
    else:
        N = 200000
    fs = 1000.0
    t = np.arange(N) / fs
    x = np.sin(2.0 * np.pi * 5.0 * t) + 0.5 * rng.standard_normal(N)
    return dict(x=x, y=np.zeros(N), energy=np.zeros(N), fc=40.0, fs=fs, q=0.7071)


if __name__ == "__main__":
    inputs = make_inputs("large")
    total = filter_signal(**inputs)
    y = inputs["y"]
    print(f"energy = {total:.6f}")
    print(f"y mean = {y.mean():.6f}")
    print(f"y std  = {y.std():.6f}")
    print(f"y[-1]  = {y[-1]:.6f}")
