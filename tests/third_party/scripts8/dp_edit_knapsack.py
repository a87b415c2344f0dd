"""Dynamic programming in NumPy arrays: Levenshtein distance between int8-coded strings in a full
int32 table (`D[i, j] = min(...)`), the alignment traced back in a `while`, 0/1 knapsack with a
single int64 row updated backwards through a slice (`best[w:] = np.maximum(best[w:], best[:-w] +
v)`, the reversed order done by reading a copy), longest increasing subsequence by an O(n^2)
loop, and the answers printed.
"""
import numpy as np


def edit_distance(a, b):
    n, m = a.size, b.size
    D = np.zeros((n + 1, m + 1), dtype=np.int32)
    D[:, 0] = np.arange(n + 1)
    D[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            D[i, j] = min(D[i - 1, j] + 1, D[i, j - 1] + 1, D[i - 1, j - 1] + cost)
    i, j = n, m
    ops = 0
    while i > 0 and j > 0:
        if D[i, j] == D[i - 1, j - 1] + (a[i - 1] != b[j - 1]):
            ops += int(a[i - 1] != b[j - 1])
            i -= 1
            j -= 1
        elif D[i, j] == D[i - 1, j] + 1:
            ops += 1
            i -= 1
        else:
            ops += 1
            j -= 1
    return int(D[n, m]), ops + i + j, D


def knapsack(weights, values, cap):
    best = np.zeros(cap + 1, dtype=np.int64)
    for w, v in zip(weights, values):
        prev = best.copy()
        best[w:] = np.maximum(prev[w:], prev[:cap + 1 - w] + v)
    return best


def lis(x):
    n = x.size
    L = np.ones(n, dtype=np.int64)
    for i in range(1, n):
        for j in range(i):
            if x[j] < x[i] and L[j] + 1 > L[i]:
                L[i] = L[j] + 1
    return int(L.max()), L


def codes(s):
    return np.frombuffer(s.encode(), dtype=np.uint8).astype(np.int8)


CHECKS = {
    "edit_distance": lambda: (codes("kitten"), codes("sitting")),
    "knapsack": lambda: ([3, 4, 5, 9, 4], [3, 4, 4, 10, 4], 20),
    "lis": lambda: (np.array([5, 2, 8, 6, 3, 6, 9, 7]),),
}

if __name__ == "__main__":
    d, ops, D = edit_distance(codes("intention"), codes("execution"))
    print(d, ops, D.dtype, D[-1].tolist())
    print(knapsack([3, 4, 5, 9, 4], [3, 4, 4, 10, 4], 20).tolist())
    print(lis(np.array([5, 2, 8, 6, 3, 6, 9, 7, 1, 10])))
