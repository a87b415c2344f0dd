"""Random walkers driven by a hand-written xorshift64* generator on uint64 state arrays.

Each walker carries its own uint64 state, advanced in place with shifts and xors (`s ^= s >>
np.uint64(12)`, `s ^= s << np.uint64(25)`, ...) and a wrapping multiplication by the
xorshift64* constant; the top 53 bits become a float in [0, 1) (`(z >> 11) * 2.0**-53`).
Walkers step left or right by np.where, absorb at +-BARRIER (a boolean `alive` mask, the step
multiplied by it), and their first-passage times land in an int32 array via a masked store.
Survivors are counted per step; `np.mod` of the int64 positions by a negative modulus and a
floor division show NumPy's sign rules in the printed checksum.
"""
import numpy as np

ENTRY = "walk"
BARRIER = 6
MULT = np.uint64(0x2545F4914F6CDD1D)


def next_uniform(s):
    s ^= s >> np.uint64(12)
    s ^= s << np.uint64(25)
    s ^= s >> np.uint64(27)
    z = s * MULT
    return (z >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


def walk(state, pos, nsteps):
    passage = np.full(pos.shape, -1, dtype=np.int32)
    alive = np.ones(pos.shape, dtype=bool)
    survivors = np.zeros(nsteps, dtype=np.int64)
    for t in range(nsteps):
        u = next_uniform(state)
        pos += np.where(u < 0.5, -1, 1) * alive
        hit = alive & (np.abs(pos) >= BARRIER)
        passage[hit] = t + 1
        alive &= ~hit
        survivors[t] = alive.sum()
    check = int(np.sum(np.mod(pos, -4)) + np.sum(pos // -3))
    print(repr(survivors[-1].item()), repr(check), repr(int(state[0] % np.uint64(1000003))))
    return passage, survivors


def make_inputs(size="small"):
    n = 16 if size == "small" else 500
    state = (np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)) ^ np.uint64(88172645463325252)
    return dict(state=state, pos=np.zeros(n, dtype=np.int64), nsteps=40)


if __name__ == "__main__":
    inputs = make_inputs("large")
    passage, survivors = walk(**inputs)
    print(repr(survivors[::8].tolist()), repr(np.bincount(passage[passage > 0]).tolist()))
    print(repr(int(inputs["state"].sum())), repr(inputs["pos"][:10].tolist()))
