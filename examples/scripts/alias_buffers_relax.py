"""Red-green relaxation where two names, views handed to helpers and `out=` share one buffer.

`phi_old = phi` makes two names for one buffer (every write through one is seen through the
other), a helper smooths a strided view in place (`smooth_(phi[::2])`), `np.add(phi, phi[::-1],
out=phi)` adds an array to its reversal into itself (NumPy buffers the overlap), and
`np.add.at(acc, idx, acc[jdx])` accumulates values read from the array being accumulated.
"""
import numpy as np

ENTRY = "relax"


def smooth_(v, w):
    v[1:-1] = (1.0 - w) * v[1:-1] + 0.5 * w * (v[2:] + v[:-2])


def relax(phi, acc, idx, jdx, sweeps):
    phi_old = phi
    log = []
    for s in range(sweeps):
        smooth_(phi[::2], 0.5)
        smooth_(phi[1::2], 0.25)
        change = np.abs(phi - phi_old).max()
        log.append(float(change))
        np.add(phi, phi[::-1], out=phi)
        phi *= 0.5
        np.add.at(acc, idx, acc[jdx])
        print("sweep", s, repr(float(phi.sum())), repr(float(acc.sum())), repr(log[-1]))
    return phi_old is phi, log


def make_inputs(size="small"):
    n = 14 if size == "small" else 60
    rng = np.random.default_rng(5)
    return dict(phi=rng.random(n), acc=np.arange(1.0, 7.0), idx=np.array([0, 2, 2, 5, 0]),
                jdx=np.array([1, 1, 3, 4, 5]), sweeps=5)


if __name__ == "__main__":
    inputs = make_inputs("large")
    same, log = relax(**inputs)
    print(same, repr(log), repr(inputs["phi"].sum()), repr(inputs["acc"].tolist()))
