"""MaskStore: `a[m] = expr(b[m], c[m], scalars)` and `a[m] op= ...` with a boolean mask.

What: a store through a mask whose true-count is data dependent. Why: under jit a masked read
`b[m]` has no static shape, so the statement is rewritten on whole arrays:
    a[m] = np.sqrt(b[m]) * k      ->  npr_mask_store(a, m, jnp.sqrt(b[...]) * k, leaves=(k,))
Exact when the expression is elementwise and every array in it is masked by the same `m`:
then masking after the computation equals computing on the masked values. The runtime checks
that unmasked leaves are scalars (size 1) and refuses (NPR104) otherwise; a call of a module
helper (or a nested def or lambda, lifted to one) whose body is `return` of an elementwise
expression in its parameters is elementwise too, and is called on the whole arrays; when `m` turns out to be
an integer index at trace time it stores `value[m]`, which is the same thing for elementwise code.
"""

from __future__ import annotations

import libcst as cst

from ...analysis.names import ImportMap
from ...emit import jaxnames as J
from ..registry import emits, emits_special, plans
from ..syntax import AUG_OPS, positional, unchecked, whole_load_base
from .calls import is_static_meta
from .mask_guard import guard_selections, guard_singular
from .nonzero import emitted_mask
from .zero_d import bare_read
from .mask_index import (_MASKED_METHODS, _MASKED_REDUCTIONS, _axis_keyword, _code, _is_len, _lead_pattern,
                         int_by_form, mask_lead, mask_then_slices, mask_trail, newaxis_after_mask, slices_keyword)
from .views import mark_write_target
from .whole_forms import LeafLoads, Unselect, drawn_reads, names_tuple, pair_leaves, under_selection_mask, whole_operands
from ...analysis.nodes import run_visitor, walk
from .mask_values import _CONSTANTS, _elementwise, _elementwise_call, looks_boolean


def mask_index(target: cst.Subscript) -> tuple[cst.BaseExpression, int] | None:
    """(the mask, its axis) for `a[m]` or `a[:, :, m]` (leading full slices), else None."""
    found = mask_lead(target)
    return None if found is None or found[2] else found[:2]


def _slices_code(node: cst.Subscript) -> str:
    return ",".join(_code(e.slice) for e in node.slice)


def masked_parts(value: cst.BaseExpression, target: cst.Subscript, imports: ImportMap,
                 local_names, helpers=None, int_names=frozenset(),
                 selections=frozenset(), trails=None) -> tuple[list[cst.Subscript], list[cst.BaseExpression]] | None:
    """(the `X[m]` subscripts to unmask, the other leaves) if `value` is elementwise in them
    (`helpers`: the module's functions, by name: a call of an elementwise one is elementwise).
    A name among `selections` (selection names, rules/selections.py) is a leaf that counts as
    masked: the value is then computed on whole arrays even without a masked read. With a list
    `trails`, a read `X[m, d]` through the target's mask `a[m]` followed by integers (`o[m, 1]`)
    is one too, put in `trails`: whole, it is the view `X[:, d]` (npr_mask_trail, rules/mask_trail.py)."""
    key = _slices_code(target)
    pattern = _lead_pattern(target)
    mask = _code(target.slice[-1].slice)
    masked: list[cst.Subscript | cst.Call] = []
    leaves: list[cst.BaseExpression] = []

    def leaf(node) -> bool | None:
        if is_mask_rank(node, mask, imports, local_names):
            masked.append(node)
            return True
        if isinstance(node, cst.Subscript) and len(target.slice) == 1 \
                and (found := newaxis_after_mask(node)) is not None and _code(found[1]) == mask:
            masked.append(node)  # `r2[m][:, None]` beside `d[m]`: r2 whole, a new axis after m's
            return True
        if isinstance(node, cst.Call) and _axis_keyword(node) is None \
                and _reduced_operand(node, imports, local_names) is not None:
            return True  # `x[m] - x[m].mean()`: a whole reduction, one value (reduced under its mask)
        if trails is not None and isinstance(node, cst.Subscript) and len(target.slice) == 1 \
                and (read := mask_trail(node)) is not None and not read[1] and _code(read[0]) == mask \
                and not any(isinstance(n, cst.Subscript) for n in walk(node.value)):
            trails.append(node)  # `o[m, 1]` under `a[m]`: the view o[:, 1] whole
            return True
        if _constant_item(node):
            leaves.append(node)  # `w[0]`, `p["dt"]`: one value (npr_mask_leaf checks when traced)
            return True
        if isinstance(node, cst.Subscript):
            if _slices_code(node) == key or pattern is not None and pattern[1] and _lead_pattern(node) == pattern \
                    and all(int_by_form(e, int_names) for e in mask_lead(node)[2]):
                masked.append(node)
                return True
            return False
        if isinstance(node, (cst.Name, cst.Attribute)):
            leaves.append(node)
            return True
        return None

    if not _elementwise(value, leaf, lambda n: _elementwise_call(n, imports, local_names, helpers, -1)) \
            or not masked and not trails and not any(isinstance(n, cst.Name) and n.value in selections for n in leaves):
        return None
    return masked, leaves


def _constant_item(node) -> bool:
    """`w[0]`, `w[-1]`, `p["dt"]`: an item of a name or attribute at a literal key, a leaf like
    a name (npr_mask_leaf refuses it when it is no single value, a row `w[0]` of a matrix)."""
    if not (isinstance(node, cst.Subscript) and isinstance(node.value, (cst.Name, cst.Attribute))
            and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)):
        return False
    key = node.slice[0].slice.value
    if isinstance(key, cst.UnaryOperation) and isinstance(key.operator, cst.Minus):
        key = key.expression
    return isinstance(key, (cst.Integer, cst.SimpleString))


def masked_read_expression(value, bool_names, imports: ImportMap, local_names, int_names=frozenset()):
    """The first masked read `X[m]` of `value` when value is elementwise in masked reads through
    one mask (boolean by its form, or a name that may hold one: mark_unmask_read), `1.0 / r2[m]`,
    `np.sqrt(d[m]) * k`, names and numbers; else None. Computed on the whole arrays, it is
    NumPy's selection under m (npr_select_values)."""
    reads = []

    class Find(cst.CSTVisitor):
        def visit_Subscript(self, node) -> bool:
            if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                    and _may_be_mask(node.slice[0].slice.value, bool_names, int_names):
                reads.append(node)
                return False
            return True  # (`r2[m][:, None]`)
    run_visitor(value, Find())
    parts = masked_parts(value, reads[0], imports, local_names, None, int_names) if reads else None
    if parts is None or not all(isinstance(n, cst.Subscript) for n in parts[0]):
        return None  # (a rank, np.arange(np.count_nonzero(m)), needs a store's target)
    return reads[0]


def mark_unmask_read(ctx, owner, masked) -> None:
    """A masked store or selection binding (`owner`) through a mask name that may hold an
    integer index: its masked reads `b[m]` become npr_unmask(b, m), b whole under a boolean
    mask, NumPy's own read under an integer index, and `owner` takes the value as NumPy's then
    (read_if_int). Its other masked forms (`b[m][:, None]`) need a boolean mask (NPR104)."""
    ctx.m.unmask_read.update(n for n in masked if isinstance(n, cst.Subscript) and len(n.slice) == 1)
    ctx.m.read_if_int.add(owner)


def is_mask_rank(node, mask_code: str, imports: ImportMap, local_names) -> bool:
    """`np.arange(np.count_nonzero(m))` (or of `np.sum(m)`, `m.sum()`) for the store's own mask
    `m`: one value per selected element, its position among them (npr_mask_rank on whole
    arrays)."""
    if not (isinstance(node, cst.Call) and imports.qualify_numpy(node.func, local_names) == "numpy.arange"
            and len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star):
        return False
    count = node.args[0].value
    if not isinstance(count, cst.Call) or count.args and (count.args[0].keyword or count.args[0].star):
        return False
    qual = imports.qualify_numpy(count.func, local_names)
    if qual in ("numpy.count_nonzero", "numpy.sum") and len(count.args) == 1:
        return _code(count.args[0].value) == mask_code
    return (not count.args and isinstance(count.func, cst.Attribute) and count.func.attr.value == "sum"
            and _code(count.func.value) == mask_code)


def mask_of_rank(count: cst.Call) -> cst.BaseExpression:
    """The mask in the count of an is_mask_rank call (after rewriting)."""
    return count.args[0].value if count.args else count.func.value


def _reduced_operand(call: cst.Call, imports, local_names):
    """The operand of a reduction np2ref can take under a mask (`v.sum()`, `np.sum(v)`,
    `len(v)`), or None for any other call."""
    if _is_len(call, local_names):
        return call.args[0].value
    func = call.func
    extra = 1 if _axis_keyword(call) is not None else 0  # `v.mean(axis=0)`: rows under a 1-d mask
    if isinstance(func, cst.Attribute) and len(call.args) == extra and func.attr.value in _MASKED_METHODS \
            and imports.qualify_numpy(func, local_names) is None:
        return func.value
    if imports.qualify_numpy(func, local_names) in _MASKED_REDUCTIONS and len(call.args) == 1 + extra \
            and call.args[0].keyword is None and call.args[0].star == "":
        return call.args[0].value
    return None


def selection_operand(operand, imports, local_names, selections=None):
    """(the names in `operand`, its other leaves) when it is elementwise in names, attributes and
    numbers: arithmetic, comparisons, NumPy's ufuncs (a selection name in it is then unselected
    and the reduction runs under its mask: npr_unselect, npr_selection_mask; the other leaves
    must hold one value, checked when the program runs). With `selections`, the names are those
    among them and every other name is a leaf. None otherwise (a subscript, a method call)."""
    names, leaves = [], []

    def leaf(node):
        if isinstance(node, cst.Name):
            (names if selections is None or node.value in selections else leaves).append(node)
            return True
        if isinstance(node, (cst.Attribute, cst.Subscript)) and is_static_meta(node) \
                and not (isinstance(node, cst.Attribute) and node.attr.value == "shape"):
            return True  # `x.shape[0]`, `x.size`: a Python int
        if isinstance(node, cst.Attribute):
            leaves.append(node)
            return True
        if isinstance(node, cst.Call) and _axis_keyword(node) is None \
                and _reduced_operand(node, imports, local_names) is not None:
            return True  # `v - v.mean()`: a whole reduction, one value (its own operand is its own use)
        return False if isinstance(node, cst.Subscript) else None

    if not _elementwise(operand, leaf, lambda n: _elementwise_call(n, imports, local_names, None, -1)):
        return None
    return names, leaves


def _masked_expression(operand, ctx):
    """(the masked reads to unmask, the other leaves, the first masked read) when `operand` is
    elementwise in reads `X[m]` through one mask, as a masked store's value is (masked_parts)."""
    reads = []

    class Find(cst.CSTVisitor):
        def visit_Subscript(self, node) -> bool:
            if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
                    and _may_be_mask(node.slice[0].slice.value, ctx.bool_names, ctx.int_names):
                reads.append(node)
            return False
    run_visitor(operand, Find())
    parts = masked_parts(operand, reads[0], ctx.imports, ctx.locals, ctx.all) if reads else None
    if parts is None:
        return None
    if parts[1] and not looks_boolean(reads[0].slice[0].slice.value, ctx.bool_names):
        return None  # `np.sin(x[idx]) * w` with an integer idx pairs w with the selection, not with x
    return (*parts, reads[0])


def _may_be_mask(index, bool_names, int_names) -> bool:
    """A boolean mask by its form, or a name that may hold one (not a loop's integer): the run
    time tells (npr_masked_reduce reads an integer index as it is). `x[None]` is a new axis."""
    return looks_boolean(index, bool_names) or isinstance(index, cst.Name) and index.value not in int_names \
        and index.value not in _CONSTANTS


# -- planning --------------------------------------------------------------------------------
def _try_mask_store(ctx, target, value, stmt, op) -> bool:
    """`a[m] = f(b[m])` / `a[m] op= v` with a mask: see the module docstring."""
    found = mask_lead(target)
    if found is None:
        return False
    index, axis, lead = found
    if not _may_be_mask(index, ctx.bool_names, ctx.int_names):
        return False  # an integer index: the plain store is exact and reads better
    if not all(int_by_form(e, ctx.int_names) for e in lead):
        return False  # `a[rows, cols] *= v`: integer arrays, NumPy's fancy store (the plain store)
    selections = ctx.selections if isinstance(index, cst.Name) and not axis and not lead else frozenset()
    # `o[m, 1]` under a boolean mask (an integer index's `o[i, 1]` is no view o[:, 1] of it)
    trails = [] if looks_boolean(index, ctx.bool_names) and not axis and not lead else None
    parts = masked_parts(value, target, ctx.imports, ctx.locals, ctx.all, ctx.int_names, selections, trails)
    if parts is None:
        if not (looks_boolean(index, ctx.bool_names) and op is not None or lead):
            return False
        parts = ([], [])  # `a[i, m] = v`: v one value under a traced mask (npr_mask_store checks)
    if drawn_reads(parts[0], ctx) and (len(parts[0]) > 1 or any(
            isinstance(n, cst.Name) and n.value in selections for n in parts[1])):
        return False  # (a plain store: NPR107 when traced, a boolean mask's read has data's shape)
    if not mark_write_target(ctx, target.value, stmt):
        return True
    masked, leaves = parts
    ctx.m.trail_reads.update((r, target.value) for r in trails or ())  # (emitted by rules/mask_trail.py)
    ctx.m.plain_trails.update(trails or ())
    ranks = [n for n in masked if isinstance(n, cst.Call)]
    if ranks and (lead or not isinstance(target.value, cst.Name)):
        return False  # the rank needs the target's shape: a plain name (else NPR031 at trace time)
    ctx.m.mask_rank.update((n, (target.value.value, axis)) for n in ranks)
    ctx.m.unmask.update(masked)
    guard_singular(ctx, value, masked)
    selected = tuple(dict.fromkeys(n.value for n in leaves if isinstance(n, cst.Name) and n.value in selections))
    if selected:  # `e[m] = 4 * (v ** -12 - v ** -6)`, v = x[m]: v whole, checked to be under m
        ctx.m.store_selections[stmt] = selected
        guard_selections(ctx, stmt, value, selected)
    plain = not axis and not lead and all(isinstance(n, cst.Subscript) and len(n.slice) == 1 for n in masked)
    if not looks_boolean(index, ctx.bool_names) and (selected or plain):
        # (a parameter `m`, `idx`): decided when traced, an integer index's `a[i] = a[i] + b`
        # pairing b with NumPy's a[i] (every masked read of the value is then NumPy's own)
        mark_unmask_read(ctx, stmt, masked)
        leaves = [n for n in leaves if not (isinstance(n, cst.Name) and n.value in selections)]
    if masked or selected or trails:  # computed on whole arrays: each other leaf npr_mask_leaf'ed
        pair_leaves(ctx, [n for n in leaves if not (isinstance(n, cst.Name) and n.value in selected)],
                    index if stmt in ctx.m.read_if_int else None)
    ctx.m.mask_store[stmt] = (bool(masked) or bool(selected) or bool(trails), op, axis)
    return True


@plans(cst.Assign, order=20)
def plan_mask_assign(node: cst.Assign, ctx) -> bool:
    return len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Subscript) and \
        _try_mask_store(ctx, node.targets[0].target, node.value, node, None)


@plans(cst.AugAssign, order=10)
def plan_mask_aug_assign(node: cst.AugAssign, ctx) -> bool:
    return isinstance(node.target, cst.Subscript) and \
        _try_mask_store(ctx, node.target, node.value, node, AUG_OPS[type(node.operator)])


@plans(cst.Call, order=30)
def plan_masked_reduce(node: cst.Call, ctx) -> bool:
    """`np.sum(x[m])` / `x[m].max()` / `X[m].mean(axis=0)` with a boolean-looking mask: see
    npr_masked_reduce."""
    qual = ctx.numpy_name(node.func)
    args = positional(node)
    axis = _axis_keyword(node)
    extra = 1 if axis is not None else 0  # the axis keyword besides the operand
    if qual in _MASKED_REDUCTIONS and len(node.args) == 1 + extra and args:
        operand, name = args[0].value, qual[6:]
    elif _is_len(node, ctx.locals):  # `len(x[m])`: the selection's length
        operand, name = node.args[0].value, "len"
    elif qual is None and isinstance(node.func, cst.Attribute) and len(node.args) == extra and \
            node.func.attr.value in _MASKED_METHODS:
        operand, name = node.func.value, node.func.attr.value
    else:
        return False
    if isinstance(operand, cst.Name) and operand.value in ctx.selections:  # `v = x[m]; v.mean()`
        ctx.m.special_calls[node] = ("masked_reduce", name)
        ctx.m.skip_numpy.add(node.func)
        return True
    found = selection_operand(operand, ctx.imports, ctx.locals, ctx.selections) if ctx.selections else None
    if found is not None and found[0] and name not in ("len", "size") and axis is None:  # `np.sum(v ** 2)`: whole arrays, v's mask
        selected, leaves = found
        ctx.m.special_calls[node] = ("masked_reduce", (name, tuple(n.value for n in selected)))
        pair_leaves(ctx, leaves, selected=[n.value for n in selected])
        guard_selections(ctx, node, operand, ctx.selections)
        ctx.m.skip_numpy.add(node.func)
        return True
    if not (isinstance(operand, cst.Subscript) and (read := mask_then_slices(operand)) is not None
            and _may_be_mask(read[0], ctx.bool_names, ctx.int_names)):  # (`X[m, :]` too)
        found = _masked_expression(operand, ctx) if name not in ("len", "size") else None
        if found is None:
            return False
        masked, leaves, read = found  # `np.abs(x[m]).max()`: computed on whole arrays, reduced under m
        if len(masked) > 1 and drawn_reads(masked, ctx):
            return False  # (listed again in masked=: the draw made twice; NPR107 when traced)
        ctx.m.unmask.update(masked)
        guard_singular(ctx, operand, masked)
        pair_leaves(ctx, leaves)
        name = (name, read.slice[0].slice.value)
    ctx.m.special_calls[node] = ("masked_reduce", name)
    ctx.m.skip_numpy.add(node.func)
    return True


# -- emitting --------------------------------------------------------------------------------
@emits(cst.Assign, order=30)
def emit_mask_assign(original: cst.Assign, updated: cst.Assign, ctx):
    if original in ctx.m.mask_store:
        return _mask_store(ctx, original, updated.targets[0].target, updated.value)
    return None


@emits(cst.AugAssign, order=10)
def emit_mask_aug_assign(original: cst.AugAssign, updated: cst.AugAssign, ctx):
    if original in ctx.m.mask_store:
        return _mask_store(ctx, original, updated.target, updated.value)
    return None


def _mask_store(ctx, original, target: cst.Subscript, value: cst.BaseExpression):
    whole, op, axis = ctx.m.mask_store[original]
    kwargs = {}
    if op is not None:
        kwargs["op"] = J.string(op)
    if whole:  # the value was computed on whole arrays (its other leaves: npr_mask_leaf)
        kwargs["scalars"] = cst.Tuple([])
    selected = ctx.m.store_selections.get(original)
    if whole:
        kwargs.update(whole_operands(original.value, ctx, len(selected or ())))
    if selected:
        value = value.visit(Unselect(frozenset(selected), ctx.m.guarded_selections.get(original, frozenset())))
        kwargs["selections"] = names_tuple(selected)
    if original in ctx.m.read_if_int:
        kwargs["read_if_int"] = cst.Name("True")
    if axis:
        kwargs["axis"] = cst.Integer(str(axis))
    lead = mask_lead(target)[2]
    if lead:  # `a[i, m] = ...`: a masked store into the view a[i]
        kwargs["lead"] = cst.Tuple([cst.Element(e) for e in lead])
    index = target.slice[-1].slice.value
    return cst.Expr(J.call(J.MASK_STORE, target.value, index, value, **kwargs))


@emits(cst.Call, order=10)
def emit_mask_rank(original: cst.Call, updated: cst.Call, ctx):
    rank = ctx.m.mask_rank.get(original)
    if rank is None:
        return None
    # np.arange(np.count_nonzero(m)) in `a[m] = ...`, on whole arrays
    return J.call(J.MASK_RANK, mask_of_rank(updated.args[0].value), cst.Name(rank[0]), cst.Integer(str(rank[1])))


@emits_special("masked_reduce")
def emit_masked_reduce(original: cst.Call, updated: cst.Call, detail, ctx):
    axis_arg = _axis_keyword(original)  # (`axis=0`, or `np.mean(X[m], 0)`, `X[m].mean(0)`: rows under a 1-d mask)
    at = next((i for i, a in enumerate(original.args) if a is axis_arg), None)
    axis = {"axis": updated.args[at].value} if at is not None else {}
    args = [a for i, a in enumerate(updated.args) if a.keyword is None and i != at]
    operand = args[0].value if args else updated.func.value
    name = original.args[0].value if args else original.func.value
    if isinstance(name, cst.Name):  # a selection name: npr_select's value, never a Ref
        return J.call(J.MASKED_REDUCE, J.string(detail), cst.Name(name.value), **axis)
    if isinstance(detail, tuple):  # an elementwise expression of masked reads (or selections), on whole arrays
        reduction, mask = detail
        if isinstance(mask, tuple):  # selection names: each as its whole array, reduced under their mask
            return under_selection_mask(J.MASKED_REDUCE, operand, mask, ctx, J.string(reduction),
                                        guard=ctx.m.guarded_selections.get(original, frozenset()))
        loads = LeafLoads(ctx.f.ref_names, ctx.m.no_load)  # (`axis=0`: rows selected by a 1-d mask, npr_masked_reduce checks)
        return J.call(J.MASKED_REDUCE, J.string(reduction), operand, emitted_mask(mask, loads, ctx),
                      **axis, **whole_operands(name, ctx))
    operand = bare_read(operand)
    return J.call(J.MASKED_REDUCE, J.string(detail), whole_load_base(unchecked(bare_read(operand.value))),
                  operand.slice[0].slice.value, **axis, **slices_keyword(operand))
