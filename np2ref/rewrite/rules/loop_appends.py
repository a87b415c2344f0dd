"""LoopAppendsStacked: the lists a `for` loop only appends to, as often every trip, stacked by a lax loop.

    hist = []                                  hist = []
    for t in range(steps):                     def _loop_t(t):
        u[1:-1] += c * (...)          ->           npr_at(u)[1:-1] += c * (...)
        hist.append(u.copy())                      hist.append(u[...].copy())
                                               npr_for(npr_range(steps), _loop_t, python='...', appends=(hist,))

What: a list bound only to list displays in the function (`hist = []`), bound before the loop,
whose only uses in the loop are `hist.append(x)` statements at the top level of the body or of
`for` loops there (so they run the same times every trip: not under an `if`, a `while`, a `with`,
or after a `continue`, which frontend/jumps.py turns into a flag and an `if`; several a trip fill
a row of that many items, rt/appends.py). npr_for then runs a lax loop that writes
each trip's value into a buffer and extends the list after it (rt/appends.py), with NumPy's
element types. Exact: the runtime probes the loop first and runs it as the Python loop it was
(`python=`, NPR033's reason) when a trip appends a value it cannot stack as NumPy's list holds it;
a written array or a view of one appended is refused before that (NPR207). Reads of the list
after the loop see NumPy's list. Anything else that changes a container keeps the Python loop.

An append at the top level of an `if` at the top level of the body, whose test reads only the
loop index of a `range` loop, literals and names the loop does not bind (`if step % every == 0:`,
`if n % every == 0 or n == nsteps:`), is stacked too: npr_for gets the test as a function of the
index (`when=`), evaluates it on the host for each trip as NumPy's program does, and the append
becomes `npr_append(snaps, v)`, which writes the row in the branch (rt/appends.py).

A list used after the loop only by `len(hist)`, `np.array(hist)` / `np.asarray(hist)` and
`return hist` (alone or in a returned tuple or list) is `lazy=`: its rows are not traced one by
one (20,000 trips took the trace past its budget); the buffer is what np.array and the result
take, and the rows are made only where the list reaches other code (rt/appends.py).
"""

from __future__ import annotations

import libcst as cst

from ...analysis.nodes import walk
from ...emit import jaxnames as J


def append_only(loop: cst.For, changed, outlives, facts, defined_before) -> tuple[str, ...]:
    """The names of the lists `loop` only appends to, as often every trip (rows above), when those
    are all the container changes that outlive a trip (else ())."""
    kept = [c for c in changed if c.name in outlives]
    if not kept:
        return ()
    top = _append_sites(loop)
    lists, dicts = _list_names(facts), _dict_of_lists(facts)
    names: list[str] = []
    for c in kept:
        call = c.node
        if not (isinstance(call, cst.Call) and id(call) in top and c.name in defined_before):
            return ()
        if _plain_append(call) and c.name in lists:
            names.append(c.name)
        elif _keyed_append(call, dicts) and top[id(call)] is None:  # `hist["E"].append(v)`: that list
            names.append(cst.Module([]).code_for_node(call.func.value))
        else:
            return ()
    roots = [c.name for c in kept]
    reads = [n.value for n in walk(loop.body) if isinstance(n, cst.Name)]
    if any(reads.count(n) != roots.count(n) for n in roots):  # the list read or rebound elsewhere in the loop
        return ()
    guarded = {c.name for c in kept if top[id(c.node)] is not None}
    if any(names.count(n) > 1 for n in guarded):  # an `if`'s append beside others to one list
        return ()
    return tuple(dict.fromkeys(names))


def _keyed_append(call: cst.Call, dicts) -> bool:
    """`d["key"].append(x)`: one positional argument, `d` a dict of lists (`_dict_of_lists`)."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "append" and isinstance(func.value, cst.Subscript)
            and len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star):
        return False
    sub = func.value
    return isinstance(sub.value, cst.Name) and sub.value.value in dicts and len(sub.slice) == 1 \
        and isinstance(sub.slice[0].slice, cst.Index) and isinstance(sub.slice[0].slice.value, cst.SimpleString)


def _dict_of_lists(facts) -> frozenset[str]:
    """Local names every binding of which is a dict display of string keys and empty lists
    (`hist = {"E": [], "max": []}`): a dict of histories, each `hist["E"]` a list of its own."""
    names: dict[str, bool] = {}
    for t, v in facts.bindings:
        if isinstance(t, cst.Name):
            names[t.value] = names.get(t.value, True) and isinstance(v, cst.Dict) and all(
                isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
                and isinstance(e.value, cst.List) and not e.value.elements for e in v.elements)
    return frozenset(n for n, ok in names.items() if ok and n not in facts.params)


def appends_arguments(function, loop, names) -> list[tuple[str, cst.Tuple]]:
    """npr_for's `appends=` (and `lazy=`, `when=`) keyword values for the stacked lists `names`."""
    lazy = lazy_lists(function, loop, [n for n in names if n.isidentifier()])  # (not `hist["E"]`)
    args = [("appends", _names_tuple(names))] + ([("lazy", _names_tuple(lazy))] if lazy else [])
    tests = guarded_appends(loop, names)
    if tests:
        var = cst.Parameters([cst.Param(cst.Name(loop.target.value))])
        args.append(("when", cst.Tuple([cst.Element(cst.Lambda(var, tests[n]) if n in tests else cst.Name("None"),
                                                    comma=cst.Comma()) for n in names])))
    return args


def guarded_appends(loop: cst.For, names) -> dict[str, cst.BaseExpression]:
    """The stacked lists of `names` whose append is under an `if`, with that `if`'s test."""
    sites = _append_sites(loop)
    found = {}
    for call in walk(loop.body):
        if isinstance(call, cst.Call) and _plain_append(call) and call.func.value.value in names \
                and sites.get(id(call)) is not None:
            found[call.func.value.value] = sites[id(call)].test
    return found


def append_through_branch(func: cst.FunctionDef, names) -> cst.FunctionDef:
    """The emitted loop body with `snaps.append(v)` of each list in `names` (appended under an
    `if`) as `npr_append(snaps, v)`: the row written in the branch, not a change of the list."""
    return func.visit(_AppendThroughBranch(frozenset(names))) if names else func


class _AppendThroughBranch(cst.CSTTransformer):
    def __init__(self, names):
        self.names = names

    def leave_Call(self, original, updated):
        if _plain_append(updated) and updated.func.value.value in self.names:
            return cst.Call(cst.Name(J.APPEND), [cst.Arg(updated.func.value), updated.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)])
        return updated


def _append_sites(loop: cst.For) -> dict[int, cst.If | None]:
    """The calls of the loop's statement expressions that run once a trip (None) or once a trip
    whose `if` test takes (the `if`: at the body's top level, its test of the index alone)."""
    def calls(block, nested=False):
        """The statement calls of `block` (`nested`: and of the `for` loops at its top level, and
        theirs: each trip makes them, several to one list stacked as many a trip, rt/appends.py)."""
        found = [stmt.body[0].value for stmt in block.body if isinstance(stmt, cst.SimpleStatementLine)
                 and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr)]
        return found + [c for stmt in block.body if nested and isinstance(stmt, cst.For) and stmt.orelse is None
                        and isinstance(stmt.body, cst.IndentedBlock) for c in calls(stmt.body, True)]
    sites: dict[int, cst.If | None] = {id(c): None for c in calls(loop.body, True)}
    for stmt in loop.body.body:
        if isinstance(stmt, cst.If) and isinstance(stmt.body, cst.IndentedBlock) and _index_test(stmt.test, loop):
            sites.update((id(c), stmt) for c in calls(stmt.body))
    return sites


_PURE = (cst.Name, cst.Integer, cst.Float, cst.BinaryOperation, cst.Comparison, cst.ComparisonTarget,
         cst.BooleanOperation, cst.UnaryOperation, cst.BaseBinaryOp, cst.BaseCompOp, cst.BaseBooleanOp,
         cst.BaseUnaryOp, cst.LeftParen, cst.RightParen, cst.BaseParenthesizableWhitespace)


def _index_test(test, loop: cst.For) -> bool:
    """`test` reads only the index of a `range` loop, literals and names the loop does not bind,
    with operators: the host can evaluate it for each trip before the loop, as NumPy's would."""
    it = loop.iter
    if not (isinstance(loop.target, cst.Name) and isinstance(it, cst.Call) and isinstance(it.func, cst.Name)
            and it.func.value == "range"):
        return False
    nodes = list(walk(test))
    if not all(isinstance(n, _PURE) for n in nodes):
        return False
    return not {n.value for n in nodes if isinstance(n, cst.Name)} & _bound_in(loop.body)


def _bound_in(body) -> set[str]:
    """Every name a statement of `body` binds (assignments, loop targets, `with ... as`, walrus)."""
    targets = []
    for n in walk(body):
        if isinstance(n, cst.AssignTarget):
            targets.append(n.target)
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr)):
            targets.append(n.target)
        elif isinstance(n, cst.AsName):
            targets.append(n.name)
        elif isinstance(n, (cst.FunctionDef, cst.ClassDef)):
            targets.append(n.name)
    return {n.value for t in targets for n in walk(t) if isinstance(n, cst.Name)}


def appends_note(plan) -> str:
    """What became of a loop that stacks appends (`check --explain-loops`), "" for another."""
    if not plan.appends:
        return ""
    return (f"a lax loop stacking the appends to {', '.join(plan.appends)} (a Python loop if a trip's "
            f"values cannot be stacked: {plan.python})")


def _names_tuple(names) -> cst.Tuple:
    return cst.Tuple([cst.Element(cst.parse_expression(n), comma=cst.Comma()) for n in names])


def _plain_append(call: cst.Call) -> bool:
    """`name.append(x)`: one positional argument, the receiver a plain name."""
    func = call.func
    return isinstance(func, cst.Attribute) and func.attr.value == "append" and isinstance(func.value, cst.Name) \
        and len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star


def _list_names(facts) -> frozenset[str]:
    """Local names bound to list displays (`hist = []`) and otherwise only to the array of the list
    (`hist = np.array(hist)`, after the loop: the loop's appends are to the list): a list of the
    function's own."""
    names: dict[str, bool] = {}
    displays = set()
    for t, v in facts.bindings:
        if isinstance(t, cst.Name):
            names[t.value] = names.get(t.value, True) and (isinstance(v, cst.List) or _array_of(v, t.value))
            displays.update([t.value] if isinstance(v, cst.List) else [])
    return frozenset(n for n, ok in names.items() if ok and n in displays and n not in facts.params)


def _array_of(value, name: str) -> bool:
    """`np.array(name)` or `np.asarray(name)`, of the name alone."""
    return isinstance(value, cst.Call) and _takes_whole(value) and isinstance(value.func, cst.Attribute) \
        and isinstance(value.args[0].value, cst.Name) and value.args[0].value.value == name


def _takes_whole(call: cst.Call) -> bool:
    """`len(x)`, `np.array(x)`, `np.asarray(x)`: one positional argument, read as a whole."""
    func = call.func
    takes = (isinstance(func, cst.Name) and func.value == "len") or (
        isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value in ("np", "numpy")
        and func.attr.value in ("array", "asarray"))
    return takes and len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star


def lazy_lists(function: cst.FunctionDef, loop: cst.For, names) -> tuple[str, ...]:
    """Those of `names` that the function uses, outside `loop`, only as `len(x)`, `np.array(x)`,
    `np.asarray(x)`, `return x` (or x an item of a returned tuple or list), and bound only by
    `x = []` and, after the loop in the function's own block, `x = np.array(x)` (x is that array
    from there on), with `loop` in no other loop (its rows would follow earlier ones)."""
    v = _LazyUses(loop, frozenset(names))
    function.body.visit(v)
    return () if v.nested else v.kept(names)


class ListUses(cst.CSTVisitor):
    """Every occurrence of the names `lists` in a function (`seen`, by name), and `ok`, the ids of
    those a subclass finds of an allowed form; `escaped`: a nested function or lambda, which could
    take a list anywhere. `return x` (or x an item of a returned tuple or list) is allowed."""

    def __init__(self, lists):
        self.lists = lists
        self.seen: dict[str, list] = {}
        self.ok: set[int] = set()
        self.escaped = False

    def kept(self, names) -> tuple[str, ...]:
        """Those of `names` whose every occurrence is allowed (none where a list may escape)."""
        return () if self.escaped else tuple(
            n for n in names if all(id(node) in self.ok for node in self.seen.get(n, ())))

    def visit_FunctionDef(self, node) -> bool:
        self.escaped = True
        return False

    def visit_Lambda(self, node) -> bool:
        self.escaped = True
        return False

    def visit_Attribute(self, node) -> bool:
        node.value.visit(self)
        return False  # `x.attr`: the attribute's name is no use of a local

    def visit_Name(self, node) -> None:
        if node.value in self.lists:
            self.seen.setdefault(node.value, []).append(node)

    def visit_Return(self, node) -> None:
        value = node.value
        items = [e.value for e in value.elements] if isinstance(value, (cst.Tuple, cst.List)) else [value]
        self.ok.update(id(v) for v in items if isinstance(v, cst.Name))


class _LazyUses(ListUses):
    def __init__(self, loop, names):
        super().__init__(names)
        self.loop = loop
        self.depth, self.nested = 0, False
        self.blocks, self.done, self.arrays = 0, False, set()  # (leave_Assign)

    def visit_For(self, node) -> bool:
        if node is self.loop:
            self.nested, self.done = self.nested or self.depth > 0, True
            return False  # the appends themselves
        self.depth += 1
        return True

    def leave_For(self, node) -> None:
        if node is not self.loop:
            self.depth -= 1

    def visit_While(self, node) -> None:
        self.depth += 1

    def leave_While(self, node) -> None:
        self.depth -= 1

    def visit_Name(self, node) -> None:
        super().visit_Name(node)
        if node.value in self.arrays:  # the array `x = np.array(x)` made of the list
            self.ok.add(id(node))

    def visit_IndentedBlock(self, node) -> None:
        self.blocks += 1

    def leave_IndentedBlock(self, node) -> None:
        self.blocks -= 1

    def leave_Assign(self, node) -> None:
        """`x = np.array(x)` after the loop, in the function's own block: later uses of `x` are
        of that array (the list's rows are never read one by one)."""
        t = node.targets[0].target if len(node.targets) == 1 else None
        if isinstance(t, cst.Name) and t.value in self.lists and _array_of(node.value, t.value) \
                and self.done and self.blocks == 1 and self.depth == 0:
            self.ok.add(id(t))
            self.arrays.add(t.value)

    def visit_Assign(self, node) -> None:  # `x = []`, `a, b = [], []`
        for t in node.targets:
            pairs = zip(t.target.elements, node.value.elements) if isinstance(t.target, cst.Tuple) and \
                isinstance(node.value, cst.Tuple) else [(t, node)]
            self.ok.update(id(target.target if isinstance(target, cst.AssignTarget) else target.value)
                           for target, value in pairs
                           if isinstance(getattr(value, "value", None), cst.List) and not value.value.elements)

    def visit_Call(self, node) -> None:
        if _takes_whole(node):
            self.ok.add(id(node.args[0].value))
