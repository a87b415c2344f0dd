"""An 8-bit image pipeline: a uint8 frame rebound to float32 for work, then back, in a loop.

`img = img.astype(np.float32)` rebinds (the caller's uint8 frame is not touched afterwards),
`img *= gain` with an np.float32 gain stays float32, `img += noise` with float64 noise keeps
float32 (an in-place add casts back, same_kind); `frame[...] = np.clip(img, 0, 255).astype(np.uint8)`
writes the caller's frame at the end of each pass; a uint8 histogram by `np.bincount`.
"""
import numpy as np

ENTRY = "enhance"


def box_blur(a):
    out = a.copy()
    out[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] + a[1:-1, 1:-1]) / 5
    return out


def enhance(frame, passes, gain):
    rng = np.random.default_rng(8)
    hists = []
    for p in range(passes):
        img = frame.astype(np.float32)
        img *= gain
        img += rng.normal(0.0, 2.0, img.shape)
        img = box_blur(img)
        frame[...] = np.clip(img, 0, 255).astype(np.uint8)
        hist = np.bincount(frame.ravel() // 32, minlength=8)
        hists.append(hist.tolist())
        print(p, img.dtype, repr(float(img.mean())), hists[-1])
    return img, hists


def make_inputs(size="small"):
    n = 6 if size == "small" else 64
    rng = np.random.default_rng(1)
    return dict(frame=rng.integers(0, 256, (n, n), dtype=np.uint8), passes=4, gain=np.float32(1.1))


if __name__ == "__main__":
    inputs = make_inputs("large")
    img, hists = enhance(**inputs)
    print(repr(img.sum()), hists[-1], int(inputs["frame"].sum()))
