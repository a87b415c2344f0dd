"""A 3x3 median filter in pixel loops over an int16 image with reflect padding (np.sort of the
flattened window and the middle element), a salt-and-pepper corruption through a Generator,
and the count of pixels the filter changed; the border left untouched in a second version.
"""
import numpy as np


def median3(img):
    p = np.pad(img, 1, mode="reflect")
    out = np.empty_like(img)
    h, w = img.shape
    for i in range(h):
        for j in range(w):
            win = np.sort(p[i:i + 3, j:j + 3].ravel())
            out[i, j] = win[4]
    return out


def median_inner(img):
    out = img.copy()
    for i in range(1, img.shape[0] - 1):
        for j in range(1, img.shape[1] - 1):
            out[i, j] = np.median(img[i - 1:i + 2, j - 1:j + 2])
    changed = np.count_nonzero(out != img)
    return out, changed


def corrupt(img, seed, frac):
    rng = np.random.default_rng(seed)
    noisy = img.copy()
    u = rng.random(img.shape)
    noisy[u < frac / 2] = -100
    noisy[u > 1 - frac / 2] = 400
    return noisy


def make_image():
    y, x = np.mgrid[0:9, 0:11]
    return (x * 10 + y * 3).astype(np.int16)


CHECKS = {"median3": lambda: (corrupt(make_image(), 1, 0.2),), "median_inner": lambda: (corrupt(make_image(), 2, 0.3),),
          "corrupt": lambda: (make_image(), 4, 0.25)}

if __name__ == "__main__":
    img = make_image()
    noisy = corrupt(img, 1, 0.2)
    m = median3(noisy)
    print(m.dtype, int(np.abs(m - img).sum()), int((noisy != img).sum()))
    out, changed = median_inner(noisy)
    print(out.dtype, changed, type(changed).__name__, int(out.sum()))
