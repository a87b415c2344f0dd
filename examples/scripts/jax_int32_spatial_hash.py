"""Spatial hashing of particles whose cell coordinates come from a jax.numpy set-up (int32).

The set-up computes integer cell coordinates with `jnp.floor(...).astype(jnp.int32)` (int32
jax.Arrays); the NumPy counting code takes them with `np.asarray`, hashes with int32 arithmetic
that wraps (`ix * 73856093 ^ iy * 19349663`: int32 times a Python int stays int32 and wraps, as
NumPy computes it), reduces modulo the table size, and counts with `np.add.at`; a second
table is built in int64 for comparison, and collisions are counted in a loop.
"""
import jax.numpy as jnp
import numpy as np

ENTRY = "hash_counts"


def cell_coords(n, seed):
    rng = np.random.default_rng(seed)
    pos = jnp.asarray(rng.random((n, 2)) * 50.0)
    return jnp.floor(pos[:, 0]).astype(jnp.int32), jnp.floor(pos[:, 1]).astype(jnp.int32)


def hash_counts(ix, iy, table_size):
    ix = np.asarray(ix)
    iy = np.asarray(iy)
    h32 = (ix * 73856093) ^ (iy * 19349663)
    h32 = np.abs(h32 % table_size)
    h64 = (ix.astype(np.int64) * 73856093) ^ (iy.astype(np.int64) * 19349663)
    h64 = h64 % table_size
    counts = np.zeros(table_size, dtype=np.int32)
    np.add.at(counts, h32, 1)
    collisions = 0
    for k in range(table_size):
        if counts[k] > 1:
            collisions += int(counts[k]) - 1
    print("collisions", collisions, h32.dtype, h64.dtype, int(h32.max()))
    return counts, h32, h64, collisions


def make_inputs(size="small"):
    ix, iy = cell_coords(12 if size == "small" else 500, 6)
    return dict(ix=ix, iy=iy, table_size=16 if size == "small" else 257)


def numpy_inputs():
    d = make_inputs("small")
    return dict(d, ix=np.asarray(d["ix"]), iy=np.asarray(d["iy"]))


CHECKS = {"hash_counts": lambda: make_inputs("small"), "hash_counts#numpy": numpy_inputs}

if __name__ == "__main__":
    counts, h32, h64, coll = hash_counts(**make_inputs("large"))
    print(coll, int(counts.max()), repr(h32[:5].tolist()), repr(h64[:5].tolist()))
