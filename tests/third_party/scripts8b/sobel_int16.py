"""Sobel edges on an int16 copy of a uint8 image: shifted-slice sums, `np.abs(gx) + np.abs(gy)`
in int16, a threshold, and a looped version with a 3x3 kernel written into a preallocated
int32 output; the gradient magnitude through np.hypot in float32.
"""
import numpy as np


def sobel(img):
    a = img.astype(np.int16)
    gx = np.zeros_like(a)
    gy = np.zeros_like(a)
    gx[1:-1, 1:-1] = (a[:-2, 2:] + 2 * a[1:-1, 2:] + a[2:, 2:]) - (a[:-2, :-2] + 2 * a[1:-1, :-2] + a[2:, :-2])
    gy[1:-1, 1:-1] = (a[2:, :-2] + 2 * a[2:, 1:-1] + a[2:, 2:]) - (a[:-2, :-2] + 2 * a[:-2, 1:-1] + a[:-2, 2:])
    mag = np.abs(gx) + np.abs(gy)
    edges = mag > 200
    return mag, edges, int(edges.sum())


def sobel_loops(img, out):
    k = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], dtype=np.int32)
    h, w = img.shape
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            out[i, j] = (img[i - 1:i + 2, j - 1:j + 2] * k).sum()
    return out.max(), out.min()


def magnitude(img):
    a = img.astype(np.float32)
    gx = a[1:-1, 2:] - a[1:-1, :-2]
    gy = a[2:, 1:-1] - a[:-2, 1:-1]
    m = np.hypot(gx, gy)
    return m, m.mean(), m.dtype


def make_image():
    rng = np.random.default_rng(5)
    img = rng.integers(0, 80, (10, 12)).astype(np.uint8)
    img[:, 6:] += 150
    return img


CHECKS = {"sobel": lambda: (make_image(),), "sobel_loops": lambda: (make_image(), np.zeros((10, 12), np.int32)),
          "magnitude": lambda: (make_image(),)}

if __name__ == "__main__":
    img = make_image()
    mag, edges, n = sobel(img)
    print(mag.dtype, int(mag.sum()), n)
    out = np.zeros((10, 12), np.int32)
    print(sobel_loops(img, out), int(out.sum()))
    m, mean, dt = magnitude(img)
    print(dt, repr(mean), float(m.max()))
