"""Lloyd relaxation of sites on a raster (the pattern of blue-noise / stippling scripts):
sites drawn once at module level as float32 and handed on, a discrete Voronoi diagram of a
pixel grid by `np.argmin` of squared distances, weighted centroids by `np.bincount(...,
weights=, minlength=)` with empty cells keeping their site (`np.divide(..., out=site.copy(),
where=count > 0)`), sites moved in place through column views, a `while` on the largest move
with a print every few sweeps, an int16 label image, the cell areas' spread, and a jittered
variant that rebinds the site array each sweep (`sites, old = old, sites`).
"""
import numpy as np

W, H = 24, 18
YY, XX = np.mgrid[0:H, 0:W]
PIX = np.stack([XX.ravel() + 0.5, YY.ravel() + 0.5], axis=1)
DENSITY = (1.0 + 3.0 * np.exp(-((PIX[:, 0] - 8.0) ** 2 + (PIX[:, 1] - 9.0) ** 2) / 40.0)).astype(np.float32)
START = (np.random.default_rng(11).random((12, 2)) * np.array([W, H])).astype(np.float32)


def voronoi_labels(sites, pix):
    d2 = ((pix[:, None, :] - sites[None, :, :]) ** 2).sum(axis=2)
    return np.argmin(d2, axis=1)


def centroids(sites, pix, labels, weight):
    k = sites.shape[0]
    mass = np.bincount(labels, weights=weight, minlength=k)
    cx = np.bincount(labels, weights=weight * pix[:, 0], minlength=k)
    cy = np.bincount(labels, weights=weight * pix[:, 1], minlength=k)
    new = sites.astype(np.float64)
    np.divide(cx, mass, out=new[:, 0], where=mass > 0)
    np.divide(cy, mass, out=new[:, 1], where=mass > 0)
    return new, mass


def relax(sites, weight, tol=1e-3, max_sweeps=50):
    sweep = 0
    move = np.inf
    while move > tol and sweep < max_sweeps:
        labels = voronoi_labels(sites, PIX)
        new, mass = centroids(sites, PIX, labels, weight)
        move = float(np.max(np.hypot(new[:, 0] - sites[:, 0], new[:, 1] - sites[:, 1])))
        sites[:, 0] = new[:, 0]
        sites[:, 1] = new[:, 1]
        sweep += 1
        if sweep % 5 == 0:
            print("sweep", sweep, "max move", round(move, 6), "empty", int((mass == 0).sum()))
    return sweep, move


def jittered(sites, weight, sweeps, rng, scale):
    old = sites.copy()
    out = np.empty_like(sites)
    for s in range(sweeps):
        labels = voronoi_labels(old, PIX)
        new, _ = centroids(old, PIX, labels, weight)
        out[...] = new + scale * rng.standard_normal(new.shape)
        np.clip(out[:, 0], 0.0, W, out=out[:, 0])
        np.clip(out[:, 1], 0.0, H, out=out[:, 1])
        old, out = out, old
        scale *= 0.5
    return old


def label_image(sites):
    return voronoi_labels(sites, PIX).astype(np.int16).reshape(H, W)


def area_spread(labels, k):
    areas = np.bincount(labels.ravel(), minlength=k)
    return areas.min(), areas.max(), areas.std()


CHECKS = {
    "voronoi_labels": lambda: (START, PIX),
    "centroids": lambda: (START, PIX, voronoi_labels(START, PIX), DENSITY),
    "centroids#empty": lambda: (np.vstack([START, [[500.0, 500.0]]]).astype(np.float32), PIX,
                                voronoi_labels(START, PIX), DENSITY),
    "relax": lambda: (START.astype(np.float64), DENSITY, 1e-2, 30),
    "relax#float32": lambda: (START.copy(), DENSITY, 1e-2, 8),
    "jittered": lambda: (START.astype(np.float64), DENSITY, 4, np.random.default_rng(5), 0.3),
    "label_image": lambda: (START,),
    "area_spread": lambda: (label_image(START), 12),
}

if __name__ == "__main__":
    sites = START.astype(np.float64)
    n, move = relax(sites, DENSITY, 1e-4, 100)
    print("sweeps", n, "final move", move, type(move).__name__)
    lab = label_image(sites)
    print("labels", lab.dtype, area_spread(lab, 12))
    j = jittered(START.astype(np.float64), DENSITY, 6, np.random.default_rng(9), 0.5)
    print("jittered mean", j.mean(axis=0), j.dtype)
    s32 = START.copy()
    relax(s32, DENSITY, 1e-2, 5)
    print("float32 sites", s32.dtype, np.round(s32[:3], 3))
