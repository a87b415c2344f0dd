"""The Nagel-Schreckenberg traffic model on an occupancy ring: an int16 road array holding each
cell's speed or -1 for empty, the gap to the next car found by scanning ahead in a Python loop
over cells, random slowdowns from `np.random.seed` + `np.random.rand`, the next road built in a
fresh `np.full(..., -1, np.int16)` and rebound (`road = new`), flow counted at a detector cell,
and the mean speed printed every N steps.
"""
import numpy as np


def step(road, vmax, p_slow):
    n = road.size
    new = np.full(n, -1, dtype=np.int16)
    passed = 0
    draws = np.random.rand(n)
    for i in range(n):
        v = road[i]
        if v < 0:
            continue
        gap = 0
        while gap < vmax and road[(i + gap + 1) % n] < 0:
            gap += 1
        v = min(v + 1, vmax, gap)
        if v > 0 and draws[i] < p_slow:
            v -= 1
        j = (i + v) % n
        if i + v >= n:
            passed += 1
        new[j] = v
    return new, passed


def simulate(road, vmax, p_slow, nsteps, every):
    flow = 0
    speeds = []
    for t in range(nsteps):
        road, passed = step(road, vmax, p_slow)
        flow += passed
        cars = road >= 0
        speeds.append(float(road[cars].mean()))
        if t % every == 0:
            print("t", t, "mean v", round(speeds[-1], 8))
    return road, flow, speeds


def seeded(n, density, nsteps):
    np.random.seed(21)
    road = np.full(n, -1, dtype=np.int16)
    road[np.random.rand(n) < density] = 0
    return simulate(road, 5, 0.3, nsteps, 5)


CHECKS = {"seeded": lambda: (30, 0.3, 12), "step": lambda: (np.array([0, -1, -1, 2, -1, 1, -1, -1], np.int16), 3, 0.0)}

if __name__ == "__main__":
    road, flow, speeds = seeded(60, 0.25, 40)
    print(road.dtype, flow, round(sum(speeds) / len(speeds), 8), road.tolist()[:12])
