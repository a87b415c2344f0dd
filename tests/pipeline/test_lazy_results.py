"""A check reads only diagnostics (issue 43): ConversionResult.code and .loops are made when first
read, the same as when they were made at once; own_method finds what libcst's getattr finds."""

from __future__ import annotations

import libcst as cst

from np2ref.analysis.nodes import own_method
from np2ref.emit import module as emit_module
from np2ref.pipeline import convert_source
from np2ref.rewrite.function import ModuleRewriter
from np2ref.rewrite.marks import MarkPass

SOURCE = '''import numpy as np


def relax(u, n):
    for k in range(n):
        u[1:-1] += 0.5 * (u[2:] - u[:-2])
    return u


def main():
    u = np.zeros(8)
    for step in range(3):
        relax(u, 2)
        print(u.sum())
'''


def _counting_emit(monkeypatch) -> list:
    calls = []
    real = emit_module.emit

    def emit(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)
    monkeypatch.setattr(emit_module, "emit", emit)
    return calls


def test_diagnostics_alone_emit_no_code(monkeypatch):
    calls = _counting_emit(monkeypatch)
    result = convert_source(SOURCE, "lazy_a.py")
    assert result.ok
    assert calls == []
    code = result.code
    assert len(calls) == 1 and "npr_jit" in code
    assert result.code is code and len(calls) == 1  # made once


def test_code_made_later_is_the_code_made_at_once():
    later = convert_source(SOURCE, "lazy_b.py")
    at_once = emit_module.emit(later.rewritten, "lazy_b.py")
    assert later.code == at_once


def test_loops_are_the_loops_lines():
    result = convert_source(SOURCE, "lazy_c.py")
    lines = SOURCE.splitlines()
    found = {(line, col, function, var) for line, col, function, var, _ in result.loops}
    line = next(i + 1 for i, text in enumerate(lines) if "for k in" in text)
    assert (line, lines[line - 1].index("for") + 1, "relax", "k") in found
    assert list(result.loops) == sorted(result.loops)


def test_replaced_keeps_fields_unmade(monkeypatch):
    calls = _counting_emit(monkeypatch)
    result = convert_source(SOURCE, "lazy_d.py")
    copy = result.replaced(diagnostics=[])
    assert calls == [] and copy.diagnostics == []
    assert copy.code == result.code and copy.loops == result.loops


def test_own_method_is_what_getattr_finds():
    for visitor in (MarkPass, ModuleRewriter):
        for kind in (cst.FunctionDef, cst.Param, cst.Import, cst.ImportFrom, cst.Name, cst.Annotation, cst.Call):
            for prefix in ("visit_", "leave_"):
                mine = own_method(visitor, prefix, kind)
                found = getattr(visitor, prefix + kind.__name__)
                if mine is None:  # only libcst's no-op default
                    assert found.__module__.startswith("libcst")
                else:
                    assert mine is found
    assert own_method(MarkPass, "visit_", cst.ImportFrom) is MarkPass.visit_Import
