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

from .lane_reads import code as _code, full_slice as _full_slice, is_name as _is_name
from .lane_reads import rows_apart as _rows_apart, step_sign as _step_sign
from .mirrors import trailing_mirrors
from ..analysis.nodes import run_visitor, walk

PURE_NP = frozenset("""abs absolute add all amax amin any arccos arcsin arctan arctan2 cbrt ceil clip cos cosh
    divide dot exp exp2 expm1 floor fmax fmin hypot inner isfinite isinf isnan log log10 log1p log2 logical_and
    logical_not logical_or matmul max maximum mean min minimum multiply negative outer power prod sign sin sinh
    sqrt square std subtract sum tan tanh true_divide var vdot where""".split())
PURE_METHODS = frozenset("sum prod max min mean dot any all var std".split())
PURE_BUILTINS = frozenset("abs min max float range len".split())
PURE_KEYWORDS = frozenset({"axis", "keepdims"})
_STATEMENTS = (cst.Assign, cst.AugAssign, cst.Pass)
_META = frozenset({"shape", "ndim", "dtype", "size"})  # attributes of a written array no store changes


@dataclasses.dataclass(frozen=True)
class LanePlan:
    slots: tuple[tuple[str, str], ...]  # (array, its index's code) per written array, in order
    apart: tuple[tuple[str, str], ...] = ()  # (array, index code) of reads no iteration writes (`B[i + 1:, j]`)
    nonneg: tuple[str, ...] = ()  # the names that proof needs >= 0 (npr_vfor checks them)
    mirrors: tuple[int, ...] = ()  # the slots R[a, j] whose copies R[j, a] = R[a, j] end the body (mirrors.py)


def lane_plan(loop: cst.For, var: str, facts) -> LanePlan | str:
    """A LanePlan when the iterations of `loop` are independent (module docstring), else why not."""
    mirrors = trailing_mirrors(loop.body.body, var)
    if mirrors:  # the proof is of the other statements; the copies are npr_vfor's (mirrors.py)
        plan = lane_plan(loop.with_changes(body=loop.body.with_changes(body=loop.body.body[:-len(mirrors)])), var, facts)
        slots = [] if isinstance(plan, str) else [prefix for _, prefix in plan.slots]
        at = [next((k for k, (r, prefix) in enumerate(plan.slots) if r == array and prefix == f"{a}, {var}"), None)
              for array, a in mirrors] if slots else []
        if not isinstance(plan, str) and {r for r, _ in plan.apart} & {r for r, _ in mirrors}:
            return "a copy `R[j, a] = R[a, j]` beside a read of R outside the slots"  # (it may read a copy)
        if isinstance(plan, str) or None in at or len(set(at)) != len(at):
            return plan if isinstance(plan, str) else "a copy `R[j, a] = R[a, j]` of an element no iteration owns"
        return dataclasses.replace(plan, mirrors=tuple(at))
    why = _statements(loop.body.body)
    if why:
        return why
    local = _assigned_names(loop.body)
    if var in local:
        return "the loop variable is assigned in the body"
    if any(n not in local or n in facts.ref_names for n in _aug_names(loop.body)):
        return "`name op= value` on a name the body does not bind, or on an array (written in place)"
    written = _written_arrays(loop.body)
    if not written or any(w not in facts.ref_names or w in local for w in written):
        return "it writes no array, or writes a name that is not an array"
    found = _Accesses(written)
    run_visitor(loop.body, found)
    if found.why:
        return found.why
    slots, ints = [], _inner_loop_vars(loop.body) | {var}
    if (ints - {var}) & (_assigned_names(loop.body, loop_targets=False) | _aug_names(loop.body)):
        return "an inner loop's variable is also assigned"  # (`k = idx[j]`, `k += 10`: no Python int)
    stored, apart, nonneg = _store_slices(loop.body), [], []
    for name in sorted(written):  # (sorted: a set's order changes with the hash seed, and so did the output)
        prefix, why = _slot_prefix(found.slices[name][0], var, local | written)
        if why:
            return why
        for elements in found.slices[name]:
            why = _within_slot(elements, prefix, ints)
            below = _rows_apart(elements, found.slices[name][0], var, _step_sign(loop.iter)) \
                if why and id(elements) not in stored else None
            if why and below is None:
                return f"`{name}[{_code(elements) or '...'}]` beside `{name}[{prefix}]`, the element or block an iteration owns: {why}"
            if why:
                apart.append((name, _code(elements)))
                if below != var:  # (npr_vfor keeps the loop variable >= 0 itself)
                    nonneg.append(below)
        slots.append((name, prefix))
    for name in found.reads - written - local - {var}:
        if any(facts.roots.get(name, frozenset()) & facts.roots.get(w, frozenset({"?"})) for w in written):
            return f"`{name}` may share memory with an array the loop writes"
    if any(not facts.roots.get(w) for w in written):
        return "a written array whose storage is unknown"
    return LanePlan(tuple(slots), tuple(apart), tuple(dict.fromkeys(nonneg)))


def _store_slices(body) -> set:
    """ids of the slices of subscripts that are assignment targets."""
    found = set()

    class V(cst.CSTVisitor):
        def visit_AssignTarget(self, node):
            if isinstance(node.target, cst.Subscript):
                found.add(id(node.target.slice))

        def visit_AugAssign(self, node):
            if isinstance(node.target, cst.Subscript):
                found.add(id(node.target.slice))
    run_visitor(body, V())
    return found


def _statements(stmts) -> str:
    for s in stmts:
        if isinstance(s, cst.If):
            why = _statements(s.body.body) or (_statements(s.orelse.body.body if isinstance(s.orelse, cst.Else)
                                                           else [s.orelse]) if s.orelse else "")
            if why:
                return why
        elif isinstance(s, cst.For):
            if s.orelse is not None or not isinstance(s.target, cst.Name) or not _range_call(s.iter):
                return "a nested loop other than `for name in range(...)`"
            why = _statements(s.body.body)
            if why:
                return why
        elif isinstance(s, cst.SimpleStatementLine):
            if not all(isinstance(x, _STATEMENTS) for x in s.body):
                return "a statement other than an assignment"
            if any(isinstance(x, cst.Assign) and not all(isinstance(t.target, (cst.Name, cst.Subscript))
                                                         for t in x.targets) for x in s.body):
                return "an unpacking assignment"
        else:
            return f"a nested {type(s).__name__}"
    return ""


def _range_call(it) -> bool:
    return isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range" \
        and all(a.keyword is None and not a.star for a in it.args)


def _assigned_names(body, loop_targets: bool = True) -> set:
    """The names body binds by assignment (and, with loop_targets, as `for` targets)."""
    names = set()

    class V(cst.CSTVisitor):
        def visit_AssignTarget(self, node):
            if isinstance(node.target, cst.Name):
                names.add(node.target.value)

        def visit_For(self, node):
            if loop_targets:  # (`for k, w in ...`: a tuple of names)
                names.update(n.value for n in walk(node.target) if isinstance(n, cst.Name))
    run_visitor(body, V())
    return names


def _aug_names(body) -> set:
    """The names `name op= value` rebinds (or writes in place) in body."""
    names = set()

    class V(cst.CSTVisitor):
        def visit_AugAssign(self, node):
            names.add(node.target.value if isinstance(node.target, cst.Name) else "")
    run_visitor(body, V())
    return names - {""}


def _inner_loop_vars(body) -> set:
    """The variables of the `for name in range(...)` loops in body: Python ints in each lane."""
    names = set()

    class V(cst.CSTVisitor):
        def visit_For(self, node):
            names.add(node.target.value)
    run_visitor(body, V())
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
    run_visitor(body, V())
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
                run_visitor(s, self)
            return False
        return True

    def visit_Name(self, node):
        if node.value in self.written:
            self.why = self.why or f"`{node.value}` is used other than by its index"
        self.reads.add(node.value)

    def visit_Attribute(self, node):
        if isinstance(node.value, cst.Name) and node.value.value in ("np", "numpy"):
            return False  # `np.exp` (a call's function, checked in visit_Call), `np.pi`
        if isinstance(node.value, cst.Name) and node.value.value in self.written and node.attr.value in _META:
            return False  # `B.shape[1]` in an inner range: what no store changes
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


def _slot_prefix(elements, var, body_names) -> tuple:
    """(The code of the slot `P` of `R[elements]`, its indices up to the loop variable's, "") or
    (None, why there is none): P must be scalar indices or whole axes (`out[:, j]`: the column, the
    lanes along axis 1), `var` alone as its last, the others free of `var`, of names the body
    binds, and of calls and subscripts."""
    entries = list(elements)
    at = [k for k, e in enumerate(entries) if isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Name)
          and e.slice.value.value == var]
    if not at:
        return None, "a written array indexed other than by the loop variable alone"
    prefix = entries[:at[0] + 1]
    for e in prefix[:-1]:
        if _full_slice(e.slice):
            continue
        names = _names(e.slice.value) if isinstance(e.slice, cst.Index) and not e.slice.star else None
        if names is None or var in names or names & body_names:
            return None, "a written array's other indices change within the loop"
    return _code(prefix), ""


def _within_slot(elements, prefix, ints) -> str:
    """Why `R[elements]` is not `R[prefix][rest]` with a basic `rest` ("" when it is): rest holds
    slices and integer expressions of range-loop variables (a Python int in every lane), so the
    access stays inside the lane's slot and means there what it meant on R."""
    entries = list(elements)
    for k in range(len(entries) + 1):
        if _code(entries[:k]) == prefix:
            break
    else:
        return "another iteration's element or block may be read or written there"
    for e in entries[k:]:
        if isinstance(e.slice, cst.Slice):
            parts = [p for p in (e.slice.lower, e.slice.upper, e.slice.step) if p is not None]
            if any(_names(p) is None for p in parts):
                return "a slice bound with a call or subscript"
        elif e.slice.star or _names(e.slice.value) is None or not _names(e.slice.value) <= ints:
            return "an index inside the slot that may not be an integer"
    return ""



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
    run_visitor(expr, V())
    return None if bad[0] else found



def lanes_function(plan: LanePlan, var: str, stmts, name: str):
    """(`def name(var, *slots): ...`: the updated body `stmts` with each written array's
    `R[P + rest]` read and written as `slot[rest]`, the npr_vfor slot arguments), or None when
    an access to a written array is in a form this does not know (the loop then stays npr_for)."""
    slot_names = {array: f"_{array}_at_{var}" for array, _ in plan.slots}
    swap = _ToSlots(dict(plan.slots), slot_names, set(plan.apart))
    body = [s.visit(swap) for s in stmts]
    if swap.failed or set(swap.index) != set(slot_names):
        return None
    left = set()

    class Left(cst.CSTVisitor):
        def visit_Subscript(self, node):
            return swap.array_of_apart(node) is None  # a read no iteration writes: R itself

        def visit_Attribute(self, node):
            return not (isinstance(node.value, cst.Name) and node.attr.value in _META)  # R.shape: R's own

        def visit_Name(self, node):
            left.add(node.value)
    for s in body:
        run_visitor(s, Left())
    if left & set(slot_names):  # a written array reached other than through its slot
        return None
    params = [cst.Param(cst.Name(var))] + [cst.Param(cst.Name(slot_names[a])) for a, _ in plan.slots]
    func = cst.FunctionDef(cst.Name(name), cst.Parameters(params=params), cst.IndentedBlock(body=body))
    args = [_pair(cst.Name(a), [_slot_entry(i, var) for i in swap.index[a]]) for a, _ in plan.slots]
    return func, args


def _slot_entry(index, var):
    """An npr_vfor slot index's entry: npr_lane for the loop variable, npr_whole for `:`."""
    if isinstance(index, cst.Slice):
        return cst.Name("npr_whole")
    return cst.Name("npr_lane") if _is_name(index.value, var) else index.value


_SLOT_ACCESS = frozenset({"npr_at", "npr_get"})


class _ToSlots(cst.CSTTransformer):
    """`npr_at(R)[P, rest]`, `npr_get(R)[P, rest]`, `R[P, rest]` -> the slot's `[rest]` (`[()]`
    when rest is empty); `npr_sub(R, np.s_[P, rest])` -> `npr_sub(slot, np.s_[rest])`; an inner
    npr_vfor's slot `(R, (P..., more))` -> `(slot, (more))`. `failed` when an index is not P's."""

    def __init__(self, prefix, slot_names, apart=frozenset()):
        self.want, self.slot_names, self.index, self.failed = prefix, slot_names, {}, False
        self.apart = apart

    def array_of_apart(self, node):
        """The array of a subscript that is one of the plan's reads no iteration writes, or None."""
        array = self._array(node.value)
        return array if array is not None and (array, _code(node.slice)) in self.apart else None

    def _array(self, expr):
        if isinstance(expr, cst.Name) and expr.value in self.want:
            return expr.value
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in _SLOT_ACCESS \
                and expr.args and all(a.keyword is not None for a in expr.args[1:]) and self._array(expr.args[0].value):
            return expr.args[0].value.value
        return None

    def _rest(self, array, values):
        """The index values after P (None, and `failed`, when they do not start with P)."""
        for k in range(len(values) + 1):
            if _codes(values[:k]) == self.want[array]:
                self.index.setdefault(array, values[:k])
                return values[k:]
        self.failed = True
        return None

    def leave_Subscript(self, original, updated):
        array = self._array(updated.value)
        if array is not None and self.array_of_apart(updated) is not None:
            return updated
        rest = None if array is None else self._rest(array, [e.slice for e in updated.slice])
        if rest is None:
            return updated
        slot = cst.Name(self.slot_names[array])
        value = slot if isinstance(updated.value, cst.Name) else \
            updated.value.with_changes(args=[cst.Arg(slot), *updated.value.args[1:]])  # (`feeds_store=True` kept)
        at = len(updated.slice) - len(rest)
        rest = _whole_first(updated.slice[:at], updated.slice[at:]) or [cst.SubscriptElement(cst.Index(cst.Tuple([])))]
        return updated.with_changes(value=value, slice=rest)

    def leave_Call(self, original, updated):
        f, args = updated.func, updated.args
        if not (isinstance(f, cst.Name) and f.value == "npr_sub" and len(args) == 2
                and isinstance(args[0].value, cst.Name) and args[0].value.value in self.want):
            return updated
        index, array = args[1].value, args[0].value.value
        if not (isinstance(index, cst.Subscript) and cst.Module([]).code_for_node(index.value) == "np.s_"):
            self.failed = True
            return updated
        rest = self._rest(array, [e.slice for e in index.slice])
        if rest is None:
            return updated
        at = len(index.slice) - len(rest)
        rest = _whole_first(index.slice[:at], index.slice[at:])
        return updated.with_changes(args=[cst.Arg(cst.Name(self.slot_names[array])),
                                          cst.Arg(index.with_changes(slice=rest) if rest else cst.Tuple([]))])

    def leave_Tuple(self, original, updated):
        items = updated.elements
        if not (len(items) == 2 and isinstance(items[0].value, cst.Name) and items[0].value.value in self.want
                and isinstance(items[1].value, cst.Tuple)):
            return updated
        array, values = items[0].value.value, [e.value for e in items[1].value.elements]
        rest = self._rest(array, [cst.Slice(None, None) if _is_name(v, "npr_whole") else cst.Index(v) for v in values])
        if rest is None:
            return updated
        at = len(values) - len(rest)  # the slot keeps P's whole axes, in front of the rest
        wholes = [v for v in values[:at] if _is_name(v, "npr_whole")]
        return _pair(cst.Name(self.slot_names[array]), wholes + values[at:])


def _whole_first(prefix, rest):
    """The index of `R[prefix, rest]` inside the slot R[prefix]: the slot keeps the whole axes of
    the prefix (`out[:, i]` is an (n, m) block), so `out[:, i, 0]` is `slot[:, 0]`, not `slot[0]`.
    Empty when rest is (the slot itself)."""
    if not rest:
        return []
    wholes = [e.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
              for e in prefix if _full_slice(e.slice)]
    return [*wholes, *rest]


def _pair(array, values):
    """`(array, (v, ...))`: an npr_vfor slot argument."""
    items = [cst.Element(v) for v in values]
    if len(items) == 1:
        items[0] = items[0].with_changes(comma=cst.Comma())
    return cst.Tuple([cst.Element(array), cst.Element(cst.Tuple(items))])



def _codes(slices) -> str:
    """_code of a list of slices (cst.Index / cst.Slice), trailing `:` left out."""
    return _code([cst.SubscriptElement(s) for s in slices])


def range_offsets(it, loop_vars):
    """`((v, c) or None, (v, c) or None)` for range(...)'s start and stop where one is an
    enclosing loop's variable v plus an integer c (npr_vfor bounds them by v's range), else None."""
    args = [a.value for a in it.args]
    start, stop = (None, args[0]) if len(args) == 1 else (args[0], args[1])
    hints = [_offset(e, loop_vars) if e is not None else None for e in (start, stop)]
    if all(h is None for h in hints):
        return None
    return cst.Tuple([cst.Element(h if h is not None else cst.Name("None")) for h in hints])


def _offset(e, loop_vars):
    if isinstance(e, cst.Name) and e.value in loop_vars:
        return cst.Tuple([cst.Element(cst.Name(e.value)), cst.Element(cst.Integer("0"))])
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, (cst.Add, cst.Subtract)) \
            and isinstance(e.left, cst.Name) and e.left.value in loop_vars and isinstance(e.right, cst.Integer):
        c = int(e.right.value) * (1 if isinstance(e.operator, cst.Add) else -1)
        return cst.Tuple([cst.Element(cst.Name(e.left.value)), cst.Element(cst.Integer(str(c)) if c >= 0 else
                                                                             cst.UnaryOperation(cst.Minus(), cst.Integer(str(-c))))])
    return None
