"""Integer arithmetic that bites: floor division and modulo of negatives (Python's sign rules) on
int64 and int8 arrays, int8 wraparound in a running sum, bit operations (shifts, xor, popcount by
loop), an FNV-like hash in np.uint64 with wrapping multiplications, and np.int64 overflow in a
polynomial hash over a loop.
"""
import numpy as np


def divmods(a, b):
    q = a // b
    r = a % b
    return q, r, np.divmod(a, b)[1], (q * b + r == a).all()


def int8_wrap(x):
    acc = np.zeros_like(x)
    s = np.int8(0)
    for i in range(x.shape[0]):
        s = s + x[i]
        acc[i] = s
    return acc, s, type(s).__name__


def bits(x):
    pop = np.zeros_like(x)
    y = x.copy()
    for _ in range(16):
        pop += y & 1
        y >>= 1
    return pop, x ^ (x << 3), ~x, np.left_shift(x, 2) | np.right_shift(x, 1)


def fnv_hash(data):
    h = np.uint64(14695981039346656037)
    prime = np.uint64(1099511628211)
    for v in data:
        h = h ^ np.uint64(v)
        h = h * prime
    return h


def poly_hash(arr, base):
    h = np.zeros(arr.shape[0], dtype=np.int64)
    for j in range(arr.shape[1]):
        h = h * base + arr[:, j]
    return h, h % 1000003


def scaled_cap(x):
    cap = min(x.max(), 2.5)  # Python's min: NumPy's int64 or the float 2.5, as the data decides
    return x * cap, cap


CHECKS = {"scaled_cap": lambda: (np.array([1, 2, 1]),), "scaled_cap#big": lambda: (np.array([1, 7, 3]),),
          "divmods": lambda: (np.array([-7, -6, 7, 0, -1, 13], dtype=np.int8), np.array([2, -4, -3, 5, 3, -5], dtype=np.int8)),
          "divmods#i64": lambda: (np.arange(-9, 9), 4),
          "int8_wrap": lambda: (np.array([100, 50, -20, 90, -128, 127], dtype=np.int8),),
          "bits": lambda: (np.array([0, 1, 5, 255, 1023, 40000], dtype=np.int32),),
          "fnv_hash": lambda: (np.array([1, 2, 3, 250, 7], dtype=np.uint8),),
          "poly_hash": lambda: (np.arange(40).reshape(4, 10) * 997, 1000000007)}

if __name__ == "__main__":
    print(*divmods(np.array([-7, -6, 7, 0, -1, 13], dtype=np.int8), np.array([2, -4, -3, 5, 3, -5], dtype=np.int8)))
    print(*divmods(np.arange(-9, 9), 4))
    print(int8_wrap(np.array([100, 50, -20, 90, -128, 127], dtype=np.int8)))
    print(*bits(np.array([0, 1, 5, 255, 1023, 40000], dtype=np.int32)))
    print(repr(fnv_hash(np.array([1, 2, 3, 250, 7], dtype=np.uint8))))
    print(*poly_hash(np.arange(40).reshape(4, 10) * 997, 1000000007))
