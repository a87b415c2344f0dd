"""Values computed on whole arrays in place of NumPy's selections, as emitted: a masked store's
value (`npr_mask_store`), a reduction of masked reads or selection names (`npr_masked_reduce`),
a selection name bound to an expression of them (`npr_select_whole`, `npr_select_values`). The
selection names become their whole arrays (`npr_unselect`), the other leaves are loaded as the
function's rules say, and the masked reads' whole forms are listed (`masked=`) for the runtime to
check that they pair as the selections do (rt/mask_checks.py npr_check_whole)."""

from __future__ import annotations

import libcst as cst

from ...analysis.nodes import nodes_of, run_visitor
from ...analysis.numpy_table import RANDOM_DRAWS
from ...emit import jaxnames as J
from ..registry import emits, emitters
from .loop_draws import may_draw


def under_selection_mask(helper, value, selected, ctx, *head, guard=frozenset()):
    """`helper(*head, value with each selection name whole, their mask)` (`guard`: the names
    that meet a pole there, npr_unselect(v, guard=True); the other leaves: pair_leaves)."""
    mask = J.call(J.SELECTION_MASK, *[cst.Name(n) for n in dict.fromkeys(selected)])
    return J.call(helper, *head, value.visit(Unselect(frozenset(selected), guard)), mask)


def pair_leaves(ctx, leaves, mask=None, selected=()) -> None:
    """Mark the leaves (names, attributes) of a value computed on whole arrays in place of
    masked reads or selection names, `b` of `a[m] = a[m] + b`: each is emitted as
    `npr_mask_leaf(b)`, which refuses an array there (NPR104) before the whole-array arithmetic
    meets it (NumPy pairs b with the selection). `mask`: the mask name where the masked reads
    are npr_unmask's (an integer index leaves them NumPy's own, and b pairs with them);
    `selected`: the selection names the value is under (no selection made: NumPy's arrays).
    NumPy's constants (`np.pi`) are no leaves of that kind."""
    for leaf in leaves:
        if not (isinstance(leaf, cst.Attribute) and ctx.imports.qualify_numpy(leaf, ctx.locals) is not None):
            ctx.m.mask_leaves[leaf] = (mask, tuple(dict.fromkeys(selected)))


@emits(cst.Name, cst.Attribute, cst.Subscript, order=1)
def emit_mask_leaf(original, updated, ctx):
    """A leaf marked by pair_leaves: as the other rules emit it, through npr_mask_leaf."""
    found = ctx.m.mask_leaves.get(original)
    if found is None:
        return None
    inner = updated
    for emit in emitters(type(original)):
        if emit is not emit_mask_leaf and (out := emit(original, updated, ctx)) is not None:
            inner = out
            break
    mask, selected = found
    if selected:
        return J.call(J.MASK_LEAF, inner, J.call(J.SELECTION_MASK, *[cst.Name(n) for n in selected]))
    if mask is not None:
        loads = LeafLoads(ctx.f.ref_names, ctx.m.no_load)
        return J.call(J.MASK_LEAF, inner, mask.visit(loads), as_read=cst.Name("True"))
    return J.call(J.MASK_LEAF, inner)


def names_tuple(names) -> cst.Tuple:
    return cst.Tuple([cst.Element(cst.Name(n)) for n in names])


def whole_operands(original_value, ctx, selections: int = 0) -> dict:
    """`masked=(b, c)`: the whole arrays the masked reads of a value computed on whole arrays
    became (as emitted: reads.py notes them), for the runtime to check that they pair as
    NumPy's selections do (each as many axes: npr_check_whole). Nothing where they are one
    array with no selection name beside it (`selections`: how many): one pairs with nothing,
    and a store checks its value's axes itself (npr_mask_store)."""
    found = []

    class Find(cst.CSTVisitor):
        def visit_Subscript(self, node) -> bool:
            if node in ctx.unmasked_forms:
                found.append(ctx.unmasked_forms[node])
                return False
            return True
    run_visitor(original_value, Find())
    return {"masked": cst.Tuple([cst.Element(e) for e in found])} if found and len(found) + selections > 1 else {}


def drawn_reads(reads, ctx) -> bool:
    """Whether a masked read's array is made by a draw (`(s[m] + rng.integers(1, 4, size=n)[m]) %
    4`): the whole form of each masked read is evaluated in the value and listed again in
    `masked=` (whole_operands), so the draw would be made twice and every later draw of the
    generator would differ from NumPy's (scripts13b's upgma_tree). Such a value is not computed
    on whole arrays."""
    for read in reads:
        for call in nodes_of(read.value if isinstance(read, cst.Subscript) else read, cst.Call):
            f = call.func
            qual = ctx.imports.qualify(f)
            if isinstance(f, cst.Attribute) and (f.attr.value in RANDOM_DRAWS or f.attr.value == "seed") \
                    or qual is not None and qual.startswith("numpy.random") \
                    or isinstance(f, cst.Name) and f.value in ctx.facts and may_draw(f.value, ctx.facts, ctx.imports):
                return True
    return False


class Unselect(cst.CSTTransformer):
    """Each selection name of a reduced expression as its whole array (npr_unselect)."""

    def __init__(self, names, guard=frozenset()):
        self.names, self.guard = names, guard  # guard: the names npr_mask_guard'ed (they meet a pole)

    def visit_Call(self, node) -> bool:  # a reduction inside (`v - v.mean()`) reduces under its own mask;
        # npr_selection_mask(v) (of a leaf's npr_mask_leaf) takes the selections themselves
        return not (isinstance(node.func, cst.Name) and node.func.value in (J.MASKED_REDUCE, J.SELECTION_MASK))

    def leave_Name(self, original, updated):
        if original.value not in self.names:
            return updated
        return J.call(J.UNSELECT, updated, **({"guard": cst.Name("True")} if original.value in self.guard else {}))

    def leave_Attribute(self, original, updated):  # `np.sqrt`: its name is no selection
        return updated.with_changes(attr=original.attr)


class LeafLoads(cst.CSTTransformer):
    """A leaf of a mask store re-emitted with the function's load rules."""

    def __init__(self, ref_names, no_load=frozenset()):
        self.ref_names, self.no_load = ref_names, no_load  # no_load: rules/names.py's (a selection name's)

    def leave_Name(self, original, updated):
        if original.value in self.ref_names and original not in self.no_load:
            return J.load_all(updated)
        return updated
