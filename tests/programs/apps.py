"""Reduced reproducers from application kernels in the style of third-party NumPy benchmark
collections (crc, mandelbrot, FFT, azimuthal integration...) that np2ref answered wrongly,
refused without cause or failed on before: tests/third_party/test_apps.py runs each against NumPy."""
import numpy as np


def crc16_ccitt(data):
    crc = 0xFFFF  # a Python int throughout: `^ & |` kept it one (it came back as np.int64)
    for i in range(data.shape[0]):
        crc ^= int(data[i]) << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc, ~crc | 1


def crc16_reflected(data, poly=0x8408):
    crc = 0xFFFF
    for b in data:
        cur_byte = 0xFF & b
        for _ in range(8):
            if (crc & 0x0001) ^ (cur_byte & 0x0001):
                crc = (crc >> 1) ^ poly  # a Python int parameter: crc stays a Python int
            else:
                crc >>= 1
            cur_byte >>= 1
    crc = ~crc & 0xFFFF  # `~` in a binding: still a Python int
    crc = (crc << 8) | ((crc >> 8) & 0xFF)
    return crc & 0xFFFF


def azimuthal_mean_in_bins(data, radius, npt):
    rmax = radius.max()
    res = np.zeros(npt, dtype=np.float64)
    for i in range(npt):
        r1 = rmax * i / npt  # XLA made `/ npt` (a constant) `* (1 / npt)`: r2 of the last bin was
        r2 = rmax * (i + 1) / npt  # one ulp above rmax, and the point at rmax was counted
        in_bin = np.logical_and(r1 <= radius, radius < r2)
        res[i] = data[in_bin].sum()
    return res


def scalar_quotients(x, s):
    v = x[0] * 7
    return v / 3.0, v / np.sqrt(s), v / s / 3.7, v / (s / 3.0), v / 4, 1.0 / v


def radix2_fft(x):
    N = x.shape[0]
    levels = int(np.log2(N))  # a ufunc of a size: NumPy's value, concrete (it was refused, NPR031)
    idx = np.arange(N)
    rev = np.zeros(N, dtype=np.int64)
    for b in range(levels):
        rev |= ((idx >> b) & 1) << (levels - 1 - b)
    out = x.astype(np.complex128)[rev]
    size = 2
    for _ in range(levels):
        half = size // 2
        tw = np.exp(-2j * np.pi * np.arange(half) / size)
        out = out.reshape(-1, size)
        even = out[:, :half].copy()
        odd = out[:, half:] * tw
        out[:, :half] = even + odd
        out[:, half:] = even - odd
        out = out.reshape(-1)
        size *= 2
    return out


def block_sums(x, block):
    nblocks = int(np.ceil(x.shape[0] / block))
    out = np.zeros(nblocks)
    for i in range(nblocks):
        out[i] = x[i * block:(i + 1) * block].sum()
    return out, np.sqrt(2.0) * np.float32(3), np.hypot(3, 4)


def kmeans_step(X, centers):
    d = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
    labels = d.argmin(axis=1)
    new = np.zeros_like(centers)
    for k in range(centers.shape[0]):
        m = labels == k
        if m.any():
            new[k] = X[m].mean(axis=0)  # the rows of one cluster: it was refused (NPR107)
        else:
            new[k] = centers[k]
    return labels, new


def masked_row_reductions(X, m):
    sel = X[m]
    return np.sum(X[m], axis=0), X[m].max(axis=0), sel.min(axis=-2), X[m].mean(axis=0), X[m].any(axis=0)


def masked_rows_along_axis_1(X, m):
    return X[m].sum(axis=1)  # as many values as rows selected: refused


def masked_row_mean(X, m):
    return X[m].mean(axis=0)


def pairwise_stages_while(x):
    N = x.shape[0]
    out = x.copy()
    size = 2
    while size <= N:  # a test of sizes: a Python loop (it was refused, NPR011: `out` is rebound)
        out = out.reshape(-1, size)
        out[:, :size // 2] += out[:, size // 2:] * 0.5
        out = out.reshape(-1)
        size *= 2
    return out


def halve_until(x, n):
    out = x.copy()
    while n > 1:  # n a Python int: Python's loop; an array n makes the test traced (NPR030)
        out = out.reshape(2, -1)
        out[0] += out[1]
        out = out[0].copy()
        n //= 2
    return out


def particle_cells(x, dx, ncell):
    """A particle-in-cell deposit: each particle's cell, then the count per cell. XLA made
    `x / dx` `x * (1 / dx)`: 0.3 / 0.1 is 2.9999999999999996 in NumPy, 0.3 * 10.0 is 3.0."""
    cell = (x / dx).astype(np.int64)
    counts = np.zeros(ncell, dtype=np.int64)
    np.add.at(counts, cell, 1)
    return cell, counts


def array_decisions(a, b, c, d):
    """Quotients that reach a decision (a comparison, floor, ceil, round, a remainder, a cast)."""
    return (np.floor(a / 9.0), a / d < 0.5, np.ceil(a / b / c), np.floor(a / np.sqrt(b)),
            np.round(a / (b / c)), np.floor(a[None, :] / b[:3, None]),
            np.floor(a.astype(np.float32) / np.float32(0.3)), (a / d) % 1.0)


def quantised_steps(u, steps):
    for _ in range(steps):
        u[1:-1] = np.floor((u[2:] + u[1:-1] + u[:-2]) / 0.03) * 0.1
    return u
