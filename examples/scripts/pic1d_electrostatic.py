"""1-D electrostatic particle-in-cell: np.floor indices, np.clip, periodic wrap with `%`.

Electrons on a periodic grid with a neutralising background. Each step deposits charge
linearly (cloud in cell) with np.add.at on indices from np.floor, wraps the right neighbour
with `% NG`, solves Gauss's law by a cumulative sum with its mean removed, interpolates the
field back, pushes (leapfrog) and wraps the positions with `%`. The field energy is printed
every few steps and kept in a history list.
"""
import numpy as np

ENTRY = "pic"
NG = 32
L = 2.0 * np.pi
DXG = L / NG
QM = -1.0


def deposit(x, q):
    rho = np.zeros(NG)
    s = x / DXG
    i = np.floor(s).astype(int)
    i = np.clip(i, 0, NG - 1)
    f = s - i
    np.add.at(rho, i, q * (1.0 - f))
    np.add.at(rho, (i + 1) % NG, q * f)
    return rho / DXG


def field(rho):
    E = np.cumsum(rho - rho.mean()) * DXG
    return E - E.mean()


def gather(E, x):
    s = x / DXG
    i = np.floor(s).astype(int) % NG
    f = s - np.floor(s)
    return E[i] * (1.0 - f) + E[(i + 1) % NG] * f


def pic(x, v, q, dt, nsteps):
    history = []
    for step in range(nsteps):
        rho = deposit(x, q) + 1.0
        E = field(rho)
        v += QM * gather(E, x) * dt
        x += v * dt
        x %= L
        we = 0.5 * np.sum(E ** 2) * DXG
        history.append(we)
        if step % 5 == 0:
            print(step, repr(float(we)))
    return np.array(history)


def make_inputs(size="small"):
    n = 64 if size == "small" else 4000
    rng = np.random.default_rng(4)
    x = rng.uniform(0.0, L, n)
    x += 0.05 * np.sin(x)
    v = np.where(np.arange(n) % 2 == 0, 1.0, -1.0) + 0.01 * rng.standard_normal(n)
    return dict(x=x, v=v, q=-L / n, dt=0.1, nsteps=20)


if __name__ == "__main__":
    inputs = make_inputs("large")
    hist = pic(**inputs)
    print(repr(hist.tolist()[-3:]), repr(inputs["x"].sum()), repr(inputs["v"].sum()))
