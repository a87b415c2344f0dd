"""The rewrite: one transformer that turns each converted function into a ref program by running
the registered emitters (rewrite/rules/*.py, by node type: rewrite/registry.py).

It holds what the emitters read: the function's facts and plan (rewrite/marks.py), the imports,
the sink, positions, and the little state a rewrite carries across nodes (subscripts that are
store targets, names to own after a statement, the counter naming lowered branches). Emitters
read the plan through the ORIGINAL nodes and build output from the UPDATED ones (the libcst
convention). Every JAX spelling comes from emit/jaxnames.py.
"""

from __future__ import annotations

import functools

import libcst as cst

from ..analysis import containers
from ..analysis.aliases import FunctionFacts
from ..analysis.names import ImportMap
from ..analysis.nodes import is_expression, own_method

# how many lowered branches and loops the process's rewrites have numbered: the numbers run on
# through a module, so split_convert.py joins parts only where none was numbered
numbered = 0
from ..diagnostics import DiagnosticSink, Span
from ..emit import jaxnames as J
from ..frontend.fence import KNOWN_DECORATORS, _decorator_name
from .plan import Marks
from .registry import emitters
from .rules import introspection, list_items, pyscalars, sequences, views  # importing rules registers every family
from .syntax import target_subscripts


class ModuleRewriter(cst.CSTTransformer):
    # (run by analysis/transform.run_transformer: no emitter is registered for whitespace, commas
    # or parentheses, and on_visit/on_leave leave them as they are: it need not enter them)
    layout_blind = True

    def __init__(self, facts: dict[str, FunctionFacts], marks: dict[str, Marks], imports: ImportMap,
                 sink: DiagnosticSink, positions, plain=frozenset(), track_lines: bool = False):
        self.facts = facts
        self.marks = marks
        self.imports = imports
        self.sink = sink
        self.positions = positions
        self.f: FunctionFacts | None = None
        self.m: Marks | None = None
        self.plain = plain
        self.track_lines = track_lines
        self._count = 0
        self.unmasked_forms: dict[cst.Subscript, cst.BaseExpression] = {}  # masked read -> its whole form (reads.py)
        self.pending_own: list[str] = []
        self.seq_names: frozenset[str] = frozenset()  # names bound to list/tuple literals only
        self.int_names: frozenset[str] = frozenset()  # names that only ever hold integers
        self.list_names: tuple[str, ...] = ()  # parameters a list argument reaches as a list
        self.lists: dict[str, tuple[str, ...]] = {}  # list_names by function, for compile
        self.py_scalars = pyscalars.PyScalars()  # the function's Python scalars (rules/pyscalars.py)
        # function -> the kinds of each `return` of it rewritten so far (rules/pyreturns.note_kinds)
        self.returned_kinds: dict[str, list] = {}
        self.targets: set = set()  # subscripts that are assignment (or del, for) targets
        self.loop_notes: list = []  # (loop node, function, variable, what became of the loop)

    # -- what the emitters read --------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self.f is not None

    def span(self, node) -> Span:
        r = self.positions[node]
        return Span(r.start.line, r.start.column + 1, r.end.line, r.end.column + 1)

    def next_count(self) -> int:
        """A fresh number for the functions a lowered `if`/`while` defines (`_then_3`)."""
        global numbered
        numbered += 1
        self._count += 1
        return self._count

    def mark_line(self, original, line: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        """With line tracking on (np2ref.compile), end each emitted line with `# @L<n>`, the
        original line, so that errors raised while tracing point at the user's source."""
        if not self.track_lines:
            return line
        n = self.positions[original].start.line
        return line.with_changes(trailing_whitespace=cst.TrailingWhitespace(
            whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(f"# @L{n}")))

    @functools.cached_property
    def module_asks(self) -> bool:
        """Whether the module asks a value's type or text (rules/introspection.py asks)."""
        return introspection.module_asks(self.marks)

    # -- scope -------------------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.f is None and node.name.value in self.facts and self.facts[node.name.value].node is node:
            self.f = self.facts[node.name.value]
            self.m = self.marks[node.name.value]
            self.seq_names = sequences.sequence_names(self.f)
            self.int_names = sequences.integer_names(self.f)
            self.list_names = sequences.list_params(self.f, self.seq_names, self.int_names)
            self.lists[self.f.name] = self.list_names
            self.py_scalars = pyscalars.PyScalars(self)
            return True
        return self.f is not None

    def _note_targets(self, node) -> None:  # a subscript stored into is no read (rules/reads.py)
        self.targets.update(target_subscripts(node.target))

    visit_AssignTarget = visit_AugAssign = visit_AnnAssign = visit_Del = visit_For = visit_CompFor = _note_targets

    def visit_Annotation(self, node: cst.Annotation) -> bool:
        return False  # type hints stay as written

    def visit_Import(self, node: cst.Import) -> bool:
        return False  # an import in a body names modules (analysis/names.py), it reads no arrays

    visit_ImportFrom = visit_Import

    def visit_Param(self, node: cst.Param) -> bool:
        # defaults stay NumPy, evaluated once when the function is defined, as in the original
        # (`acc=np.zeros(3)` is one array that calls keep writing into)
        return False

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef):
        if self.f is None or self.f.node is not original:
            return updated
        decorators = [d for d in updated.decorators if _decorator_name(d.decorator) not in KNOWN_DECORATORS]
        updated = _prepend(updated, self.py_scalars.entry_statements())  # (parameters' values on entry)
        # no array work: it runs as written wherever it is called. A body the rules rewrote
        # (`x[m].sum()`, `max(1.0, x.max())`, an `if` on array data, `math.sqrt(T)`: no NumPy
        # call, yet JAX code now) is no longer plain: called from host code with arrays it must
        # run under npr_jit, with NumPy's 64-bit types, not as eager 32-bit jax.numpy; called
        # with no array (`pick(2.5, 1.0)`) it runs as written, Python's values and types
        if self.f.name in self.plain:
            rewritten = not updated.body.deep_equals(original.body)
            self.f = self.m = None
            if not rewritten:
                return updated.with_changes(decorators=decorators)
            entry = cst.Decorator(J.call(J.ENTRY_DECORATOR, python_scalars=cst.Name("True")))
            return updated.with_changes(decorators=[*decorators, entry])
        options = {k: J.str_tuple(v) for k, v in (("mutated", self.f.mutated_params), ("lists", self.list_names),
                                                    ("items", list_items.item_params(self.f)),
                                                    ("copied", self.f.copied_params),
                                                    ("changed", containers.changed_param_names(self.f, self.facts)),
                                                    ("rebound", self.f.rebound_params)) if v}
        entry = cst.Decorator(J.call(J.ENTRY_DECORATOR, **options) if options else J.name(J.ENTRY_DECORATOR))
        self.f = self.m = None
        return updated.with_changes(decorators=[*decorators, entry])

    # -- dispatch ----------------------------------------------------------------------------
    def on_visit(self, node) -> bool:
        if self.f is not None and self.m.dead and node in self.m.dead:  # never runs: kept as written
            return False
        visit = own_method(type(self), "visit_", type(node))  # (libcst's on_visit, its lookup made once per type)
        return visit is None or visit(self, node) is not False

    def on_leave(self, original, updated):
        result = updated
        kind = type(original)
        if self.f is not None:
            for emit in emitters(kind):
                out = emit(original, updated, self)
                if out is not None:
                    result = out
                    break
        leave = own_method(type(self), "leave_", kind)  # (libcst's on_leave, looked up once per type)
        if leave is not None:
            result = leave(self, original, result)
        if self.track_lines and isinstance(result, (cst.If, cst.For, cst.While, cst.With, cst.FunctionDef)) \
                and (self.active or isinstance(result, cst.FunctionDef)):  # its test runs on the header's line
            mark = cst.TrailingWhitespace(whitespace=cst.SimpleWhitespace("  "),
                                          comment=cst.Comment(f"# @L{self.positions[original].start.line}"))
            if isinstance(result.body, cst.IndentedBlock) and not isinstance(result, cst.FunctionDef):
                return result.with_changes(body=result.body.with_changes(header=mark))
            if isinstance(result.body, cst.SimpleStatementSuite):  # `def f(x): return ...` on one line
                return result.with_changes(body=result.body.with_changes(trailing_whitespace=mark))
        if self.f is None or not is_expression(type(result)):
            return result
        return views.owned(original, result, self)


def _prepend(func: cst.FunctionDef, statements: list) -> cst.FunctionDef:
    """`func` with `statements` first in its body (after its docstring)."""
    if not statements or not isinstance(func.body, cst.IndentedBlock):
        return func
    body = list(func.body.body)
    first = body[0] if body else None
    docstring = isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1 and isinstance(
        first.body[0], cst.Expr) and isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    at = 1 if docstring else 0
    return func.with_changes(body=func.body.with_changes(body=[*body[:at], *statements, *body[at:]]))
