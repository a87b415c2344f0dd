"""NumPy's `0.0 + (-0.0)` is 0.0. XLA's simplifier folds `0.0 + v` to `v`, and where a loop's carry
starts at the constant 0.0 and XLA unrolls the short loop, the first trip's sum kept v's -0.0
(draws11's report, round 3 session 11). rt/divisions.py puts such a carry behind an optimization
barrier where it is added (`_npr_fence_zero`). Differential: NumPy's value and its zero's sign."""

import math

import numpy as np
import pytest

import np2ref
from conftest import on_tpu, program

P = program("zero_carries")


@pytest.mark.skipif(on_tpu(), reason="a TPU's float64 holds no -0.0 (docs/tpu.md)")
@pytest.mark.parametrize("name", ["negated_sum", "plain_sum", "while_sum", "float32_sum"])
@pytest.mark.parametrize("data", [[0.0, 0.0], [-0.0, -0.0], [-0.0, 0.0, -0.0], [1.5, -1.5], [-0.0]], ids=str)
def test_a_sum_carried_from_zero_keeps_numpys_zero_sign(name, data):
    x = np.array(data)
    want = getattr(P, name)(x.copy())
    got = np2ref.compile(getattr(P, name), host_below=0)(x.copy())
    assert float(got) == float(want)
    assert math.copysign(1.0, float(got)) == math.copysign(1.0, float(want)), (got, want)
