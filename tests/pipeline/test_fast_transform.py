"""analysis/transform.run_transformer (issue 43): a transformer run over a tree without libcst's
rebuild of every node makes the same tree (the same code) with the same calls, in the same order,
as libcst's own `tree.visit(transformer)`, removals and flattenings included."""

from __future__ import annotations

import libcst as cst
import pytest

from conftest import ROOT
from np2ref.analysis.nodes import _LAYOUT_KINDS as LAYOUT_KINDS
from np2ref.analysis.transform import run_transformer

FILES = ["corpus/floyd_warshall.py", "corpus/burgers1d.py", "examples/heat_equation.py", "np2ref/frontend/fence.py",
         "np2ref/analysis/transform.py"]


class _Edits(cst.CSTTransformer):
    """Renames names, drops `pass` and docstring statements and type annotations, writes each
    augmented assignment twice (a FlattenSentinel), skips lambdas; records every call."""

    def __init__(self):
        self.seen = []

    def on_visit(self, node) -> bool:
        self.seen.append(("enter", id(node)))
        return super().on_visit(node)

    def on_leave(self, original, updated):
        self.seen.append(("leave", id(original), type(updated).__name__))
        return super().on_leave(original, updated)

    def visit_Lambda(self, node) -> bool:
        return False

    def leave_Name(self, original, updated):
        return updated.with_changes(value=updated.value + "_x") if len(updated.value) < 3 else updated

    def leave_Pass(self, original, updated):
        return cst.RemovalSentinel.REMOVE  # (a `pass` alone in a body: the line goes, as libcst does)

    def leave_Expr(self, original, updated):
        return cst.RemovalSentinel.REMOVE if isinstance(updated.value, cst.SimpleString) else updated

    def leave_Annotation(self, original, updated):
        return cst.RemovalSentinel.REMOVE  # an optional field: None

    def leave_AugAssign(self, original, updated):
        return cst.FlattenSentinel([updated, updated])


class _BlindEdits(_Edits):
    layout_blind = True


@pytest.mark.parametrize("path", FILES)
@pytest.mark.parametrize("kind", [_Edits, _BlindEdits])
def test_run_transformer_makes_what_libcst_makes_with_the_same_calls(path, kind):
    module = cst.parse_module((ROOT / path).read_text())
    ours, theirs = kind(), kind()
    got = run_transformer(module, ours)
    want = module.visit(theirs)
    assert got.code == want.code and got.code != module.code
    expected = theirs.seen
    if kind is _BlindEdits:  # libcst's calls less those on layout nodes
        layout = {id(n) for n in _nodes(module) if type(n) in LAYOUT_KINDS}
        expected = [event for event in expected if event[1] not in layout]
    assert ours.seen == expected


def test_an_unchanged_subtree_comes_back_as_it_went_in():
    module = cst.parse_module("def f(a):\n    return a + 1\n\n\ndef g(b):\n    return b\n")

    class OnlyF(cst.CSTTransformer):
        def leave_Integer(self, original, updated):
            return updated.with_changes(value="2")

    got = run_transformer(module, OnlyF())
    assert got.body[1] is module.body[1] and got.body[0] is not module.body[0]
    assert got.code == module.visit(OnlyF()).code


def test_a_required_child_cannot_be_removed():
    class DropNames(cst.CSTTransformer):
        def leave_Name(self, original, updated):
            return cst.RemovalSentinel.REMOVE

    with pytest.raises(TypeError):
        run_transformer(cst.parse_module("x = y\n"), DropNames())


def _nodes(tree):
    class All(cst.CSTVisitor):
        def __init__(self):
            self.found = []

        def on_visit(self, node) -> bool:
            self.found.append(node)
            return True
    v = All()
    tree.visit(v)
    return v.found
