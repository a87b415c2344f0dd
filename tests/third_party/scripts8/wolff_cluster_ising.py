"""Wolff single-cluster updates for the 2-D Ising model: int8 spins, the cluster grown with an
array-backed stack (`stack[top] = site; top += 1`) and a boolean `in_cluster` mask reset per
update, bonds added with probability 1 - exp(-2 beta) from `np.random.random()`, the cluster
flipped by `spins[in_cluster] *= -1`, cluster sizes kept in a list, magnetisation printed.
"""
import numpy as np


def wolff_update(spins, p_add, stack, in_cluster):
    n = spins.shape[0]
    in_cluster[:] = False
    i = np.random.randint(n)
    j = np.random.randint(n)
    s0 = spins[i, j]
    stack[0] = i * n + j
    in_cluster[i, j] = True
    top = 1
    size = 1
    while top > 0:
        top -= 1
        site = stack[top]
        a = site // n
        b = site % n
        for da, db in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x = (a + da) % n
            y = (b + db) % n
            if spins[x, y] == s0 and not in_cluster[x, y] and np.random.random() < p_add:
                in_cluster[x, y] = True
                stack[top] = x * n + y
                top += 1
                size += 1
    spins[in_cluster] *= -1
    return size


def simulate(spins, beta, nupdates, every):
    n = spins.shape[0]
    p_add = 1.0 - np.exp(-2.0 * beta)
    stack = np.zeros(n * n, dtype=np.int64)
    in_cluster = np.zeros((n, n), dtype=bool)
    sizes = []
    for u in range(nupdates):
        sizes.append(wolff_update(spins, p_add, stack, in_cluster))
        if (u + 1) % every == 0:
            print(u + 1, "m =", abs(int(spins.sum())) / spins.size)
    return spins, sizes


def seeded(n, beta, nupdates):
    np.random.seed(8)
    spins = np.where(np.random.random((n, n)) < 0.5, 1, -1).astype(np.int8)
    return simulate(spins, beta, nupdates, 5)


CHECKS = {"seeded": lambda: (6, 0.5, 10), "seeded#cold": lambda: (5, 0.9, 5)}

if __name__ == "__main__":
    spins, sizes = seeded(10, 0.44, 30)
    print(sizes[:10], sum(sizes), spins.dtype, int(spins.sum()))
