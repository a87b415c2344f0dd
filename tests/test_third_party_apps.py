"""Wrong answers, raw errors and refusals found by probing application kernels written in the
style of third-party NumPy benchmark collections (tests/programs/third_party_apps.py), each
against NumPy."""

import numpy as np

import np2ref
from conftest import assert_same_as_numpy, program

P = program("third_party_apps")


def _same(name, *args):
    fn = getattr(P, name)
    return assert_same_as_numpy(fn, np2ref.compile(fn, host_below=0), *args)


def test_bitwise_operators_of_python_ints_give_python_ints():
    data = np.array([0x31, 0x32, 0x33, 0xFF, 0], np.uint8)
    expected, got = _same("crc16_ccitt", data)
    assert [type(v) for v in got] == [type(v) for v in expected] == [int, int]
