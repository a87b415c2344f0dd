"""Selections kept in a name: `v = x[m]` with a mask, then only reduced (`v.mean()`,
`np.sum(v ** 2)`, `len(v)`, `v.size`), or used in the binding of another such name
(`d = v - v.mean()`, then `d.max()`).

What: `v = npr_select(x, m)` (an NprSelection: x and the mask when v was bound), `d =
npr_select_values(npr_unselect(v) - ..., npr_selection_mask(v))`, and each reduction a
reduction under the mask (rules/mask_store.py plan_masked_reduce: npr_masked_reduce). Why:
NumPy's selection has a data-dependent length, which jit cannot make. Exact because the
expressions are elementwise (mask_store.selection_operand): computed on the whole arrays and
reduced under the mask, they give what NumPy computes on the selected elements.
"""

from __future__ import annotations

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits, plans
from ..syntax import unchecked, whole_load_base
from .mask_index import _code, mask_lead, mask_then_slices, slices_keyword
from .zero_d import bare_read
from .mask_guard import guard_selections, guard_singular
from .nonzero import emitted_mask
from .mask_store import (
    _axis_keyword, _is_len, _may_be_mask, _reduced_operand, mark_unmask_read, masked_parts,
    masked_read_expression, selection_operand)
from .mask_values import looks_boolean
from .whole_forms import LeafLoads, Unselect, drawn_reads, names_tuple, pair_leaves, under_selection_mask, whole_operands
from ...analysis.nodes import nodes_of, run_visitor


def selection_names(func: cst.FunctionDef, bool_names, imports, local_names, int_names=frozenset()) -> frozenset[str]:
    """Names bound once, `v = x[m]` with a mask by its form (or `w = v ** 2`, elementwise in
    such names: a derived selection), and then only reduced after the binding, in its block or
    a block nested in it (`v.mean()`, `np.sum(v ** 2)`, `len(v)`, `v.size`, or in a derived
    selection's binding): NumPy's selection has a data-dependent length, so v is kept as the
    whole values and the mask when it was bound (`npr_select`, `npr_select_values`), and each
    reduction of it is a reduction under the mask (npr_masked_reduce). Any other occurrence of
    the name (an argument, a loop target, a subscript, a use before the binding or in a nested
    function) leaves it a plain read (NPR107 if the mask is traced)."""
    finder = _Occurrences()
    run_visitor(func.body, finder)
    names = {}
    masks = {}  # name -> the mask of its binding's masked reads, by its form
    for name, (binds, uses, others) in finder.found.items():
        if others or len(binds) != 1 or not uses:
            continue
        where, assign = binds[0]
        value = assign.value
        if isinstance(value, cst.Subscript):
            if (read := mask_then_slices(value)) is not None and _may_be_mask(read[0], bool_names, int_names):
                # (`Xc = X[y == c, :]` too)
                names[name] = None
                masks[name] = _code(value.slice[0].slice.value)
        else:
            found = selection_operand(value, imports, local_names)
            if found is not None and found[0]:
                names[name] = {n.value for n in found[0]}  # derived: a selection while one of these is
                continue
            read = masked_read_expression(value, bool_names, imports, local_names, int_names)
            if read is not None:  # `inv = 1.0 / r2[m]`: its masked reads whole, under m
                names[name] = None
                masks[name] = _code(read.slice[0].slice.value)
    changed = True
    while changed:  # the greatest set whose every use is a reduction or a derived selection's binding
        changed = False
        for name in list(names):
            derived_from = names[name]
            ok = derived_from is None or bool(derived_from & names.keys())
            where, _ = finder.found[name][0][0]
            for use_where, use in finder.found[name][1]:
                if not ok:
                    break
                ok = _after(use_where, where) and (
                    _reduced_in(use, name, imports, local_names) if isinstance(use, list)
                    else _reduced_in(use[0], name, imports, local_names) or use[1] in names if isinstance(use, tuple)
                    else _stored_under(use, _mask_of(name, names, masks), names, bool_names, imports,
                                       local_names, int_names) if isinstance(use, _Store)
                    else use in names)  # the binding of a derived selection
            if not ok:
                del names[name]
                changed = True
    return frozenset(names)


class _Store:
    """A use of a name in the value of a masked store `a[m] = expr` / `a[m] op= expr`."""

    def __init__(self, stmt: cst.Assign | cst.AugAssign):
        self.stmt = stmt


def _mask_of(name: str, names, masks, depth: int = 0) -> str | None:
    """The mask (by its form) a selection name was made through: its binding's, or for a name
    derived from selections (`w = v ** 2`), that of the first of them that shows one."""
    if name in masks:
        return masks[name]
    for parent in sorted(names.get(name) or ()):
        if parent in names and depth < 8:
            found = _mask_of(parent, names, masks, depth + 1)
            if found is not None:
                return found
    return None


def _stored_under(use: _Store, mask_code, names, bool_names, imports, local_names, int_names) -> bool:
    """Whether a selection name's use in a masked store is one the store computes on whole
    arrays: `e[m] = 4 * (v ** -12 - v ** -6)` under the very mask name v was selected through
    (a plain name: npr_mask_store checks when traced that it is the same array), the value
    elementwise in selections, masked reads through m and scalars (masked_parts). A mask name
    that may hold an integer index (a parameter) is decided when traced (read_if_int)."""
    stmt = use.stmt
    target = stmt.targets[0].target if isinstance(stmt, cst.Assign) else stmt.target
    found = mask_lead(target)
    if found is None or found[1] or found[2] or not isinstance(found[0], cst.Name) \
            or not (looks_boolean(found[0], bool_names) or found[0].value not in int_names) \
            or _code(found[0]) != mask_code:
        return False
    return masked_parts(stmt.value, target, imports, local_names, None, int_names, selections=names) is not None


def _after(use, binding) -> bool:
    """Whether a use at `use` (the (block, statement index) of each enclosing block, outermost
    first) comes after a binding at `binding`, in its block or a block nested in it."""
    depth = len(binding) - 1
    return len(use) > depth and all(u[0] is b[0] and u[1] == b[1] for u, b in zip(use[:depth], binding)) \
        and use[depth][0] is binding[depth][0] and use[depth][1] > binding[depth][1]


def _reduced_in(calls, name: str, imports, local_names) -> bool:
    """Whether the innermost reduction among `calls` (the calls whose operand holds this use of
    `name`, innermost first) reduces `name` itself, or an elementwise expression of it
    (`np.sum(v ** 2)`, `np.sqrt(v).max()`: see selection_operand)."""
    for call in calls:
        if isinstance(call, cst.Attribute):  # `v.size`
            return call.attr.value == "size"
        if isinstance(call, cst.Subscript):  # `v.shape[0]`
            return True
        operand = _reduced_operand(call, imports, local_names)
        if operand is None:
            continue
        if isinstance(operand, cst.Name):
            return operand.value == name
        return not _is_len(call, local_names) and _axis_keyword(call) is None \
            and selection_operand(operand, imports, local_names) is not None
    return False


class _Occurrences(cst.CSTVisitor):
    """Per name: its bindings `name = expr` as the only statement of a line ((where, Assign)),
    its uses ((where, the calls whose operand holds it, innermost first) inside a call's
    operand (the receiver of a method called without arguments, the one argument of a call),
    `name.size`, (where, the name bound) in the value of another name's binding, or (where,
    (the calls, the name bound)) in a call's operand there, `w = np.sqrt(v)`), and every other
    occurrence. `where`: the (block, statement index) of each enclosing block."""

    def __init__(self):
        self.found: dict[str, tuple[list, list, list]] = {}
        self.stack: list[tuple[cst.IndentedBlock, int]] = []
        self.simple = False  # inside a simple statement line (not a compound statement's header)
        self.nested = 0  # inside a nested function or class: every occurrence is an "other"
        self.claimed: set[int] = set()
        self.calls: dict[int, list[cst.Call]] = {}  # id(a Name) -> the calls whose operand holds it
        self.bound: dict[int, str] = {}  # id(a Name in a binding's value) -> the name bound
        self.stored: dict[int, _Store] = {}  # id(a Name in a subscript store's value) -> the store

    def _entry(self, name):
        return self.found.setdefault(name, ([], [], []))

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> bool:
        for at, stmt in enumerate(node.body):
            self.stack.append((node, at))
            self.simple = isinstance(stmt, cst.SimpleStatementLine)
            run_visitor(stmt, self)
            self.simple = False
            self.stack.pop()
        return False

    def visit_FunctionDef(self, node) -> None:
        self.nested += 1

    def leave_FunctionDef(self, node) -> None:
        self.nested -= 1

    visit_ClassDef, leave_ClassDef = visit_FunctionDef, leave_FunctionDef
    visit_Lambda, leave_Lambda = visit_FunctionDef, leave_FunctionDef

    def visit_Assign(self, node: cst.Assign) -> None:
        target = node.targets[0].target
        if self.simple and not self.nested and len(node.targets) == 1 and isinstance(target, cst.Name) \
                and len(self.stack[-1][0].body[self.stack[-1][1]].body) == 1:
            self._entry(target.value)[0].append((tuple(self.stack), node))
            self.claimed.add(id(target))
            for name in _names_in(node.value):
                self.bound[id(name)] = target.value
        elif self.simple and not self.nested and len(node.targets) == 1 and isinstance(target, cst.Subscript):
            self._stored(node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self.simple and not self.nested and isinstance(node.target, cst.Subscript):
            self._stored(node)

    def _stored(self, node) -> None:
        """The names in a subscript store's value: uses in a (maybe masked) store."""
        for name in _names_in(node.value):
            self.stored[id(name)] = _Store(node)

    def visit_Call(self, node: cst.Call) -> None:
        extra = 1 if _axis_keyword(node) is not None else 0  # (`v.mean(axis=0)`)
        receiver = node.func.value if isinstance(node.func, cst.Attribute) and len(node.args) == extra else None
        argument = node.args[0].value if len(node.args) == 1 + extra and node.args[0].keyword is None else None
        for operand in (receiver, argument):
            if operand is not None:  # (visited before the calls inside it: innermost last)
                for name in _names_in(operand):
                    self.calls.setdefault(id(name), []).append(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self.stack and not self.nested and node.attr.value == "size" and isinstance(node.value, cst.Name):
            self._entry(node.value.value)[1].append((tuple(self.stack), [node]))
            self.claimed.update((id(node.value), id(node.attr)))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        name = rows_of(node)
        if self.stack and not self.nested and isinstance(name, cst.Name):  # `v.shape[0]`
            self._entry(name.value)[1].append((tuple(self.stack), [node]))
            self.claimed.update((id(name), id(node.value.attr)))

    def visit_Name(self, node: cst.Name) -> None:
        if id(node) in self.claimed:
            return
        calls = self.calls.get(id(node))
        if not self.stack or self.nested:
            self._entry(node.value)[2].append(node)
        elif calls is not None and id(node) in self.bound:  # `w = np.sqrt(v)`: reduced, or a derived selection
            self._entry(node.value)[1].append((tuple(self.stack), (calls[::-1], self.bound[id(node)])))
        elif calls is not None:
            self._entry(node.value)[1].append((tuple(self.stack), calls[::-1]))
        elif id(node) in self.bound:
            self._entry(node.value)[1].append((tuple(self.stack), self.bound[id(node)]))
        elif id(node) in self.stored:
            self._entry(node.value)[1].append((tuple(self.stack), self.stored[id(node)]))
        else:
            self._entry(node.value)[2].append(node)


def _names_in(node: cst.CSTNode) -> list[cst.Name]:
    """The Name nodes under node (an attribute's own name too: it is never a selection), in no
    particular order (its callers count them or key tables by them)."""
    return nodes_of(node, cst.Name)


# -- planning and emitting -------------------------------------------------------------
@plans(cst.Assign, order=15)
def plan_selection(node: cst.Assign, ctx) -> bool:
    """`v = x[m]` for a selection name (see selection_names): `npr_select(x, m)`. Not claimed."""
    target = node.targets[0].target
    if len(node.targets) == 1 and isinstance(target, cst.Name) and target.value in ctx.selections:
        if isinstance(node.value, cst.Subscript):
            ctx.m.selections.add(node.value)
        elif (found := selection_operand(node.value, ctx.imports, ctx.locals, ctx.selections)) is not None:
            selected, leaves = found  # `w = v ** 2`: derived from selection names (selection_names proved the form)
            ctx.m.derived_selections[node] = tuple(n.value for n in selected)
            pair_leaves(ctx, leaves, selected=[n.value for n in selected])
            guard_selections(ctx, node, node.value, ctx.selections)
        else:  # `w = 1.0 / x[m]`: masked reads (and selection names) through one mask
            read = masked_read_expression(node.value, ctx.bool_names, ctx.imports, ctx.locals, ctx.int_names)
            masked, leaves = masked_parts(node.value, read, ctx.imports, ctx.locals, ctx.all, ctx.int_names,
                                          ctx.selections)
            selected = tuple(dict.fromkeys(n.value for n in leaves if isinstance(n, cst.Name) and n.value in ctx.selections))
            if drawn_reads(masked, ctx) and len(masked) + len(selected) > 1:
                # listed again in masked= (whole_operands) for the pairing check: the draw made twice
                ctx.sink.report("NPR107", f"`{target.value}` is a selection computed on whole arrays from a draw "
                                "read through the mask: the draw would be made twice, and the generator's "
                                "later draws would differ from NumPy's", ctx.span(node),
                                hint="bind the draw to a name first (`r = rng.random(n)`, then `r[m]`)")
                return False
            ctx.m.unmask.update(masked)
            guard_singular(ctx, node.value, masked)
            guard_selections(ctx, node, node.value, selected)
            if not looks_boolean(read.slice[0].slice.value, ctx.bool_names):  # (a parameter `m`)
                mark_unmask_read(ctx, node, masked)
            ctx.m.masked_selections[node] = (read.slice[0].slice.value, selected)
            pair_leaves(ctx, [n for n in leaves if not (isinstance(n, cst.Name) and n.value in ctx.selections)],
                        read.slice[0].slice.value if node in ctx.m.read_if_int else None)
    return False


@plans(cst.Attribute, order=40)
def plan_selection_size(node: cst.Attribute, ctx) -> bool:
    """`v.size` of a selection name, `x[m].size` of a masked read: the selection's length."""
    value = node.value
    if node.attr.value == "size" and _counted(value, ctx):
        ctx.m.selection_sizes.add(node)
    return False


def _counted(value: cst.BaseExpression, ctx) -> bool:
    """A selection name, or a masked read `x[m]` (`X[m, :]`), whose size or length is counted."""
    return isinstance(value, cst.Name) and value.value in ctx.selections \
        or isinstance(value, cst.Subscript) and (read := mask_then_slices(value)) is not None \
        and _may_be_mask(read[0], ctx.bool_names, ctx.int_names)


def rows_of(node: cst.Subscript) -> cst.BaseExpression | None:
    """v of `v.shape[0]` (the length of v's first axis), else None."""
    if isinstance(node.value, cst.Attribute) and node.value.attr.value == "shape" and len(node.slice) == 1 \
            and isinstance(node.slice[0].slice, cst.Index) and isinstance(node.slice[0].slice.value, cst.Integer) \
            and node.slice[0].slice.value.evaluated_value == 0:
        return node.value.value
    return None


@plans(cst.Subscript, order=40)
def plan_selection_rows(node: cst.Subscript, ctx) -> None:
    """`v.shape[0]` of a selection name, `x[m].shape[0]` of a masked read (the count of a class,
    `X[y == c].shape[0]`): the selection's length, as len()."""
    value = rows_of(node)
    if value is not None and _counted(value, ctx):
        ctx.m.selection_sizes.add(node)


@emits(cst.Attribute, order=5)
def emit_selection_size(original: cst.Attribute, updated: cst.Attribute, ctx):
    if original not in ctx.m.selection_sizes:
        return None
    return _selection_count("size", original.value, updated.value)


@emits(cst.Subscript, order=3)
def emit_selection_rows(original: cst.Subscript, updated: cst.Subscript, ctx):
    if original not in ctx.m.selection_sizes:
        return None
    return _selection_count("len", original.value.value, updated.value.value)


def _selection_count(reduction: str, original: cst.BaseExpression, value: cst.BaseExpression) -> cst.Call:
    """npr_masked_reduce('size' or 'len') of a selection name or a masked read x[m]."""
    if isinstance(original, cst.Name):  # npr_select's value, never a Ref
        return J.call(J.MASKED_REDUCE, J.string(reduction), value)
    value = bare_read(value)  # (`npr_scalar_of(x[m])` in a module that asks: the read itself)
    return J.call(J.MASKED_REDUCE, J.string(reduction), whole_load_base(unchecked(bare_read(value.value))),
                  value.slice[0].slice.value, **slices_keyword(value))


@emits(cst.Assign, order=1)
def emit_derived_selection(original: cst.Assign, updated: cst.Assign, ctx):
    derived = ctx.m.derived_selections.get(original)
    if derived is not None:
        return updated.with_changes(value=under_selection_mask(
            J.SELECT_VALUES, updated.value, derived, ctx, guard=ctx.m.guarded_selections.get(original, frozenset())))
    masked = ctx.m.masked_selections.get(original)
    if masked is None:
        return None
    mask, selected = masked  # npr_select_whole(values on whole arrays, m, ...): its leaves npr_mask_leaf'ed
    loads = LeafLoads(ctx.f.ref_names, ctx.m.no_load)
    kwargs = {}
    if selected:
        kwargs["selections"] = names_tuple(selected)
    kwargs.update(whole_operands(original.value, ctx, len(selected)))
    if original in ctx.m.read_if_int:
        kwargs["read_if_int"] = cst.Name("True")
    guard = ctx.m.guarded_selections.get(original, frozenset())
    value = updated.value.visit(Unselect(frozenset(selected), guard)) if selected else updated.value
    return updated.with_changes(value=J.call(J.SELECT_WHOLE, value, emitted_mask(mask, loads, ctx), **kwargs))
