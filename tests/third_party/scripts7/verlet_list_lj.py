"""Lennard-Jones MD in a periodic 2-D box with a Verlet list: neighbours within rc + skin stored
in a padded int array (`nbr[i, :cnt[i]]`), the list rebuilt when the largest displacement since
the last build passes skin / 2 (`disp = pos - pos_ref; pos_ref[:] = pos`), forces by looping the
list, the velocity-Verlet update, and the rebuild count and potential energy printed.
"""
import numpy as np

L = 6.0
RC = 1.5
SKIN = 0.3
DT = 0.002
MAXN = 40


def build(pos, nbr, cnt):
    n = pos.shape[0]
    cnt[:] = 0
    for i in range(n):
        for j in range(i + 1, n):
            d = pos[i] - pos[j]
            d -= L * np.rint(d / L)
            if d @ d < (RC + SKIN) ** 2:
                nbr[i, cnt[i]] = j
                cnt[i] += 1


def forces(pos, nbr, cnt, f):
    f[:] = 0.0
    pot = 0.0
    for i in range(pos.shape[0]):
        for k in range(cnt[i]):
            j = nbr[i, k]
            d = pos[i] - pos[j]
            d -= L * np.rint(d / L)
            r2 = d @ d
            if r2 < RC * RC:
                s6 = 1.0 / r2 ** 3
                pot += 4.0 * (s6 * s6 - s6)
                fij = (48.0 * s6 * s6 - 24.0 * s6) / r2 * d
                f[i] += fij
                f[j] -= fij
    return pot


def run(pos, vel, nsteps):
    n = pos.shape[0]
    nbr = np.zeros((n, MAXN), dtype=np.int64)
    cnt = np.zeros(n, dtype=np.int64)
    f = np.zeros_like(pos)
    build(pos, nbr, cnt)
    pos_ref = pos.copy()
    rebuilds = 1
    pot = forces(pos, nbr, cnt, f)
    for step in range(nsteps):
        vel += 0.5 * DT * f
        pos += DT * vel
        pos %= L
        disp = pos - pos_ref
        disp -= L * np.rint(disp / L)
        if np.sqrt((disp ** 2).sum(axis=1)).max() > 0.5 * SKIN:
            build(pos, nbr, cnt)
            pos_ref[:] = pos
            rebuilds += 1
        pot = forces(pos, nbr, cnt, f)
        vel += 0.5 * DT * f
    return pos, vel, pot, rebuilds, cnt


def make_inputs():
    g = (np.arange(5) + 0.5) * (L / 5)
    pos = np.stack(np.meshgrid(g, g, indexing="ij"), -1).reshape(-1, 2)
    vel = np.random.default_rng(9).normal(0.0, 2.0, pos.shape)
    return pos, vel - vel.mean(axis=0)


CHECKS = {"run": lambda: (*make_inputs(), 25)}

if __name__ == "__main__":
    pos, vel, pot, rebuilds, cnt = run(*make_inputs(), 60)
    print(repr(pot), rebuilds, cnt.tolist()[:6], repr(0.5 * (vel ** 2).sum()))
