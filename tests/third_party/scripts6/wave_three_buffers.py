"""2-D wave equation with three buffers rotated each step (`prev, cur, nxt = cur, nxt, prev`),
a source term injected at a point by a Ricker wavelet, absorbing edges by multiplying border
slices in place, a snapshot kept with `.copy()` every few steps and the energy printed.
"""
import numpy as np

NX = NY = 20
C = 0.4
STEPS = 24


def ricker(t, f0=0.08):
    a = (np.pi * f0 * (t - 20.0)) ** 2
    return (1.0 - 2.0 * a) * np.exp(-a)


def simulate(prev, cur, steps):
    nxt = np.zeros_like(cur)
    snaps = []
    for n in range(steps):
        lap = cur[2:, 1:-1] + cur[:-2, 1:-1] + cur[1:-1, 2:] + cur[1:-1, :-2] - 4.0 * cur[1:-1, 1:-1]
        nxt[1:-1, 1:-1] = 2.0 * cur[1:-1, 1:-1] - prev[1:-1, 1:-1] + C * C * lap
        nxt[NX // 2, NY // 3] += ricker(float(n))
        for edge in (nxt[:2], nxt[-2:], nxt[:, :2], nxt[:, -2:]):
            edge *= 0.9
        prev, cur, nxt = cur, nxt, prev
        if n % 8 == 7:
            snaps.append(cur.copy())
            print("step", n, repr(float((cur * cur).sum())))
    return cur, snaps


CHECKS = {"simulate": lambda: (np.zeros((NX, NY)), np.zeros((NX, NY)), STEPS),
          "simulate#short": lambda: (np.zeros((NX, NY)), np.zeros((NX, NY)), 5)}

if __name__ == "__main__":
    prev, cur = np.zeros((NX, NY)), np.zeros((NX, NY))
    out, snaps = simulate(prev, cur, STEPS)
    print(repr(out.sum()), len(snaps), repr(snaps[0].max()), repr(prev.sum()), repr(cur.sum()))
