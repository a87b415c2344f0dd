"""Wright-Fisher genetic drift with selection in many demes: rng.binomial inside a time loop.

Allele frequencies of NDEMES populations of size N; each generation applies selection
(p' = p(1+s) / (1 + s p)), migration towards the mean (in place, `p += M * (p.mean() - p)`),
and resamples with rng.binomial(N, p) / N; fixed and lost demes are counted with boolean
sums; the mean frequency and heterozygosity are printed and stored every generation.
"""
import numpy as np

ENTRY = "drift"
N = 50
M = 0.01


def drift(p, s, ngen, seed):
    rng = np.random.default_rng(seed)
    het = np.empty(ngen)
    for g in range(ngen):
        p[:] = p * (1.0 + s) / (1.0 + s * p)
        p += M * (p.mean() - p)
        p[:] = rng.binomial(N, p) / N
        het[g] = np.mean(2.0 * p * (1.0 - p))
        if g % 5 == 0:
            print(g, repr(float(p.mean())), repr(float(het[g])))
    fixed = int(np.sum(p == 1.0))
    lost = int(np.sum(p == 0.0))
    return het, fixed, lost


def make_inputs(size="small"):
    ndemes = 8 if size == "small" else 200
    return dict(p=np.full(ndemes, 0.3), s=0.02, ngen=20, seed=12)


if __name__ == "__main__":
    inputs = make_inputs("large")
    het, fixed, lost = drift(**inputs)
    print(repr(het[-1]), repr(fixed), repr(lost), repr(inputs["p"].sum()))
