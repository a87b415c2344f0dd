"""Enzyme kinetics on a float32 grid with NumPy-scalar parameters, promotion as NumPy 2 does it.

The concentrations are float32 arrays; the rate constants come as np.float32 scalars (kept
float32), the time step as a Python float (weak: stays float32), a temperature factor as an
np.float64 scalar (strong: `k * temp` is float64, and `s = s - dt * rate` then makes `s`
float64 from that step on: the loop's state changes dtype after its first trip, as NumPy's
does), an int32 count array multiplies a float32 field (float32 * int32 -> float64), and an
integer list of enzyme levels is made a float32 array (an int64 one would make every step
float64: an int64 NumPy scalar is strong).
"""
import numpy as np

ENTRY = "kinetics"


def michaelis(s, vmax, km):
    return vmax * s / (km + s)


def kinetics(s, enzymes, counts, vmax, km, temp, dt, nsteps):
    e = np.array(enzymes, dtype=np.float32)
    p = np.zeros_like(s)
    dtypes = []
    for step in range(nsteps):
        rate = michaelis(s, vmax, km) * e[step % e.size]
        if step >= 2:
            rate = rate * temp
        s = s - dt * rate
        p = p + dt * rate
        dtypes.append(s.dtype.name)
    weighted = s * counts
    print(dtypes, weighted.dtype, repr(float(p.sum())))
    return s, p, weighted, e


def make_inputs(size="small"):
    n = 6 if size == "small" else 100
    rng = np.random.default_rng(40)
    return dict(s=rng.random(n).astype(np.float32), enzymes=[1, 2, 3],
                counts=rng.integers(1, 5, n).astype(np.int32), vmax=np.float32(1.5),
                km=np.float32(0.3), temp=np.float64(1.02), dt=0.05, nsteps=6)


if __name__ == "__main__":
    s, p, weighted, e = kinetics(**make_inputs("large"))
    print(s.dtype, p.dtype, weighted.dtype, e.dtype, repr(s.sum()), repr(p.sum()), repr(weighted.sum()))
