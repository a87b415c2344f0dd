"""Contrast stretching followed by global histogram equalisation of an
integer grey-level image.

Domain: image processing (e.g. pre-processing of microscopy / radiography
frames). Robust percentiles come from an in-place sort, the image is
stretched with integer //= arithmetic and clipped in place, the histogram is
accumulated with np.add.at (every pixel of the same level hits the same bin),
the cumulative histogram is written with np.cumsum(..., out=...) and turned
into an integer lookup table, and the image is remapped through a flat view.
Per-tile maxima are gathered with np.maximum.at.
"""
import numpy as np

ENTRY = "equalise_image"

TILE = 4          # tile edge length for the tile-maximum diagnostic
PCT = 2           # robust stretch percentile (percent)


def percentiles(img):
    vals = img.ravel().copy()
    vals.sort()
    n = vals.shape[0]
    cut = (n * PCT) // 100
    return vals[cut], vals[n - 1 - cut]


def stretch(img, lo, hi, nbins):
    """Linear integer contrast stretch of img in place; returns img."""
    img -= lo
    img *= nbins - 1
    img //= np.maximum(hi - lo, 1)
    np.clip(img, 0, nbins - 1, out=img)
    return img


def compute_histogram(img, hist):
    hist.fill(0)
    np.add.at(hist, img.ravel(), 1)


def build_lut(hist, cdf, lut):
    nbins = hist.shape[0]
    np.cumsum(hist, out=cdf)
    cdf_min = cdf[np.argmax(cdf > 0)]
    lut[...] = cdf - cdf_min
    lut *= nbins - 1
    lut //= np.maximum(cdf[-1] - cdf_min, 1)
    np.clip(lut, 0, nbins - 1, out=lut)


def remap(img, lut):
    flat = img.ravel()            # a view: img is C-contiguous
    flat[...] = lut[flat]


def tile_maxima(img):
    ny, nx = img.shape
    nty = (ny + TILE - 1) // TILE
    ntx = (nx + TILE - 1) // TILE
    rows, cols = np.meshgrid(np.arange(ny), np.arange(nx), indexing="ij")
    rows //= TILE
    cols //= TILE
    tile_id = rows * ntx + cols
    tmax = np.zeros(nty * ntx, dtype=img.dtype)
    np.maximum.at(tmax, tile_id.ravel(), img.ravel())
    return tmax


def equalise_image(img, hist, lut):
    """Stretch + equalise img in place; hist and lut are work outputs.

    Returns (tile maxima, number of occupied levels before, after)."""
    nbins = hist.shape[0]
    lo, hi = percentiles(img)
    stretch(img, lo, hi, nbins)
    occupied = np.zeros(nbins, dtype=np.int64)
    occupied[img.ravel()] += 1          # buffered: each level counted once
    levels_before = np.sum(occupied)
    compute_histogram(img, hist)
    cdf = np.zeros_like(hist)
    build_lut(hist, cdf, lut)
    remap(img, lut)
    occupied.fill(0)
    occupied[img.ravel()] = 1
    levels_after = np.sum(occupied)
    return tile_maxima(img), levels_before, levels_after


def make_inputs(size="small"):
    rng = np.random.default_rng(0)
    if size == "small":
        ny, nx, nbins = 12, 12, 16
    else:
        ny, nx, nbins = 1024, 1024, 256
    y, x = np.meshgrid(np.linspace(0, 1, ny), np.linspace(0, 1, nx), indexing="ij")
    base = 0.35 + 0.15 * np.sin(6.0 * x) * np.cos(4.0 * y) + 0.05 * rng.standard_normal((ny, nx))
    img = np.clip((base * (nbins - 1)).astype(np.int64), 0, nbins - 1)
    return dict(img=img, hist=np.zeros(nbins, dtype=np.int64),
                lut=np.zeros(nbins, dtype=np.int64))


if __name__ == "__main__":
    inputs = make_inputs("large")
    tmax, before, after = equalise_image(**inputs)
    img = inputs["img"]
    print(f"mean level      = {img.mean():.6f}")
    print(f"levels before   = {before}, after = {after}")
    print(f"mean tile max   = {tmax.mean():.6f}")
    print(f"hist peak       = {inputs['hist'].max()}")
