"""No module of np2ref over 500 lines (issue 40): a file that grows past it is split along a seam
of what it does, with a docstring per part. The one exception is the NumPy table, a table by
design (one row per NumPy name)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 500
ALLOWED = {"np2ref/analysis/numpy_table.py"}  # the NumPy table: one row per NumPy name


def _lengths() -> dict[str, int]:
    return {path.relative_to(ROOT).as_posix(): len(path.read_text().splitlines())
            for path in (ROOT / "np2ref").rglob("*.py")}


def test_no_np2ref_module_is_over_500_lines():
    over = sorted(f"{name}: {n} lines" for name, n in _lengths().items() if n > LIMIT and name not in ALLOWED)
    assert not over, f"split these along a seam (docs/design.md): {over}"


def test_the_allowed_files_exist():
    """An allow-list entry for a file that was moved or removed would excuse nothing: drop it."""
    assert ALLOWED <= set(_lengths()), ALLOWED - set(_lengths())
