"""Rewrite every converted example (`X_ref.py`) exactly as `np2ref convert examples/X.py -o
examples/X_ref.py` writes it from the repository root. tests/examples/test_examples.py checks that the
committed files are current.

    python examples/regenerate.py
"""
from __future__ import annotations

from pathlib import Path

import np2ref
from np2ref.frontend.files import stamped

HERE = Path(__file__).resolve().parent
# the NumPy originals; the drivers (optimise_initial_condition.py, batch_gray_scott.py) import
# them and are not converted
ORIGINALS = ("heat_equation", "particle_deposition", "lattice_boltzmann", "diffusion_inverse",
             "gray_scott")


def converted_path(stem: str) -> Path:
    return HERE / f"{stem}_ref.py"


def expected_text(stem: str) -> str:
    """What `np2ref convert examples/<stem>.py` writes (the header names that relative path; the
    last line is the hash by which convert later knows the file as its own, unedited output)."""
    source = HERE / f"{stem}.py"
    result = np2ref.convert_source(source.read_text(encoding="utf-8"), f"examples/{stem}.py")
    result.raise_for_errors()
    return stamped(result.code, "utf-8").decode("utf-8")


if __name__ == "__main__":
    for stem in ORIGINALS:
        path = converted_path(stem)
        text = expected_text(stem)
        changed = not path.exists() or path.read_text(encoding="utf-8") != text
        path.write_text(text, encoding="utf-8")
        print(f"{'wrote' if changed else 'unchanged'} {path.relative_to(HERE.parent)}")
