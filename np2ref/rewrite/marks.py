"""Marks: a read-only pass that decides, for each expression node of a converted function,
which form the rewrite must emit. The rewrite (`rewrite/function.py`) only reads these sets.

  ref_form   nodes emitted as a reference (a Ref, or a view of one: `npr_sub(u, i)`)
  no_load    ref Names emitted as themselves (not `u[...]`)
  own_form   nodes emitted as `npr_own(expr)` (a Ref for a value that must be written)
  new_ref    binding values emitted as `jax.new_ref(expr)` (a fresh buffer)
  value_wrap calls of helpers that may return a Ref, emitted as `npr_value(call)`
  store_bases bases of store targets, wrapped as `npr_at(base)`
"""

from __future__ import annotations

import collections
import dataclasses

import libcst as cst

from ..analysis import containers, effects as fx
from ..analysis.aliases import FunctionFacts
from ..analysis.module import PURE_CALLS, calls_through_parameter, is_dead_if
from ..analysis.names import ImportMap, dotted
from ..diagnostics import DiagnosticSink, Note, Span
from ..analysis.numpy_table import RANDOM_DRAWS, is_random_draw, lookup, not_in_table
from .rules import branches, loops
from .rules.mask_store import looks_boolean, mask_index, masked_parts


@dataclasses.dataclass
class Marks:
    ref_form: set = dataclasses.field(default_factory=set)
    no_load: set = dataclasses.field(default_factory=set)
    own_form: set = dataclasses.field(default_factory=set)
    new_ref: set = dataclasses.field(default_factory=set)
    value_wrap: set = dataclasses.field(default_factory=set)
    store_bases: set = dataclasses.field(default_factory=set)
    iop_names: dict = dataclasses.field(default_factory=dict)   # AugAssign -> "iop" | "at"
    own_after: dict = dataclasses.field(default_factory=dict)   # Assign -> [ref names to npr_own]
    special_calls: dict = dataclasses.field(default_factory=dict)  # Call -> (kind, detail)
    skip_numpy: set = dataclasses.field(default_factory=set)    # func nodes not to map to jnp
    apart: dict = dataclasses.field(default_factory=dict)       # Call -> {read arg: [written args]}
    inner: set = dataclasses.field(default_factory=set)         # `np` in `np.zeros`: part of a dotted name
    not_expr: set = dataclasses.field(default_factory=set)      # Names that are not expressions (attrs, keywords)
    mask_store: dict = dataclasses.field(default_factory=dict)  # stmt -> (leaves, op)
    loops: dict = dataclasses.field(default_factory=dict)       # For -> LoopPlan
    rotations: set = dataclasses.field(default_factory=set)     # Assign swapping written arrays
    branches: dict = dataclasses.field(default_factory=dict)    # If -> BranchPlan
    elifs: set = dataclasses.field(default_factory=set)         # If nodes that are an `elif`
    unmask: set = dataclasses.field(default_factory=set)        # `b[m]` emitted as `b` in a mask store
    mask_rank: dict = dataclasses.field(default_factory=dict)   # np.arange(np.count_nonzero(m)) -> (target, axis)
    dead: set = dataclasses.field(default_factory=set)          # bodies of `if 0:` / `if False:`: kept as written


_FRESH_METHODS = frozenset({"copy", "astype"})
_KEEP_NUMPY = frozenset({"numpy.s_", "numpy.index_exp", "numpy.newaxis"})


class MarkPass(cst.CSTVisitor):
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
        self.bool_names = _boolean_names(facts.bindings)
        self.inner: set = self.m.inner
        self._function_uses = None
        self._accumulator_names: frozenset[str] | None = None
        self._written_roots: set | None = None
        self.int_names = facts.for_names
        self.callees: set = set()
        self.bound: frozenset[str] | None = None  # names bound anywhere in the module (None: unknown)
        self._reported_changes: set = set()
        self.written_names = {n.value for w in facts.writes if (n := self.chain_name(w.target)) is not None}

    # -- helpers -----------------------------------------------------------------------------
    def span(self, node: cst.CSTNode) -> Span:
        r = self.positions[node]
        return Span(r.start.line, r.start.column + 1, r.end.line, r.end.column + 1)

    def is_ref(self, name: str) -> bool:
        return name in self.f.ref_names

    def numpy_name(self, node) -> str | None:
        return self.imports.qualify_numpy(node, self.locals)

    def mark_ref(self, expr: cst.BaseExpression) -> bool:
        """Mark `expr` to be emitted as a reference, if it is a view chain over a ref name."""
        m = self.m
        if isinstance(expr, cst.Name):
            if self.is_ref(expr.value):
                m.no_load.add(expr)
                return True
            return False
        if isinstance(expr, cst.Subscript):
            if self.mark_ref(expr.value):
                m.ref_form.add(expr)
                return True
            return False
        if isinstance(expr, cst.IfExp):
            body, orelse = self.mark_ref(expr.body), self.mark_ref(expr.orelse)
            if body or orelse:  # a branch that is not a ref is a fresh value: own it
                if not body:
                    m.own_form.add(expr.body)
                if not orelse:
                    m.own_form.add(expr.orelse)
                return True
            return False
        if isinstance(expr, cst.Attribute) and expr.attr.value in fx.VIEW_ATTRIBUTES:
            if self.mark_ref(expr.value):
                m.ref_form.add(expr)
                return True
            return False
        if isinstance(expr, cst.Call):
            func = expr.func
            qual = self.numpy_name(func)
            if qual in fx.VIEW_FUNCTIONS:
                args = [a for a in expr.args if a.keyword is None]
                if args and self.mark_ref(args[0].value):
                    m.ref_form.add(expr)
                    m.skip_numpy.add(func)
                    return True
                return False
            if qual is None and isinstance(func, cst.Attribute) and func.attr.value in fx.VIEW_METHODS:
                if self.mark_ref(func.value):
                    m.ref_form.add(expr)
                    return True
        return False

    def mark_ref_or_own(self, expr: cst.BaseExpression) -> None:
        if not self.mark_ref(expr):
            self.m.own_form.add(expr)

    def chain_name(self, expr: cst.BaseExpression) -> cst.Name | None:
        """The name at the bottom of a view chain (`u` in `u[1:].T`), if any."""
        while True:
            if isinstance(expr, cst.Name):
                return expr
            if isinstance(expr, (cst.Subscript, cst.Attribute)):
                expr = expr.value
            elif isinstance(expr, cst.Call):
                if isinstance(expr.func, cst.Attribute) and self.numpy_name(expr.func) is None:
                    expr = expr.func.value
                else:
                    args = [a for a in expr.args if a.keyword is None]
                    if not args:
                        return None
                    expr = args[0].value
            else:
                return None

    def refuse_write_target(self, target: cst.BaseExpression, node: cst.CSTNode) -> None:
        name = self.chain_name(target)
        what = f"`{name.value}`" if name is not None else "this expression"
        self.sink.report("NPR205", f"cannot translate a write through {what}: the view it makes "
                         "(or the temporary it writes into) is not modelled", self.span(node),
                         hint="write into the array itself with an index, e.g. `u[::-1] = ...`")

    def mark_write_target(self, target: cst.BaseExpression, node: cst.CSTNode) -> bool:
        roots = self.roots_of(target)
        globals_ = sorted(r for r in roots if r.startswith("global "))
        if globals_:
            self.sink.report("NPR202", f"writes the module-level array `{globals_[0][7:]}`",
                             self.span(node),
                             hint="pass the array in as a parameter; np2ref writes it back to the caller")
            return False
        if self.mark_ref(target):
            return True
        self.refuse_write_target(target, node)
        return False

    def on_visit(self, node: cst.CSTNode) -> bool:
        if is_dead_if(node):  # `if 0:` never runs its body: nothing there to plan or refuse
            self.m.dead.add(node.body)
        elif node in self.m.dead:
            return False
        return super().on_visit(node)

    # -- statements --------------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.m.not_expr.add(node.name)
        return node is self.f.node

    def _try_mask_store(self, target, value, stmt, op) -> bool:
        """`a[m] = f(b[m])` / `a[m] op= v` with a mask: see rules/mask_store.py."""
        found = mask_index(target)
        if found is None:
            return False
        index, axis = found
        if not (looks_boolean(index, self.bool_names) or
                (isinstance(index, cst.Name) and index.value not in self.int_names)):
            return False  # an integer index: the plain store is exact and reads better
        parts = masked_parts(value, target, self.imports, self.locals)
        if parts is None:
            if not (looks_boolean(index, self.bool_names) and op is not None):
                return False
            parts = ([], [])
        if not self.mark_write_target(target.value, stmt):
            return True
        masked, leaves = parts
        ranks = [n for n in masked if isinstance(n, cst.Call)]
        if ranks and not isinstance(target.value, cst.Name):
            return False  # the rank needs the target's shape: a plain name (else NPR031 at trace time)
        self.m.mask_rank.update((n, (target.value.value, axis)) for n in ranks)
        self.m.unmask.update(masked)
        self.m.mask_store[stmt] = (bool(masked), leaves, op, axis)
        return True

    def visit_Assign(self, node: cst.Assign) -> None:
        if node in self.f.identity_binds:
            return  # `x = f(x)` with f returning x itself: the call alone (visit_Call marks it)
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Subscript) and \
                self._try_mask_store(node.targets[0].target, node.value, node, None):
            return
        stores = 0
        for t in node.targets:
            stores += self._count_stores(t.target)
        lazy = stores > 0 and any(isinstance(t.target, (cst.Tuple, cst.List)) for t in node.targets)
        for t in node.targets:
            self._target(t.target, node.value, node, lazy)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._target(node.target, node.value, node, False)

    def _count_stores(self, target) -> int:
        if isinstance(target, (cst.Tuple, cst.List)):
            return sum(self._count_stores(e.value) for e in target.elements)
        return int(isinstance(target, cst.Subscript))

    def _target(self, target, value, stmt, lazy: bool) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            elements = [e.value for e in target.elements]
            if isinstance(value, (cst.Tuple, cst.List)) and len(value.elements) == len(elements):
                for t, v in zip(elements, value.elements):
                    self._target(t, v.value, stmt, lazy)
            else:
                refs = [t.value for t in elements if isinstance(t, cst.Name) and self.is_ref(t.value)]
                if refs:
                    self.m.own_after.setdefault(stmt, []).extend(refs)
                for t in elements:
                    if isinstance(t, cst.Subscript):
                        self._store(t, stmt)
            return
        if isinstance(target, cst.Subscript):
            self._store(target, stmt)
            if lazy or self._same_buffer(target, value):
                # a view on the right is read when it is stored, as in NumPy; a view of the
                # buffer being written goes to the store as a view (NumPy's copy order matters)
                self.mark_ref(value)
            return
        if isinstance(target, cst.Name) and self.is_ref(target.value):
            self._bind_ref(target, value, stmt)
        elif isinstance(target, cst.Attribute):
            self.refuse_write_target(target, stmt)

    def _same_buffer(self, target: cst.Subscript, value: cst.BaseExpression) -> bool:
        """`value` is a bare view chain (a subscript, `.T`, ...) of the storage `target` writes."""
        if not isinstance(value, (cst.Subscript, cst.Attribute, cst.Call)):
            return False
        name, base = self.chain_name(value), self.chain_name(target)
        return (name is not None and base is not None and self.is_ref(name.value)
                and bool(self.roots_of(name) & self.roots_of(base)))

    def _store(self, target: cst.Subscript, stmt) -> None:
        if self.mark_write_target(target.value, stmt):
            self.m.store_bases.add(target.value)

    def _bind_ref(self, target: cst.Name, value: cst.BaseExpression, stmt) -> None:
        if self.mark_ref(value):
            if _may_copy(value, self.numpy_name) and (
                    target.value in self.written_names or self._written_through_views(target)):
                # NumPy decides view or copy at run time; a copy that is written is a Ref of its own
                self.m.own_form.add(value)
            return
        if isinstance(value, (cst.Tuple, cst.List, cst.Dict, cst.Set)):
            self.sink.report("NPR207", f"`{target.value}` is a container holding arrays that are "
                             "written; containers of written arrays are not translated", self.span(stmt),
                             hint="keep each array in its own variable")
            return
        name = self.chain_name(value)
        if isinstance(value, cst.Call):
            qual = self.numpy_name(value.func)
            if (qual in fx.OPAQUE_VIEW_FUNCTIONS or (qual is None and isinstance(value.func, cst.Attribute)
                                                    and value.func.attr.value in fx.OPAQUE_VIEW_METHODS)) \
                    and name is not None and self.is_ref(name.value):
                self.sink.report("NPR205", f"`{target.value}` is a view made by "
                                 f"{dotted(value.func) or 'a call'}() of an array that is written; "
                                 "such views are not modelled", self.span(stmt),
                                 hint="index the array directly, or take a .copy() if a copy is meant")
                return
            callee = value.func.value if isinstance(value.func, cst.Name) else None
            if callee in self.all:
                self._check_returned_view(value, callee, target, stmt)
                self.m.own_form.add(value)
                return
            if qual is not None or (isinstance(value.func, cst.Attribute)
                                    and value.func.attr.value in _FRESH_METHODS):
                self.m.new_ref.add(value)
                return
        if isinstance(value, cst.Attribute) and value.attr.value in fx.OPAQUE_VIEW_ATTRIBUTES:
            self.refuse_write_target(value, stmt)
            return
        self.m.own_form.add(value)

    def _check_returned_view(self, call: cst.Call, callee: str, target: cst.Name, stmt) -> None:
        facts = self.all[callee]
        for arg, pname in self._call_params(call, facts):
            if pname in facts.returns_alias and pname not in facts.ref_names and \
                    self.roots_of(arg) & self.f.mutated_roots:
                self.sink.report(
                    "NPR203", f"`{target.value}` may be a view of `{dotted(arg) or 'an argument'}` returned "
                    f"by {callee}(), and one of them is written here", self.span(stmt),
                    notes=[Note(f"{callee}() returns a view of its parameter `{pname}`",
                                self.span(facts.node))],
                    hint=f"return a copy from {callee}(), or write through `{dotted(arg)}` directly")

    def _call_params(self, call: cst.Call, facts: FunctionFacts):
        return [(a.value, n) for a, n in fx.call_params(call.args, facts.params)]

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        t = node.target
        if isinstance(t, cst.Subscript):
            from .function import _AUG_OPS
            if not self._try_mask_store(t, node.value, node, _AUG_OPS[type(node.operator)]):
                self._store(t, node)
        elif isinstance(t, cst.Name):
            if self.is_ref(t.value):
                self.m.no_load.add(t)
                self.m.iop_names[node] = "iop" if t.value in self.f.maybe_scalar else "at"
            elif t.value in self.f.array_names:
                self.m.iop_names[node] = "iop"
            elif not _number_literal(node.value) and t.value not in self._accumulators():
                # it may hold an array (`w = a * 2`): NumPy then works in place, keeping w's
                # dtype and shape; a 0-d value may be a NumPy scalar, which rebinds
                self.m.iop_names[node] = "iop_maybe_scalar"
        elif isinstance(t, cst.Attribute):
            self.refuse_write_target(t, node)

    def _copyto_mask_reads_dst(self, node: cst.Call, args) -> bool:
        """`np.copyto(a, v, where=m)` with m a view of a (not a itself): NumPy reads the mask as
        it writes (NPR126). Reported here when the analysis sees it; views that reach a helper
        through two parameters are caught at trace time."""
        where = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "where"), None)
        if where is None or not args or where.deep_equals(args[0].value):
            return False
        if not (self.roots_of(where) & self.roots_of(args[0].value)):
            return False
        self.sink.report("NPR126", "np.copyto's where= mask is a view of the array it writes; NumPy "
                         "reads the mask while writing", self.span(where),
                         hint="pass a copy (`where=m.copy()`) if the mask as it was before is meant")
        return True

    def _written_through_views(self, name: cst.Name) -> bool:
        """Whether a written name is bound to a view taken (through any chain of names) of
        `name` (`v0 = x[[0]]`, `v3 = v0.T`, then v3 is written): a copy bound to `name` must
        then be a Ref of its own."""
        if self._written_roots is None:
            parents: dict[str, set[str]] = {}
            for target, value in self.f.bindings:
                base = self.chain_name(value) if isinstance(target, cst.Name) and value is not None else None
                if base is not None and base.value != target.value:
                    parents.setdefault(target.value, set()).add(base.value)
            seen, stack = set(), list(self.written_names)
            while stack:
                for p in parents.get(stack.pop(), ()):
                    if p not in seen:
                        seen.add(p)
                        stack.append(p)
            self._written_roots = seen
        return name.value in self._written_roots

    def _accumulators(self) -> frozenset[str]:
        """Names bound only to number literals and updated by one `op=` statement (`total = 0.0`
        ... `total += x`): the update rebinds them, as NumPy's first one does."""
        if self._accumulator_names is None:
            literal: dict[str, bool] = {}
            updates = collections.Counter()
            for target, value in self.f.bindings:
                if not isinstance(target, cst.Name):
                    continue
                if value is None:
                    updates[target.value] += 1
                else:
                    literal[target.value] = literal.get(target.value, True) and _number_literal(value)
            self._accumulator_names = frozenset(n for n, ok in literal.items() if ok and updates[n] == 1)
        return self._accumulator_names

    def visit_While(self, node: cst.While) -> None:
        if self._function_uses is None:
            self._function_uses = loops.uses(self.f.node.body, self.f.store_names)
        plan = loops.plan_while(node, self._function_uses, self.f, loops.rotation_finder(self.f))
        if isinstance(plan, loops.LoopPlan):
            self.m.loops[node] = plan
            self.m.rotations.update(plan.rotations)
            self._data_dependent_changes(node, node.test, "`while` loop")
        else:
            self.sink.report("NPR011", f"this `while` loop is not translated: {plan}", self.span(node),
                             hint="assign the loop's state to plain names or swap whole arrays")

    def visit_If(self, node: cst.If) -> None:
        if self._function_uses is None:
            self._function_uses = loops.uses(self.f.node.body, self.f.store_names)
        if isinstance(node.orelse, cst.If):
            self.m.elifs.add(node.orelse)
        plan = branches.plan_if(node, self._function_uses, self.f)
        if isinstance(plan, branches.BranchPlan):
            self.m.branches[node] = plan
            self._data_dependent_changes(node, node.test, "branch")

    def _data_dependent_changes(self, node, test, kind: str) -> None:
        """NPR034 when a branch or `while` whose test reads a written array (always traced) changes
        a Python container: how many times it does depends on data. Other tests are checked when
        traced (npr_if, npr_while)."""
        reads = {n for n, s, _ in loops.uses(test, self.f.store_names).items if not s}
        traced = sorted(reads & (self.f.ref_names - self.f.maybe_scalar))
        inside = loops.uses(node, self.f.store_names)
        ids = {id(x) for _, _, x in inside.items}
        outlives = {n for n, s, x in self._function_uses.items if not s and id(x) not in ids}
        stored: set[str] = set()
        for name, is_store, _ in inside.items:  # read in the branch before it binds the name
            if is_store:
                stored.add(name)
            elif name not in stored:
                outlives.add(name)
        found = [c for c in containers.changes(node, self.f, self.all)
                 if c.name in outlives and c.node not in self._reported_changes]
        if traced and found:
            self._reported_changes.update(c.node for c in found)
            self.sink.report("NPR034", f"this {kind} {found[0].what} under a condition on array data "
                             f"(`{traced[0]}`): how many times it runs is known only at run time",
                             self.span(found[0].node), notes=[Note("the condition", self.span(test))],
                             hint="collect into an array written at an index "
                             "(`out[k] = v`), or keep the list outside the compiled function")

    def visit_For(self, node: cst.For) -> None:
        if self._function_uses is None:
            self._function_uses = loops.uses(self.f.node.body, self.f.store_names)
        plan = loops.plan_loop(node, self._function_uses, self.f, loops.rotation_finder(self.f),
                               containers.changes(node.body, self.f, self.all))
        if isinstance(plan, loops.LoopPlan):
            self.m.loops[node] = plan
            self.m.rotations.update(plan.rotations)
        why = plan.python if isinstance(plan, loops.LoopPlan) else plan
        if why and why not in loops.BY_DESIGN:  # a loop that could be a lax loop but stays Python
            self.sink.report("NPR033", f"this loop runs as a Python loop: {why}", self.span(node.target),
                             hint="exact, but tracing takes one copy of the body per iteration: "
                             "compile time grows with the trip count", severity="info")
        names: set[str] = set()
        _names(node.target, names)
        bad = sorted(n for n in names if self.is_ref(n))
        if bad:
            self.sink.report("NPR204", f"the loop variable `{bad[0]}` is a view of an array that is "
                             "written; iterating over rows of a written array is not translated yet",
                             self.span(node.target),
                             hint="loop over indices: `for i in range(len(a)): row = a[i]`")

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is None:
            return
        values = [e.value for e in node.value.elements] if isinstance(node.value, cst.Tuple) else [node.value]
        for v in values:
            name = self.chain_name(v)
            if name is not None and self.is_ref(name.value) and \
                    any(r.startswith("param ") for r in self.f.roots.get(name.value, ())):
                self.mark_ref(v)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.inner.add(node.value)
        self.m.not_expr.add(node.attr)
        if node not in self.inner and node not in self.m.skip_numpy:
            self._check_numpy_name(node)
        if node.attr.value in fx.METADATA_ATTRIBUTES and isinstance(node.value, cst.Name) \
                and self.is_ref(node.value.value):
            self.m.no_load.add(node.value)

    # -- calls -------------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        qual = self.numpy_name(func)
        if isinstance(func, cst.Name):
            self.callees.add(func)  # an unknown callee is NPR003's
        self._check_callable(node, qual)
        args = [a for a in node.args if a.keyword is None]
        out = [a for a in node.args if a.keyword is not None and a.keyword.value == "out"]
        if out and not (isinstance(func, cst.Name) and qual is None):  # `dict(out=...)` is no ufunc
            if isinstance(out[0].value, cst.Tuple):
                self.sink.report("NPR106", "a tuple `out=` is not translated", self.span(node))
            elif self.mark_write_target(out[0].value, node):
                self.m.special_calls[node] = ("out", qual)
            return
        if self._masked_reduce(node, qual, args):
            return
        if qual == "numpy.where" and len(node.args) == 1 and args and not args[0].star:
            message, hint = not_in_table("numpy.where", one_argument=True)
            self.sink.report("NPR004", message, self.span(node), hint=hint)
            return
        if self._random_draw(node, qual):
            return
        if qual is None and calls_through_parameter(func, self.f.params, ()):
            self.m.special_calls[node] = ("checked_call", None)  # npr_call: checked when traced
            self.inner.add(func)
            return
        if qual is not None:
            parts = qual.split(".")
            if len(parts) == 3 and parts[2] == "at":
                self.m.skip_numpy.add(func)
                if parts[1] not in fx.UFUNC_AT:
                    self.sink.report("NPR101", f"np.{parts[1]}.at is not translated", self.span(node),
                                     hint="np2ref translates add, subtract, multiply, maximum and minimum .at")
                elif args and self.mark_write_target(args[0].value, node):
                    self.m.special_calls[node] = ("ufunc_at", parts[1])
            elif qual in fx.INPLACE_FUNCTIONS:
                self.m.skip_numpy.add(func)
                if qual == "numpy.copyto" and self._copyto_mask_reads_dst(node, args):
                    return
                if args and self.mark_write_target(args[fx.INPLACE_FUNCTIONS[qual]].value, node):
                    self.m.special_calls[node] = ("inplace_function", qual)
            return
        if isinstance(func, cst.Attribute) and self.imports.qualify(func, self.locals) is None:
            meth = func.attr.value
            if meth in fx.INPLACE_METHODS:
                if self.mark_write_target(func.value, node):
                    self.m.special_calls[node] = ("inplace_method", meth)
            elif meth in fx.REFUSED_INPLACE_METHODS:
                self.sink.report("NPR102", f"the in-place method .{meth}() is not translated",
                                 self.span(node))
            return
        if isinstance(func, cst.Name) and func.value in self.all and func.value not in self.locals:
            self._module_call(node, func.value)

    def visit_Annotation(self, node: cst.Annotation) -> bool:
        return False  # type hints stay as written

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self.m.not_expr.add(node.keyword)

    def visit_Import(self, node: cst.Import) -> bool:
        return False  # an import in a body names modules (analysis/names.py), it reads no arrays

    visit_ImportFrom = visit_Import

    def visit_Param(self, node: cst.Param) -> bool:
        self.m.not_expr.add(node.name)
        return False  # a default stays NumPy code (rewrite/function.py)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        stack = [node.target]
        while stack:
            t = stack.pop()
            if isinstance(t, cst.Name):
                self.m.not_expr.add(t)
            elif isinstance(t, (cst.Tuple, cst.List)):
                stack += [e.value for e in t.elements]

    def visit_Name(self, node: cst.Name) -> None:
        if node in self.m.not_expr:
            return
        if node.value in self.imports.clashes and node.value not in self.locals:
            self.sink.report("NPR024", f"`{node.value}` is imported as two different modules in this file",
                             self.span(node), hint="import each module under a name of its own")
            return
        if node not in self.inner and node.value not in self.locals:
            if self.bound is not None and node.value not in self.bound and node not in self.callees:
                self.sink.report("NPR019", f"`{node.value}` is not defined anywhere in this module",
                                 self.span(node), hint="NumPy raises NameError here if this line runs; "
                                 "np2ref traces every line, so it must be defined")
                return
            self._check_numpy_name(node)

    def _check_numpy_name(self, node) -> None:
        qual = self.numpy_name(node)
        if qual is None or qual in _KEEP_NUMPY or lookup(qual) is not None:
            return
        parts = qual.split(".")
        if (len(parts) == 3 and parts[2] == "at") or qual in fx.INPLACE_FUNCTIONS or qual in fx.VIEW_FUNCTIONS:
            return
        message, hint = not_in_table(qual)
        self.sink.report("NPR004", message, self.span(node), hint=hint)

    def _masked_reduce(self, node: cst.Call, qual, args) -> bool:
        """`np.sum(x[m])` / `x[m].mean()` with a boolean-looking mask: see npr_masked_reduce."""
        if qual in ("numpy.sum", "numpy.mean", "numpy.prod") and len(node.args) == 1 and args:
            operand, name = args[0].value, qual[6:]
        elif qual is None and isinstance(node.func, cst.Attribute) and not node.args and \
                node.func.attr.value in ("sum", "mean", "prod"):
            operand, name = node.func.value, node.func.attr.value
        else:
            return False
        if not (isinstance(operand, cst.Subscript) and len(operand.slice) == 1
                and isinstance(operand.slice[0].slice, cst.Index)
                and looks_boolean(operand.slice[0].slice.value, self.bool_names)):
            return False
        self.m.special_calls[node] = ("masked_reduce", name)
        self.m.skip_numpy.add(node.func)
        return True

    def _random_draw(self, node: cst.Call, qual: str | None) -> bool:
        """`np.random.normal(...)`, `rng.normal(...)`: a draw made on the host at run time (npr_random).
        The module analysis made every other call of a draw method host code (analysis/module.py)."""
        func = node.func
        if qual is not None:
            if not is_random_draw(qual):
                return False
        elif not (isinstance(func, cst.Attribute) and func.attr.value in RANDOM_DRAWS
                  and isinstance(func.value, cst.Name)):
            return False
        self.m.special_calls[node] = ("random", func.attr.value)
        self.m.skip_numpy.add(func)
        return True

    def _check_callable(self, node: cst.Call, qual: str | None) -> None:
        func = node.func
        if isinstance(func, cst.Name):
            name = func.value
            if qual is None and name not in self.locals and name not in self.all \
                    and name not in fx.SAFE_BUILTINS:
                self.sink.report("NPR003", f"call to `{name}()`, which np2ref cannot see into",
                                 self.span(node),
                                 hint="define it in the same module, or call it outside the converted function")
        elif isinstance(func, cst.Attribute) and qual is None:
            full = self.imports.qualify(func, self.locals)
            if full is not None and full.split(".")[0] != "math" and full not in PURE_CALLS:
                self.sink.report("NPR003", f"call to `{dotted(func)}()` from another library is not translated",
                                 self.span(node), hint="call it outside the converted function")

    def _module_call(self, node: cst.Call, callee: str) -> None:
        facts = self.all[callee]
        unpacked = [a for a in node.args if a.star]
        if unpacked and (facts.mutated_params or facts.returns_alias):  # its own locals do not matter
            what = "writes" if facts.mutated_params else "returns a view of"
            named = sorted(facts.mutated_params or facts.returns_alias)
            self.sink.report(
                "NPR208", f"`{unpacked[0].star}` arguments to {callee}(), which {what} its parameter(s) "
                f"{', '.join(named)}: np2ref does not follow arrays through unpacked arguments",
                self.span(node), notes=[Note(f"{callee}() is defined here", self.span(facts.node))],
                hint=f"pass each argument of {callee}() by position or by name")
            return
        pairs = self._call_params(node, facts)
        for arg, pname in pairs:
            if pname is not None and pname in facts.ref_names:
                self.mark_ref_or_own(arg)
        if facts.returns_alias and node not in self.m.own_form:
            self.m.value_wrap.add(node)
        self._check_shared_buffers(node, callee, facts, pairs)

    def _check_shared_buffers(self, node, callee, facts, pairs) -> None:
        """An argument the callee reads may share the buffer of one it writes (flow-insensitive
        roots cannot tell a buffer swap from the same buffer): load it through `npr_apart`,
        which checks at trace time that the two really are apart, and refuses otherwise."""
        index = {id(a.value): i for i, a in enumerate(node.args)}
        written = [(a, p) for a, p in pairs if p in facts.ref_names]
        for b, q in pairs:
            if q is None or q in facts.ref_names:
                continue
            rb = self.roots_of(b)
            clash = [index[id(a)] for a, _ in written if self.roots_of(a) & rb]
            if not clash:
                continue
            if self.mark_ref(b):
                self.m.apart.setdefault(node, {})[index[id(b)]] = clash
            else:
                self.sink.report(
                    "NPR201", f"`{q}` of {callee}() may share the buffer of an argument it writes",
                    self.span(node), notes=[Note(f"{callee}() writes its parameter(s) "
                                                 f"{', '.join(sorted(facts.mutated_params))}",
                                                 self.span(facts.node))],
                    hint=f"pass a copy for `{q}`")


def _boolean_names(bindings) -> frozenset[str]:
    """Names bound (only) to boolean-looking expressions: comparisons, `~m`, `m & n`."""
    names: set[str] = set()
    pairs = [(t.value, v) for t, v in bindings if v is not None]
    changed = True
    while changed:
        changed = False
        for name, value in pairs:
            if name not in names and looks_boolean(value, names):
                names.add(name)
                changed = True
    return frozenset(names)


def _names(t, out: set[str]) -> None:
    if isinstance(t, cst.Name):
        out.add(t.value)
    elif isinstance(t, (cst.Tuple, cst.List)):
        for e in t.elements:
            _names(e.value, out)


_COPYING_VIEW_CALLS = frozenset({"reshape", "ravel", "numpy.reshape", "numpy.ravel"})


def _basic_item(item: cst.BaseSlice) -> bool:
    """A subscript element that always gives a view: a slice, `...`, `None`, an int literal."""
    if isinstance(item, cst.Slice):
        return True
    value = item.value
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        value = value.expression
    return isinstance(value, (cst.Integer, cst.Ellipsis)) or (isinstance(value, cst.Name)
                                                                and value.value == "None")


def _may_copy(expr: cst.BaseExpression, numpy_name) -> bool:
    """Whether a view chain may come out a copy (a fancy index; reshape/ravel of a view whose
    layout needs one), so that NumPy's choice has to be followed when the result is written."""
    while True:
        if isinstance(expr, cst.Subscript):
            if not all(_basic_item(e.slice) for e in expr.slice):
                return True
            expr = expr.value
        elif isinstance(expr, cst.Attribute):
            expr = expr.value
        elif isinstance(expr, cst.Call):
            func = expr.func
            qual = numpy_name(func)
            if qual in _COPYING_VIEW_CALLS or (qual is None and isinstance(func, cst.Attribute)
                                               and func.attr.value in _COPYING_VIEW_CALLS):
                return True
            args = [a for a in expr.args if a.keyword is None]
            if qual is None and isinstance(func, cst.Attribute):
                expr = func.value
            elif args:
                expr = args[0].value
            else:
                return False
        else:
            return False


def _number_literal(node: cst.BaseExpression) -> bool:
    """`1`, `-0.5`, `(2)`: adding one rebinds an array to the same dtype and shape, as NumPy's
    in-place operation keeps them."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        return _number_literal(node.expression)
    return isinstance(node, (cst.Integer, cst.Float))
