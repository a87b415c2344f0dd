"""The number_kinds and number_paths families (np2ref/fuzz/pick_families.py, kinds13 and round 14):
Python numbers against NumPy scalars through helpers' `op=`, tuples rebound under ifs, walks that
change an int's dtype, counters asked their type, max()/sum() of list arguments; nested early
returns, tuple items, appended parameters. Its programs are valid NumPy and hold its forms."""

from __future__ import annotations

import re

from fuzz_runs import numpy_runs


def test_number_kinds_programs_hold_their_forms(tmp_path):
    runs = numpy_runs("number_kinds", tmp_path, 16)
    sources = [p.source() for p, _ in runs]
    assert len(runs) == 16 and not any(e is not None for _, e in runs)  # (valid NumPy: no walk runs forever)
    forms = [r"^def h\d+\(p, k\):\n +p [-+*]=", r"^ +if x\[.*\n +v\d+ = \(", r"while par\[v\d+\] != v\d+",
             r"while .*:\n +v\d+ (\+=|= v\d+ \+)", r"= (max|min|sum)\(ks\)"]
    seen = [f for f in forms if any(re.search(f, s, re.M) for s in sources)]
    assert len(seen) >= 3, seen


def test_number_paths_programs_hold_their_forms(tmp_path):
    """number_paths (round 14): nested early returns in a helper, a tuple's items rebound from
    themselves, a parameter appended then computed on, a helper's `op=` of a NumPy scalar shared."""
    runs = numpy_runs("number_paths", tmp_path, 16)
    sources = [p.source() for p, _ in runs]
    # (an index another family's statement reads out of range: NumPy's IndexError, which np2ref must raise too)
    assert len(runs) == 16 and all(e is None or isinstance(e, IndexError) for _, e in runs)
    forms = [r"^ +if .*:\n +return ", r"^ +v\d+ = \(v\d+\[", r"^ +v\d+\.append\(dt\)", r"^def h\d+\(p, k\):"]
    seen = [f for f in forms if any(re.search(f, s, re.M) for s in sources)]
    assert len(seen) >= 3, seen
