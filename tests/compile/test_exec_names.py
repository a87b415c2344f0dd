"""Each np2ref.compile runs its program under a name of its own in linecache.

The runtime reads a compiled program back from linecache when it traces it (the variant whose
operators promote as NumPy's do, rt/promotion.py; the `# @L` line marks). Every compile of a
file put its program under one name, `<np2ref: file.py>`, so compiling a second function of the
same file replaced the first one's program: the first function's next trace found no `def` of
it there and promoted as jax.numpy does, `np.float32(3) * a[0]` of an int32 `a` float32 where
NumPy's is float64 (a silent wrong dtype, found beside the jax.Array types work)."""

from __future__ import annotations

import numpy as np

import np2ref
from conftest import load_module

SOURCE = '''
import numpy as np


def scaled_first(x, y):
    a = np.array(x)
    return np.float32(3) * a[0] + y[0]


def doubled(v):
    v *= 2
    return v
'''


def test_a_second_compile_of_the_same_file_keeps_the_first_ones_promotion(tmp_path):
    module = load_module(SOURCE, tmp_path)
    first = np2ref.compile(module.scaled_first, host_below=0)
    second = np2ref.compile(module.doubled, host_below=0)
    x = np.arange(1, 5, dtype=np.int32)
    want = module.scaled_first(x, x)
    got = first(x, x)
    assert type(got) is type(want) is np.float64 and got == want
    assert np.array_equal(second(np.ones(2)), [2.0, 2.0])
    assert first._exec_name != second._exec_name
