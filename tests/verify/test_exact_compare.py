"""compare.first_difference, the one comparison np2ref.verify, compile(verify=True) and the fuzz
runner share (fuzz12): exact in everything but a float's last bits. A zero's sign, a Python
float against NumPy's float64, float32 against float64 scalars, a 0-d array against a scalar, a
list against a tuple, a dict's keys are differences; NaN against NaN is not."""

from __future__ import annotations

import numpy as np
import pytest

from np2ref.compare import compare_outputs, differs_only_where_not_finite, first_difference

DIFFERENT = [
    (0.0, -0.0), (np.float64(0.0), np.float64(-0.0)), (np.array([1.0, 0.0]), np.array([1.0, -0.0])),
    (np.array([complex(1.0, 0.0)]), np.array([complex(1.0, -0.0)])),
    (0.5, np.float64(0.5)), (np.float64(0.5), 0.5), (np.float64(0.5), np.float32(0.5)), (2, np.int64(2)),
    (True, 1), (np.float64(1.0), np.array(1.0)), (np.array(1.0), np.float64(1.0)), (np.array([1.0]), [1.0]),
    ([1.0, 2.0], (1.0, 2.0)), ({"a": 1}, {"a": 1, "b": 2}), ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
    ((np.float64(0.0),), (np.float64(-0.0),)), (None, 0.0), ("x", "y"),
]
SAME = [
    (float("nan"), float("nan")), (np.array([np.nan, -0.0]), np.array([np.nan, -0.0])), (-0.0, -0.0),
    (1.0, 1.0 + 1e-12), ([np.int32(3), (0.5, None)], [np.int32(3), (0.5, None)]), ({"a": [1]}, {"a": [1]}),
    (np.array([1e-300, 0.0]), np.array([0.0, 0.0])),  # a rounding-level value against a zero: a value, compared to the tolerance
]


@pytest.mark.parametrize("expected, got", DIFFERENT, ids=repr)
def test_a_difference_of_type_or_zero_sign_is_one(expected, got):
    assert first_difference(expected, got) is not None


@pytest.mark.parametrize("expected, got", SAME, ids=repr)
def test_equal_values_of_one_type_agree(expected, got):
    assert first_difference(expected, got) is None


def test_verify_does_not_take_a_zero_sign_or_a_type_for_a_nonfinite_difference():
    """unexplained() discards a difference only at NaN or inf: a zero's sign or a type is a mismatch."""
    assert not differs_only_where_not_finite(np.array([0.0, np.inf]), np.array([-0.0, np.inf]))
    assert not differs_only_where_not_finite(0.5, np.float64(0.5))
    assert differs_only_where_not_finite(np.array([np.inf, 1.0]), np.array([np.nan, 1.0]))


def test_compare_outputs_compares_argument_zero_signs():
    cmp = compare_outputs(None, None, {"a": np.array([0.0])}, {"a": np.array([-0.0])}, {"a": np.array([1.0])})
    assert cmp.difference is not None and "argument `a`" in cmp.difference
