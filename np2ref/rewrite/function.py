"""The rewrite: one transformer that turns each converted function into a ref program.

It reads the marks (rewrite/marks.py) through the ORIGINAL nodes and builds output from the
UPDATED ones (the libcst convention). Every JAX spelling comes from emit/jaxnames.py.
"""

from __future__ import annotations

import libcst as cst

from ..analysis import effects as fx
from ..analysis.aliases import FunctionFacts
from ..analysis.names import ImportMap
from ..analysis.numpy_table import UFUNCS, lookup, not_in_table
from ..diagnostics import DiagnosticSink, Span
from ..emit import jaxnames as J
from ..frontend.fence import KNOWN_DECORATORS, _decorator_name
from .marks import Marks
from .rules.mask_store import mask_of_rank

_AUG_OPS = {
    cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*", cst.DivideAssign: "/",
    cst.FloorDivideAssign: "//", cst.ModuloAssign: "%", cst.PowerAssign: "**",
    cst.BitAndAssign: "&", cst.BitOrAssign: "|", cst.BitXorAssign: "^",
    cst.LeftShiftAssign: "<<", cst.RightShiftAssign: ">>", cst.MatrixMultiplyAssign: "@",
}
# Operators NumPy applies to a list or tuple operand as to np.asarray of it (npr_seq_op).
_BIN_OPS = {type(v): k for k, v in {
    "+": cst.Add(), "-": cst.Subtract(), "*": cst.Multiply(), "/": cst.Divide(), "//": cst.FloorDivide(),
    "%": cst.Modulo(), "**": cst.Power(), "&": cst.BitAnd(), "|": cst.BitOr(), "^": cst.BitXor(),
    "<<": cst.LeftShift(), ">>": cst.RightShift(), "@": cst.MatrixMultiply()}.items()}
_CMP_OPS = {cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.LessThanEqual: "<=",
            cst.GreaterThan: ">", cst.GreaterThanEqual: ">="}
_KEEP_NUMPY = frozenset({"numpy.s_", "numpy.index_exp", "numpy.newaxis"})
_VIEW_HELPERS = {**fx.VIEW_FUNCTIONS, **fx.VIEW_METHODS}
# Array methods that are NumPy functions of the array: emitted through the table's shim when it
# has one (dtype rules differ from jnp's for small integer inputs).
_METHOD_SHIMS = frozenset({"mean", "std", "var", "cumsum", "cumprod", "dot", "round", "sum", "prod",
                           "max", "min", "argmax", "argmin", "any", "all", "clip", "trace"})


class ModuleRewriter(cst.CSTTransformer):
    def __init__(self, facts: dict[str, FunctionFacts], marks: dict[str, Marks], imports: ImportMap,
                 sink: DiagnosticSink, positions, plain=frozenset(), track_lines: bool = False):
        self.facts = facts
        self.marks = marks
        self.imports = imports
        self.sink = sink
        self.positions = positions
        self.f: FunctionFacts | None = None
        self.m: Marks | None = None
        self.inner_attrs: set = set()
        self.plain = plain
        self.track_lines = track_lines
        self._if_count = 0
        self.not_expr: set = set()
        self.pending_own: list[str] = []
        self.seq_names: frozenset[str] = frozenset()  # names bound to list/tuple literals only
        self.targets: set = set()  # subscripts that are assignment (or del, for) targets

    # -- scope -------------------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.f is None and node.name.value in self.facts and self.facts[node.name.value].node is node:
            self.f = self.facts[node.name.value]
            self.m = self.marks[node.name.value]
            self.inner_attrs = self.m.inner
            self.not_expr = self.m.not_expr
            self.seq_names = _sequence_names(self.f)
            return True
        return self.f is not None

    def _note_targets(self, node) -> None:  # a subscript stored into is no read (leave_Subscript)
        self.targets.update(_target_subscripts(node.target))

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
        if self.f.name in self.plain:  # no array work: it runs as written wherever it is called
            self.f = self.m = None
            return updated.with_changes(decorators=decorators)
        if self.f.mutated_params:
            entry = cst.Decorator(J.call(J.ENTRY_DECORATOR, mutated=J.str_tuple(self.f.mutated_params)))
        else:
            entry = cst.Decorator(J.name(J.ENTRY_DECORATOR))
        self.f = self.m = None
        return updated.with_changes(decorators=[*decorators, entry])

    @property
    def active(self) -> bool:
        return self.f is not None

    def span(self, node) -> Span:
        r = self.positions[node]
        return Span(r.start.line, r.start.column + 1, r.end.line, r.end.column + 1)

    # -- generic wrapping --------------------------------------------------------------------
    def on_visit(self, node) -> bool:
        if self.active and node in self.m.dead:  # never runs: kept as written (marks.py)
            return False
        return super().on_visit(node)

    def on_leave(self, original, updated):
        result = super().on_leave(original, updated)
        if self.active and self.track_lines and isinstance(result, (cst.If, cst.For, cst.While, cst.With)) \
                and isinstance(result.body, cst.IndentedBlock):  # its test runs on the header's line
            n = self.positions[original].start.line
            return result.with_changes(body=result.body.with_changes(header=cst.TrailingWhitespace(
                whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(f"# @L{n}"))))
        if not self.active or not isinstance(result, cst.BaseExpression):
            return result
        if original in self.m.new_ref:
            return J.call(J.NEW_REF, result)
        if original in self.m.own_form:
            return J.call(J.OWN, result)
        return result

    # -- loads -------------------------------------------------------------------------------
    def leave_Name(self, original: cst.Name, updated: cst.Name):
        if not self.active or original in self.m.no_load or original in self.not_expr:
            return updated
        if original in self.f.store_names:
            return updated
        name = original.value
        if name in self.f.ref_names:
            if name in self.f.maybe_scalar:
                return J.call(J.LOAD, updated)
            return J.load_all(updated)
        if original in self.inner_attrs:  # `np` in `np.zeros`: the attribute is rewritten whole
            return updated
        if name not in self.f.roots:
            qual = self.imports.qualify_numpy(original, frozenset(self.f.roots))
            if qual is not None and original not in self.m.skip_numpy:
                return self._numpy(original, qual, updated)
        return updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        if not self.active:
            return updated
        if original in self.m.ref_form:  # `.T` of a ref
            return J.call(fx.VIEW_ATTRIBUTES[original.attr.value], updated.value)
        if original in self.inner_attrs or original in self.m.skip_numpy:
            return updated
        qual = self.imports.qualify_numpy(original, frozenset(self.f.roots))
        if qual is not None:
            return self._numpy(original, qual, updated)
        return updated

    def _numpy(self, original, qual: str, updated):
        if qual in _KEEP_NUMPY:
            return J.name(f"{J.NP}.{qual[6:]}")
        replacement = lookup(qual)
        if replacement is None:
            message, hint = not_in_table(qual)
            self.sink.report("NPR004", message, self.span(original), hint=hint)
            return updated
        return cst.parse_expression(replacement)

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript):
        if not self.active:
            return updated
        updated = updated.with_changes(slice=[_list_index(e) for e in updated.slice])
        if original in self.m.ref_form:
            return J.call(J.SUB, updated.value, J.index_value(updated.slice))
        if original in self.m.unmask:
            return updated.value
        if original.value in self.m.store_bases:
            return updated.with_changes(value=J.call(J.STORE_PROXY, updated.value))
        if original in self.targets or not _may_raise(original, self.imports, frozenset(self.f.roots)):
            return updated
        # an integer index that may be out of range: NumPy raises IndexError where JAX clamps
        return updated.with_changes(value=J.call(J.GET, _whole_load_base(updated.value)))

    # -- calls -------------------------------------------------------------------------------
    def leave_Call(self, original: cst.Call, updated: cst.Call):
        if not self.active:
            return updated
        rank = self.m.mask_rank.get(original)
        if rank is not None:  # np.arange(np.count_nonzero(m)) in `a[m] = ...`, on whole arrays
            return J.call(J.MASK_RANK, mask_of_rank(updated.args[0].value), cst.Name(rank[0]),
                          cst.Integer(str(rank[1])))
        result: cst.BaseExpression = updated
        special = self.m.special_calls.get(original)
        if special is not None:
            result = self._special(special, original, updated)
        elif original in self.m.ref_form:
            result = self._view_call(original, updated)
        elif isinstance(original.func, cst.Attribute) and original.func.attr.value in _METHOD_SHIMS \
                and self.imports.qualify(original.func, frozenset(self.f.roots)) is None:
            # `x.mean()` on an array: the same NumPy-exact shim as `np.mean(x)`
            shim = lookup(f"numpy.{original.func.attr.value}")
            if shim and shim.startswith("npr_np_"):
                result = cst.Call(J.name(shim), [cst.Arg(updated.func.value), *_plain(updated.args)])
        elif _is_int_of_data(original, self.f.roots):
            result = J.call(J.INT if original.func.value == "int" else J.FLOAT, updated.args[0].value)
        elif original in self.m.apart:
            args = list(updated.args)
            for i, written in self.m.apart[original].items():
                checked = J.call(J.APART, args[i].value, *(args[j].value for j in written))
                args[i] = args[i].with_changes(value=checked)
            result = updated.with_changes(args=args)
        if original in self.m.value_wrap:
            result = J.call(J.VALUE, result)
        return result

    def _special(self, special, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        kind, detail = special
        args = list(updated.args)
        if kind == "out":
            out = next(a for a in args if a.keyword is not None and a.keyword.value == "out")
            where = next((a for a in args if a.keyword is not None and a.keyword.value == "where"), None)
            rest = [a for a in args if a is not out and a is not where]
            if rest:
                rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            value: cst.BaseExpression = updated.with_changes(args=rest)
            if where is not None:
                value = J.call(f"{J.JNP}.where", where.value, value, J.call(J.LOAD, out.value))
            name = detail[6:] if detail and (detail in UFUNCS or detail in ("numpy.clip",)) else None
            kwargs = {"ufunc": J.string(name)} if name else {}
            return J.call(J.OUT, out.value, value, **kwargs)
        if kind == "masked_reduce":
            operand = args[0].value if args else updated.func.value
            return J.call(J.MASKED_REDUCE, J.string(detail), _whole_load_base(_unchecked(operand.value)),
                          operand.slice[0].slice.value)
        if kind == "ufunc_at":
            return cst.Call(J.name(J.UFUNC_AT), [cst.Arg(J.string(detail)), *_plain(args)])
        if kind == "inplace_function":
            if detail == "numpy.copyto" and len(original.args) >= 2 and isinstance(original.args[0].value, cst.Name) \
                    and original.args[1].value.deep_equals(original.args[0].value) and original.args[1].keyword is None:
                args[1] = args[1].with_changes(value=args[0].value)  # the array itself: NumPy does nothing
            if detail == "numpy.copyto":  # a mask that may be a view of dst goes as itself (NPR126)
                args = [_unloaded(a) if a.keyword is not None and a.keyword.value == "where" else a for a in args]
            return cst.Call(J.name(J.IN_PLACE_FUNCTIONS[detail]), _plain(args))
        if kind == "checked_call":  # a callee reached through a parameter: pure or refused when traced
            return cst.Call(J.name(J.CHECKED_CALL), [cst.Arg(updated.func), *_plain(args)])
        if kind == "random":  # the generator (`np.random`, `rng`) as itself, the draw by name
            return cst.Call(J.name(J.RANDOM), [cst.Arg(updated.func.value), cst.Arg(J.string(detail)),
                                                *_plain(args)])
        if kind == "inplace_method":
            receiver = updated.func.value
            return cst.Call(J.name(J.IN_PLACE_METHODS[detail]), [cst.Arg(receiver), *_plain(args)])
        raise AssertionError(kind)

    def _view_call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        args = _plain(updated.args)
        if isinstance(original.func, cst.Attribute) and self.imports.qualify_numpy(
                original.func, frozenset(self.f.roots)) is None:
            meth = original.func.attr.value
            helper = fx.VIEW_METHODS[meth]
            if meth in ("reshape", "transpose") and len(args) > 1:
                args = [cst.Arg(cst.Tuple([cst.Element(a.value) for a in args]))]
            return cst.Call(J.name(helper), [cst.Arg(func.value), *args])
        qual = self.imports.qualify_numpy(original.func, frozenset(self.f.roots))
        return cst.Call(J.name(fx.VIEW_FUNCTIONS[qual]), args)

    # -- operators on sequences --------------------------------------------------------------
    def leave_BinaryOperation(self, original: cst.BinaryOperation, updated: cst.BinaryOperation):
        op = _BIN_OPS.get(type(updated.operator))
        if not self.active or op is None or not self._sequence_against_array(original.left, original.right):
            return updated
        return J.call(J.SEQ_OP, updated.left, J.string(op), updated.right).with_changes(
            lpar=updated.lpar, rpar=updated.rpar)

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison):
        if not self.active or len(updated.comparisons) != 1:  # a chain stays Python's
            return updated
        (target,) = updated.comparisons
        op = _CMP_OPS.get(type(target.operator))
        if op is None or not self._sequence_against_array(original.left, original.comparisons[0].comparator):
            return updated
        return J.call(J.SEQ_OP, updated.left, J.string(op), target.comparator).with_changes(
            lpar=updated.lpar, rpar=updated.rpar)

    def _is_sequence(self, expr: cst.BaseExpression) -> bool:
        """A list or tuple written in the source, or a name only ever bound to one: an operand
        NumPy would turn into an array."""
        return isinstance(expr, (cst.List, cst.Tuple, cst.ListComp)) or \
            isinstance(expr, cst.Name) and expr.value in self.seq_names

    def _sequence_against_array(self, left, right) -> bool:
        """One operand a sequence, the other one that may be an array (not a literal number or
        sequence, a shape, a size or len(): `[0] * n` with such an `n` stays as written)."""
        if self._is_sequence(left):
            left, right = right, left
        elif not self._is_sequence(right):
            return False
        return not (self._is_sequence(left) or _is_static_meta(left))

    # -- statements --------------------------------------------------------------------------
    def leave_Assert(self, original: cst.Assert, updated: cst.Assert):
        """`assert test, msg` -> `assert npr_assert(test, lambda: msg)`: Python's assert when the
        test is concrete, a run-time check when it is array data; still an `assert` statement, so
        `python -O` drops it as it drops the original."""
        if not self.active:
            return updated
        args = [updated.test]
        if updated.msg is not None:
            args.append(cst.Lambda(cst.Parameters(), updated.msg))
        return updated.with_changes(test=J.call(J.ASSERT, *args), msg=None, comma=cst.MaybeSentinel.DEFAULT)

    def leave_AugAssign(self, original: cst.AugAssign, updated: cst.AugAssign):
        if not self.active:
            return updated
        if original in self.m.mask_store:
            return self._mask_store(original, updated.target, updated.value)
        how = self.m.iop_names.get(original)
        if how is None:
            return updated
        target = updated.target
        if how == "at":
            store = cst.Subscript(J.call(J.STORE_PROXY, target),
                                  [cst.SubscriptElement(cst.Index(cst.Ellipsis()))])
            return updated.with_changes(target=store)
        op = _AUG_OPS[type(updated.operator)]
        flags = {"maybe_scalar": cst.Name("True")} if how == "iop_maybe_scalar" else {}
        return cst.Assign([cst.AssignTarget(target)], J.call(J.IOP, target, J.string(op), updated.value, **flags))

    def _mask_store(self, original, target: cst.Subscript, value: cst.BaseExpression):
        whole, leaves, op, axis = self.m.mask_store[original]
        kwargs = {}
        if op is not None:
            kwargs["op"] = J.string(op)
        if whole:  # the value was computed on whole arrays: its other leaves must be scalars
            kwargs["scalars"] = cst.Tuple([cst.Element(self._leaf(l)) for l in leaves])
        if axis:
            kwargs["axis"] = cst.Integer(str(axis))
        index = target.slice[-1].slice.value
        return cst.Expr(J.call(J.MASK_STORE, target.value, index, value, **kwargs))

    def _leaf(self, leaf: cst.BaseExpression) -> cst.BaseExpression:
        return leaf.visit(_LeafLoads(self))

    def leave_For(self, original: cst.For, updated: cst.For):
        if not self.active or original not in self.m.loops:
            return updated
        plan = self.m.loops[original]
        name = f"_loop_{plan.var}"
        carried = list(plan.carried)
        params = [cst.Param(cst.Name(plan.var))]
        head: list[cst.BaseStatement] = []
        if len(carried) == 1:
            params.append(cst.Param(cst.Name(carried[0])))
        elif carried:
            params.append(cst.Param(cst.Name("carry")))
            head.append(cst.parse_statement(f"{', '.join(carried)} = carry"))
        tail = [cst.parse_statement(f"return {', '.join(carried)}")] if carried else []
        rng, rows = _loop_range(plan, updated.iter)
        head += [cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(r))], value)])
                 for r, value in rows]
        body = cst.IndentedBlock(body=[*head, *updated.body.body, *tail])
        func = cst.FunctionDef(cst.Name(name), cst.Parameters(params=params), body,
                               leading_lines=updated.leading_lines)
        before, after = [], []
        if plan.unrotate:  # the range is read again after the loop: evaluate it once
            rng_name = cst.Name(f"_range_{plan.var}")
            before.append(cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(rng_name)], rng)]))
            rng = rng_name
            for node in plan.unrotate:
                targets, values = node.targets[0].target, node.value
                paren = lambda t: cst.Tuple([cst.Element(cst.Name(e.value.value)) for e in t.elements])  # noqa: E731
                fix = cst.Assign([cst.AssignTarget(paren(targets).with_changes(lpar=[], rpar=[]))],
                                 J.call(J.ROTATED, rng_name, paren(targets), paren(values)))
                after.append(self._mark_line(original, cst.SimpleStatementLine([fix])))
        args = [cst.Arg(rng), cst.Arg(cst.Name(name))]
        if carried:
            names = [cst.Name(c if c in plan.defined_before else J.UNSET) for c in carried]
            init = names[0] if len(carried) == 1 else cst.Tuple([cst.Element(n) for n in names])
            args.append(cst.Arg(init))
        if plan.python:  # the analysis keeps this loop a Python loop: npr_for says so when traced
            args.append(cst.Arg(cst.SimpleString(repr(plan.python)), keyword=cst.Name("python"),
                                equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))))
        loop_call = cst.Call(cst.Name(J.FOR), args)
        stmt = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.parse_expression(", ".join(carried)))],
                                                   loop_call) if carried else cst.Expr(loop_call)])
        return cst.FlattenSentinel([func, *[self._mark_line(original, b) for b in before],
                                    self._mark_line(original, stmt), *after])

    def leave_While(self, original: cst.While, updated: cst.While):
        if not self.active or original not in self.m.loops:
            return updated
        plan = self.m.loops[original]
        self._if_count += 1
        n = self._if_count
        carried = list(plan.carried)
        params = [cst.Param(cst.Name(c)) for c in carried]
        ret = [cst.parse_statement(f"return {', '.join(carried)}")] if carried else []
        test = cst.FunctionDef(cst.Name(f"_test_{n}"), cst.Parameters(params=params),
                               cst.IndentedBlock(body=[cst.SimpleStatementLine(
                                   [cst.Return(_condition(updated.test))])]),
                               leading_lines=updated.leading_lines)
        body = cst.FunctionDef(cst.Name(f"_body_{n}"), cst.Parameters(params=params),
                               cst.IndentedBlock(body=[*updated.body.body, *ret]))
        call = cst.Call(cst.Name(J.WHILE), [cst.Arg(cst.Name(f"_test_{n}")), cst.Arg(cst.Name(f"_body_{n}")),
                                            *[cst.Arg(cst.Name(c if c in plan.defined_before else J.UNSET))
                                              for c in carried]])
        if carried:
            stmt = cst.Assign([cst.AssignTarget(cst.parse_expression(", ".join(carried)))], call)
        else:
            stmt = cst.Expr(call)
        return cst.FlattenSentinel([test, body, self._mark_line(original, cst.SimpleStatementLine([stmt]))])

    def leave_If(self, original: cst.If, updated: cst.If):
        if not self.active or original in self.m.elifs:
            return updated  # an `elif` is lowered by the `if` it belongs to
        statements = self._lower_if(original, updated)
        return cst.FlattenSentinel(statements) if isinstance(statements, list) else statements

    def _lower_if(self, original: cst.If, updated: cst.If):
        if original not in self.m.branches:
            if isinstance(updated.orelse, cst.If):  # keep the chain, lowering what can be
                inner = self._lower_if(original.orelse, updated.orelse)
                if isinstance(inner, list):
                    return updated.with_changes(orelse=cst.Else(cst.IndentedBlock(body=inner)))
            return updated
        plan = self.m.branches[original]
        self._if_count += 1
        n = self._if_count
        carried = list(plan.carried)
        params = [cst.Param(cst.Name(c)) for c in carried]
        ret = [cst.parse_statement(f"return {', '.join(carried)}")] if carried else []

        def branch(name, block):
            stmts = list(block.body) if block is not None else [cst.SimpleStatementLine([cst.Pass()])]
            return cst.FunctionDef(cst.Name(name), cst.Parameters(params=params),
                                   cst.IndentedBlock(body=[*stmts, *ret]))

        then_fn = branch(f"_then_{n}", updated.body)
        orelse = updated.orelse
        if isinstance(orelse, cst.If):  # elif: the else branch is the rest of the chain
            inner = self._lower_if(original.orelse, orelse.with_changes(leading_lines=[]))
            orelse = cst.IndentedBlock(body=inner if isinstance(inner, list) else [inner])
        elif isinstance(orelse, cst.Else):
            orelse = orelse.body
        defs = [then_fn.with_changes(leading_lines=updated.leading_lines)]
        else_name: cst.BaseExpression = cst.Name("None")
        if orelse is not None or carried:
            defs.append(branch(f"_else_{n}", orelse))
            else_name = cst.Name(f"_else_{n}")
        init = [cst.Arg(cst.Name(c) if c in plan.defined_before else cst.Name(J.UNSET)) for c in carried]
        call = cst.Call(cst.Name(J.IF), [cst.Arg(_condition(updated.test)), cst.Arg(cst.Name(f"_then_{n}")),
                                         cst.Arg(else_name), *init])
        if carried:
            stmt = cst.Assign([cst.AssignTarget(cst.parse_expression(", ".join(carried)))], call)
        else:
            stmt = cst.Expr(call)
        return [*defs, self._mark_line(original, cst.SimpleStatementLine([stmt]))]

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign):
        if self.active and original in self.f.identity_binds:  # binds x to x: the call is the statement
            return cst.Expr(updated.value, semicolon=updated.semicolon)
        if self.active and original in self.m.rotations:
            def paren(t):
                return cst.Tuple([cst.Element(e.value) for e in t.elements])
            return cst.Expr(J.call(J.ROTATE, paren(updated.targets[0].target), paren(updated.value)))
        if self.active and original in self.m.mask_store:
            return self._mask_store(original, updated.targets[0].target, updated.value)
        if self.active and original in self.m.own_after:
            self.pending_own.extend(self.m.own_after[original])
        return updated

    def leave_SimpleStatementLine(self, original, updated):
        if not self.active:
            return updated
        updated = self._mark_line(original, updated)
        if not self.pending_own:
            return updated
        extra = [self._mark_line(original, cst.SimpleStatementLine([cst.Assign(
            [cst.AssignTarget(cst.Name(n))], J.call(J.OWN, cst.Name(n)))]))
                 for n in dict.fromkeys(self.pending_own)]
        self.pending_own = []
        return cst.FlattenSentinel([updated, *extra])

    def _mark_line(self, original, line: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        """With line tracking on (np2ref.compile), end each emitted line with `# @L<n>`, the
        original line, so that errors raised while tracing point at the user's source."""
        if not self.track_lines:
            return line
        n = self.positions[original].start.line
        return line.with_changes(trailing_whitespace=cst.TrailingWhitespace(
            whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(f"# @L{n}")))


def _loop_range(plan, it: cst.Call):
    """The npr_range call and the `row = seq[var]` bindings for each loop form."""
    var = cst.Name(plan.var)
    if plan.kind == "range":
        return cst.Call(cst.Name(J.RANGE), _plain(it.args)), []
    if plan.kind == "reversed":  # reversed(range(a, b)) is range(b - 1, a - 1, -1)
        args = [a.value for a in it.args[0].value.args]
        start, stop = (cst.Integer("0"), args[0]) if len(args) == 1 else (args[0], args[1])
        minus_one = lambda e: cst.BinaryOperation(e, cst.Subtract(), cst.Integer("1"))  # noqa: E731
        return J.call(J.RANGE, minus_one(stop), minus_one(start), cst.parse_expression("-1")), []
    seqs = [a.value for a in it.args]
    lengths = [J.call("len", s) for s in seqs]
    bound = lengths[0] if len(lengths) == 1 else J.call("min", *lengths)
    rows = [(r, cst.Subscript(s, [cst.SubscriptElement(cst.Index(var))])) for r, s in zip(plan.rows, seqs)]
    return J.call(J.RANGE, bound), rows


def _condition(test: cst.BaseExpression) -> cst.BaseExpression:
    """`a and b` / `a or b` / `not a` in a condition: Python's meaning on concrete values, the
    elementwise one on traced scalars (Python's own operators would need a concrete bool)."""
    if isinstance(test, cst.BooleanOperation):
        helper = J.AND if isinstance(test.operator, cst.And) else J.OR
        return J.call(helper, _condition(test.left), _condition(test.right))
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return J.call(J.NOT, _condition(test.expression))
    return test.with_changes(lpar=[], rpar=[]) if isinstance(test, cst.BooleanOperation) else test


def _list_index(element: cst.SubscriptElement) -> cst.SubscriptElement:
    """`a[[0, 2]]`: JAX wants an array, not a list, for a fancy index (NumPy means the same)."""
    if isinstance(element.slice, cst.Index) and isinstance(element.slice.value, cst.List):
        lst = element.slice.value
        if not lst.elements:  # NumPy reads `[]` as an empty integer index
            return element.with_changes(slice=cst.Index(J.call(f"{J.NP}.array", lst,
                                                               dtype=J.name(f"{J.NP}.intp"))))
        literal = all(isinstance(e.value, (cst.Integer, cst.Name)) and not isinstance(e.value, cst.Name)
                      or isinstance(e.value, cst.UnaryOperation) for e in lst.elements)
        func = f"{J.NP}.array" if literal else J.INDEX_LIST  # a traced entry needs a traced array
        return element.with_changes(slice=cst.Index(J.call(func, lst)))
    return element


def _sequence_names(f: FunctionFacts) -> frozenset[str]:
    """Local names every binding of which is a list or tuple literal."""
    kinds: dict[str, bool] = {}
    for target, value in f.bindings:
        if isinstance(target, cst.Name):
            seq = isinstance(value, (cst.List, cst.Tuple, cst.ListComp))
            kinds[target.value] = kinds.get(target.value, True) and seq
    return frozenset(n for n, seq in kinds.items() if seq and n not in f.params)
def _target_subscripts(target: cst.BaseExpression):
    """The subscripts a target expression stores into (`a[i] = `, `a[i], b[j] = `, `*a[i], = `)."""
    if isinstance(target, cst.Subscript):
        yield target
    elif isinstance(target, (cst.Tuple, cst.List)):
        for e in target.elements:
            yield from _target_subscripts(e.value)
    elif isinstance(target, cst.StarredElement):
        yield from _target_subscripts(target.value)


def _may_raise(node: cst.Subscript, imports: ImportMap, local_names) -> bool:
    """Whether reading `node` may index an array out of range: an index entry other than a slice,
    `...`, None, np.newaxis, 0 or -1 (in range of any axis with an element; JAX raises for an
    empty one). Subscripts of `x.shape`/`x.strides` and string keys index no array."""
    if isinstance(node.value, cst.Attribute) and node.value.attr.value in ("shape", "strides"):
        return False
    for element in node.slice:
        s = element.slice
        if isinstance(s, cst.Slice):
            continue
        v = s.value
        if s.star is not None:
            return True
        if isinstance(v, cst.Ellipsis) or (isinstance(v, cst.Name) and v.value == "None"):
            continue
        if isinstance(v, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
            return False
        if isinstance(v, cst.Integer) and v.evaluated_value == 0:
            continue
        if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus) and \
                isinstance(v.expression, cst.Integer) and v.expression.evaluated_value == 1:
            continue
        if imports.qualify_numpy(v, local_names) == "numpy.newaxis":
            continue
        return True
    return False


def _whole_load_base(value: cst.BaseExpression) -> cst.BaseExpression:
    """`u` for the whole load `u[...]` or `npr_load(u)` (npr_get loads it), else value."""
    if isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index) \
            and isinstance(value.slice[0].slice.value, cst.Ellipsis) and isinstance(value.value, cst.Name):
        return value.value
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == J.LOAD \
            and len(value.args) == 1:
        return value.args[0].value
    return value


def _unchecked(value: cst.BaseExpression) -> cst.BaseExpression:
    """`x` for `npr_get(x)` (a helper that checks the index itself), else value."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == J.GET:
        return value.args[0].value
    return value


def _plain(args) -> list[cst.Arg]:
    """Arguments with a tidy trailing comma."""
    args = list(args)
    if args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return args


class _LeafLoads(cst.CSTTransformer):
    """A leaf of a mask store re-emitted with the function's load rules."""

    def __init__(self, outer: ModuleRewriter):
        self.outer = outer

    def leave_Name(self, original, updated):
        if original.value in self.outer.f.ref_names:
            return J.load_all(updated)
        return updated


def _is_int_of_data(call: cst.Call, local_names) -> bool:
    """`int(x)` / `float(x)` on a value that may be array data (not a literal, a shape, a size
    or len())."""
    if not (isinstance(call.func, cst.Name) and call.func.value in ("int", "float")
            and call.func.value not in local_names
            and len(call.args) == 1 and call.args[0].keyword is None and call.args[0].star == ""):
        return False
    arg = call.args[0].value
    while isinstance(arg, (cst.BinaryOperation, cst.UnaryOperation)):
        if isinstance(arg, cst.UnaryOperation):
            arg = arg.expression
        elif _is_static_meta(arg.left):
            arg = arg.right
        elif _is_static_meta(arg.right):
            arg = arg.left
        else:
            return True
    return not _is_static_meta(arg)


def _is_static_meta(expr: cst.BaseExpression) -> bool:
    """A literal, an array's shape/size/ndim (or an element of its shape), or len(...)."""
    if isinstance(expr, (cst.Integer, cst.Float)):
        return True
    if isinstance(expr, cst.Subscript):
        expr = expr.value
    if isinstance(expr, cst.Attribute) and expr.attr.value in ("shape", "size", "ndim"):
        return True
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "len"


def _unloaded(arg: cst.Arg) -> cst.Arg:
    """`name[...]` (a whole load of a ref) as `name`: the runtime loads it after its checks."""
    v = arg.value
    if isinstance(v, cst.Subscript) and isinstance(v.value, cst.Name) and len(v.slice) == 1 and \
            isinstance(v.slice[0].slice, cst.Index) and isinstance(v.slice[0].slice.value, cst.Ellipsis):
        return arg.with_changes(value=v.value)
    return arg
