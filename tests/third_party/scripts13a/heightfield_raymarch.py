"""A heightfield ray marcher in the pattern of terrain-rendering demos: a uint8 height map made at
module level from sums of sines (and a seeded noise), sampled bilinearly with wrapped integer
indices (`np.floor(...).astype(np.int64) % N`), rays of a pinhole camera marched for all pixels
at once with an `active` mask (`t[active] += step[active]`, the step growing with distance, a
`while active.any() and it < MAX_STEPS` loop), the hit refined by bisection, shading by the
central-difference normal against a light direction with np.errstate around a normalisation,
fog, gamma, and the image written as uint8 through `np.clip(...).astype(np.uint8)`; a per-pixel
loop version of the march with `while t < T_MAX` and `break`, compared on a few pixels read
through `img.flat[k]`.
"""
import numpy as np

N = 32
MAX_STEPS = 48
T_MAX = 60.0
gx, gy = np.meshgrid(np.arange(N), np.arange(N), indexing="ij")
noise = np.random.default_rng(3).integers(0, 24, size=(N, N))
HEIGHTS = (96 + 60 * np.sin(gx * 2 * np.pi / N) * np.cos(gy * 4 * np.pi / N) + noise).astype(np.uint8)
SCALE = 8.0 / 255.0
LIGHT = np.array([0.6, 0.5, 0.62])
LIGHT = LIGHT / np.linalg.norm(LIGHT)


def height(hmap, x, y):
    """Bilinear height at (x, y) of the periodic map, in world units."""
    i0 = np.floor(x).astype(np.int64)
    j0 = np.floor(y).astype(np.int64)
    fx = x - i0
    fy = y - j0
    i0 %= N
    j0 %= N
    i1 = (i0 + 1) % N
    j1 = (j0 + 1) % N
    h = (hmap[i0, j0] * (1 - fx) * (1 - fy) + hmap[i1, j0] * fx * (1 - fy)
         + hmap[i0, j1] * (1 - fx) * fy + hmap[i1, j1] * fx * fy)
    return h * SCALE


def camera_rays(w, h, eye, fov=0.9):
    u = (np.arange(w) + 0.5) / w * 2.0 - 1.0
    v = 1.0 - (np.arange(h) + 0.5) / h * 2.0
    U, V = np.meshgrid(u * fov, v * fov * h / w)
    d = np.stack([np.ones_like(U), U, V - 0.35], axis=-1).reshape(-1, 3)
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    o = np.broadcast_to(eye, d.shape)
    return o, d


def march(hmap, o, d):
    t = np.full(len(d), 0.5)
    hit = np.zeros(len(d), dtype=bool)
    active = np.ones(len(d), dtype=bool)
    it = 0
    while active.any() and it < MAX_STEPS:
        p = o + t[:, None] * d
        below = p[:, 2] < height(hmap, p[:, 0], p[:, 1])
        hit |= active & below
        active &= ~below & (t < T_MAX)
        step = 0.05 + 0.02 * t
        t[active] += step[active]
        it += 1
    lo = t - (0.05 + 0.02 * t)
    hi = t.copy()
    for _ in range(6):  # bisection between the last point above and the first below
        mid = 0.5 * (lo + hi)
        p = o + mid[:, None] * d
        below = p[:, 2] < height(hmap, p[:, 0], p[:, 1])
        hi = np.where(below, mid, hi)
        lo = np.where(below, lo, mid)
    return np.where(hit, hi, np.inf), hit, it


def shade(hmap, o, d, t, hit):
    tt = np.where(hit, t, 0.0)
    p = o + tt[:, None] * d
    e = 0.5
    hx = height(hmap, p[:, 0] + e, p[:, 1]) - height(hmap, p[:, 0] - e, p[:, 1])
    hy = height(hmap, p[:, 0], p[:, 1] + e) - height(hmap, p[:, 0], p[:, 1] - e)
    n = np.stack([-hx, -hy, np.full_like(hx, 2.0 * e)], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        n /= np.linalg.norm(n, axis=1, keepdims=True)
    diffuse = np.clip(n @ LIGHT, 0.0, 1.0)
    fog = np.exp(-0.04 * tt)
    sky = 0.75 + 0.25 * d[:, 2]
    c = np.where(hit, (0.15 + 0.85 * diffuse) * fog + sky * (1.0 - fog), sky)
    return np.clip(255.0 * c ** (1.0 / 2.2) + 0.5, 0, 255).astype(np.uint8)


def march_pixel(hmap, o, d):
    t = 0.5
    while t < T_MAX:
        p = o + t * d
        if p[2] < height(hmap, p[0], p[1]):
            return t
        t += 0.05 + 0.02 * t
    return -1.0


def render(hmap, w, h, eye):
    o, d = camera_rays(w, h, eye)
    t, hit, steps = march(hmap, o, d)
    img = shade(hmap, o, d, t, hit).reshape(h, w)
    print("steps", steps, "hits", int(hit.sum()), "mean", repr(round(float(img.mean()), 6)))
    return img, t


EYE = np.array([1.5, 16.0, 5.0])

CHECKS = {
    "render": lambda: (HEIGHTS, 12, 8, EYE),
    "height": lambda: (HEIGHTS, np.array([0.0, 3.25, -1.5, 31.9, 64.5]), np.array([0.5, 0.0, 2.75, -0.1, 7.0])),
    "march": lambda: camera_rays(10, 6, EYE)[:0] + (HEIGHTS,) + camera_rays(10, 6, EYE),
    "shade": lambda: (HEIGHTS, *camera_rays(6, 4, EYE), np.linspace(1.0, 30.0, 24), np.arange(24) % 3 > 0),
    "march_pixel": lambda: (HEIGHTS, EYE, np.array([0.96, 0.0, -0.28])),
    "march_pixel#sky": lambda: (HEIGHTS, EYE, np.array([0.8, 0.0, 0.6])),
    "camera_rays": lambda: (5, 3, EYE),
}

if __name__ == "__main__":
    W, H = 24, 16
    img, t = render(HEIGHTS, W, H, EYE)
    print("dtype", img.dtype, "range", int(img.min()), int(img.max()))
    o, d = camera_rays(W, H, EYE)
    for k in (5, 200, 383):
        tp = march_pixel(HEIGHTS, EYE, d[k])
        print("pixel", k, img.flat[k], "t", repr(round(tp, 6)), "vectorised", repr(round(float(t.flat[k]), 6)))
    print(img[::4, ::3])
