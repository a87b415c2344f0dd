"""A small ray tracer: one ray per pixel of a 24x32 image, spheres and a floor plane, hit
distances for all objects as a (rays, objects) array with np.inf where missed, the nearest hit by
np.argmin and a gather with np.take_along_axis, masks for the rays that hit, Lambert shading
with a shadow ray test, mirror reflections for a fixed number of bounces (directions reflected
in place for the active rays, `colour += weight * ...`, `weight *= reflectivity`, `active &=`),
float32 image output clipped with `out=` and quantised to uint8.
"""
import numpy as np

H, W = 24, 32
CENTRES = np.array([[0.0, 0.0, 3.0], [1.2, -0.3, 4.0], [-1.1, -0.5, 2.5]])
RADII = np.array([0.8, 0.7, 0.5])
COLOURS = np.array([[0.9, 0.2, 0.2], [0.2, 0.8, 0.3], [0.3, 0.3, 0.9], [0.8, 0.8, 0.8]])
REFLECT = np.array([0.3, 0.1, 0.5, 0.2])
FLOOR_Y = -1.0
LIGHT = np.array([2.0, 3.0, -1.0])
SKY = np.array([0.5, 0.7, 1.0])
EPS = 1e-6


def camera_rays(h, w):
    ys, xs = np.mgrid[0:h, 0:w]
    d = np.stack([(xs - w / 2 + 0.5) / h, -(ys - h / 2 + 0.5) / h, np.ones((h, w))], axis=-1).reshape(-1, 3)
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    return np.zeros_like(d), d


def hit_distances(o, d):
    oc = o[:, None, :] - CENTRES[None, :, :]
    b = np.sum(oc * d[:, None, :], axis=-1)
    c = np.sum(oc * oc, axis=-1) - RADII ** 2
    disc = b * b - c
    root = np.sqrt(np.maximum(disc, 0.0))
    t0 = -b - root
    t1 = -b + root
    t = np.where(t0 > EPS, t0, t1)
    t[(disc < 0) | (t <= EPS)] = np.inf
    tf = np.full(o.shape[0], np.inf)
    going_down = d[:, 1] < -EPS
    tf[going_down] = (FLOOR_Y - o[going_down, 1]) / d[going_down, 1]
    tf[tf <= EPS] = np.inf
    return np.concatenate([t, tf[:, None]], axis=1)


def add_sky(colour, weight, hit, active):
    """The first version of the sky term: a constant colour vector under a mask."""
    colour[~hit & active] += weight[~hit & active, None] * np.array([0.5, 0.7, 1.0])


def normals_masked(p, which):
    """The first version of normals: masked reads through a gather."""
    n = np.zeros_like(p)
    sph = which < CENTRES.shape[0]
    n[sph] = (p[sph] - CENTRES[which[sph]]) / RADII[which[sph], None]
    n[~sph, 1] = 1.0
    return n


def normals(p, which):
    n = np.zeros_like(p)
    sph = which < CENTRES.shape[0]
    k = np.minimum(which, CENTRES.shape[0] - 1)
    n[sph] = ((p - CENTRES[k]) / RADII[k, None])[sph]
    n[~sph, 1] = 1.0
    return n


def trace(o, d, bounces):
    colour = np.zeros_like(d)
    weight = np.ones(d.shape[0])
    active = np.ones(d.shape[0], dtype=bool)
    for _ in range(bounces):
        t = hit_distances(o, d)
        which = np.argmin(t, axis=1)
        tmin = np.take_along_axis(t, which[:, None], axis=1)[:, 0]
        hit = np.isfinite(tmin) & active
        p = o + np.where(hit, tmin, 0.0)[:, None] * d
        n = normals(p, which)
        to_light = LIGHT - p
        to_light /= np.linalg.norm(to_light, axis=1, keepdims=True)
        shadow = np.min(hit_distances(p + 1e-4 * n, to_light), axis=1) < np.inf
        lambert = np.clip(np.sum(n * to_light, axis=1), 0.0, None) * ~shadow
        shade = COLOURS[which] * (0.1 + 0.9 * lambert)[:, None]
        colour[hit] += (weight * (1 - REFLECT[which]))[hit, None] * shade[hit]
        colour += np.where((~hit & active)[:, None], weight[:, None] * SKY, 0.0)
        d[hit] -= 2.0 * np.sum(d * n, axis=1)[hit, None] * n[hit]
        o[hit] = p[hit] + 1e-4 * n[hit]
        weight *= np.where(hit, REFLECT[which], 0.0)
        active &= hit
    return colour


def render(h, w, bounces):
    o, d = camera_rays(h, w)
    colour = trace(o, d, bounces).astype(np.float32)
    np.clip(colour, 0.0, 1.0, out=colour)
    return (colour.reshape(h, w, 3) * 255).astype(np.uint8)


CHECKS = {
    "render": lambda: (H, W, 3),
    "render#small": lambda: (6, 8, 1),
    "trace": lambda: (*camera_rays(8, 10), 2),
    "hit_distances": lambda: camera_rays(5, 6),
    "add_sky": lambda: (np.zeros((4, 3)), np.array([1.0, 0.5, 0.25, 2.0]), np.array([True, False, False, True]),
                        np.array([True, True, False, False])),
    "normals_masked": lambda: (np.array([[0.0, 0.0, 2.2], [0.0, -1.0, 5.0], [1.2, 0.4, 4.0]]), np.array([0, 3, 1])),
    "normals": lambda: (np.array([[0.0, 0.0, 2.2], [0.0, -1.0, 5.0], [1.2, 0.4, 4.0]]), np.array([0, 3, 1])),
}

if __name__ == "__main__":
    img = render(H, W, 3)
    print(img.dtype, img.shape, img.sum(axis=(0, 1)))
    print(img[::6, ::8, 0])
    o, d = camera_rays(H, W)
    t = hit_distances(o, d)
    print("hits per object", np.isfinite(t).sum(axis=0))
