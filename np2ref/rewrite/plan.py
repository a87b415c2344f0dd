"""The plan of one converted function: what the planners (rewrite/rules/*.py, run by
rewrite/marks.py) decided for its nodes, read by the emitters (run by rewrite/function.py)
through the ORIGINAL nodes. Nodes are keys by identity (libcst nodes compare by identity).

Planning fills a Marks; `freeze()` then makes its sets frozensets and its maps read-only
mappings, so nothing after planning can change a decision. `dump()` prints the plan as sorted
lines (`field  NodeKind line:col  source  [detail]`) that tests compare (tests/pipeline/test_plans.py).
"""

from __future__ import annotations

import dataclasses
import types
from typing import TYPE_CHECKING, AbstractSet, Any, Mapping

import libcst as cst

if TYPE_CHECKING:
    from .rules.branches import BranchPlan
    from .rules.loops import LoopPlan

Expr = cst.BaseExpression


def _field(family: str, doc: str, kind=set, bookkeeping: bool = False):
    return dataclasses.field(default_factory=kind,
                             metadata={"family": family, "doc": doc, "bookkeeping": bookkeeping})


@dataclasses.dataclass(frozen=True)
class Marks:
    # -- views (rules/views.py) ----------------------------------------------------------------
    ref_form: AbstractSet[Expr] = _field("views", "expressions emitted as a reference: a Ref or a view of one (`npr_sub(u, i)`, `npr_T(u)`)")
    no_load: AbstractSet[cst.Name] = _field("views", "ref Names emitted as themselves, not loaded (`u`, not `u[...]`)")
    own_form: AbstractSet[Expr] = _field("views", "expressions emitted as `npr_own(expr)`: a Ref for a value that is written")
    share_number: AbstractSet[Expr] = _field("views", "a name born a number and `op=`'d, bound to another (`prev = total`): `npr_share(total)`, its value while 0-d, else the Ref")
    own_scalar: AbstractSet[Expr] = _field("views", "of own_form, arithmetic bound to a name that may hold a scalar: `npr_own(expr, scalar=True)`, a 0-d value no Ref")
    own_held: Mapping[Expr, str] = _field("views", "of own_form, an object's attribute (`u = sim.u`, `v = self.u[1:]`) that is written -> its dotted name: `npr_own(expr, held='sim.u')`, NPR205 when traced if it holds an array (the write would miss it)", dict)
    new_ref: AbstractSet[Expr] = _field("views", "binding values emitted as `jax.new_ref(expr)`: a fresh buffer")
    # -- stores (rules/stores.py) --------------------------------------------------------------
    store_bases: AbstractSet[Expr] = _field("stores", "bases of store targets, emitted as the store proxy `npr_at(base)`")
    own_after: Mapping[cst.Assign, list[str]] = _field("stores", "Assign unpacking into refs -> the ref names owned after it (`a = npr_own(a)`)", dict)
    store_reads: AbstractSet[cst.Subscript] = _field("stores", "element reads `A[i, i]` in the value of a store into the same array (`A[i, i] = np.sqrt(A[i, i])`, rules/store_reads.py): `npr_get(A, feeds_store=True)`")
    checked_unpacks: Mapping[cst.Assign, int] = _field("stores", "`u, v = s` with the storage of `s` written -> the number of targets: `npr_unpack(s, n)`, NPR205 when traced if the items are views", dict)
    # -- augassign (rules/augassign.py) ----------------------------------------------------------
    iop_names: Mapping[cst.AugAssign, str] = _field("augassign", "AugAssign on a name -> 'at' (through the whole Ref), 'iop' or "
                            "'iop_maybe_scalar' (`x = npr_iop(x, op, v)`), 'iop_scalar_ref' (`x = npr_own(npr_iop(x, op, v, maybe_scalar=True), scalar=True)`: "
                            "x is subscript-written after)", dict)
    # -- calls (rules/calls.py, out_args.py, ufunc_at.py, inplace.py, mask_store.py) -----------
    special_calls: Mapping[cst.Call, tuple[str, str | None]] = _field("calls", "Call -> (kind, detail): emitted by the special emitter registered for kind "
                                "(out, ufunc_at, inplace_function, inplace_method, masked_reduce, random, checked_call)", dict)
    value_wrap: AbstractSet[cst.Call] = _field("calls", "calls of module functions that may return a Ref: `npr_value(call)`")
    unpacked_refs: AbstractSet[cst.Call] = _field("calls", "calls of module functions returning their parameters as themselves, unpacked into names (`u, v = no_slip(u_new, v_new)`): the Refs kept (no npr_value), owned after")
    apart: Mapping[cst.Call, Mapping[int, list[int]]] = _field("calls", "Call -> {index of a read argument: [indices of written arguments it may share a buffer "
                        "with]}: loaded through `npr_apart`", dict)
    # -- names (rules/names.py) -----------------------------------------------------------------
    skip_numpy: AbstractSet[Expr] = _field("names", "NumPy function nodes a rule emits itself: not mapped to their jnp spelling")
    flat_reads: AbstractSet[cst.Attribute] = _field("names", "`x.flat` indexed or iterated (`x.flat[k]`, `for v in x.flat`): `npr_flat(x)`, the flattened copy those read")
    inner: AbstractSet[Expr] = _field("names", "`np` in `np.zeros`: part of a dotted name, rewritten whole", bookkeeping=True)
    not_expr: AbstractSet[cst.Name] = _field("names", "Names that are not expressions (attribute names, keywords, def names)",
                             bookkeeping=True)
    # -- masks (rules/mask_store.py) -------------------------------------------------------------
    mask_store: Mapping[cst.BaseSmallStatement, tuple[bool, str | None, int]] = _field("masks", "statement -> (computed on whole arrays, op, axis): `npr_mask_store`", dict)
    trail_stores: Mapping[cst.BaseSmallStatement, tuple] = _field("masks", "`a[m, d] op= v` (the mask first, integers after it) -> (op, axis, the value's other leaves when it reads `b[m, d]`, else None): `npr_mask_store(..., trail=(d,))` (rules/mask_trail.py)", dict)
    trail_reads: Mapping[cst.Subscript, Expr] = _field("masks", "`b[m, d]` in a trail store's value -> the store's target: `npr_mask_trail(b, m, (d,), like=a)`", dict)
    plain_trails: AbstractSet[cst.Subscript] = _field("masks", "of trail_reads, `b[m, d]` in the value of a store `a[m] = ...` (no integers after its mask): `npr_mask_trail(..., like=a, like_trail=0)`")
    where_masks: AbstractSet[Expr] = _field("masks", "`np.where(m)` as the mask of a trail store: `npr_nonzero_mask(m, 'tuple')`, no NPR004", set)
    unmask: AbstractSet[Expr] = _field("masks", "`b[m]` in a mask store, emitted as `b`")
    mask_guard: AbstractSet[Expr] = _field("masks", "an unmasked `b[m]` where a derivative can be infinite (a divisor, a log's argument): `npr_mask_guard(b, m)`")
    nonzero_firsts: AbstractSet[cst.Subscript] = _field("masks", "`np.nonzero(m)[0]` bound to a name used only as an index: `npr_nonzero_mask(m, 'first')` (rules/nonzero.py)")
    unmask_read: AbstractSet[Expr] = _field("masks", "of unmask, `b[m]` whose mask is a name that may hold an integer index: `npr_unmask(b, m)`, b whole under a boolean mask, NumPy's read b[m] otherwise")
    read_if_int: AbstractSet[cst.BaseSmallStatement] = _field("masks", "mask stores and selection bindings whose masked reads are unmask_read: `read_if_int=True` (the value is NumPy's where the mask is an integer index)")
    guarded_selections: Mapping[cst.CSTNode, frozenset[str]] = _field("masks", "statement or reduction -> the selection names in its value that meet a pole (`v ** -12`, `1.0 / v`): `npr_unselect(v, guard=True)`", dict)
    store_selections: Mapping[cst.BaseSmallStatement, tuple[str, ...]] = _field("masks", "mask store -> the selection names in its value (`e[m] = v ** 2`, v = x[m]): whole, `selections=(v,)`", dict)
    masked_selections: Mapping[cst.Assign, tuple[Expr, tuple[str, ...]]] = _field("masks", "`w = 1.0 / x[m]`: `npr_select_whole(...)` -> (the mask, the selection names)", dict)
    selections: AbstractSet[cst.Subscript] = _field("masks", "`v = x[m]` with a mask, v only reduced: `npr_select(x, m)` (the reductions of v are masked_reduce calls)")
    kept_reads: Mapping[cst.Subscript, int] = _field("masks", "`v = X[m, :]`, v only reindexed and stored back (rules/kept.py): `npr_keep(X, m)` -> the mask's axis", dict)
    kept_reindex: AbstractSet[cst.Subscript] = _field("masks", "`v[:, perm]` of a kept selection: `npr_reselect(v, np.s_[:, perm])`")
    kept_stores: Mapping[cst.Assign, int] = _field("masks", "`Y[m, :] = v` of a kept selection: `npr_keep_store(Y, m, v)` -> the mask's axis", dict)
    derived_selections: Mapping[cst.Assign, tuple[str, ...]] = _field("masks", "`w = v ** 2` of selection names: `npr_select_values(...)` -> the selection names", dict)
    selection_sizes: AbstractSet[cst.Attribute | cst.Subscript] = _field("masks", "`v.size` of a selection name, `x[m].size` of a masked read: `npr_masked_reduce('size', ...)`; `v.shape[0]`, `x[m].shape[0]`: `npr_masked_reduce('len', ...)`")
    mask_items: Mapping[cst.Subscript | cst.Attribute, str | int] = _field("masks", "`x[m][k]`, `np.nonzero(m)[j][k]`, `np.flatnonzero(m)[k]`, `np.argwhere(m)[k]` (k an integer literal) -> 'item', j, 'flat' or 'argwhere': `npr_mask_item` / `npr_nonzero_item`; `np.nonzero(m)[j].size` (an Attribute) -> j...: `npr_nonzero_count` (rules/mask_items.py)", dict)
    mask_rank: Mapping[cst.Call, tuple[str, int]] = _field("masks", "`np.arange(np.count_nonzero(m))` in a mask store -> (target name, axis)", dict)
    mask_leaves: Mapping[Expr, tuple[Expr | None, tuple[str, ...]]] = _field("masks", "a leaf (`b`) of a value computed on whole arrays in place of masked reads: `npr_mask_leaf(b)` -> (the mask name where the reads are npr_unmask's, the selection names whose mask it is under)", dict)
    # -- loops (rules/loops.py) ------------------------------------------------------------------
    loops: Mapping[cst.For | cst.While, LoopPlan] = _field("loops", "For/While -> LoopPlan: lowered to `npr_for` / `npr_while`", dict)
    history_last: AbstractSet[cst.Subscript] = _field("loops", "`x[-1]` of a list a `while` on data appended to (rules/while_histories.py): `npr_history_last(x)`")
    rotations: AbstractSet[cst.Assign] = _field("loops", "Assigns swapping written arrays: `npr_rotate`")
    # -- branches (rules/branches.py) ------------------------------------------------------------
    branches: Mapping[cst.If, BranchPlan] = _field("branches", "If -> BranchPlan: lowered to `npr_if`", dict)
    elifs: AbstractSet[cst.If] = _field("branches", "If nodes that are an `elif` (lowered by the `if` they belong to)")
    ifexps: AbstractSet[cst.IfExp] = _field("branches", "ternaries whose condition may be array data: `npr_ifexp`")
    bool_values: AbstractSet[cst.BooleanOperation | cst.UnaryOperation] = _field("branches", "`a and b` / `a or b` / `not a` used as a value: `npr_andv` / `npr_orv` / `npr_not`")
    dict_inserts: AbstractSet[cst.Assign] = _field("stores", "`d[k] = v` into a local dict: Python's insertion, the key checked by `npr_dict_key`")
    conditions: AbstractSet[cst.BooleanOperation | cst.UnaryOperation] = _field("branches", "`and`/`or`/`not` in a condition (lowered by `condition()`)", bookkeeping=True)
    # -- unbound names (rules/unbound.py) --------------------------------------------------------
    defined_reads: AbstractSet[cst.Name] = _field("unbound", "reads that may see a name a lowered branch or loop left unbound: `npr_defined(y, 'y')`")
    defined_augs: AbstractSet[cst.AugAssign] = _field("unbound", "`y op= v` whose read of y is such a read: `y = npr_defined(y, 'y')` before it")
    unbound_inits: Mapping[cst.CSTNode, Mapping[str, str]] = _field("unbound", "lowered If/For/While -> {carried name: bound | maybe | unbound}: started with its flag "
                                                                     "(`y`, `npr_bound(lambda: y, True)`, `npr_unbound`)", dict)
    # -- everywhere ---------------------------------------------------------------------------------
    dead: AbstractSet[cst.BaseSuite] = _field("dead code", "bodies of `if 0:` / `if False:`: kept as written, nothing planned")
    positions: Any = dataclasses.field(default=None, compare=False, repr=False)  # for dump()

    def freeze(self, positions=None) -> Marks:
        """The plan, read-only: planning has ended."""
        frozen = {f.name: _frozen(getattr(self, f.name)) for f in dataclasses.fields(self) if f.name != "positions"}
        return Marks(**frozen, positions=positions)

    def dump(self, bookkeeping: bool = False) -> str:
        """Sorted lines, one per planned node: `field  Kind line:col  source  [detail]`."""
        lines = []
        for f in dataclasses.fields(self):
            if f.name == "positions" or (f.metadata["bookkeeping"] and not bookkeeping):
                continue
            value = getattr(self, f.name)
            items = value.items() if isinstance(value, Mapping) else ((n, None) for n in value)
            rows = []
            for node, detail in items:
                where = self._where(node)
                text = f"{f.name}  {where[2]}"
                if detail is not None:
                    text += f"  {self._describe(detail)}"
                rows.append((where[:2], text))
            lines += [t for _, t in sorted(rows)]
        return "\n".join(lines)

    def _where(self, node) -> tuple[int, int, str]:
        r = self.positions[node] if self.positions is not None else None
        line, col = (r.start.line, r.start.column + 1) if r is not None else (0, 0)
        code = " ".join(cst.Module([]).code_for_node(node).strip().splitlines()[0].split())
        if len(code) > 40:
            code = code[:37] + "..."
        return line, col, f"{type(node).__name__} {line}:{col}  {code}"

    def _describe(self, value) -> str:
        if isinstance(value, cst.CSTNode):
            return self._where(value)[2].split("  ")[0]
        if dataclasses.is_dataclass(value):
            parts = [f"{f.name}={self._describe(getattr(value, f.name))}" for f in dataclasses.fields(value)
                     if getattr(value, f.name) != f.default]
            return f"{type(value).__name__}({', '.join(parts)})"
        if isinstance(value, (frozenset, set)):
            return "{" + ", ".join(sorted(self._describe(v) for v in value)) + "}"
        if isinstance(value, Mapping):
            return "{" + ", ".join(f"{k}: {self._describe(v)}" for k, v in sorted(value.items())) + "}"
        if isinstance(value, (tuple, list)):
            return "(" + ", ".join(self._describe(v) for v in value) + ("," if len(value) == 1 else "") + ")"
        return repr(value)


def _frozen(value):
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    if isinstance(value, Mapping):
        return types.MappingProxyType({k: _frozen_detail(v) for k, v in value.items()})
    return value


def _frozen_detail(value):
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, dict):
        return types.MappingProxyType({k: tuple(v) if isinstance(v, list) else v for k, v in value.items()})
    return value


__all__ = ["Marks"]
