"""Diagnostics: source files under tests/diagnostics/ carry inline `# E: NPRxxx` expectations
(the mypy convention). Each expected code must be reported on its line, and nothing else."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import np2ref
from np2ref.codes import CODES, explain

FILES = sorted((Path(__file__).parents[1] / "diagnostics").glob("*.py"))


def _expected(text: str) -> set[tuple[int, str]]:
    out = set()
    for i, line in enumerate(text.splitlines(), 1):
        for code in re.findall(r"# E: (NPR\d+)", line):
            out.add((i, code))
    return out


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_inline_expectations(path):
    text = path.read_text()
    result = np2ref.convert_source(text, str(path))
    got = {(d.line, d.code) for d in result.diagnostics}
    assert got == _expected(text)
    assert result.code is None  # a refused file produces no output


def test_rendering_has_line_caret_hint_and_notes():
    src = "import numpy as np\n\ndef inner(a):\n    w = a[1:-1]\n    return w\n\ndef f(u):\n    v = inner(u)\n    v[0] = 1.0\n"
    result = np2ref.convert_source(src, "m.py")
    [diag] = result.diagnostics
    text = diag.render(src)
    assert text.splitlines()[0] == "m.py:8:5: NPR203 " + diag.message
    assert "    v = inner(u)" in text and "^" in text
    assert "note: m.py:3:1: inner() returns a view of its parameter `a`" in text
    assert "hint:" in text
    with pytest.raises(np2ref.Np2RefError) as info:
        result.raise_for_errors()
    assert info.value.diagnostics == [diag]
    assert "m.py:8:5" in str(info.value)


def test_syntax_error_is_a_diagnostic():
    result = np2ref.convert_source("def f(:\n    pass\n", "bad.py")
    assert [d.code for d in result.diagnostics] == ["NPR002"]
    assert result.diagnostics[0].line == 1
    assert result.code is None


def test_every_code_has_an_explanation():
    for code in CODES:
        text = explain(code)
        assert text.startswith(code)
    assert explain("NPR999") is None


def test_json_round_trip():
    result = np2ref.convert_source("import numpy as np\nG = np.zeros(3)\ndef f():\n    G[0] = 1\n", "g.py")
    data = json.loads(np2ref.diagnostics.to_json(result.diagnostics))
    assert data[0]["code"] == "NPR202" and data[0]["line"] == 4 and data[0]["col"] == 5
