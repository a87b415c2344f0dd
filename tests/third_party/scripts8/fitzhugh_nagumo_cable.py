"""FitzHugh-Nagumo cable: a 1-D excitable fibre stimulated at one end, explicit diffusion of the
voltage with sealed ends written into ghost cells of a padded buffer (`vp[0] = vp[1]`), the
recovery variable updated through a view (`wv = w[:]`), spike arrival times recorded with a
masked store into an int32 array (`arrival[hit] = n`), float32 parameters, an early `break` when
the wave reaches the far end, and progress printed every N steps.
"""
import numpy as np

EPS = np.float32(0.08)
A = np.float32(0.7)
B = np.float32(0.8)


def run(v, w, d, dt, nsteps, every, stim_steps):
    n = v.size
    vp = np.zeros(n + 2)
    arrival = np.full(n, -1, dtype=np.int32)
    last = 0
    for k in range(nsteps):
        vp[1:-1] = v
        vp[0] = vp[1]
        vp[-1] = vp[-2]
        lap = vp[2:] - 2 * vp[1:-1] + vp[:-2]
        dv = v - v ** 3 / 3 - w + d * lap
        if k < stim_steps:
            dv[:3] += 1.0
        wv = w[:]
        wv += dt * EPS * (v + A - B * w)
        v += dt * dv
        hit = (v > 1.0) & (arrival < 0)
        arrival[hit] = k
        last = k
        if k % every == 0:
            print("t", k, "front", int((arrival >= 0).sum()))
        if arrival[-1] >= 0:
            break
    return v, w, arrival, last


def make_inputs(n=30):
    v = np.full(n, -1.2)
    w = np.full(n, -0.62)
    return v, w


CHECKS = {
    "run": lambda: (*make_inputs(), 1.0, 0.1, 400, 100, 20),
    "run#early": lambda: (*make_inputs(8), 2.0, 0.1, 2000, 500, 40),
}

if __name__ == "__main__":
    v, w = make_inputs()
    v, w, arrival, last = run(v, w, 1.0, 0.1, 3000, 500, 20)
    print(arrival.tolist(), last, arrival.dtype, repr(w.mean()))
