"""A leaky integrate-and-fire network: membrane potentials in float64, a refractory counter in
int16 decremented with np.maximum(..., out=), spikes as a boolean vector, recurrent input by
`W @ spiked` (a boolean vector times a float matrix), synaptic current decaying in place,
`v[spiked] = V_RESET`, a spike raster (bool, time by neuron) and counts per neuron in int32,
the population rate kept in a preallocated array, external drive drawn with np.random.normal
after np.random.seed, the first spike time per neuron by a masked store of -1 sentinels.
"""
import numpy as np

N = 40
DT = 0.1
TAU_M = 10.0
TAU_S = 5.0
V_REST, V_RESET, V_TH = -65.0, -70.0, -50.0
REFRACT = 20  # steps

np.random.seed(4)
W = np.random.normal(0.0, 1.5, (N, N))
W[np.random.random((N, N)) < 0.8] = 0.0
np.fill_diagonal(W, 0.0)


def simulate(v, w, steps, drive, noise, seed):
    np.random.seed(seed)
    n = v.size
    i_syn = np.zeros(n)
    refr = np.zeros(n, dtype=np.int16)
    raster = np.zeros((steps, n), dtype=bool)
    counts = np.zeros(n, dtype=np.int32)
    first = np.full(n, -1, dtype=np.int64)
    rate = np.zeros(steps)
    for t in range(steps):
        ext = drive + noise * np.random.normal(0.0, 1.0, n)
        active = refr == 0
        dv = (V_REST - v + i_syn + ext) * (DT / TAU_M)
        v[active] += dv[active]
        np.subtract(refr, 1, out=refr)
        np.maximum(refr, 0, out=refr)
        spiked = v >= V_TH
        v[spiked] = V_RESET
        refr[spiked] = REFRACT
        counts += spiked
        new_first = spiked & (first < 0)
        first[new_first] = t
        raster[t] = spiked
        i_syn *= np.exp(-DT / TAU_S)
        i_syn += w @ spiked
        rate[t] = spiked.mean() / (DT * 1e-3)
    return raster, counts, first, rate


def isi_cv(raster):
    cvs = np.zeros(raster.shape[1])
    for j in range(raster.shape[1]):
        times = np.arange(raster.shape[0])[raster[:, j]]
        if times.size < 3:
            cvs[j] = np.nan
            continue
        isi = np.diff(times) * DT
        cvs[j] = isi.std() / isi.mean()
    return cvs


def initial_v(n, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(V_RESET, V_TH, n)


CHECKS = {
    "simulate": lambda: (initial_v(N, 1), W.copy(), 200, 16.0, 4.0, 5),
    "simulate#quiet": lambda: (initial_v(10, 2), W[:10, :10].copy(), 100, 10.0, 1.0, 6),
    "isi_cv": lambda: (np.random.default_rng(3).random((60, 5)) < 0.2,),
}

if __name__ == "__main__":
    v = initial_v(N, 0)
    raster, counts, first, rate = simulate(v, W, 600, 16.0, 4.0, 1)
    print("spikes", counts.sum(), counts.dtype, "silent", (counts == 0).sum())
    print("first", first[:10], first.dtype)
    print("rate", repr(rate.mean()), repr(rate.max()), raster.dtype, raster.sum(axis=0)[:8])
    cv = isi_cv(raster)
    print("cv", repr(np.nanmean(cv)), np.isnan(cv).sum())
    print("v", np.round(v[:5], 6))
