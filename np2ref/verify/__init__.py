"""Differential verification of translations against the original NumPy (DESIGN.md: Verification)."""

from .harness import verify
from .report import TransformResult, VerifyReport

__all__ = ["TransformResult", "VerifyReport", "verify"]
