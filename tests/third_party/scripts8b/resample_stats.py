"""Signal bookkeeping: a running max/min envelope in a loop with np.maximum(..., out=), peak picking
by neighbour comparisons, a decimate-and-hold by repeat, a linear-interpolation upsample by np.interp,
RMS per frame over reshaped views, and a clipped float32 to int16 PCM conversion with rounding.
"""
import numpy as np


def envelope(x, decay):
    env = np.zeros_like(x)
    level = 0.0
    for i in range(x.shape[0]):
        level = max(abs(x[i]), level * decay)
        env[i] = level
    hi = np.zeros_like(x)
    np.maximum.accumulate(np.abs(x), out=hi)
    return env, hi, level


def peaks(x, thresh):
    mid = x[1:-1]
    is_peak = (mid > x[:-2]) & (mid >= x[2:]) & (mid > thresh)
    count = 0
    for i in range(mid.shape[0]):
        if is_peak[i]:
            count += 1
    return is_peak, count


def frame_rms(x, frame):
    n = x.shape[0] // frame
    frames = x[:n * frame].reshape(n, frame)
    rms = np.sqrt((frames ** 2).mean(axis=1))
    held = np.repeat(rms, frame)
    return rms, held


def to_pcm(x, gain):
    y = x * gain
    np.clip(y, -1.0, 1.0, out=y)
    pcm = np.round(y * 32767).astype(np.int16)
    back = pcm / 32768
    return pcm, back.dtype, int(np.abs(pcm).max())


def upsample(x, factor):
    t = np.arange(x.shape[0])
    tf = np.arange((x.shape[0] - 1) * factor + 1) / factor
    return np.interp(tf, t, x)


def make_signal():
    rng = np.random.default_rng(23)
    t = np.linspace(0, 1, 48)
    return (np.sin(12 * t) * np.exp(-2 * t) + 0.2 * rng.standard_normal(48)).astype(np.float32)


CHECKS = {"envelope": lambda: (make_signal(), 0.9), "peaks": lambda: (make_signal(), 0.1),
          "frame_rms": lambda: (make_signal(), 8), "to_pcm": lambda: (make_signal(), 1.7),
          "upsample": lambda: (make_signal().astype(np.float64), 3)}

if __name__ == "__main__":
    x = make_signal()
    env, hi, level = envelope(x, 0.9)
    print(env.dtype, type(level).__name__, repr(level), repr(float(hi[-1])))
    p, c = peaks(x, 0.1)
    print(c, np.flatnonzero(p))
    print(frame_rms(x, 8)[0])
    pcm, dt, mx = to_pcm(x, 1.7)
    print(pcm[:10], dt, mx, repr(int(pcm.sum())))
    print(upsample(x.astype(np.float64), 3)[:7])
