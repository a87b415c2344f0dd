"""Event-driven hard disks in a box: the next event is the earliest of the wall times (per disk
and axis, np.where on the velocity sign, inf where none) and the pair collision times (solved
from the quadratic for every pair, inf where no root, the lower triangle and the diagonal set to
inf), found with np.argmin and np.unravel_index; free flight `x += v * dt_event`, an elastic
collision exchanging the normal velocity components of the pair, a wall reversing one
component; a fixed number of events, the event kinds counted in an int64 array, the pressure
from the momentum given to the walls, the energy checked after each block.
"""
import numpy as np

L = 1.0
R = 0.04


def wall_times(x, v):
    t_hi = np.where(v > 0, (L - R - x) / np.where(v > 0, v, 1.0), np.inf)
    t_lo = np.where(v < 0, (R - x) / np.where(v < 0, v, -1.0), np.inf)
    return np.minimum(t_hi, t_lo)


def pair_times(x, v):
    dx = x[None, :, :] - x[:, None, :]
    dv = v[None, :, :] - v[:, None, :]
    b = (dx * dv).sum(axis=-1)
    a = (dv * dv).sum(axis=-1)
    c = (dx * dx).sum(axis=-1) - (2 * R) ** 2
    disc = b * b - a * c
    ok = (b < 0) & (disc > 0) & (a > 0)
    t = np.where(ok, (-b - np.sqrt(np.where(ok, disc, 0.0))) / np.where(ok, a, 1.0), np.inf)
    t[np.tril_indices(x.shape[0])] = np.inf
    return t


def run(x, v, n_events):
    n = x.shape[0]
    kinds = np.zeros(2, dtype=np.int64)
    impulse = 0.0
    t = 0.0
    for _ in range(n_events):
        tw = wall_times(x, v)
        tp = pair_times(x, v)
        iw = np.argmin(tw)
        ip = np.argmin(tp)
        dt_w = tw.flat[iw]
        dt_p = tp.flat[ip]
        dt = min(dt_w, dt_p)
        x += v * dt
        t += dt
        if dt_w <= dt_p:
            k, axis = np.unravel_index(iw, tw.shape)
            impulse += 2.0 * abs(v[k, axis])
            v[k, axis] = -v[k, axis]
            kinds[0] += 1
        else:
            i, j = np.unravel_index(ip, tp.shape)
            d = x[j] - x[i]
            nrm = d / np.sqrt(d @ d)
            dvn = (v[j] - v[i]) @ nrm
            v[i] += dvn * nrm
            v[j] -= dvn * nrm
            kinds[1] += 1
    return t, kinds, impulse / (4 * L * t) if t > 0 else 0.0


def lattice(n_side, speed, seed):
    rng = np.random.default_rng(seed)
    g = (np.arange(n_side) + 0.5) * L / n_side
    x = np.stack(np.meshgrid(g, g, indexing="ij"), axis=-1).reshape(-1, 2)
    ang = rng.uniform(0, 2 * np.pi, x.shape[0])
    v = speed * np.stack([np.cos(ang), np.sin(ang)], axis=1)
    return x, v


CHECKS = {
    "run": lambda: (*lattice(3, 1.0, 1), 25),
    "run#dense": lambda: (*lattice(4, 0.5, 2), 15),
    "pair_times": lambda: (*lattice(3, 1.0, 3),),
    "wall_times": lambda: (*lattice(2, 1.0, 4),),
}

if __name__ == "__main__":
    x, v = lattice(4, 1.0, 0)
    e0 = 0.5 * (v * v).sum()
    for block in range(3):
        t, kinds, p = run(x, v, 20)
        e = 0.5 * (v * v).sum()
        print(block, repr(t), kinds, repr(p), repr(abs(e - e0) / e0 < 1e-12))
    print(np.round(x[:4], 6))
