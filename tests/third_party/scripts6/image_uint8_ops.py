"""Image processing on uint8 and int16 arrays: a box blur by shifted slices with integer
division, saturating brightness with `np.clip(..., out=)` on a wider copy, a median of three
by an in-place `sort` along an axis, a histogram by `np.bincount`, equalisation through a
lookup table `img[...] = lut[img]`, and thresholding by a boolean mask in place.
"""
import numpy as np

H, W = 12, 14


def make_image(seed):
    rng = np.random.default_rng(seed)
    base = np.add.outer(np.arange(H) * 9, np.arange(W) * 7)
    return ((base + rng.integers(0, 40, size=(H, W))) % 256).astype(np.uint8)


def box_blur(img):
    wide = img.astype(np.int16)
    out = wide.copy()
    out[1:-1, 1:-1] = (wide[:-2, 1:-1] + wide[2:, 1:-1] + wide[1:-1, :-2] + wide[1:-1, 2:]
                       + wide[1:-1, 1:-1]) // 5
    return out.astype(np.uint8)


def brighten(img, amount):
    wide = img.astype(np.int16)
    wide += amount
    np.clip(wide, 0, 255, out=wide)
    wrapped = img + np.uint8(amount)
    return wide.astype(np.uint8), wrapped


def median3(img):
    stack = np.stack([img[:-2], img[1:-1], img[2:]], axis=0)
    stack.sort(axis=0)
    out = img.copy()
    out[1:-1] = stack[1]
    return out


def equalise(img):
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[cdf > 0].min()
    lut = np.round((cdf - cdf_min) / (cdf[-1] - cdf_min) * 255).astype(np.uint8)
    img[...] = lut[img]
    return hist.max(), lut


def threshold(img, level):
    mask = img > level
    img[mask] = 255
    img[~mask] //= 2
    return int(mask.sum())


def pipeline(img):
    blurred = box_blur(img)
    bright, wrapped = brighten(blurred, 60)
    med = median3(bright)
    peak, lut = equalise(med)
    n = threshold(med, 200)
    return blurred, bright, wrapped, med, peak, n


CHECKS = {
    "pipeline": lambda: (make_image(1),),
    "equalise": lambda: (make_image(2),),
    "threshold": lambda: (make_image(3), 128),
    "median3": lambda: (make_image(4),),
}

if __name__ == "__main__":
    img = make_image(1)
    blurred, bright, wrapped, med, peak, n = pipeline(img)
    print(int(blurred.sum()), int(bright.sum()), int(wrapped.sum()), int(med.sum()), repr(peak), n)
    print(med.dtype, wrapped.dtype, med[3].tolist())
