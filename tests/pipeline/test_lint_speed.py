"""`check` and `convert` at a linter's speed (issue 43): the fast visitor driver calls what libcst's
own traversal calls, in the same order, and `convert` across processes writes what one process
writes, whatever the hash seed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import libcst as cst
import pytest

from conftest import ROOT
from np2ref import batch
from np2ref.analysis.nodes import _LAYOUT_KINDS as LAYOUT_KINDS, run_visitor

FILES = ["corpus/floyd_warshall.py", "corpus/burgers1d.py", "examples/heat_equation.py", "np2ref/frontend/fence.py"]


class _Everything(cst.CSTVisitor):
    """Overrides on_visit/on_leave: sees every node, layout included; does not enter lambdas."""

    def __init__(self):
        self.seen = []

    def on_visit(self, node) -> bool:
        self.seen.append(("enter", id(node)))
        return not isinstance(node, cst.Lambda)

    def on_leave(self, original_node) -> None:
        self.seen.append(("leave", id(original_node)))


class _Blind(_Everything):
    """Says its on_visit/on_leave do nothing with layout nodes: run_visitor skips them."""
    layout_blind = True


class _Typed(cst.CSTVisitor):
    """visit_/leave_ methods of a few types; a subscript's children are skipped."""

    def __init__(self):
        self.seen = []

    def visit_Name(self, node) -> None:
        self.seen.append(("name", node.value))

    def visit_Call(self, node) -> None:
        self.seen.append(("call", id(node)))

    def leave_Call(self, original_node) -> None:
        self.seen.append(("left call", id(original_node)))

    def visit_Subscript(self, node) -> bool:
        self.seen.append(("subscript", id(node)))
        return False

    def visit_Comment(self, node) -> None:  # a layout node: this visitor must not skip them
        self.seen.append(("comment", node.value))


class _Attributes(cst.CSTVisitor):
    """A per-attribute method: run_visitor leaves such a visitor to libcst."""

    def __init__(self):
        self.seen = []

    def visit_If_test(self, node) -> None:
        self.seen.append(id(node))


@pytest.mark.parametrize("path", FILES)
@pytest.mark.parametrize("kind", [_Everything, _Blind, _Typed, _Attributes])
def test_run_visitor_calls_what_libcst_calls_in_its_order(path, kind):
    module = cst.parse_module((ROOT / path).read_text())
    ours, theirs = kind(), kind()
    run_visitor(module, ours)
    module.visit(theirs)
    if kind is _Blind:  # libcst's sequence less the layout nodes
        layout = {id(n) for n in _all(module) if type(n) in LAYOUT_KINDS}
        theirs.seen = [(what, n) for what, n in theirs.seen if n not in layout]
    assert ours.seen == theirs.seen
    assert ours.seen or kind is _Attributes


def _made_per_call(tag: str, skip_calls: bool):
    """A visitor class made anew by each call, as `class V` in a function body is."""
    class V(cst.CSTVisitor):
        def __init__(self):
            self.seen = []

        def visit_Name(self, node) -> None:
            self.seen.append((tag, node.value))

        def visit_Call(self, node) -> bool:
            self.seen.append((tag, "call"))
            return not skip_calls

        def leave_Call(self, original_node) -> None:
            self.seen.append((tag, "left call"))
    return V


@pytest.mark.parametrize("path", FILES[:2])
def test_classes_made_per_call_share_a_plan_and_keep_libcsts_calls(path):
    from np2ref.analysis.nodes import _Plan, tour

    module = cst.parse_module((ROOT / path).read_text())
    tour(module)
    made = [_made_per_call(tag, skip) for tag, skip in (("a", False), ("b", True), ("c", False))]
    assert len({id(kind) for kind in made}) == 3 and len({id(_Plan.of(kind)) for kind in made}) == 1
    for kind in made:  # (the second and third find the first's plan and the tour's lists of its types)
        ours, theirs = kind(), kind()
        run_visitor(module, ours)
        module.visit(theirs)
        assert ours.seen == theirs.seen and ours.seen


def _all(node):
    """Every node under node, layout included (libcst's own children)."""
    yield node
    for child in node.children:
        yield from _all(child)


def _convert(folder, out, jobs: int, seed: str, cwd):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed}
    return subprocess.run([sys.executable, "-m", "np2ref.cli", "convert", str(folder), "-o", str(out),
                           "--jobs", str(jobs)], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_convert_in_parallel_writes_what_one_process_writes(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("floyd_warshall.py", "burgers1d.py"):  # (floyd_warshall's output hung on the hash seed)
        shutil.copy(ROOT / "corpus" / name, src / name)
    (src / "refused.py").write_text("import numpy as np\n\n\ndef f(a):\n    b = a[::2]\n    np.add.at(b, [0, 0], 1.0)\n"
                                    "    return b.sum() + undefined_name\n")
    (src / "padding.py").write_text("# a comment line, read and skipped by the analysis\n" * 800)  # (a pool's worth)
    assert batch.workers(2, [p.stat().st_size for p in src.iterdir()]) == 2
    one = _convert("src", "out1", 1, "1", tmp_path)
    two = _convert("src", "out2", 2, "2", tmp_path)
    assert one.returncode == two.returncode == 1  # refused.py is refused, the others are written
    assert one.stderr.replace("out1", "out2") == two.stderr and "NPR" in one.stderr
    written = sorted(p.name for p in (tmp_path / "out1").iterdir())
    assert written == sorted(p.name for p in (tmp_path / "out2").iterdir()) == ["burgers1d.py", "floyd_warshall.py",
                                                                               "padding.py"]
    for name in written:
        assert (tmp_path / "out1" / name).read_bytes() == (tmp_path / "out2" / name).read_bytes()


def test_a_pool_only_for_a_workers_share_of_source_each():
    share = batch.BYTES_PER_WORKER
    assert batch.workers(2, [3_000, 3_000, 2_000]) == 1  # (three small files: one process, no pool)
    assert batch.workers(2, [share, share - 1]) == 1
    assert batch.workers(2, [share, share]) == 2
    assert batch.workers(8, [share] * 3) == 3  # (never more workers than files or shares)
    assert batch.workers(8, [10 * share]) == 1
    assert batch.workers(1, [10 * share] * 4) == 1


def test_the_runtime_names_read_by_pattern_are_those_python_parses():
    from np2ref.emit import module as emit_module

    assert emit_module.runtime_names() == emit_module.runtime_names_parsed()
    assert "npr_jit" in emit_module.runtime_names()
