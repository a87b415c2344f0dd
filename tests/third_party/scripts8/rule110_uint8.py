"""Elementary cellular automata (rule 110 and rule 30) on a uint8 ring: the neighbourhood code
`(l << 2) | (c << 1) | r` from `np.roll`s, the rule table as a uint8 array of bits unpacked with
`(rule >> np.arange(8)) & 1`, the space-time diagram written row by row into a (T, n) uint8
array, densities printed every N generations, and the first repeat of a state found by comparing
with a list of previous states (`np.array_equal`) with an early `break`.
"""
import numpy as np


def table(rule):
    return ((rule >> np.arange(8)) & 1).astype(np.uint8)


def evolve(cells, rule, T, every):
    tab = table(rule)
    diagram = np.zeros((T, cells.size), dtype=np.uint8)
    for t in range(T):
        diagram[t] = cells
        code = (np.roll(cells, 1) << 2) | (cells << 1) | np.roll(cells, -1)
        cells[:] = tab[code]
        if t % every == 0:
            print("gen", t, "density", cells.mean())
    return diagram


def first_repeat(cells, rule, max_gen):
    tab = table(rule)
    seen = [cells.copy()]
    for t in range(1, max_gen):
        cells = tab[(np.roll(cells, 1) << 2) | (cells << 1) | np.roll(cells, -1)]
        for k, s in enumerate(seen):
            if np.array_equal(s, cells):
                return k, t
        seen.append(cells)
    return -1, max_gen


def single(n=32):
    c = np.zeros(n, dtype=np.uint8)
    c[-1] = 1
    return c


CHECKS = {
    "evolve": lambda: (single(), 110, 20, 5),
    "evolve#30": lambda: (single(17), 30, 12, 4),
    "table": lambda: (110,),
    "first_repeat": lambda: (single(6), 90, 20),
}

if __name__ == "__main__":
    cells = single(40)
    d = evolve(cells, 110, 30, 10)
    print(d.sum(axis=1).tolist(), cells.dtype, d.dtype)
    print(first_repeat(single(7), 90, 40))
