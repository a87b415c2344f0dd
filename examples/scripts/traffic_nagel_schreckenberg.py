"""Nagel-Schreckenberg traffic on a ring road: integer positions, sorted gaps, random braking.

Cars hold int64 positions and speeds on a ring of ROAD cells. Each step: sort the cars by
position (np.argsort, then fancy-index both arrays and write them back in place), gaps to the
car ahead with np.roll and `% ROAD`, accelerate (np.minimum with VMAX), slow to the gap,
brake at random with uniforms drawn from a seeded Generator inside the loop (`v[brake] -= 1`
then np.maximum with 0), move and wrap with `%=`. Flow and mean speed are printed each step.
"""
import numpy as np

ENTRY = "simulate"
ROAD = 60
VMAX = 5
P_BRAKE = 0.3


def simulate(x, v, nsteps, seed):
    rng = np.random.default_rng(seed)
    flow = np.zeros(nsteps, dtype=np.int64)
    for t in range(nsteps):
        order = np.argsort(x)
        x[:] = x[order]
        v[:] = v[order]
        gap = (np.roll(x, -1) - x - 1) % ROAD
        v[:] = np.minimum(v + 1, VMAX)
        v[:] = np.minimum(v, gap)
        brake = rng.random(x.size) < P_BRAKE
        v[brake] -= 1
        np.maximum(v, 0, out=v)
        passed = (x + v) >= ROAD
        x += v
        x %= ROAD
        flow[t] = np.count_nonzero(passed)
        print(t, repr(int(flow[t])), repr(float(v.mean())))
    return flow


def make_inputs(size="small"):
    ncars = 12 if size == "small" else 20
    rng = np.random.default_rng(6)
    x = np.sort(rng.choice(ROAD, ncars, replace=False)).astype(np.int64)
    return dict(x=x, v=np.zeros(ncars, dtype=np.int64), nsteps=15, seed=3)


if __name__ == "__main__":
    inputs = make_inputs("large")
    flow = simulate(**inputs)
    print(repr(flow.tolist()), repr(inputs["x"].tolist()), repr(inputs["v"].tolist()))
