"""float32 arithmetic whose result is widened to float64 (stored into a float64 array, cast,
added to one): XLA's rounding of a float32 quotient (a multiply by the reciprocal) or of a
multiply-add (one FMA) is one float32 ulp from NumPy's, 6e-8 relative in the float64 result,
where NumPy's answer is compared to float64's precision (fuzz_1313f13007).
tests/dtypes/test_widened_float32.py."""

import numpy as np


def quotient_stored(x, w):
    w[...] = x / np.float32(3.0)  # fuzz_1313f13007


def quotient_cast(x, d):
    return (x / d).astype(np.float64)  # a traced float32 divisor, broadcast


def quotient_masked(x, y, m):
    y[m] *= x[m].astype(np.float32) / np.float32(3.0)  # the fuzzer's program (mask_cast family)


def product_added(x, w):
    w[...] = x * np.float32(0.1) + x  # a multiply-add: one FMA to LLVM


def quotient_widened_in_a_sum(x, base):
    return base + x / np.float32(7.0)  # float32 + float64: the quotient is widened first


def quotient_kept_float32(x):
    return x / np.float32(3.0)  # not widened: float32's last bit, not fenced (the cost is kept)
