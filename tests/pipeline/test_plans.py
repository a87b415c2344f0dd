"""The plan of each converted function, as `Marks.dump()` prints it (rewrite/plan.py): what the
planners decided, node by node. No-op cases first. Also the layout rules of rewrite/: no import
cycle between its modules, none over 500 lines."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper

from np2ref.analysis.module import analyse_module
from np2ref.diagnostics import DiagnosticSink
from np2ref.rewrite import registry
from np2ref.rewrite.marks import MarkPass

REWRITE = Path(__file__).parents[2] / "np2ref" / "rewrite"


def plan_of(source: str, name: str):
    source = textwrap.dedent(source)
    facts = analyse_module(MetadataWrapper(cst.parse_module(source), unsafe_skip_copy=True))
    sink = DiagnosticSink("<test>", source)
    mark = MarkPass(facts.functions[name], facts.functions, facts.imports, sink, facts.positions)
    facts.functions[name].node.visit(mark)
    assert not sink.has_errors, sink.items
    return mark.m.freeze(facts.positions)


CASES = [
    ("reads_only", """
        import numpy as np
        def norm(a, b):
            return np.sqrt(np.sum(a * a)) + b[0]
        """, "norm", ""),
    ("scalar_accumulator", """
        def total(a):
            s = 0.0
            for i in range(3):
                s += a[i]
            return s
        """, "total", ""),  # nothing written; a short literal range stays a Python loop
    ("range_loop", """
        def cumulate(a, n):
            for i in range(1, n):
                a[i] += a[i - 1]
        """, "cumulate", "no_load  Name 4:9  a\nstore_bases  Name 4:9  a\n"
                         "loops  For 3:5  for i in range(1, n):  LoopPlan(var='i', carried=(), "
                         "defined_before={'a', 'i', 'n'})"),
    ("slice_store", """
        def smooth(u):
            u[1:-1] = 0.5 * (u[:-2] + u[2:])
        """, "smooth", "no_load  Name 3:5  u\nstore_bases  Name 3:5  u"),
    ("aug_assign_name", """
        import numpy as np
        def scale(x, k):
            x *= k
            y = np.zeros(3)
            y += 1
            return y
        """, "scale", "no_load  Name 4:5  x\niop_names  AugAssign 4:5  x *= k  'iop'\n"
                      "iop_names  AugAssign 6:5  y += 1  'iop'"),
    ("ufunc_at", """
        import numpy as np
        def hist(counts, idx):
            np.add.at(counts, idx, 1)
        """, "hist", "no_load  Name 4:15  counts\n"
                     "special_calls  Call 4:5  np.add.at(counts, idx, 1)  ('ufunc_at', 'add')\n"
                     "skip_numpy  Attribute 4:5  np.add.at"),
    ("view_written", """
        def first_row(m):
            row = m[0]
            row[:] = 1.0
        """, "first_row", "no_load  Name 3:11  m\nref_form  Subscript 3:11  m[0]\n"
                          "no_load  Name 4:5  row\nstore_bases  Name 4:5  row"),
    ("mask_store", """
        def clamp(a, b):
            a[a > 1] = b[a > 1] * 2
        """, "clamp", "no_load  Name 3:5  a\nmask_store  Assign 3:5  a[a > 1] = b[a > 1] * 2  "
                      "(True, None, 0)\nunmask  Subscript 3:16  b[a > 1]"),
    ("branch", """
        def relu_sum(x, t):
            s = 0.0
            if t > 0:
                s = s + t
            x[0] = s
        """, "relu_sum", "branches  If 4:5  if t > 0:  BranchPlan(carried=('s',), defined_before={'s', 't', 'x'})\n"
                         "no_load  Name 6:5  x\nstore_bases  Name 6:5  x"),
]


def _sorted_lines(text: str) -> list[str]:
    return sorted(text.splitlines())


@pytest.mark.parametrize("source, name, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_plan_dump(source, name, expected):
    assert _sorted_lines(plan_of(source, name).dump()) == _sorted_lines(expected)


def test_plan_is_read_only_after_planning():
    plan = plan_of(dict((c[0], c[1]) for c in CASES)["range_loop"], "cumulate")
    with pytest.raises(AttributeError):
        plan.store_bases.add(None)
    with pytest.raises(TypeError):
        plan.loops[None] = None


def test_every_special_call_kind_has_an_emitter():
    kinds = {"out", "ufunc_at", "inplace_function", "inplace_method", "masked_reduce", "random", "checked_call"}
    assert kinds <= set(registry.table()["special"])


def _imports(path: Path) -> set[str]:
    """The np2ref.rewrite modules `path` imports at module level."""
    package = ".".join(path.relative_to(REWRITE.parent.parent).with_suffix("").parts)
    if path.name == "__init__.py":
        package = package.rsplit(".", 1)[0] + ".__init__"
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")[:-node.level]
            module = ".".join(base + ([node.module] if node.module else []))
            targets = [module] if node.module else [f"{module}.{a.name}" for a in node.names]
            found |= {t for t in targets if t.startswith("np2ref.rewrite")}
    return found


def test_rewrite_modules_have_no_import_cycle_and_stay_short():
    files = sorted(REWRITE.rglob("*.py"))
    graph = {}
    for path in files:
        name = ".".join(path.relative_to(REWRITE.parent.parent).with_suffix("").parts).removesuffix(".__init__")
        graph[name] = {i.removesuffix(".__init__") for i in _imports(path)}
        assert len(path.read_text().splitlines()) <= 500, path
    state: dict[str, int] = {}

    def visit(node, stack):
        state[node] = 1
        for dep in graph.get(node, ()):
            if state.get(dep) == 1 and dep != node.rsplit(".", 1)[0]:
                raise AssertionError(f"import cycle: {' -> '.join(stack + [dep])}")
            if dep not in state:
                visit(dep, stack + [dep])
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [node])
