"""NumPy's `0.0 + (-0.0)` is 0.0. XLA's simplifier folds `0.0 + v` to `v`, and where a loop's carry
starts at the constant 0.0 and XLA unrolls the short loop, the first trip's sum keeps v's -0.0
(draws11's report, round 3 session 11). rt/divisions.py fences `x + 0.0` written with the literal,
not yet a carry whose start is that constant. Differential: the sign of NumPy's zero."""

import math

import numpy as np
import pytest

import np2ref
from conftest import on_tpu, program

P = program("zero_carries")


@pytest.mark.skipif(on_tpu(), reason="a TPU's float64 holds no -0.0 (docs/tpu.md)")
@pytest.mark.xfail(strict=True, reason="open: XLA folds 0.0 + v in an unrolled loop's first trip (module docstring)")
def test_a_sum_carried_from_zero_keeps_numpys_positive_zero():
    x = np.zeros(2)
    want = P.negated_sum(x.copy())
    got = np2ref.compile(P.negated_sum, host_below=0)(x.copy())
    assert math.copysign(1.0, float(got)) == math.copysign(1.0, float(want))
