"""Values computed on whole arrays in place of NumPy's selections, as emitted: a masked store's
value (`npr_mask_store`), a reduction of masked reads or selection names (`npr_masked_reduce`),
a selection name bound to an expression of them (`npr_select_whole`, `npr_select_values`). The
selection names become their whole arrays (`npr_unselect`), the other leaves are loaded as the
function's rules say, and the masked reads' whole forms are listed (`masked=`) for the runtime to
check that they pair as the selections do (rt/masks.py npr_check_whole)."""

from __future__ import annotations

import libcst as cst

from ...emit import jaxnames as J


def under_selection_mask(helper, value, selected, leaves, ctx, *head, guard=frozenset()):
    """`helper(*head, value with each selection name whole, their mask, scalars=(leaves))`
    (`guard`: the names that meet a pole there, npr_unselect(v, guard=True))."""
    loads = LeafLoads(ctx.f.ref_names, ctx.m.no_load)
    kwargs = {"scalars": cst.Tuple([cst.Element(leaf.visit(loads)) for leaf in leaves])} if leaves else {}
    mask = J.call(J.SELECTION_MASK, *[cst.Name(n) for n in dict.fromkeys(selected)])
    return J.call(helper, *head, value.visit(Unselect(frozenset(selected), guard)), mask, **kwargs)


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
    original_value.visit(Find())
    return {"masked": cst.Tuple([cst.Element(e) for e in found])} if found and len(found) + selections > 1 else {}


class Unselect(cst.CSTTransformer):
    """Each selection name of a reduced expression as its whole array (npr_unselect)."""

    def __init__(self, names, guard=frozenset()):
        self.names, self.guard = names, guard  # guard: the names npr_mask_guard'ed (they meet a pole)

    def visit_Call(self, node) -> bool:  # a reduction inside (`v - v.mean()`) reduces under its own mask
        return not (isinstance(node.func, cst.Name) and node.func.value == J.MASKED_REDUCE)

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
