"""Grey-level morphology and a median filter written with pixel loops: erosion and dilation by
`window.min()`/`.max()` over a padded uint8 image (`np.pad(mode="edge")`), opening as erosion then
dilation into preallocated outputs, a 3x3 median by `np.median(window)` cast back to uint8, a
threshold producing a bool mask, and connected-pixel counting by a stack-based flood fill.
"""
import numpy as np


def erode(img, out):
    p = np.pad(img, 1, mode="edge")
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            out[i, j] = p[i:i + 3, j:j + 3].min()
    return out


def dilate(img, out):
    p = np.pad(img, 1, mode="edge")
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            out[i, j] = p[i:i + 3, j:j + 3].max()
    return out


def median3(img):
    p = np.pad(img, 1, mode="edge")
    out = np.empty_like(img)
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            out[i, j] = np.median(p[i:i + 3, j:j + 3])
    return out


def opening(img):
    tmp = np.empty_like(img)
    res = np.empty_like(img)
    erode(img, tmp)
    dilate(tmp, res)
    return res


def count_blobs(mask):
    seen = np.zeros(mask.shape, dtype=bool)
    blobs = 0
    h, w = mask.shape
    for i in range(h):
        for j in range(w):
            if mask[i, j] and not seen[i, j]:
                blobs += 1
                stack = [(i, j)]
                seen[i, j] = True
                while stack:
                    a, b = stack.pop()
                    for da, db in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        x, y = a + da, b + db
                        if 0 <= x < h and 0 <= y < w and mask[x, y] and not seen[x, y]:
                            seen[x, y] = True
                            stack.append((x, y))
    return blobs


def make_image():
    rng = np.random.default_rng(8)
    img = (rng.random((14, 16)) * 60).astype(np.uint8)
    img[3:7, 4:9] += 150
    img[9:12, 10:14] += 120
    img[5, 12] = 255
    return img


CHECKS = {"opening": lambda: (make_image(),), "median3": lambda: (make_image(),),
          "erode": lambda: (make_image(), np.zeros((14, 16), np.uint8)), "count_blobs": lambda: (make_image() > 100,)}

if __name__ == "__main__":
    img = make_image()
    o = opening(img)
    m = median3(img)
    print(o.dtype, repr(int(o.sum())), repr(int(m.sum())), m.dtype, count_blobs(m > 100), count_blobs(img > 100))
