"""2-D convolution (correlation form) of an image with a small kernel, with
explicit padding, followed by an unsharp-mask sharpening pass.

Domain: image processing. The image is copied into the centre of a padded
buffer and the border is filled by a helper, either replicating the edge
pixels ("edge") or mirroring them ("reflect", without repeating the edge);
the filtered image is accumulated kernel tap by kernel tap into an output
array (the shift-and-add form of convolution). Sharpening adds a multiple of
the high-pass residual back into the image in place and clips it to the
valid range.
"""
import numpy as np

ENTRY = "sharpen"


def pad_edge(padded, img, r):
    """Fill `padded` (img grown by r on each side) replicating edges."""
    ny, nx = img.shape
    padded[r:r + ny, r:r + nx] = img
    for k in range(r):
        padded[k, r:r + nx] = img[0]
        padded[r + ny + k, r:r + nx] = img[-1]
    for k in range(r):
        padded[:, k] = padded[:, r]
        padded[:, r + nx + k] = padded[:, r + nx - 1]


def pad_reflect(padded, img, r):
    """Fill `padded` mirroring about the edge pixels (NumPy's 'reflect')."""
    ny, nx = img.shape
    padded[r:r + ny, r:r + nx] = img
    padded[:r, r:r + nx] = img[r:0:-1]
    padded[r + ny:, r:r + nx] = img[-2:-r - 2:-1]
    padded[:, :r] = padded[:, 2 * r:r:-1]
    padded[:, r + nx:] = padded[:, r + nx - 2:nx - 2:-1]


def convolve(img, kernel, out, padded):
    """out = correlation of img with kernel, using the prepared padding."""
    ny, nx = img.shape
    kh, kw = kernel.shape
    out.fill(0.0)
    for di in range(kh):
        for dj in range(kw):
            out += kernel[di, dj] * padded[di:di + ny, dj:dj + nx]


def sharpen(img, kernel, amount, reflect):
    """Unsharp-mask img in place; return the blurred image."""
    ny, nx = img.shape
    r = kernel.shape[0] // 2
    padded = np.zeros((ny + 2 * r, nx + 2 * r))
    if reflect:
        pad_reflect(padded, img, r)
    else:
        pad_edge(padded, img, r)
    blurred = np.empty_like(img)
    convolve(img, kernel, blurred, padded)
    img += amount * (img - blurred)
    np.clip(img, 0.0, 1.0, out=img)
    return blurred


def make_inputs(size="small"):
    rng = np.random.default_rng(4)
    ny, nx, r = (9, 11, 2) if size == "small" else (1024, 1024, 3)
    y, x = np.mgrid[0:ny, 0:nx]
    img = 0.5 + 0.3 * np.sin(x / 3.0) * np.cos(y / 4.0) + 0.05 * rng.standard_normal((ny, nx))
    img = np.clip(img, 0.0, 1.0)
    ax = np.arange(-r, r + 1)
    g = np.exp(-(ax[:, None] ** 2 + ax[None, :] ** 2) / (2.0 * (r / 2.0) ** 2))
    return dict(img=img, kernel=g / g.sum(), amount=0.7, reflect=True)


if __name__ == "__main__":
    inputs = make_inputs("large")
    blurred = sharpen(**inputs)
    print(f"mean blurred = {blurred.mean():.6f}")
    print(f"mean img     = {inputs['img'].mean():.6f}")
