"""uint8 image arithmetic as image code writes it: brightening by `img + 50` (wraps modulo 256),
a saturating version through int16 and np.clip then astype, an in-place `img += 30` on a view,
histogram equalisation by bincount and cumsum with a uint8 lookup table, and an inversion by `255 - img`.
"""
import numpy as np


def brighten(img, amount):
    wrapped = img + amount
    sat = np.clip(img.astype(np.int16) + amount, 0, 255).astype(np.uint8)
    return wrapped, sat


def brighten_roi(img):
    roi = img[2:6, 3:9]
    roi += 30
    roi[roi < 40] = 40
    return img.sum(), int(img.max())


def equalise(img):
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    nz = cdf[cdf > 0]
    cmin = nz[0]
    lut = np.round((cdf - cmin) * 255.0 / (cdf[-1] - cmin))
    lut = np.clip(lut, 0, 255).astype(np.uint8)
    out = lut[img]
    return out, lut, hist.max()


def invert_and_mean(img):
    inv = 255 - img
    m = inv.mean()
    half = inv // 2
    return inv, half, m, inv.dtype == img.dtype


def make_image():
    rng = np.random.default_rng(3)
    return rng.integers(0, 256, (12, 14), dtype=np.uint8)


CHECKS = {"brighten": lambda: (make_image(), 50), "brighten_roi": lambda: (make_image(),),
          "equalise": lambda: (make_image() // 3,), "invert_and_mean": lambda: (make_image(),)}

if __name__ == "__main__":
    img = make_image()
    w, s = brighten(img, 50)
    print(w.dtype, int(w.sum()), int(s.sum()), s.dtype)
    tot, mx = brighten_roi(img)
    print(repr(tot), type(tot).__name__, mx, int(img.sum()))
    out, lut, hm = equalise(img // 3)
    print(out.dtype, int(out.sum()), lut[:8], repr(hm))
    inv, half, m, same = invert_and_mean(img)
    print(inv.dtype, half.dtype, repr(m), same, int(half.sum()))
