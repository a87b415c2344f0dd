"""Which `for` loops np2ref lowers and in what form (rules/loops.py plans and emits them):
`range`, `reversed(range)`, `enumerate`, `zip` (an index loop with `x = seq[k]` rows),
`for x in seq` and `np.ndindex(shape)` (npr_items / npr_ndindex: the body takes the item), the
`# np2ref: unroll` opt-in (NPR035), and `max`/`min` on the loop variable (`npr_int_max`; with a subscript or
call in an argument it is a builtin on array values: rules/calls.py, npr_max).
"""

from __future__ import annotations

import re

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits_special
from ..syntax import target_names, walk
from .calls import is_static_meta
from .control import uses
from ...analysis import pick_uses
from ...analysis.nodes import run_visitor

UNROLL_LIMIT = 16


def _literal_int(expr) -> int | None:
    if isinstance(expr, cst.Integer):
        return int(expr.value)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus) \
            and isinstance(expr.expression, cst.Integer):
        return -int(expr.expression.value)
    return None


def short_literal_range(args: list[cst.Arg]) -> bool:
    values = [_literal_int(a.value) for a in args]
    if any(v is None for v in values) or not 1 <= len(values) <= 3:
        return False
    r = range(*values)
    return len(r) <= UNROLL_LIMIT


def range_args(loop: cst.For, local_names) -> list[cst.Arg] | None:
    it = loop.iter
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range" \
            and "range" not in local_names and 1 <= len(it.args) <= 3 \
            and all(a.keyword is None and not a.star for a in it.args):
        return list(it.args)
    return None


def loop_form(loop: cst.For, local_names) -> tuple[str, str, tuple[str, ...]] | None:
    """(kind, loop variable, row names) for the loops np2ref lowers, else None."""
    it, target = loop.iter, loop.target
    if not (isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value not in local_names
            and all(a.keyword is None and not a.star for a in it.args)):
        return None
    kind = it.func.value
    names = [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
    if not all(isinstance(n, cst.Name) for n in names):
        return None
    names = [n.value for n in names]
    if kind == "range" and len(names) == 1 and range_args(loop, local_names):
        return "range", names[0], ()
    if kind == "reversed" and len(names) == 1 and len(it.args) == 1:
        inner = it.args[0].value
        if isinstance(inner, cst.Call) and isinstance(inner.func, cst.Name) and inner.func.value == "range" \
                and 1 <= len(inner.args) <= 2 and all(a.keyword is None and not a.star for a in inner.args):
            return "reversed", names[0], ()
        return None
    if kind == "enumerate" and len(names) == 2 and len(it.args) == 1:
        return "enumerate", names[0], (names[1],)
    if kind == "zip" and len(names) == len(it.args) and names:
        return "zip", "_k", tuple(names)
    return None


def item_form(loop: cst.For, local_names) -> tuple[str, str, tuple[str, ...]] | None:
    """(kind, item variable, unpacked names) for `for x in seq:` (kind "iter": npr_items decides
    at run time, rows of an array as a lax loop, a Python sequence in Python) and
    `for pos in np.ndindex(shape):` (kind "ndindex"), else None."""
    it, target = loop.iter, loop.target
    if isinstance(target, cst.Name):
        var, unpack = target.value, ()
    elif isinstance(target, (cst.Tuple, cst.List)) and target.elements \
            and all(isinstance(e.value, cst.Name) and e.star is None if hasattr(e, "star") else isinstance(e.value, cst.Name)
                    for e in target.elements):
        var, unpack = "_item", tuple(e.value.value for e in target.elements)
    else:
        return None
    if isinstance(it, cst.Name) and it.value not in ("range",):
        return "iter", var, unpack
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value == "ndindex" \
            and isinstance(it.func.value, cst.Name) and it.func.value.value in ("np", "numpy") \
            and it.func.value.value not in local_names and all(a.keyword is None and a.star != "**" for a in it.args):
        return "ndindex", var, unpack
    return None


def unroll_opt_in(loop: cst.For) -> bool:
    """`# np2ref: unroll` on the loop's line (or on a line of its own just above): the loop may
    be traced one iteration at a time past the unroll limit (NPR035)."""
    comments = [line.comment for line in loop.leading_lines if line.comment is not None]
    header = getattr(loop.body, "header", None)  # a one-line loop (`for ...: x += 1`) has none
    if header is not None and header.comment is not None:
        comments.append(header.comment)
    return any(UNROLL_COMMENT.match(c.value) for c in comments)


UNROLL_COMMENT = re.compile(r"#\s*np2ref:\s*unroll\b")


def index_min_max(loop: cst.For, plan, ctx) -> None:
    """`max(i - 1, 0)` / `min(i + 1, n - 1)` on the loop variable (a clamped neighbour index):
    Python's max needs a concrete value, so such a body would run as a Python loop. Planned as
    `npr_int_max`/`npr_int_min`: Python's own on concrete values, jnp.maximum/minimum on traced
    integers (equal to Python's result), npr_max/npr_min (Python's on traced values) on anything else."""
    names = {plan.var, *plan.unpack, *plan.rows}
    local = set(ctx.f.roots)

    class V(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            f = call.func
            if isinstance(f, cst.Name) and f.value in ("max", "min") and f.value not in local \
                    and len(call.args) >= 2 and all(a.keyword is None and not a.star for a in call.args) \
                    and any(n in names for n, _, _ in uses(call, ctx.f.store_names).items) \
                    and not any(_reads_data(a.value) for a in call.args):
                ctx.m.special_calls[call] = ("index_min_max", f.value)

    run_visitor(loop.body, V())


def _reads_data(expr) -> bool:
    """Whether an argument has a subscript or a call in it: `max(x[i], 0.0)` is a builtin on
    array values (rules/calls.py: npr_max), not an index clamp."""
    found = [False]

    class V(cst.CSTVisitor):
        def visit_Subscript(self, node) -> None:
            found[0] = True

        def visit_Call(self, node) -> None:
            found[0] = True
    run_visitor(expr, V())
    return found[0]


@emits_special("index_min_max")
def emit_index_min_max(original, updated, detail, ctx):
    return J.call(J.INT_MAX if detail == "max" else J.INT_MIN, *[a.value for a in updated.args],
                  **pick_uses.keywords(original, ctx))  # (`use=`: where the result goes)


# -- emitting --------------------------------------------------------------------------------


def static_test(test: cst.BaseExpression, facts) -> bool:
    """A `while` test of literals, sizes (`x.shape[0]`, len()), parameters and locals every
    binding of which is such an expression (`size = 2` ... `size *= 2`)."""
    values: dict[str, list] = {}
    for target, value in facts.bindings:
        if isinstance(target, cst.Name):
            values.setdefault(target.value, []).append(value)
    augs: dict[str, list] = {}
    for node in walk(facts.node):
        if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name):
            augs.setdefault(node.target.value, []).append(node.value)
    seen: set[str] = set()

    def static(e) -> bool:
        if is_static_meta(e) or isinstance(e, cst.Name) and e.value in facts.params:
            return True
        if isinstance(e, cst.Name):
            if e.value in seen:
                return True
            seen.add(e.value)
            bound = values.get(e.value, [])
            given = [v for v in bound if v is not None]
            # a binding without a value is an augmented assignment (else a loop target: not static)
            return bool(bound) and len(bound) - len(given) == len(augs.get(e.value, ())) and \
                all(static(v) for v in (*given, *augs.get(e.value, ())))
        if isinstance(e, cst.BinaryOperation):
            return static(e.left) and static(e.right)
        if isinstance(e, cst.UnaryOperation):
            return static(e.expression)
        if isinstance(e, cst.Comparison):
            return static(e.left) and all(static(c.comparator) for c in e.comparisons)
        if isinstance(e, cst.BooleanOperation):
            return static(e.left) and static(e.right)
        return False

    return static(test)


# -- which names a loop carries (rules/loops.py) ----------------------------------------------
def read_outside(name, node, function_uses, inside_nodes, facts) -> bool:
    """Whether `name` is read outside `node` (a loop or an `if`; inside_nodes: the ids of its
    Name nodes) other than inside another `for` loop that binds it (`for j in ...` loops one
    after another, some inside `node`: each reads its own j, never the value `node` leaves;
    carrying it would read it before any lax loop binds it)."""
    reads = [n for name_, s, n in function_uses.items if name_ == name and not s and id(n) not in inside_nodes]
    if not reads:
        return False
    rebound = rebound_in_loops(facts.node, name, node)
    return any(id(n) not in rebound for n in reads)


def rebound_in_loops(function: cst.CSTNode, name: str, loop: cst.For) -> set[int]:
    """ids of the Name nodes inside the bodies of other `for` loops (not enclosing `loop`) whose
    target binds `name`: such a read sees that loop's own value, never the one `loop` leaves."""
    found: set[int] = set()

    class V(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> None:
            target = node.target
            names = [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
            if node is not loop and any(isinstance(n, cst.Name) and n.value == name for n in names):
                inside = _Collect()
                run_visitor(node.body, inside)
                if id(loop) not in inside.found:
                    found.update(inside.found)

    run_visitor(function, V())
    return found | _after_rebinding(function, name, loop)


def _after_rebinding(function: cst.CSTNode, name: str, loop: cst.CSTNode) -> set[int]:
    """ids of the nodes in the statements that follow an assignment binding `name` (`i, j = n,
    m` after `for i in range(n)`), in a block that holds `loop` (or a statement around it) and
    after it: a read there sees that binding, never the value the loop leaves. Only a plain
    statement of that block itself counts (one in a branch may not run)."""
    found: set[int] = set()

    class V(cst.CSTVisitor):
        def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
            stmts = list(node.body)
            holder = next((i for i, st in enumerate(stmts) if st is loop or _contains(st, loop)), None)
            if holder is None:
                return
            after = stmts[holder + 1:]
            k = next((i for i, st in enumerate(after) if _binds(st, name)), None)
            if k is not None:
                inside = _Collect()
                for st in after[k + 1:]:
                    run_visitor(st, inside)
                found.update(inside.found)

    run_visitor(function, V())
    return found


def _contains(node: cst.CSTNode, target: cst.CSTNode) -> bool:
    """Whether `target` (a statement: never under a layout field) is `node` or under it."""
    return any(n is target for n in walk(node))  # (the walk index's slice: no visitor run per statement)


def _binds(stmt, name: str) -> bool:
    """Whether a statement is `name = ...` or `a, name = ...` (every target a plain name)."""
    if not isinstance(stmt, cst.SimpleStatementLine):
        return False
    for small in stmt.body:
        if isinstance(small, cst.Assign):
            for t in small.targets:
                target = t.target
                names = [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
                if any(isinstance(n, cst.Name) and n.value == name for n in names):
                    return True
    return False


class _Collect(cst.CSTVisitor):
    def __init__(self):
        self.found: set[int] = set()

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.found.add(id(node))
        return True


def written_outside(name: str, loop: cst.CSTNode, facts) -> bool:
    """Whether anything outside the loop writes into `name`'s array (or into one that may share
    its memory): carried out of the loop as a value, the name is then no Ref to write through."""
    inside = _Collect()
    run_visitor(loop, inside)
    mine = facts.roots.get(name, frozenset()) | {name}
    for w in facts.writes:
        if id(w.node) in inside.found:
            continue
        base = w.target
        while isinstance(base, (cst.Subscript, cst.Attribute)):
            base = base.value
        if not isinstance(base, cst.Name) or base.value == name or facts.roots.get(base.value, frozenset()) & mine:
            return True
    return False


def _paired_item(target, value, name: str):
    """In `a, b = x, y` (as many plain names as values, none starred), the value `name` gets;
    a value that is a name (`a, b = b, a`: a rotation, rules/rotations.py) counts as none."""
    if not (isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List))) \
            or len(target.elements) != len(value.elements) \
            or any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
        return None
    for t, v in zip(target.elements, value.elements):
        if isinstance(t.value, cst.Name) and t.value.value == name:
            return None if isinstance(v.value, cst.Name) else v.value
    return None


def rebinds_to_values(body: cst.IndentedBlock, name: str, names_ok: bool = False) -> bool:
    """Whether every binding of `name` in a `while` body is `name = <arithmetic or a call>` (or an
    item of a call's result, `u, v = no_slip(u_new, v_new)`), none
    a view or another name by its form (`u = u[1:]`, `u = u.T`, `u = w`: NPR011 at conversion, as
    before): npr_while then carries it, and refills it or refuses at trace time (rt/rebinds.py).
    `names_ok` (a `for` loop, whose refill falls back to the Python loop at trace time): `u = unew`
    counts as a value too."""
    values, other = [], [False]

    def binds(target) -> bool:
        found: set[str] = set()
        target_names(target, found)
        return name in found

    class V(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for t in node.targets:
                if isinstance(t.target, cst.Name) and t.target.value == name:
                    values.append(node.value)
                elif isinstance(t.target, (cst.Tuple, cst.List)) and isinstance(node.value, cst.Call) \
                        and any(isinstance(e.value, cst.Name) and e.value.value == name for e in t.target.elements):
                    values.append(node.value)  # `u, v = no_slip(u_new, v_new)`: an item of a call's result
                elif (item := _paired_item(t.target, node.value, name)) is not None:
                    values.append(item)  # `U, V = U + dt * du, V + dt * dv`: U's own value
                elif binds(t.target):
                    other[0] = True

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            other[0] = other[0] or binds(node.target)

        def visit_For(self, node: cst.For) -> None:
            other[0] = other[0] or binds(node.target)

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            other[0] = other[0] or binds(node.target)

        def visit_AsName(self, node: cst.AsName) -> None:
            other[0] = other[0] or binds(node.name)

    run_visitor(body, V())
    return bool(values) and not other[0] and \
        not any(isinstance(v, (cst.Subscript, cst.Attribute, cst.Tuple)) or isinstance(v, cst.Name) and not names_ok
                for v in values)


def parens(e):
    """e, parenthesised unless it binds at least as tightly as a subtraction's left operand."""
    if isinstance(e, (cst.Name, cst.Integer, cst.Attribute, cst.Subscript, cst.Call)) or e.lpar or \
            isinstance(e, cst.BinaryOperation) and isinstance(e.operator, (cst.Add, cst.Subtract, cst.Multiply,
                                                                           cst.Divide, cst.FloorDivide, cst.Modulo)):
        return e
    return e.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def plain_range(e) -> bool:
    return isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value == "range" \
        and all(a.keyword is None and not a.star for a in e.args)


def reversed_range(e) -> bool:
    return isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value == "reversed" \
        and len(e.args) == 1 and plain_range(e.args[0].value) and 1 <= len(e.args[0].value.args) <= 2


# a method that keeps its argument in a container (the container then sees the array)
_KEEPING = frozenset({"append", "insert", "extend", "add", "update", "setdefault", "appendleft"})


def sole_rebound(names, facts) -> tuple[str, ...]:
    """The written arrays among `names` (a loop rebinds them) whose storage no other name of the
    function may share (the storage roots, flow-insensitive), none a module-level array's, none
    kept in a container or an attribute. After a loop on data that ran no trip, such a name is
    still the array it was, which only it sees: rt/rebinds.py links it (`sole=` of npr_while and
    npr_for) where it would refuse."""
    def kept(n: str) -> bool:
        for node in walk(facts.node):
            if isinstance(node, cst.Assign) and any(not isinstance(t.target, (cst.Name, cst.Tuple))
                                                    for t in node.targets) and _holds(node.value, n):
                return True
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
                    and node.func.attr.value in _KEEPING and any(_holds(a.value, n) for a in node.args):
                return True
        return False
    out = []
    for n in names:
        mine = facts.roots.get(n, set())
        if not mine or any(r.startswith("global ") for r in mine):
            continue
        if not any(m != n and roots & mine for m, roots in facts.roots.items()) and not kept(n):
            out.append(n)
    return tuple(out)


def _holds(e, name: str) -> bool:
    """`name` itself, or an element of a tuple, list, set or dict display."""
    if isinstance(e, cst.Name):
        return e.value == name
    if isinstance(e, (cst.Tuple, cst.List, cst.Set)):
        return any(_holds(x.value, name) for x in e.elements)
    if isinstance(e, cst.Dict):
        return any(isinstance(x, cst.DictElement) and _holds(x.value, name) for x in e.elements)
    return False
