"""A 2-D acoustic wave (pressure) finite-difference model, in the pattern of exploration-seismology
teaching codes: a layered velocity model with a low-velocity lens set at module level, a Ricker
source wavelet injected at one grid point, a second-order five-point Laplacian on the interior,
three time levels rebound each step (`p_old, p, p_new = p, p_new, p_old`), a Cerjan sponge layer
(the damping profile built in a loop over the border and applied to two levels), receivers along
the surface recorded into a preallocated trace array (`traces[n] = p[REC_Z, rec_x]`), first
arrival picks by a threshold on each trace with `argmax` of a mask, and the stability number
checked before running.
"""
import numpy as np

NX, NZ = 60, 40
DX = 10.0
NB = 8
REC_Z = 2
rng = np.random.default_rng(14)

VEL = np.full((NZ, NX), 1500.0)
VEL[15:, :] = 2200.0
VEL[28:, :] = 3000.0
zz, xx = np.mgrid[0:NZ, 0:NX]
lens = (zz - 20) ** 2 + (xx - 35) ** 2 < 36
VEL[lens] = 1800.0
VEL += rng.normal(0.0, 5.0, VEL.shape).round()


def ricker(nt, dt, f0):
    t = np.arange(nt) * dt - 1.2 / f0
    arg = (np.pi * f0 * t) ** 2
    return (1.0 - 2.0 * arg) * np.exp(-arg)


def sponge(nz, nx, nb, a=0.015):
    damp = np.ones((nz, nx))
    for i in range(nb):
        g = np.exp(-(a * (nb - i)) ** 2)
        damp[i, :] *= g
        damp[nz - 1 - i, :] *= g
        damp[:, i] *= g
        damp[:, nx - 1 - i] *= g
    damp[:nb // 2, :] = 1.0  # free surface on top: no sponge
    return damp


def laplacian(p, out):
    out[1:-1, 1:-1] = (p[2:, 1:-1] + p[:-2, 1:-1] + p[1:-1, 2:] + p[1:-1, :-2] - 4.0 * p[1:-1, 1:-1]) / (DX * DX)


def model(vel, src, src_pos, rec_x, dt, traces, every=0):
    nt = src.size
    c2 = (vel * dt) ** 2
    damp = sponge(*vel.shape, NB)
    p_old = np.zeros_like(vel)
    p = np.zeros_like(vel)
    p_new = np.zeros_like(vel)
    lap = np.zeros_like(vel)
    for n in range(nt):
        laplacian(p, lap)
        p_new[...] = 2.0 * p - p_old + c2 * lap
        p_new[src_pos] += c2[src_pos] * src[n] / (DX * DX)
        p_new[0, :] = 0.0
        p_new *= damp
        p *= damp
        p_old, p, p_new = p, p_new, p_old
        traces[n] = p[REC_Z, rec_x]
        if every and (n + 1) % every == 0:
            print("step", n + 1, "max |p|", "%.6e" % np.abs(p).max(), "energy", "%.6e" % (p * p).sum())
    return p


def first_breaks(traces, dt, frac=0.05):
    level = frac * np.abs(traces).max(axis=0)
    above = np.abs(traces) > level
    picks = np.argmax(above, axis=0).astype(float)
    picks[~above.any(axis=0)] = np.nan
    return picks * dt


def cfl(vel, dt):
    return vel.max() * dt / DX * np.sqrt(2.0)


CHECKS = {
    "ricker": lambda: (50, 0.002, 25.0),
    "sponge": lambda: (12, 16, 4),
    "laplacian": lambda: (np.arange(30.0).reshape(5, 6) ** 2, np.zeros((5, 6))),
    "model": lambda: (VEL[:24, :30].copy(), ricker(60, 0.0015, 25.0), (6, 15), np.arange(2, 28, 5), 0.0015,
                      np.zeros((60, 6)), 20),
    "first_breaks": lambda: (np.array([[0.0, 0.0, 0.0], [0.1, -0.0, 0.0], [1.0, 0.3, 0.0], [-0.5, 1.0, 0.0]]), 0.5),
    "cfl": lambda: (VEL, 0.0015),
}

if __name__ == "__main__":
    dt = 0.0015
    print("courant number", round(float(cfl(VEL, dt)), 6))
    src = ricker(240, dt, 20.0)
    rec_x = np.arange(NB, NX - NB, 4)
    traces = np.zeros((src.size, rec_x.size))
    p = model(VEL, src, (4, 30), rec_x, dt, traces, every=60)
    picks = first_breaks(traces, dt)
    print("picks (ms)", np.round(picks * 1000.0, 2))
    print("moveout symmetric", bool(np.allclose(picks, picks[::-1], atol=3 * dt)))
    print("final rms", "%.6e" % np.sqrt((p * p).mean()), "trace peak", np.unravel_index(np.argmax(np.abs(traces)), traces.shape))
