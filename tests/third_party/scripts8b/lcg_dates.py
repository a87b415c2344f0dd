"""Integer recipes: a linear congruential generator in np.uint32 (multiplication wraps modulo 2**32)
and in int64 with `& 0xFFFFFFFF`, a xorshift in uint64 scalars, day-of-week by Zeller's congruence
with `%` of negatives, and days between dates with `//` on negative month offsets.
"""
import numpy as np


def lcg32(seed, n):
    out = np.empty(n, dtype=np.uint32)
    x = np.uint32(seed)
    a = np.uint32(1664525)
    c = np.uint32(1013904223)
    for i in range(n):
        x = a * x + c
        out[i] = x
    return out, x


def lcg64(seed, n):
    out = np.zeros(n, dtype=np.int64)
    x = seed
    for i in range(n):
        x = (1103515245 * x + 12345) & 0x7FFFFFFF
        out[i] = x
    return out, out % 100, (out >> 16) & 0x7FFF


def xorshift(seed, n):
    x = np.uint64(seed)
    vals = np.zeros(n, dtype=np.uint64)
    for i in range(n):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        vals[i] = x
    return vals, vals % np.uint64(6)


def zeller(y, m, d):
    m = np.asarray(m)
    y = np.where(m < 3, y - 1, y)
    m = np.where(m < 3, m + 12, m)
    k = y % 100
    j = y // 100
    h = (d + (13 * (m + 1)) // 5 + k + k // 4 + j // 4 - 2 * j) % 7
    return (h + 5) % 7


def days_from_civil(y, m, d):
    y = y - (m <= 2)
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    mp = (m + 9) % 12
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


CHECKS = {"lcg32": lambda: (12345, 20), "lcg64": lambda: (42, 25), "xorshift": lambda: (88172645463325252, 12),
          "zeller": lambda: (np.array([2024, 1999, 1900, 2000, -44]), np.array([1, 12, 2, 2, 3]), np.array([15, 31, 28, 29, 15])),
          "days_from_civil": lambda: (-1, 12, 31), "days_from_civil#np": lambda: (np.int64(1600), np.int64(2), np.int64(29))}

if __name__ == "__main__":
    print(*lcg32(12345, 20))
    print(*lcg64(42, 25))
    print(*xorshift(88172645463325252, 12))
    print(zeller(np.array([2024, 1999, 1900, 2000, -44]), np.array([1, 12, 2, 2, 3]), np.array([15, 31, 28, 29, 15])))
    print(days_from_civil(2024, 3, 1), days_from_civil(-1, 12, 31), days_from_civil(1969, 12, 31))
