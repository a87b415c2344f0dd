"""Seam carving for content-aware image shrinking (the pattern of the many "seam carving in
Python" blog scripts): a float64 gradient-magnitude energy with `np.abs(np.diff(...))` and edge
padding, the cumulative minimum energy by a row-by-row dynamic program (`M[i, 1:-1] += min of
three shifted views` and `np.argmin` over a window for the backtrack), the seam traced back into
an int64 array, the seam's pixels removed with a boolean mask and `reshape`, and the carving
repeated in a loop that rebinds the image (its width shrinks each time, the protected-region mask carved
alongside; the forms first written (a window of run-time length, a mask read) kept
as checks of their refusals beside the forms that translate); uint8 images and a summary print per seam.
"""
import numpy as np


def energy(img):
    g = img.astype(np.float64)
    if g.ndim == 3:
        g = g.sum(axis=2)
    dx = np.zeros_like(g)
    dy = np.zeros_like(g)
    dx[:, 1:-1] = np.abs(g[:, 2:] - g[:, :-2]) / 2.0
    dx[:, 0] = np.abs(g[:, 1] - g[:, 0])
    dx[:, -1] = np.abs(g[:, -1] - g[:, -2])
    dy[1:-1, :] = np.abs(g[2:, :] - g[:-2, :]) / 2.0
    dy[0, :] = np.abs(g[1, :] - g[0, :])
    dy[-1, :] = np.abs(g[-1, :] - g[-2, :])
    return dx + dy


def cumulative(e):
    M = e.copy()
    h, w = M.shape
    for i in range(1, h):
        up = M[i - 1]
        best = up.copy()
        best[1:] = np.minimum(best[1:], up[:-1])
        best[:-1] = np.minimum(best[:-1], up[1:])
        M[i] += best
    return M


def find_seam(M):
    h, w = M.shape
    seam = np.empty(h, dtype=np.int64)
    seam[-1] = np.argmin(M[-1])
    for i in range(h - 2, -1, -1):
        j = seam[i + 1]
        lo = max(j - 1, 0)
        seam[i] = lo + np.argmin(M[i, lo:j + 2])
    return seam


def find_seam_padded(M):
    # the window read from a row padded with inf: three values whatever j is
    h, w = M.shape
    padded = np.full((h, w + 2), np.inf)
    padded[:, 1:-1] = M
    seam = np.empty(h, dtype=np.int64)
    seam[-1] = np.argmin(M[-1])
    for i in range(h - 2, -1, -1):
        j = seam[i + 1]
        seam[i] = j - 1 + np.argmin(padded[i, j:j + 3])
    return seam


def find_seam_gather(M):
    # the three neighbours gathered by clipped indices, those outside the row at inf
    h, w = M.shape
    offs = np.array([-1, 0, 1])
    seam = np.empty(h, dtype=np.int64)
    seam[-1] = np.argmin(M[-1])
    for i in range(h - 2, -1, -1):
        cols = seam[i + 1] + offs
        vals = np.where((cols >= 0) & (cols < w), M[i, np.clip(cols, 0, w - 1)], np.inf)
        seam[i] = cols[np.argmin(vals)]
    return seam


def remove_seam_cols(img, seam):
    # the kept columns gathered: every column right of the seam moves left by one
    h, w = img.shape[:2]
    cols = np.arange(w - 1)[None, :]
    cols = cols + (cols >= seam[:, None])
    return img[np.arange(h)[:, None], cols]


def remove_seam(img, seam):
    h, w = img.shape[:2]
    keep = np.ones((h, w), dtype=bool)
    keep[np.arange(h), seam] = False
    if img.ndim == 3:
        return img[keep].reshape(h, w - 1, img.shape[2])
    return img[keep].reshape(h, w - 1)


def carve(img, n_seams, protect=None):
    total = 0.0
    for k in range(n_seams):
        e = energy(img)
        if protect is not None:
            e[protect] += 1e6
        M = cumulative(e)
        seam = find_seam_gather(M)
        total += M[-1, seam[-1]]
        img = remove_seam_cols(img, seam)
        if protect is not None:
            protect = remove_seam_cols(protect, seam)
        if k % 3 == 0:
            print("seam", k, "cost", M[-1, seam[-1]], "width", img.shape[1])
    return img, total


def make_image(h, w, seed):
    rng = np.random.default_rng(seed)
    img = (rng.random((h, w, 3)) * 40).astype(np.uint8)
    img[h // 3: 2 * h // 3, w // 4: w // 2] += np.array([180, 60, 20], dtype=np.uint8)
    yy, xx = np.mgrid[0:h, 0:w]
    img[(yy - h // 2) ** 2 + (xx - 3 * w // 4) ** 2 < (h // 5) ** 2, 1] = 220
    return img


IMG = make_image(14, 20, 5)
PROTECT = np.zeros((14, 20), dtype=bool)
PROTECT[5:9, 6:9] = True

CHECKS = {
    "energy": lambda: (IMG,),
    "energy#gray": lambda: (IMG[:, :, 0],),
    "cumulative": lambda: (energy(IMG),),
    "find_seam": lambda: (cumulative(energy(IMG)),),
    "find_seam_padded": lambda: (cumulative(energy(IMG)),),
    "find_seam_gather": lambda: (cumulative(energy(IMG)),),
    "remove_seam_cols": lambda: (IMG, find_seam(cumulative(energy(IMG)))),
    "remove_seam": lambda: (IMG, find_seam(cumulative(energy(IMG)))),
    "carve": lambda: (IMG, 4),
    "carve#protect": lambda: (IMG, 3, PROTECT.copy()),
}

if __name__ == "__main__":
    out, cost = carve(IMG, 6, PROTECT.copy())
    print("shape", out.shape, out.dtype, "total cost", cost)
    print("channel means", out.reshape(-1, 3).mean(axis=0))
    print("corner", out[0, :4, 0])
