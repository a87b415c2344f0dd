"""1-D diffusion written the way hand-tuned scripts write it: views, swaps, copies, out=, seeds.

`interior = a[1:-1]` is a view written in place (`interior += ...`), so the caller's array
changes through it; the old and new arrays are swapped with `a, b = b, a`; a snapshot is
`a = a.copy()` inside the loop (a rebinding, after which writes no longer reach the caller);
np.multiply(..., out=b[1:-1]) writes a slice of a work array; np.random.seed and a print sit
beside the hot loop; a module-level helper clamps the boundary values in place.
"""
import numpy as np

ENTRY = "diffuse"
KAPPA = 0.2


def clamp_ends(x, lo, hi):
    x[0] = lo
    x[-1] = hi


def diffuse(a, b, nsteps, snapshot_at):
    np.random.seed(0)
    noise = 1e-3 * np.random.rand(a.size)
    a += noise
    interior = a[1:-1]
    interior += KAPPA * (a[2:] - 2.0 * a[1:-1] + a[:-2])     # reads overlap the view: NumPy's order
    snaps = []
    for step in range(nsteps):
        np.multiply(a[2:] + a[:-2], KAPPA, out=b[1:-1])
        b[1:-1] += (1.0 - 2.0 * KAPPA) * a[1:-1]
        clamp_ends(b, 1.0, 0.0)
        a, b = b, a
        if step == snapshot_at:
            a = a.copy()
            snaps.append(a.sum())
        print(step, repr(float(a.sum())))
    return a, snaps


def make_inputs(size="small"):
    n = 12 if size == "small" else 100
    a = np.zeros(n)
    a[: n // 4] = 1.0
    return dict(a=a, b=np.zeros(n), nsteps=7, snapshot_at=3)


if __name__ == "__main__":
    inputs = make_inputs("large")
    final, snaps = diffuse(**inputs)
    print(repr(final.sum()), repr(snaps), repr(inputs["a"].sum()), repr(inputs["b"].sum()))
    print(repr(inputs["a"][:5].tolist()), repr(inputs["b"][:5].tolist()))
