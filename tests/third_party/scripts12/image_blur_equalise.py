"""An image pipeline as image-processing tutorials write it without SciPy: a Gaussian kernel from
a module-level sigma, a separable blur of a uint8 image in two 1-D passes written with
`np.multiply(..., out=)` and `np.add(..., out=)` into float32 work arrays over shifted views of an
edge-padded copy, unsharp masking `sharp = img + AMOUNT * (img - blur)` clipped into uint8 with
`np.clip(..., out=)` then `.astype(np.uint8)`, histogram equalisation by np.bincount, np.cumsum and
np.interp of the pixel values onto the normalised CDF, a 3x3 box filter for the border walked by
flat indices and `divmod` (written `out.flat[idx] = ...` it is NPR205: writes through `.flat`
are not modelled, docs/semantics.md; `out[i, j]` translates), and statistics printed per stage.
"""
import numpy as np

SIGMA = 1.2
RADIUS = 3
AMOUNT = 0.8
_x = np.arange(-RADIUS, RADIUS + 1)
KERNEL = np.exp(-0.5 * (_x / SIGMA) ** 2)
KERNEL /= KERNEL.sum()
rng = np.random.default_rng(8)
IMG = np.clip(rng.normal(90.0, 30.0, size=(16, 20)), 0, 255).astype(np.uint8)
IMG[4:10, 6:14] += 60


def blur_rows(src, out, kernel):
    r = kernel.shape[0] // 2
    padded = np.pad(src.astype(np.float32), ((0, 0), (r, r)), mode="edge")
    tmp = np.empty_like(out)
    out[...] = 0.0
    for k in range(kernel.shape[0]):
        np.multiply(padded[:, k:k + out.shape[1]], np.float32(kernel[k]), out=tmp)
        np.add(out, tmp, out=out)
    return out


def blur(img, kernel):
    h, w = img.shape
    rows = np.empty((h, w), dtype=np.float32)
    blur_rows(img, rows, kernel)
    cols = np.empty((w, h), dtype=np.float32)
    blur_rows(rows.T, cols, kernel)
    return cols.T.copy()


def unsharp(img, blurred, amount):
    sharp = img.astype(np.float32) + np.float32(amount) * (img - blurred)
    np.clip(sharp, 0, 255, out=sharp)
    return sharp.astype(np.uint8)


def equalise(img):
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = np.cumsum(hist).astype(np.float64)
    lo = cdf[np.flatnonzero(hist)[0]] if hist.any() else 0.0
    cdf = (cdf - lo) / max(cdf[-1] - lo, 1.0) * 255.0
    out = np.interp(img.ravel(), np.arange(256), cdf)
    return np.round(out).astype(np.uint8).reshape(img.shape)


def border_box(img, out):
    h, w = img.shape
    out[...] = img
    for idx in range(img.size):
        i, j = divmod(idx, w)
        if 0 < i < h - 1 and 0 < j < w - 1:
            continue
        i0, i1 = max(i - 1, 0), min(i + 2, h)
        j0, j1 = max(j - 1, 0), min(j + 2, w)
        out[i, j] = int(img[i0:i1, j0:j1].mean())
    return out


CHECKS = {
    "blur": lambda: (IMG.copy(), KERNEL.copy()),
    "blur_rows": lambda: (IMG.copy(), np.zeros((16, 20), dtype=np.float32), KERNEL.copy()),
    "unsharp": lambda: (IMG.copy(), blur(IMG, KERNEL), AMOUNT),
    "equalise": lambda: (IMG.copy(),),
    "border_box": lambda: (IMG.copy(), np.zeros_like(IMG)),
}

if __name__ == "__main__":
    soft = blur(IMG, KERNEL)
    print("blur", soft.dtype, np.float32(soft.mean()), np.float32(soft.max()))
    sharp = unsharp(IMG, soft, AMOUNT)
    print("sharp", sharp.dtype, int(sharp.min()), int(sharp.max()), np.bincount(sharp.ravel() // 64, minlength=4).tolist())
    eq = equalise(sharp)
    print("equalised", int(eq.min()), int(eq.max()), repr(round(float(eq.std()), 6)))
    edged = border_box(eq, np.empty_like(eq))
    print("border", edged[0, :6].tolist(), edged[-1, -6:].tolist(), int(edged.sum()))
