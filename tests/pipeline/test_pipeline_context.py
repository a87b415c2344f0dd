"""The pipeline's context (np2ref/context.py) and its one line map (np2ref/frontend/lines.py):
a text a front-end pass made (closures lifted, driver loops lifted, helpers pulled in) is
converted again, and everything that conversion reports names the user's line and column."""

import libcst as cst

from np2ref import pipeline
from np2ref.context import Fenced, PipelineContext
from np2ref.diagnostics import Diagnostic, Span
from np2ref.emit.module import RUNTIME_MODULE
from np2ref.frontend.lines import LineMap
from np2ref.pipeline import convert_source
from np2ref.policy import DtypePolicy


def _at(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """(line, column), 1-based, of `needle` in `text`."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if needle in line]
    n, line = lines[occurrence]
    return n, line.index(needle) + 1


def test_a_line_map_places_through_each_pass_in_turn():
    first = [(0, 0), (1, 0), (1, 4), (2, 4)]     # a pass that moved lines 2-3 right by 4
    second = [(0, 0), (3, -8), (1, 0), (2, 0)]   # a later pass that put line 3 first, 8 left
    lines = LineMap().through(first).through(second)
    assert lines.place(1, 12) == (2, 16)          # second: (3, 20); first: (2, 16)
    assert lines.place(2, 3) == (1, 3)
    assert lines.place(3, 2) == (1, 1)           # moved left of the first column: kept at 1
    assert lines.line(99) == 1                    # past the end: the last line, then its line
    assert not LineMap() and lines


def test_diagnostics_are_placed_and_in_the_users_order():
    lines = LineMap().through([(0, 0), (5, 0), (2, 4)])
    found = [Diagnostic("NPR201", "b", "f.py", Span(1, 1, 1, 3)), Diagnostic("NPR101", "a", "f.py", Span(2, 9, 2, 12))]
    placed = lines.diagnostics(found)
    assert [(d.code, d.line, d.col, d.end_col) for d in placed] == [("NPR101", 2, 5, 8), ("NPR201", 5, 1, 3)]


MODULE = '''import numpy as np


def step(u, n):
    c = 0.5

    def body(v):
        for i in range(1, n):
            v[i] += c * v[i - 1]
    body(u)


u = np.ones(8)
for t in range(3):
    step(u, 8)
    for j in range(2):
        u[j] -= 0.25
print(u.sum())
'''


def test_a_loop_in_a_lifted_closure_under_a_lifted_driver_loop_names_the_users_line():
    """Three conversions (the module, its closure lifted, its driver loop lifted and the
    closure lifted again): the loop notes name the user's lines and columns."""
    result = convert_source(MODULE, "m.py")
    assert result.ok and result.source == MODULE
    assert "def _main_loop_" in result.code and "def step__body(" in result.code
    where = {var: (line, col) for line, col, _, var, _ in result.loops}
    assert where == {"i": _at(MODULE, "for i"), "t": _at(MODULE, "for t"), "j": _at(MODULE, "for j")}


def test_a_refusal_in_a_lifted_closure_names_the_users_line_and_column():
    text = MODULE.replace("            v[i] += c * v[i - 1]", "            np.hypot.at(v, [i], 2.0)")
    result = convert_source(text, "m.py")
    assert not result.ok
    (found,) = [d for d in result.diagnostics if d.code == "NPR101"]
    assert (found.line, found.col) == _at(text, "np.hypot.at")
    assert found.render(text).splitlines()[1].strip() == "np.hypot.at(v, [i], 2.0)"


def test_compiles_line_marks_name_the_users_lines_after_a_closure_is_lifted():
    result = convert_source(MODULE, "m.py", only={"step"})
    marks = {int(line.rsplit("# @L", 1)[1]) for line in result.exec_source.splitlines() if "# @L" in line}
    assert _at(MODULE, "v[i] += c")[0] in marks and _at(MODULE, "    body(u)")[0] in marks
    assert max(marks) <= _at(MODULE, "    body(u)")[0]  # none past the function


def test_the_fence_findings_are_keyed_by_functions_only():
    text = MODULE.replace("    def body(v):\n        for i in range(1, n):\n            v[i] += c * v[i - 1]\n    body(u)\n",
                          "    for i in range(1, n):\n        if u[i] > 2:\n            break\n        u[i] += c\n")
    front = pipeline._front(PipelineContext.of(text, "m.py", only={"step"}).front())
    assert isinstance(front.fenced, Fenced)
    assert all(isinstance(node, cst.FunctionDef) for node in front.fenced.findings)
    assert set(front.fenced.originals) == {"step"}  # its break desugared: the user's def kept
    assert front.fenced.positions is not None


def test_the_front_is_keyed_by_what_the_stages_before_diagnosis_read():
    """pipeline._front is cached by ctx.front(): one entry for every function np2ref.compile
    converts from a module, and for the same text reached through another pass (line map) or
    policy; another entry where the fence or the analysis would find something else."""
    ctx = PipelineContext.of(MODULE, "m.py", only={"step"})
    same = [PipelineContext.of(MODULE, "m.py", only={"other"}, known=frozenset({"k"})),
            ctx.again(MODULE, [(0, 0), (1, 0)]), ctx.retry(policy=DtypePolicy("float32"))]
    assert all(other.front() == ctx.front() for other in same)
    assert hash(ctx.front()) == hash(same[1].front())
    other = [PipelineContext.of(MODULE, "m.py"), ctx.retry(seeds=True), ctx.retry(over_rows=frozenset({(9, 5)})),
             ctx.retry(keep_generators=frozenset({"step"})), ctx.retry(planned=frozenset({("step", "why")})),
             PipelineContext.of(MODULE, "n.py", only={"step"})]
    assert all(o.front() != ctx.front() for o in other)


def test_the_policy_in_the_context_reaches_every_npr_jit():
    policy = DtypePolicy("float32")
    direct = convert_source(MODULE, "m.py", policy=policy)
    assert "@npr_jit(mutated=('v',), dtype_policy=\"float32\")" in direct.code
    assert direct.code == convert_source(MODULE, "m.py").code_for(RUNTIME_MODULE, policy)
    assert direct.code_for(RUNTIME_MODULE, policy) is direct.code
    assert "float32" not in direct.code_for(RUNTIME_MODULE, DtypePolicy())


def test_a_context_converting_again_composes_its_map_and_keeps_the_users_text():
    ctx = PipelineContext.of("a\nb\n", "f.py", only={"f"})
    again = ctx.again("x\na\nb\n", [(0, 0), (1, 0), (1, 0), (2, 0)]).again("y\n", [(0, 0), (3, 2)])
    assert again.user_text == "a\nb\n" and again.text == "y\n" and again.only == frozenset({"f"})
    assert again.lines.place(1, 9) == (2, 7)
