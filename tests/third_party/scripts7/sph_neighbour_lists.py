"""SPH in 1-D with a neighbour list rebuilt every few steps: pairs (i, j) with i < j found by a
double loop into preallocated int arrays with a count, density summed over the pair list by
`np.add.at` on both ends, pressure from an equation of state, forces accumulated with
`np.subtract.at`, a leapfrog `v += dt * a; x += dt * v`, and reflecting walls by masks.
"""
import numpy as np

N = 24
H = 0.15
K_EOS = 1.0
RHO0 = 1.0
DT = 0.004


def kernel(r, h):
    q = r / h
    w = np.where(q < 1.0, (1.0 - q) ** 3, 0.0)
    return w * (4.0 / (3.0 * h))


def grad_kernel(r, h):
    q = r / h
    return np.where(q < 1.0, -3.0 * (1.0 - q) ** 2, 0.0) * (4.0 / (3.0 * h * h))


def build_pairs(x, h, pi, pj):
    n = 0
    for i in range(x.shape[0]):
        for j in range(i + 1, x.shape[0]):
            if abs(x[i] - x[j]) < h:
                pi[n] = i
                pj[n] = j
                n += 1
    return n


def density(x, m, pi, pj, npairs, h):
    rho = m * kernel(np.zeros_like(x), h)
    r = np.abs(x[pi[:npairs]] - x[pj[:npairs]])
    w = m[pj[:npairs]] * kernel(r, h)
    np.add.at(rho, pi[:npairs], w)
    np.add.at(rho, pj[:npairs], w)
    return rho


def accelerations(x, m, rho, pi, pj, npairs, h, out):
    out.fill(0.0)
    p = K_EOS * (rho - RHO0)
    i = pi[:npairs]
    j = pj[:npairs]
    dx = x[i] - x[j]
    f = m[j] * (p[i] / rho[i] ** 2 + p[j] / rho[j] ** 2) * grad_kernel(np.abs(dx), h) * np.sign(dx)
    np.subtract.at(out, i, f)
    np.add.at(out, j, f)
    return out


def simulate(x, v, m, nsteps, rebuild):
    pi = np.zeros(N * N, dtype=np.int64)
    pj = np.zeros(N * N, dtype=np.int64)
    a = np.zeros_like(x)
    npairs = 0
    log = []
    for step in range(nsteps):
        if step % rebuild == 0:
            npairs = build_pairs(x, 1.2 * H, pi, pj)
        rho = density(x, m, pi, pj, npairs, H)
        accelerations(x, m, rho, pi, pj, npairs, H, a)
        v += DT * a
        x += DT * v
        low = x < 0.0
        x[low] = -x[low]
        v[low] *= -1.0
        if step % 10 == 0:
            log.append((step, npairs, float(rho.max())))
    return x, v, npairs, log


def make_inputs():
    x = np.linspace(0.05, 0.6, N) + 0.002 * np.sin(np.arange(N))
    return x, np.zeros(N), np.full(N, 0.6 / N)


CHECKS = {
    "simulate": lambda: (*make_inputs(), 30, 5),
    "density": lambda: (make_inputs()[0], make_inputs()[2], np.arange(5), np.arange(1, 6), 5, H),
    "build_pairs": lambda: (make_inputs()[0], 0.05, np.zeros(100, np.int64), np.zeros(100, np.int64)),
}

if __name__ == "__main__":
    x, v, m = make_inputs()
    x, v, npairs, log = simulate(x, v, m, 40, 5)
    for row in log:
        print(row[0], row[1], repr(row[2]))
    print(npairs, repr(x.sum()), repr(np.abs(v).max()))
