"""np2ref.verify.compare: the comparison of NumPy results, which lives in np2ref/compare.py (below
verify/ and compiled/, which both use it); its names re-exported for the callers of this path."""

from ..compare import (  # noqa: F401
    Comparison, RTOL, compare_outputs, differs_only_where_not_finite, first_difference, run_on_copies,
    worst_error)
