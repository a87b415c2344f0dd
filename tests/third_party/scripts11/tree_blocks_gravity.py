"""A tree-code stand-in without a tree: bodies sorted into spatial blocks (a 1-D Morton-like key
from quantised coordinates), each block's monopole (mass and centre of mass) computed by
np.add.at; for each target block, near blocks (centres within a cutoff) are summed pair by
pair, far blocks by their monopole; softened gravity in float64 with masses in float32, the
accelerations written block by block into an output array handed in (`acc[sl] = ...`, views),
a leapfrog step, and the relative error against direct summation printed.
"""
import numpy as np

NB = 48
BLOCK = 8
EPS = 0.05
THETA_CUT = 0.6
G = 1.0

rng = np.random.default_rng(5)
POS = rng.random((NB, 3))
MASS = (0.5 + rng.random(NB)).astype(np.float32)


def block_order(pos):
    q = np.floor(pos * 4).astype(np.int64)
    np.minimum(q, 3, out=q)
    key = (q[:, 0] << 4) | (q[:, 1] << 2) | q[:, 2]
    return np.argsort(key, kind="stable")


def monopoles(pos, mass, nblocks):
    owner = np.arange(pos.shape[0]) // BLOCK
    m = np.zeros(nblocks)
    com = np.zeros((nblocks, 3))
    np.add.at(m, owner, mass)
    np.add.at(com, owner, pos * mass[:, None])
    com /= m[:, None]
    return m, com


def direct(pos, mass, tgt):
    d = pos[None, :, :] - tgt[:, None, :]
    r2 = np.sum(d * d, axis=-1) + EPS ** 2
    return G * np.sum(d * (mass / r2 ** 1.5)[:, :, None], axis=1)


def accelerations(pos, mass, acc):
    nblocks = pos.shape[0] // BLOCK
    m, com = monopoles(pos, mass, nblocks)
    near_pairs = 0
    for b in range(nblocks):
        sl = slice(b * BLOCK, (b + 1) * BLOCK)
        tgt = pos[sl]
        out = acc[sl]
        out[...] = 0.0
        for c in range(nblocks):
            sep = np.sqrt(np.sum((com[c] - com[b]) ** 2))
            if c == b or sep < THETA_CUT:
                out += direct(pos[c * BLOCK:(c + 1) * BLOCK], mass[c * BLOCK:(c + 1) * BLOCK], tgt)
                near_pairs += 1
            else:
                out += direct(com[c:c + 1], m[c:c + 1], tgt)
    return near_pairs


def leapfrog(pos, vel, mass, dt, nsteps):
    acc = np.zeros_like(pos)
    accelerations(pos, mass, acc)
    for n in range(nsteps):
        vel += 0.5 * dt * acc
        pos += dt * vel
        near = accelerations(pos, mass, acc)
        vel += 0.5 * dt * acc
        if n % 2 == 0:
            print("step", n, "near", near, "com", repr(float((pos * mass[:, None]).sum() / mass.sum())))
    return acc


def rel_error(pos, mass):
    acc = np.zeros_like(pos)
    accelerations(pos, mass, acc)
    exact = direct(pos, mass, pos)
    return np.max(np.linalg.norm(acc - exact, axis=1) / np.linalg.norm(exact, axis=1))


def sorted_system():
    order = block_order(POS)
    return POS[order].copy(), MASS[order].copy()


CHECKS = {
    "accelerations": lambda: (*sorted_system(), np.zeros((NB, 3))),
    "leapfrog": lambda: (sorted_system()[0], np.zeros((NB, 3)), sorted_system()[1], 0.01, 4),
    "monopoles": lambda: (*sorted_system(), NB // BLOCK),
    "block_order": lambda: (POS.copy(),),
    "rel_error": lambda: sorted_system(),
}

if __name__ == "__main__":
    pos, mass = sorted_system()
    print("order", block_order(POS)[:10])
    print("rel error", repr(float(rel_error(pos, mass))))
    vel = np.zeros_like(pos)
    acc = leapfrog(pos, vel, mass, 0.01, 6)
    print("acc norm", repr(float(np.linalg.norm(acc))), acc.dtype)
