"""A Bloom filter and a count-min sketch over integer keys (the pattern of probabilistic
data-structure tutorials in NumPy): 64-bit mixing by splitmix64 with wrapping uint64
multiplication, shifts and xors (under `np.errstate(over="ignore")`), k indices per key by
double hashing `h1 + i * h2` modulo the table size, a bit array packed into uint8 bytes with
`|=` of shifted ones and tested with `&`, a uint32 count-min table updated by `np.add.at`
and queried by the minimum over rows, a measured false-positive rate printed against the
formula, and a counting variant that removes keys with a `np.minimum` floor at zero.
"""
import numpy as np

M_BITS = 512
K_HASH = 4
SEED_A = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


def splitmix64(x):
    with np.errstate(over="ignore"):
        z = x.astype(np.uint64) + SEED_A
        z = (z ^ (z >> np.uint64(30))) * MIX1
        z = (z ^ (z >> np.uint64(27))) * MIX2
        return z ^ (z >> np.uint64(31))


def indices(keys, m, k):
    h1 = splitmix64(keys)
    h2 = splitmix64(h1) | np.uint64(1)
    out = np.empty((keys.shape[0], k), dtype=np.int64)
    for i in range(k):
        with np.errstate(over="ignore"):
            out[:, i] = ((h1 + np.uint64(i) * h2) % np.uint64(m)).astype(np.int64)
    return out


def add(bits, keys):
    idx = indices(keys, bits.shape[0] * 8, K_HASH).ravel()
    for j in idx:
        bits[j >> 3] |= np.uint8(1 << (j & 7))


def contains(bits, keys):
    idx = indices(keys, bits.shape[0] * 8, K_HASH)
    byte = bits[idx >> 3]
    hit = (byte >> (idx & 7).astype(np.uint8)) & np.uint8(1)
    return hit.all(axis=1)


def fill_ratio(bits):
    return np.unpackbits(bits).mean()


def sketch_add(table, keys, counts):
    rows, width = table.shape
    for r in range(rows):
        with np.errstate(over="ignore"):
            col = (splitmix64(keys + np.uint64(r * 7919)) % np.uint64(width)).astype(np.intp)
        np.add.at(table[r], col, counts.astype(np.uint32))


def sketch_query(table, keys):
    rows, width = table.shape
    est = np.full(keys.shape[0], np.iinfo(np.uint32).max, dtype=np.uint32)
    for r in range(rows):
        with np.errstate(over="ignore"):
            col = (splitmix64(keys + np.uint64(r * 7919)) % np.uint64(width)).astype(np.intp)
        np.minimum(est, table[r, col], out=est)
    return est


def sketch_remove(table, keys, counts):
    rows, width = table.shape
    for r in range(rows):
        with np.errstate(over="ignore"):
            col = (splitmix64(keys + np.uint64(r * 7919)) % np.uint64(width)).astype(np.intp)
        cur = table[r, col].astype(np.int64) - counts
        table[r, col] = np.maximum(cur, 0).astype(np.uint32)


KEYS = np.arange(1, 61, dtype=np.uint64) * np.uint64(2654435761)
OTHERS = np.arange(1000, 1400, dtype=np.uint64)
COUNTS = (np.arange(60) % 5 + 1).astype(np.int64)

CHECKS = {
    "splitmix64": lambda: (KEYS,),
    "splitmix64#int": lambda: (np.arange(-3, 5),),
    "indices": lambda: (KEYS, M_BITS, K_HASH),
    "add": lambda: (np.zeros(M_BITS // 8, dtype=np.uint8), KEYS[:20]),
    "contains": lambda: (np.full(M_BITS // 8, 0x5A, dtype=np.uint8), OTHERS),
    "fill_ratio": lambda: (np.arange(64, dtype=np.uint8),),
    "sketch_add": lambda: (np.zeros((3, 32), dtype=np.uint32), KEYS, COUNTS),
    "sketch_query": lambda: (np.arange(96, dtype=np.uint32).reshape(3, 32), KEYS),
    "sketch_remove": lambda: (np.full((3, 32), 4, dtype=np.uint32), KEYS[:10], COUNTS[:10] * 2),
}

if __name__ == "__main__":
    bits = np.zeros(M_BITS // 8, dtype=np.uint8)
    add(bits, KEYS)
    print("all members found", bool(contains(bits, KEYS).all()), "fill", fill_ratio(bits))
    fp = contains(bits, OTHERS).mean()
    theory = (1.0 - np.exp(-K_HASH * KEYS.size / M_BITS)) ** K_HASH
    print("false positives", fp, "theory", theory)
    table = np.zeros((4, 48), dtype=np.uint32)
    sketch_add(table, KEYS, COUNTS)
    est = sketch_query(table, KEYS)
    print("sketch", table.dtype, int(table.sum()), "overestimate", int((est - COUNTS).sum()), est.dtype)
    sketch_remove(table, KEYS[:30], COUNTS[:30])
    print("after removal", int(table.sum()), sketch_query(table, KEYS[:5]))
