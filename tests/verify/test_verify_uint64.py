"""np2ref verify on uint64 arguments holding values past int64's range (a hand-written
xorshift generator's state, examples/scripts/xorshift_walkers.py): the dense input draw asked
NumPy for int64 integers up to the example's maximum and stopped with "high is out of bounds
for int64"; it now draws them as uint64."""

import numpy as np

import np2ref


def xorshift(state, out):
    state ^= state >> np.uint64(12)
    state ^= state << np.uint64(25)
    out[:] = (state >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    return state.sum()


def test_uint64_state_past_int64s_range_is_verified():
    state = np.array([2**64 - 5, 2**63 + 7, 12345, 2**40], dtype=np.uint64)
    report = np2ref.verify(xorshift, state, np.zeros(4), examples=4, seed=1, transforms=("jit",))
    assert report.ok, report
    assert report["jit"].compared >= 4
