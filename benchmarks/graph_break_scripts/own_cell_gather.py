import numpy as np
ENTRY = "bucket_means"

def bucket_means(x, keys, nb):
    order = np.argsort(keys, kind="stable")
    lo = np.searchsorted(keys[order], np.arange(nb), side="left")
    hi = np.searchsorted(keys[order], np.arange(nb), side="right")
    out = np.zeros(x.size)
    for i in range(x.size):
        b = keys[i]
        members = order[lo[b]:hi[b]]
        out[i] = np.sum(x[members] * 1.0) / (hi[b] - lo[b])
    return out

def make_inputs(size="small"):
    rng = np.random.default_rng(5)
    return dict(x=rng.random(14), keys=rng.integers(0, 4, 14), nb=4)
