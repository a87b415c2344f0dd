"""Independent loop iterations: the proof that lets `for j in range(...)` run as one vmap.

What: a `range` loop with no carried values whose body, read on the source, touches each array
it writes only at one place `R[P]` (P: scalar indices, the loop variable alone as one of them,
the others free of it and of the body's own names), reads those arrays only there, reads no
other name that may share their storage (analysis/aliases.py), and calls only NumPy's pure
functions and methods (no host calls, no random draws, no containers, no `out=`), with no
nested loop, `break`, `continue`, `return` or `del`. Iteration j then reads nothing another
iteration writes (R[P(j)] differ for different j, and nothing else is written), so the loop is
every iteration run on the state before it: rt/vectorise.py's npr_vfor runs it as one vmap.

    for j in range(i + 1):                      def _loop_j(j):          (the loop, unchanged)
        C[i, j] += alpha * A[i, :] @ A[j, :]        npr_at(C)[i, j] += ...
                                        ->      def _lanes_j(j, C_ij):   (C[i, j] is its slot)
                                                    npr_at(C_ij)[()] += ...
                                                npr_vfor(npr_range(i + 1), _loop_j, _lanes_j, (C, (i, npr_lane)))

`R[P]` becomes `R_slot[()]` (NumPy's meaning of `[()]`: the element itself on a 0-d slot, the
whole block on a larger one, as `R[P]` was). Exact: each lane runs the body's own statements on
the values its iteration sees; any doubt (a form this proof does not know) keeps the loop.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

PURE_NP = frozenset("""abs absolute add all amax amin any arccos arcsin arctan arctan2 cbrt ceil clip cos cosh
    divide dot exp exp2 expm1 floor fmax fmin hypot inner isfinite isinf isnan log log10 log1p log2 logical_and
    logical_not logical_or matmul max maximum mean min minimum multiply negative outer power prod sign sin sinh
    sqrt square std subtract sum tan tanh true_divide var vdot where""".split())
PURE_METHODS = frozenset("sum prod max min mean dot any all var std".split())
PURE_BUILTINS = frozenset("abs min max float".split())
PURE_KEYWORDS = frozenset({"axis", "keepdims"})
_STATEMENTS = (cst.Assign, cst.AugAssign, cst.Pass)


@dataclasses.dataclass(frozen=True)
class LanePlan:
    slots: tuple[tuple[str, str], ...]  # (array, its index's code) per written array, in order


def lane_plan(loop: cst.For, var: str, facts) -> LanePlan | str:
    """A LanePlan when the iterations of `loop` are independent (module docstring), else why not."""
    why = _statements(loop.body.body)
    if why:
        return why
    local = _assigned_names(loop.body)
    if var in local:
        return "the loop variable is assigned in the body"
    written = _written_arrays(loop.body)
    if not written or any(w not in facts.ref_names or w in local for w in written):
        return "it writes no array, or writes a name that is not an array"
    found = _Accesses(written)
    loop.body.visit(found)
    if found.why:
        return found.why
    slots = []
    for name in written:
        indices = {_code(s) for s in found.slices[name]}
        if len(indices) != 1:
            return f"`{name}` is read or written at more than one index"
        why = _slot_index(found.slices[name][0], var, local | written)
        if why:
            return why
        slots.append((name, indices.pop()))
    for name in found.reads - written - local - {var}:
        if any(facts.roots.get(name, frozenset()) & facts.roots.get(w, frozenset({"?"})) for w in written):
            return f"`{name}` may share memory with an array the loop writes"
    if any(not facts.roots.get(w) for w in written):
        return "a written array whose storage is unknown"
    return LanePlan(tuple(slots))


def _statements(stmts) -> str:
    for s in stmts:
        if isinstance(s, cst.If):
            why = _statements(s.body.body) or (_statements(s.orelse.body.body if isinstance(s.orelse, cst.Else)
                                                           else [s.orelse]) if s.orelse else "")
            if why:
                return why
        elif isinstance(s, cst.SimpleStatementLine):
            if not all(isinstance(x, _STATEMENTS) for x in s.body):
                return "a statement other than an assignment"
            if any(isinstance(x, cst.AugAssign) and not isinstance(x.target, cst.Subscript) for x in s.body):
                return "`name op= value` (may write an array in place)"
            if any(isinstance(x, cst.Assign) and not all(isinstance(t.target, (cst.Name, cst.Subscript))
                                                         for t in x.targets) for x in s.body):
                return "an unpacking assignment"
        else:
            return f"a nested {type(s).__name__}"
    return ""


def _assigned_names(body) -> set:
    names = set()

    class V(cst.CSTVisitor):
        def visit_AssignTarget(self, node):
            if isinstance(node.target, cst.Name):
                names.add(node.target.value)
    body.visit(V())
    return names


def _written_arrays(body) -> set:
    names = set()

    class V(cst.CSTVisitor):
        def visit_AssignTarget(self, node):
            self._target(node.target)

        def visit_AugAssign(self, node):
            self._target(node.target)

        def _target(self, t):
            if isinstance(t, cst.Subscript):
                names.add(t.value.value if isinstance(t.value, cst.Name) else "?")
    body.visit(V())
    return names


class _Accesses(cst.CSTVisitor):
    """Every subscript of a written array (its slices), every other name read, and why the body
    is not pure (a call this proof does not know)."""

    def __init__(self, written):
        self.written, self.slices, self.reads, self.why = written, {w: [] for w in written}, set(), ""

    def visit_Subscript(self, node):
        if isinstance(node.value, cst.Name) and node.value.value in self.written:
            self.slices[node.value.value].append(node.slice)
            for s in node.slice:
                s.visit(self)
            return False
        return True

    def visit_Name(self, node):
        if node.value in self.written:
            self.why = self.why or f"`{node.value}` is used other than by its index"
        self.reads.add(node.value)

    def visit_Attribute(self, node):
        if isinstance(node.value, cst.Name) and node.value.value in ("np", "numpy"):
            return False  # `np.exp` (a call's function, checked in visit_Call), `np.pi`
        return True

    def visit_Lambda(self, node):
        self.why = self.why or "a lambda"

    def visit_Call(self, node):
        f = node.func
        if any(a.star or (a.keyword is not None and a.keyword.value not in PURE_KEYWORDS) for a in node.args):
            self.why = self.why or "a call with keywords or unpacked arguments"
        elif isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.value.value in ("np", "numpy"):
            if f.attr.value not in PURE_NP:
                self.why = self.why or f"a call of np.{f.attr.value}"
        elif isinstance(f, cst.Attribute):
            if f.attr.value not in PURE_METHODS:
                self.why = self.why or f"a call of the method .{f.attr.value}"
        elif not (isinstance(f, cst.Name) and f.value in PURE_BUILTINS):
            self.why = self.why or "a call of a function that may have effects"
        return True


def _slot_index(elements, var, body_names) -> str:
    """Why `R[elements]` is not a slot of the loop over `var` ("" when it is): scalar indices
    (trailing `:` allowed), `var` alone as one of them, the others free of `var` and of names
    the body binds, and of calls."""
    entries = list(elements)
    while entries and _full_slice(entries[-1].slice):
        entries.pop()
    if not entries or any(not isinstance(e.slice, cst.Index) or e.slice.star for e in entries):
        return "a written array indexed by a slice"
    lanes = [e for e in entries if isinstance(e.slice.value, cst.Name) and e.slice.value.value == var]
    if len(lanes) != 1:
        return "a written array indexed other than by the loop variable alone in one place"
    for e in entries:
        if e is lanes[0]:
            continue
        names = _names(e.slice.value)
        if names is None or var in names or names & body_names:
            return "a written array's other indices change within the loop"
    return ""


def _full_slice(s) -> bool:
    return isinstance(s, cst.Slice) and s.lower is None and s.upper is None and s.step is None


def _names(expr) -> set | None:
    """The names in an index expression, or None when it holds a call or a subscript."""
    found, bad = set(), [False]

    class V(cst.CSTVisitor):
        def visit_Name(self, node):
            found.add(node.value)

        def visit_Call(self, node):
            bad[0] = True

        def visit_Subscript(self, node):
            bad[0] = True
    expr.visit(V())
    return None if bad[0] else found


def _code(elements) -> str:
    entries = list(elements)
    while entries and _full_slice(entries[-1].slice):
        entries.pop()
    return ", ".join(cst.Module([]).code_for_node(e.slice).strip() for e in entries)


def lanes_function(plan: LanePlan, var: str, stmts, name: str):
    """(`def name(var, *slots): ...`: the updated body `stmts` with each written array's `R[P]`
    read and written through its slot, the npr_vfor slot arguments), or None when an access to
    a written array is in a form this does not know (the loop then stays npr_for)."""
    slot_names = {array: f"_{array}_slot" for array, _ in plan.slots}
    swap = _ToSlots(dict(plan.slots), slot_names)
    body = [s.visit(swap) for s in stmts]
    if swap.failed or set(swap.index) != set(slot_names):
        return None
    left = set()

    class Left(cst.CSTVisitor):
        def visit_Name(self, node):
            left.add(node.value)
    for s in body:
        s.visit(Left())
    if left & set(slot_names):  # a written array reached other than through its slot
        return None
    params = [cst.Param(cst.Name(var))] + [cst.Param(cst.Name(slot_names[a])) for a, _ in plan.slots]
    func = cst.FunctionDef(cst.Name(name), cst.Parameters(params=params), cst.IndentedBlock(body=body))
    args = [cst.Tuple([cst.Element(cst.Name(a)), cst.Element(_lane_index(swap.index[a], var))])
            for a, _ in plan.slots]
    return func, args


_SLOT_ACCESS = frozenset({"npr_at", "npr_get"})


class _ToSlots(cst.CSTTransformer):
    """`npr_at(R)[P]`, `npr_get(R)[P]`, `R[P]` -> the slot's `[()]`; `npr_sub(R, np.s_[P])` ->
    `npr_sub(slot, ())`. `failed` when an index is not the plan's."""

    def __init__(self, index, slot_names):
        self.want, self.slot_names, self.index, self.failed = index, slot_names, {}, False

    def _array(self, expr):
        if isinstance(expr, cst.Name) and expr.value in self.want:
            return expr.value
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in _SLOT_ACCESS \
                and len(expr.args) == 1 and self._array(expr.args[0].value):
            return expr.args[0].value.value
        return None

    def _matches(self, array, elements) -> bool:
        ok = _code(elements) == self.want[array]
        self.failed |= not ok
        if ok:
            self.index.setdefault(array, elements)
        return ok

    def leave_Subscript(self, original, updated):
        array = self._array(updated.value)
        if array is None or not self._matches(array, updated.slice):
            return updated
        slot = cst.Name(self.slot_names[array])
        value = slot if isinstance(updated.value, cst.Name) else updated.value.with_changes(args=[cst.Arg(slot)])
        return updated.with_changes(value=value, slice=[cst.SubscriptElement(cst.Index(cst.Tuple([])))])

    def leave_Call(self, original, updated):
        f, args = updated.func, updated.args
        if not (isinstance(f, cst.Name) and f.value == "npr_sub" and len(args) == 2
                and isinstance(args[0].value, cst.Name) and args[0].value.value in self.want):
            return updated
        index = args[1].value
        if not (isinstance(index, cst.Subscript) and cst.Module([]).code_for_node(index.value) == "np.s_"
                and self._matches(args[0].value.value, index.slice)):
            self.failed = True
            return updated
        return updated.with_changes(args=[cst.Arg(cst.Name(self.slot_names[args[0].value.value])),
                                          cst.Arg(cst.Tuple([]))])


def _lane_index(elements, var):
    entries = list(elements)
    while entries and _full_slice(entries[-1].slice):
        entries.pop()
    items = [cst.Element(cst.Name("npr_lane") if isinstance(e.slice.value, cst.Name) and e.slice.value.value == var
                         else e.slice.value) for e in entries]
    if len(items) == 1:
        items[0] = items[0].with_changes(comma=cst.Comma())
    return cst.Tuple(items)
