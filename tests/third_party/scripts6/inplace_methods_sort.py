"""In-place methods over a whole program: `a.sort()` on the array and on a reversed view
(`a[::-1].sort()` sorts the base descending), `a[2:].sort()`, `a.fill` inside a loop,
`np.copyto(dst, src, where=mask)`, `a.clip(lo, hi, out=a)`, `np.cumsum(a, out=a)`,
`np.negative(a, out=a)`, `a.round(2, out=a)`, and `np.put`/`np.place`.
"""
import numpy as np


def ranks(scores):
    s = scores.copy()
    s.sort()
    desc = scores.copy()
    desc[::-1].sort()
    part = scores.copy()
    part[2:].sort()
    return s, desc, part


def refill(buf, rounds):
    totals = []
    for r in range(rounds):
        buf.fill(r * 0.5)
        buf[r % buf.shape[0]] = -1.0
        buf.clip(-0.5, 1.2, out=buf)
        totals.append(buf.sum())
    return totals


def masked_copy(dst, src):
    np.copyto(dst, src, where=src > 0.3)
    np.cumsum(dst, out=dst)
    np.negative(dst[::2], out=dst[::2])
    dst.round(2, out=dst)
    np.put(dst, [0, -1], [9.0, 8.0])
    np.place(dst, dst < -1.0, [-1.0, -2.0])
    return dst.sum()


def sort_rows(m):
    m.sort(axis=1)
    m[:, ::-1].sort(axis=1)
    order = np.argsort(m[:, 0], kind="stable")
    return order


CHECKS = {
    "ranks": lambda: (np.array([3.0, -1.0, 4.0, 1.5, 9.0, 2.0, 6.5]),),
    "refill": lambda: (np.zeros(5), 7),
    "masked_copy": lambda: (np.linspace(-1, 1, 9), np.cos(np.arange(9.0))),
    "sort_rows": lambda: (np.random.default_rng(0).random((4, 6)),),
}

if __name__ == "__main__":
    s, desc, part = ranks(np.array([3.0, -1.0, 4.0, 1.5, 9.0, 2.0, 6.5]))
    print(s.tolist(), desc.tolist(), part.tolist())
    buf = np.zeros(5)
    print([repr(t) for t in refill(buf, 7)], buf.tolist())
    dst = np.linspace(-1, 1, 9)
    print(repr(masked_copy(dst, np.cos(np.arange(9.0)))), dst.tolist())
    m = np.random.default_rng(0).random((4, 6))
    print(sort_rows(m).tolist(), np.round(m, 10).tolist())
