"""Image conversions on uint8: Floyd-Steinberg error diffusion in float64 pixel loops (the threshold
decides each output pixel), RGB to grey by integer weights in uint16 and by float weights truncated
by astype(np.uint8), and an integer YCbCr conversion `(66 * r + 129 * g + 25 * b + 128) >> 8` done
once in uint8 (wrapping, as NumPy computes it) and once after widening to int32.
"""
import numpy as np


def dither(grey):
    f = grey.astype(np.float64)
    out = np.zeros(grey.shape, dtype=np.uint8)
    h, w = f.shape
    for i in range(h):
        for j in range(w):
            old = f[i, j]
            new = 255.0 if old > 127.5 else 0.0
            out[i, j] = new
            err = old - new
            if j + 1 < w:
                f[i, j + 1] += err * 7 / 16
            if i + 1 < h:
                if j > 0:
                    f[i + 1, j - 1] += err * 3 / 16
                f[i + 1, j] += err * 5 / 16
                if j + 1 < w:
                    f[i + 1, j + 1] += err * 1 / 16
    return out, int(out.sum() // 255)


def grey_int(rgb):
    r = rgb[..., 0].astype(np.uint16)
    g = rgb[..., 1].astype(np.uint16)
    b = rgb[..., 2].astype(np.uint16)
    return ((77 * r + 150 * g + 29 * b) >> 8).astype(np.uint8)


def grey_float(rgb):
    y = rgb @ np.array([0.299, 0.587, 0.114])
    return y.astype(np.uint8), (y + 0.5).astype(np.uint8)


def ycbcr_y(rgb):
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    wrapped = (66 * r + 129 * g + 25 * b + 128) >> 1
    r32, g32, b32 = r.astype(np.int32), g.astype(np.int32), b.astype(np.int32)
    wide = ((66 * r32 + 129 * g32 + 25 * b32 + 128) >> 8) + 16
    return wrapped, wide, wrapped.dtype


def make_rgb():
    rng = np.random.default_rng(17)
    return rng.integers(0, 256, (6, 7, 3), dtype=np.uint8)


CHECKS = {"dither": lambda: (grey_int(make_rgb()),), "grey_int": lambda: (make_rgb(),),
          "grey_float": lambda: (make_rgb(),), "ycbcr_y": lambda: (make_rgb(),)}

if __name__ == "__main__":
    rgb = make_rgb()
    g = grey_int(rgb)
    out, n = dither(g)
    print(g.dtype, int(g.sum()), n, out[0])
    a, b = grey_float(rgb)
    print(a.dtype, int(a.sum()), int(b.sum()))
    w, wide, dt = ycbcr_y(rgb)
    print(dt, int(w.sum()), int(wide.sum()), wide.dtype)
