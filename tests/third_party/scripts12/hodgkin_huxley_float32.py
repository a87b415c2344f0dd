"""A population of Hodgkin-Huxley neurons in float32, in the pattern of computational neuroscience
tutorials: gating rate functions with the removable singularity at V = -40 / -55 handled by
np.where, forward-Euler updates of m, h, n in place (`m += DT * (am * (1 - m) - bm * m)`),
currents from np.float32 conductances, the injected current a float32 jax.Array made by the
set-up, spikes detected as upward crossings of 0 mV with a refractory mask and counted in an int32
array, first spike times by a masked store into a -1-filled array, the mean voltage printed every
200 steps (float32 printed to 1e-6).
"""
import jax.numpy as jnp
import numpy as np

N = 6
DT = np.float32(0.01)
G_NA, G_K, G_L = np.float32(120.0), np.float32(36.0), np.float32(0.3)
E_NA, E_K, E_L = np.float32(50.0), np.float32(-77.0), np.float32(-54.4)
I_EXT = jnp.linspace(2.0, 12.0, N, dtype=jnp.float32)


def rates(v):
    x = v + np.float32(40.0)
    am = np.where(np.abs(x) < 1e-4, np.float32(1.0), np.float32(0.1) * x / (1 - np.exp(-x / np.float32(10.0))))
    bm = np.float32(4.0) * np.exp(-(v + np.float32(65.0)) / np.float32(18.0))
    ah = np.float32(0.07) * np.exp(-(v + np.float32(65.0)) / np.float32(20.0))
    bh = np.float32(1.0) / (1 + np.exp(-(v + np.float32(35.0)) / np.float32(10.0)))
    y = v + np.float32(55.0)
    an = np.where(np.abs(y) < 1e-4, np.float32(0.1), np.float32(0.01) * y / (1 - np.exp(-y / np.float32(10.0))))
    bn = np.float32(0.125) * np.exp(-(v + np.float32(65.0)) / np.float32(80.0))
    return am, bm, ah, bh, an, bn


def step(v, m, h, n, i_ext):
    am, bm, ah, bh, an, bn = rates(v)
    m += DT * (am * (1 - m) - bm * m)
    h += DT * (ah * (1 - h) - bh * h)
    n += DT * (an * (1 - n) - bn * n)
    i_na = G_NA * m ** 3 * h * (v - E_NA)
    i_k = G_K * n ** 4 * (v - E_K)
    i_l = G_L * (v - E_L)
    v += DT * (i_ext - i_na - i_k - i_l)


def simulate(v, m, h, n, i_ext, steps, counts, first):
    above = v > 0
    for t in range(steps):
        step(v, m, h, n, i_ext)
        now = v > 0
        spike = now & ~above
        counts[spike] += 1
        fresh = spike & (first < 0)
        first[fresh] = t
        above[:] = now
        if t % 200 == 0:
            print("t", t, "mean v", np.float32(v.mean()))
    return counts.sum()


def resting(n):
    v = np.full(n, -65.0, dtype=np.float32)
    am, bm, ah, bh, an, bn = rates(v)
    return v, am / (am + bm), ah / (ah + bh), an / (an + bn)


CHECKS = {
    "simulate": lambda: (*resting(N), np.array(I_EXT), 600, np.zeros(N, dtype=np.int32), np.full(N, -1)),
    "simulate#list": lambda: (*resting(3), [0.0, 8.0, 15.0], 300, np.zeros(3, dtype=np.int32), np.full(3, -1)),
    "step": lambda: (*resting(N), np.float32(10.0)),
    "rates": lambda: (np.array([-40.0, -55.0, -65.0, 0.0], dtype=np.float32),),
    "resting": lambda: (4,),
}

if __name__ == "__main__":
    v, m, h, n = resting(N)
    counts = np.zeros(N, dtype=np.int32)
    first = np.full(N, -1)
    total = simulate(v, m, h, n, np.asarray(I_EXT), 1500, counts, first)
    print("spikes", total, counts.tolist())
    print("first", first.tolist())
    print("rate Hz", (counts / (1500 * float(DT)) * 1000.0).round(3).tolist())
