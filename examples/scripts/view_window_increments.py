"""Prefix sums and shrinking windows through views rebound in a loop.

`v = a[1:]` then `v += a[: v.size]` is the in-place prefix trick hand scripts try (NumPy buffers
the overlapping operand, so each element gains its neighbour's old value, not a running sum);
`v = v[1:]` narrows the window each pass and `v *= 0.5` writes the caller's array through the
narrowed view; a view made of a reshape (`flat = grid.reshape(-1)`) is written in the same loop.
"""
import numpy as np

ENTRY = "windows"


def windows(a, grid, passes):
    v = a[1:]
    flat = grid.reshape(-1)
    totals = []
    for p in range(passes):
        v += a[: v.size]
        v = v[1:]
        v *= 0.5
        flat[p::passes] += v.sum()
        totals.append(float(a.sum()))
        print(p, repr(totals[-1]), repr(float(grid.sum())))
    return v, totals


def make_inputs(size="small"):
    n = 12 if size == "small" else 64
    return dict(a=np.linspace(0.0, 1.0, n), grid=np.ones((3, 4)), passes=4)


if __name__ == "__main__":
    inputs = make_inputs("large")
    v, totals = windows(**inputs)
    print(repr(v.tolist()[:4]), repr(totals), repr(inputs["a"].sum()), repr(inputs["grid"].tolist()))
