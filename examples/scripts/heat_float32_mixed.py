"""2-D heat equation in float32 with int32 sources, float64 diagnostics and NEP 50 promotion.

The field is float32 (as GPU-minded scripts allocate it); the update multiplies by a Python
float (stays float32), adds a float32 source scaled by an int32 on/off pattern (int32 * float32
-> float32... promoted as NumPy promotes it), clips with np.clip to float32 bounds, and the
diagnostics are computed in float64 (`u.astype(np.float64).sum()`) and in float32 (`u.mean()`),
both printed. A float64 array of probe values is filled from the float32 field each step.
"""
import numpy as np

ENTRY = "heat"
ALPHA = 0.2


def heat(u, src, on, nsteps):
    probes = np.zeros(nsteps)
    for step in range(nsteps):
        lap = u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1]
        u[1:-1, 1:-1] += ALPHA * lap
        u += src * on
        np.clip(u, np.float32(0.0), np.float32(10.0), out=u)
        probes[step] = u[u.shape[0] // 2, u.shape[1] // 2]
        total = u.astype(np.float64).sum()
        print(step, repr(float(total)), repr(u.mean()), u.dtype)
    return probes, u.max()


def make_inputs(size="small"):
    n = 8 if size == "small" else 40
    rng = np.random.default_rng(15)
    u = rng.random((n, n)).astype(np.float32)
    src = (0.05 * rng.random((n, n))).astype(np.float32)
    on = (rng.random((n, n)) < 0.3).astype(np.int32)
    return dict(u=u, src=src, on=on, nsteps=8)


if __name__ == "__main__":
    inputs = make_inputs("large")
    probes, top = heat(**inputs)
    print(repr(probes.tolist()), repr(top), repr(inputs["u"].sum()), inputs["u"].dtype)
