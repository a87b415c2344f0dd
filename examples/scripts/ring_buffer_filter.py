"""A streaming moving-average filter with a ring buffer rebound by `np.roll` and written after.

`buf = np.roll(buf, -1)` rebinds the window to a new array and `buf[-1] = sample` writes it (the
caller's buffer keeps its first state); a second window is kept in place by index
(`ring[k % W] = sample`); `out[k] = ...` fills a preallocated output; a float32 running
variance uses np.float32 scalars.
"""
import numpy as np

ENTRY = "stream"


def stream(signal, buf, ring, alpha):
    W = buf.size
    out = np.zeros_like(signal)
    out2 = np.zeros_like(signal)
    var = np.float32(0.0)
    for k in range(signal.size):
        sample = signal[k]
        buf = np.roll(buf, -1)
        buf[-1] = sample
        ring[k % W] = sample
        out[k] = buf.mean()
        out2[k] = ring.sum() / W
        d = np.float32(sample) - np.float32(out[k])
        var = np.float32(1.0 - alpha) * var + np.float32(alpha) * d * d
    print("variance", repr(var), type(var).__name__)
    return out, out2, var


def make_inputs(size="small"):
    n = 20 if size == "small" else 500
    rng = np.random.default_rng(30)
    t = np.linspace(0.0, 4.0, n)
    return dict(signal=np.sin(t) + 0.1 * rng.standard_normal(n), buf=np.zeros(5),
                ring=np.zeros(5), alpha=0.1)


if __name__ == "__main__":
    inputs = make_inputs("large")
    out, out2, var = stream(**inputs)
    print(repr(out[-3:].tolist()), repr(out2[-3:].tolist()), repr(var), repr(inputs["buf"].tolist()), repr(inputs["ring"].tolist()))
