"""Particle-mesh charge exchange where scatters read the array they write, and names share buffers.

`np.add.at(q, src, q[dst])` accumulates values read from the array it accumulates into (NumPy
reads `q[dst]` first: a copy); `q[idx] += q[idx2]` is the buffered fancy update (a duplicated
index keeps one update, the last); `q[1:] += q[:-1]` adds overlapping views (NumPy buffers);
`mesh = q` gives the buffer a second name that a helper writes through a strided view; `out=`
writes a cumulative sum into the array it reads (`np.cumsum(w, out=w)`).
"""
import numpy as np

ENTRY = "exchange"


def damp_(view, factor):
    view *= factor


def exchange(q, w, src, dst, idx, idx2, nsteps):
    mesh = q
    totals = []
    for step in range(nsteps):
        np.add.at(q, src, q[dst])
        q[idx] += q[idx2]
        q[1:] += q[:-1]
        damp_(mesh[::2], 0.5)
        q /= np.abs(q).max()
        np.cumsum(w, out=w)
        w -= w.mean()
        totals.append(float(q.sum()))
        print(step, repr(totals[-1]), repr(float(w[-1])))
    return mesh is q, totals


def make_inputs(size="small"):
    n = 8 if size == "small" else 64
    rng = np.random.default_rng(31)
    return dict(q=rng.random(n), w=rng.standard_normal(n), src=np.array([0, 3, 3, 5, 0]),
                dst=np.array([1, 1, 2, 7, 0]), idx=np.array([2, 2, 4]), idx2=np.array([0, 1, 6]),
                nsteps=5)


if __name__ == "__main__":
    inputs = make_inputs("large")
    same, totals = exchange(**inputs)
    print(same, repr(totals), repr(inputs["q"].sum()), repr(inputs["w"].sum()))
