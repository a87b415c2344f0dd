"""Reduced kernels in the style of third-party linear-algebra and stencil benchmarks (polybench
ported to NumPy) that np2ref answered wrongly, or refused with a raw JAX error, before:
tests/third_party/test_linalg_stencils.py runs each against NumPy."""
import numpy as np


def iir_backward(a3, a4, img):
    # deriche's backward pass: xp2 takes xp1's Python float in the first iteration and a
    # NumPy float32 from the second (a raw scan TypeError: its carry settled as float64)
    y2 = np.empty_like(img)
    for i in range(img.shape[0]):
        xp1 = 0.0
        xp2 = 0.0
        for j in range(img.shape[1] - 1, -1, -1):
            y2[i, j] = a3 * xp1 + a4 * xp2
            xp2 = xp1
            xp1 = img[i, j]
    return y2


def three_tap_history(x):
    a = b = c = 0.0
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = 0.5 * a + 0.25 * b + 0.125 * c
        c = b
        b = a
        a = x[i]
    return out, c


def three_tap_scaled(x):
    # c holds the Python float 0.1 for three trips: `0.11 * c * 3.0` is a Python float there (float64)
    a = b = c = 0.1
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = 0.3 * a + 0.7 * b + 0.11 * c * 3.0
        c = b
        b = a
        a = x[i]
    return out, c, 0.3 * c


def scaled_accumulate(x):
    acc = 0.3  # NumPy's first iteration: 0.3 * 3.0 in Python floats, then float32 (0.3 was rounded first)
    for i in range(x.shape[0]):
        acc = acc * 3.0 + x[i]
    return acc


def pair_table(seq):
    # nussinov, vectorised: the slices' bounds are both loop variables (both loops ran as Python:
    # 133 s to compile at n = 25)
    n = seq.shape[0]
    table = np.zeros((n, n), np.int32)
    for i in range(n - 1, -1, -1):
        for j in range(i + 1, n):
            table[i, j] = np.maximum(table[i, j], table[i + 1, j - 1] + (seq[i] + seq[j] == 3))
            if i + 1 < j:
                table[i, j] = np.maximum(table[i, j], np.max(table[i, i + 1:j] + table[i + 2:j + 1, j]))
    return table


def prefix_reductions(x):
    out = np.zeros(x.shape[0] - 1, np.float64)
    for k in range(1, x.shape[0]):
        out[k - 1] = np.sum(x[:k]) + np.amax(x[k:]) - np.min(x[k - 1:k + 1])
    return out


def levinson(r):
    # durbin: a slice of run-time length reversed (both loops ran as Python: `[::-1]` and np.flip
    # of such a slice were refused while tracing)
    n = r.shape[0]
    y = np.empty_like(r)
    alpha = -r[0]
    beta = 1.0
    y[0] = -r[0]
    for k in range(1, n):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + np.dot(np.flip(r[:k]), y[:k])) / beta
        y[:k] += alpha * y[:k][::-1]
        y[k] = alpha
    return y


def reversed_windows(x, A):
    out = np.zeros(x.shape[0], x.dtype)
    for k in range(1, x.shape[0] // 2):
        out[k] = np.sum(x[k:2 * k][::-1] * x[:k]) + np.sum(A[:k, 1:][::-1] * A[1:k + 1, :-1])
    return out
