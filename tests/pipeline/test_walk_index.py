"""One walk per module (issue 43): walk() of a node in an indexed module or function, nodes_of(),
and a typed visitor run over a tour give exactly what a fresh walk and libcst's own traversal
give: the same nodes, the same calls, in the same order, a visit returning False included, also
after old trees are let go."""

from __future__ import annotations

import libcst as cst
import pytest

from conftest import ROOT
from np2ref.analysis import nodes

FILES = ["corpus/floyd_warshall.py", "corpus/burgers1d.py", "examples/heat_equation.py", "np2ref/frontend/fence.py"]
KINDS = [cst.Call, cst.Name, (cst.For, cst.While), cst.BaseExpression, cst.BaseSmallStatement, cst.BaseCompoundStatement]


def _fresh(node) -> list:
    return list(nodes._walk(node))


def _parts(module: cst.Module) -> list:
    """The module, its functions, their blocks and calls: trees walked on their own."""
    return [module, *(n for n in _fresh(module) if isinstance(n, (cst.FunctionDef, cst.IndentedBlock, cst.Call)))]


@pytest.mark.parametrize("path", FILES)
def test_walk_of_an_indexed_tree_is_a_fresh_walk(path):
    module = cst.parse_module((ROOT / path).read_text())
    expected = {id(n): _fresh(n) for n in _parts(module)}
    list(nodes.walk(module))  # indexes the module
    for part in _parts(module):
        got = list(nodes.walk(part))
        assert len(got) == len(expected[id(part)])
        assert all(a is b for a, b in zip(got, expected[id(part)]))


@pytest.mark.parametrize("path", FILES)
def test_nodes_of_is_the_isinstance_filter(path):
    module = cst.parse_module((ROOT / path).read_text())
    for part in _parts(module)[:40]:
        for kinds in KINDS:
            expected = [n for n in _fresh(part) if isinstance(n, kinds)]
            got = nodes.nodes_of(part, kinds)
            assert len(got) == len(expected) and all(a is b for a, b in zip(got, expected))
            assert nodes.contains(part, kinds) == bool(expected)


class _Typed(cst.CSTVisitor):
    """visit_/leave_ methods of a few types, none of layout (so run over a tour); a subscript's
    children and every third call's are skipped."""

    def __init__(self):
        self.seen = []
        self.calls = 0

    def visit_Name(self, node) -> None:
        self.seen.append(("name", id(node)))

    def visit_Call(self, node):
        self.seen.append(("call", id(node)))
        self.calls += 1
        return self.calls % 3 != 0

    def leave_Call(self, original_node) -> None:
        self.seen.append(("left call", id(original_node)))

    def visit_Subscript(self, node) -> bool:
        self.seen.append(("subscript", id(node)))
        return False

    def leave_IndentedBlock(self, original_node) -> None:
        self.seen.append(("left block", id(original_node)))


@pytest.mark.parametrize("path", FILES)
def test_a_typed_visitor_over_a_tour_calls_what_libcst_calls(path):
    module = cst.parse_module((ROOT / path).read_text())
    for part in _parts(module)[:60]:
        theirs = _Typed()
        part.visit(theirs)  # libcst's own traversal
        ours = _Typed()
        nodes.run_visitor(part, ours)
        assert ours.seen == theirs.seen
        assert nodes._TOURED.get(id(part)) is not None  # (the tour, not the recursive driver)


def test_trees_let_go_are_walked_afresh(monkeypatch):
    monkeypatch.setattr(nodes, "_MOST", 1)  # keep one tree only
    old = cst.parse_module((ROOT / FILES[0]).read_text())
    new = cst.parse_module((ROOT / FILES[1]).read_text())
    expected = _fresh(old)
    list(nodes.walk(old))
    list(nodes.walk(new))  # lets the old module's walk go
    assert nodes._SPANS.get(id(old)) is None
    assert all(a is b for a, b in zip(nodes.walk(old), expected))
    theirs, ours = _Typed(), _Typed()
    old.visit(theirs)
    nodes.run_visitor(old, ours)
    nodes.run_visitor(new, _Typed())  # lets the old module's tour go
    again = _Typed()
    nodes.run_visitor(old, again)
    assert ours.seen == theirs.seen == again.seen



BARRED_FILES = ["corpus/floyd_warshall.py", "corpus/burgers1d.py", "corpus/lu_partial_pivot.py", "np2ref/frontend/fence.py",
                "np2ref/analysis/nodes.py", "np2ref/pipeline.py"]


def test_barred_read_from_the_tour_is_the_visitors():
    """recurrences._barred (what bars a loop's recurrence) read from the module's tour names the
    same first node as its visitor over a tree no tour holds (a deep clone)."""
    from np2ref.rewrite import recurrences

    said = set()
    for path in BARRED_FILES:
        module = cst.parse_module((ROOT / path).read_text())
        nodes.tour(module)
        for loop in (n for n in _fresh(module) if isinstance(n, (cst.For, cst.While))):
            clone = loop.body.deep_clone()
            assert nodes._TOURED.get(id(clone)) is None
            said.add(recurrences._barred(loop.body))
            assert recurrences._barred(loop.body) == recurrences._barred(clone), (path, said)
    assert len(said) > 2, said  # (loops barred by different nodes and loops not barred: all compared)
