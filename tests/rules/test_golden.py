"""Golden cases: tests/cases/<rule>/<case>.py holds the input, a `# output` line, and the
converted code as np2ref writes it (without the pasted runtime). Every case also checks that
the full output parses, that converting it again changes nothing (the whole pipeline runs
again: functions decorated @npr_jit are np2ref's output and stay as they are), and that every `# run:` line
in the input gives the same results and argument states as NumPy.

Regenerate the expected parts with NP2REF_UPDATE_GOLDEN=1 after reviewing a change.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, load_module

CASES = sorted((Path(__file__).parents[1] / "cases").rglob("*.py"))
MARK = "# output\n"


def _split(path: Path) -> tuple[str, str]:
    text = path.read_text()
    before, sep, after = text.partition(MARK)
    assert sep, f"{path} has no '# output' line"
    return before, after


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_golden(path, case_dir):
    source, expected = _split(path)
    result = np2ref.convert_source(source, path.name)
    assert result.ok, "\n".join(d.render(source) for d in result.diagnostics)
    if os.environ.get("NP2REF_UPDATE_GOLDEN"):
        path.write_text(source + MARK + result.body)
        expected = result.body
    assert result.body == expected
    ast.parse(result.code)
    again = np2ref.convert_source(result.code, path.name)
    assert again.code == result.code
    runs = re.findall(r"^# run: (.+)$", source, flags=re.M)
    if runs:
        module = load_module(source, case_dir)
        for line in runs:
            func_name = line.split("(", 1)[0].strip()
            fn = getattr(module, func_name)
            compiled = np2ref.compile(fn)
            args = eval(f"(lambda *a, **k: (a, k))({line[len(func_name) + 1:-1]})",
                        {"np": np, **vars(module)})
            assert_same_as_numpy(fn, compiled, *args[0], **args[1])
