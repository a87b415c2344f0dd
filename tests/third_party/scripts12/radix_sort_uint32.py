"""LSD radix sort of uint32 keys with a payload, in the shape of algorithm-course code: one byte
per pass (`(keys >> shift) & 0xFF`), counts by np.bincount(minlength=256), exclusive offsets by
np.cumsum then `offsets[1:] = c[:-1]; offsets[0] = 0`, a stable scatter loop writing
`out[offsets[d]] = key; offsets[d] += 1`, `keys, buf = buf, keys` swaps between passes, a
counting sort for small ints with np.repeat, the checks against np.sort / np.argsort(kind=
"stable"), and a bucket histogram of the top nibble printed per pass.
"""
import numpy as np

rng = np.random.default_rng(31)
KEYS = rng.integers(0, 2 ** 32, size=40, dtype=np.uint64).astype(np.uint32)
KEYS[5] = KEYS[17]  # a repeated key: stability shows in the payload
PAYLOAD = np.arange(KEYS.size, dtype=np.int32)


def scatter_pass(src, src_pay, dst, dst_pay, shift):
    digits = (src >> np.uint32(shift)) & np.uint32(0xFF)
    counts = np.bincount(digits, minlength=256)
    offsets = np.empty(256, dtype=np.int64)
    offsets[1:] = np.cumsum(counts)[:-1]
    offsets[0] = 0
    for i in range(src.shape[0]):
        d = digits[i]
        dst[offsets[d]] = src[i]
        dst_pay[offsets[d]] = src_pay[i]
        offsets[d] += 1
    return int(np.count_nonzero(counts))


def radix_sort(keys, payload):
    buf = np.empty_like(keys)
    buf_pay = np.empty_like(payload)
    used = []
    for shift in (0, 8, 16, 24):
        used.append(scatter_pass(keys, payload, buf, buf_pay, shift))
        keys, buf = buf, keys
        payload, buf_pay = buf_pay, payload
        top = np.bincount(keys >> np.uint32(28), minlength=16)
        print("shift", shift, "buckets used", used[-1], "top nibbles", top[:4].tolist())
    return keys, payload, used


def counting_sort_repeat(small, k):
    counts = np.zeros(k, dtype=np.int64)
    for v in small:
        counts[v] += 1
    return np.repeat(np.arange(k), counts), counts


def counting_sort(small, k, out):
    counts = np.zeros(k, dtype=np.int64)
    for v in small:
        counts[v] += 1
    pos = 0
    for value in range(k):
        for c in range(counts[value]):
            out[pos] = value
            pos += 1
    return counts


def is_sorted(a):
    return bool(np.all(a[:-1] <= a[1:]))


CHECKS = {
    "radix_sort": lambda: (KEYS.copy(), PAYLOAD.copy()),
    "scatter_pass": lambda: (KEYS.copy(), PAYLOAD.copy(), np.zeros_like(KEYS), np.zeros_like(PAYLOAD), 8),
    "counting_sort_repeat": lambda: (rng.integers(0, 6, size=20), 6),
    "counting_sort": lambda: (rng.integers(0, 6, size=20), 6, np.zeros(20, dtype=np.int64)),
    "is_sorted": lambda: (np.sort(KEYS),),
}

if __name__ == "__main__":
    keys, payload, used = radix_sort(KEYS.copy(), PAYLOAD.copy())
    print("sorted", is_sorted(keys), "matches np.sort", bool(np.array_equal(keys, np.sort(KEYS))))
    print("stable", bool(np.array_equal(payload, np.argsort(KEYS, kind="stable"))))
    print("passes", used, keys.dtype, payload.dtype)
    print(keys[:5].tolist(), payload[:5].tolist())
    srt = np.empty(9, dtype=np.int64)
    counts = counting_sort(np.array([3, 1, 4, 1, 5, 2, 0, 5, 3]), 6, srt)
    print(srt.tolist(), counts.tolist())
