"""Planning: a read-only pass over one converted function that runs the registered planners
(rewrite/rules/*.py, by node type: rewrite/registry.py) on each node. It holds what the planners
read and write: the function's facts, the module's imports and functions, the diagnostic sink,
positions, and the plan being built (`m`, a rewrite/plan.py Marks). The rewrite
(rewrite/function.py) only reads the plan.
"""

from __future__ import annotations

import functools

import libcst as cst

from ..analysis.aliases import FunctionFacts
from ..analysis.collect import chosen_functions
from ..analysis.host_code import is_dead_if
from ..analysis.names import ImportMap
from ..analysis.nodes import own_method
from ..diagnostics import DiagnosticSink, Span
from . import rules
from .plan import Marks
from .registry import planners
from .rules import augassign, control, kept, mask_store, mask_values, nonzero, selections, stores, views

__all__ = ["MarkPass", "Marks", "rules"]


class MarkPass(cst.CSTVisitor):
    layout_blind = True  # (analysis/nodes.run_visitor: on_visit/on_leave do nothing with whitespace, commas)
    def __init__(self, facts: FunctionFacts, all_facts: dict[str, FunctionFacts], imports: ImportMap,
                 sink: DiagnosticSink, positions):
        self.f = facts
        self.all = all_facts
        self.imports = imports
        self.sink = sink
        self.positions = positions
        self.roots_of = facts.roots_of
        self.m = Marks()
        self.locals = frozenset(facts.roots)
        self.nonzero_bindings = nonzero.index_names(facts.node, imports, self.locals)
        self.bool_names = mask_values.boolean_names(facts.bindings) | frozenset(
            t.value for t, v in facts.bindings if v in self.nonzero_bindings)
        # `for mask in (red, black):` walks masks, not integers: its target is a mask too
        masks, maybe_masks = mask_values.mask_loop_names(facts.node, facts.bindings, self.bool_names)
        self.bool_names |= masks
        self.inner: set = self.m.inner
        self.int_names = facts.for_names - maybe_masks
        self.callees: set = set()
        self.bound: frozenset[str] | None = None  # names bound anywhere in the module (None: unknown)
        self.objects: frozenset[str] = frozenset()  # module-level objects np2ref cannot see into
        self.reported_changes: set = set()
        self.written_names = {n.value for w in facts.writes if (n := views.chain_name(self, w.target)) is not None}

    # -- what the planners read --------------------------------------------------------------
    def span(self, node: cst.CSTNode) -> Span:
        r = self.positions[node]
        return Span(r.start.line, r.start.column + 1, r.end.line, r.end.column + 1)

    def is_ref(self, name: str) -> bool:
        return name in self.f.ref_names

    def numpy_name(self, node) -> str | None:
        return self.imports.qualify_numpy(node, self.locals)

    @functools.cached_property
    def function_uses(self) -> control.Uses:
        return control.uses(self.f.node.body, self.f.store_names)

    @functools.cached_property
    def chosen(self) -> dict[str, tuple[str, ...]]:
        """Locals bound only to module functions (`flip = rev_b if whole else rev_a`): a call
        through one is a call of each (analysis/collect.chosen_functions)."""
        return chosen_functions(self.f.bindings, frozenset(self.all), self.locals)

    def module_callees(self, func) -> tuple[str, ...]:
        """The converted module functions a call of `func` runs: the one it names, or each one a
        local bound to them may hold."""
        if not isinstance(func, cst.Name):
            return ()
        if func.value in self.all and func.value not in self.locals:
            return (func.value,)
        return self.chosen.get(func.value, ())

    @functools.cached_property
    def selections(self) -> frozenset[str]:
        return selections.selection_names(self.f.node, self.bool_names, self.imports, self.locals, self.int_names)

    @functools.cached_property
    def kept_selections(self) -> dict[str, int]:
        return kept.kept_selection_names(self.f.node, self.bool_names, self.int_names)

    @functools.cached_property
    def accumulators(self) -> frozenset[str]:
        return augassign.accumulators(self.f)

    @functools.cached_property
    def written_roots(self) -> frozenset[str]:
        return stores.written_roots(self)

    # -- traversal ---------------------------------------------------------------------------
    def on_visit(self, node: cst.CSTNode) -> bool:
        kind = type(node)
        if kind is cst.If and is_dead_if(node):  # `if 0:` never runs its body: nothing there to plan or refuse
            self.m.dead.add(node.body)
        elif self.m.dead and node in self.m.dead:  # (a node's hash is libcst's Python __hash__: asked only when any)
            return False
        visit = own_method(type(self), "visit_", kind)  # (libcst's on_visit, its lookup made once per type)
        if visit is not None and visit(self, node) is False:
            return False
        for plan in planners(kind):
            if plan(node, self):
                break
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        leave = own_method(type(self), "leave_", type(original_node))  # (libcst's on_leave, looked up once per type)
        if leave is not None:
            leave(self, original_node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.m.not_expr.add(node.name)
        return node is self.f.node

    def visit_Annotation(self, node: cst.Annotation) -> bool:
        return False  # type hints stay as written

    def visit_Import(self, node: cst.Import) -> bool:
        return False  # an import in a body names modules (analysis/names.py), it reads no arrays

    visit_ImportFrom = visit_Import

    def visit_Param(self, node: cst.Param) -> bool:
        self.m.not_expr.add(node.name)
        return False  # a default stays NumPy code (rewrite/function.py)
