"""`for i, j in itertools.product(range(n), range(m)):` as the nested loops it stands for,
and `for _ in itertools.repeat(None, n):` as `for _ in range(n):`, before analysis: each then
lowers like any other `for` (a lax loop; as written, the loop was traced n times over).

    for i, j in itertools.product(range(n), range(m)):        for i in range(n):
        a[i, j] = a[i, j] * 2 + i                       ->         for j in range(m):
                                                                        a[i, j] = a[i, j] * 2 + i
`product(range(n), repeat=2)` repeats its ranges. Exact: product yields the tuples in the nested
loops' order (the last range fastest). Left as written (a call np2ref cannot see into: the
function stays NumPy code, NPR021): a `break` in the body (it would leave the inner loop only),
an `else:`, targets other than one name per range, or used outside the loop (an empty inner
range leaves the outer target bound, where product binds nothing), arguments other than
`range(...)` of names, literals, shapes and `len()`, or names in them that the loop binds
(product evaluates every range once, before the first iteration).

`repeat(x, n)` (or `times=n`) is `range(n)` when the loop variable is read nowhere (the items
are the only difference: x each time against 0, 1, ...) and x is a name, a literal or None
(evaluated once by repeat, dropped by range: nothing it does is lost). Both take n once, before
the first trip; a negative n gives no trips in both, and a non-integer n raises TypeError in both.
"""

from __future__ import annotations

import libcst as cst
from ..analysis.nodes import run_visitor


def itertools_names(module: cst.Module) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(names bound to the itertools module, to itertools.product, to itertools.repeat) at
    module level."""
    modules, products, repeats = set(), set(), set()
    for stmt in module.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Import):
                for alias in small.names:
                    if isinstance(alias.name, cst.Name) and alias.name.value == "itertools":
                        modules.add(alias.asname.name.value if alias.asname else "itertools")
            elif isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name) \
                    and small.module.value == "itertools" and not isinstance(small.names, cst.ImportStar):
                for alias in small.names:
                    if alias.name.value in ("product", "repeat"):
                        kind = products if alias.name.value == "product" else repeats
                        kind.add(alias.asname.name.value if alias.asname else alias.name.value)
    return frozenset(modules), frozenset(products), frozenset(repeats)


def _is_product(func, names) -> bool:
    return _is_itertools(func, names[0], names[1], "product")


def _is_itertools(func, modules, names, attr) -> bool:
    if isinstance(func, cst.Name):
        return func.value in names
    return isinstance(func, cst.Attribute) and func.attr.value == attr \
        and isinstance(func.value, cst.Name) and func.value.value in modules


def repeated(loop: cst.For, names, read_in_loop: set[str], used_outside: set[str]):
    """`for _ in range(n):` for `for _ in itertools.repeat(x, n):`, or None (left as written)."""
    call = loop.iter
    if not isinstance(call, cst.Call) or not _is_itertools(call.func, names[0], names[2], "repeat") \
            or not isinstance(loop.target, cst.Name) or loop.target.value in read_in_loop | used_outside:
        return None
    args = list(call.args)
    if len(args) != 2 or any(a.star for a in args) or args[0].keyword is not None \
            or (args[1].keyword is not None and args[1].keyword.value != "times"):
        return None
    item = args[0].value
    if not isinstance(item, (cst.Name, cst.Integer, cst.Float, cst.SimpleString)):
        return None  # (a call or an operation: repeat evaluated it once, range would not at all)
    count = cst.Arg(args[1].value)
    return loop.with_changes(iter=cst.Call(cst.Name("range"), [count]))


def _simple(expr) -> bool:
    """An expression whose value a loop body cannot change but by rebinding its names."""
    if isinstance(expr, (cst.Name, cst.Integer)):
        return True
    if isinstance(expr, cst.Attribute):
        return expr.attr.value in ("shape", "size", "ndim") and _simple(expr.value)
    if isinstance(expr, cst.Subscript):
        return _simple(expr.value) and all(isinstance(e.slice, cst.Index) and _simple(e.slice.value)
                                           for e in expr.slice)
    if isinstance(expr, cst.BinaryOperation):
        return _simple(expr.left) and _simple(expr.right)
    if isinstance(expr, cst.UnaryOperation):
        return _simple(expr.expression)
    if isinstance(expr, cst.Call):
        return isinstance(expr.func, cst.Name) and expr.func.value == "len" and len(expr.args) == 1 \
            and _simple(expr.args[0].value)
    return False


def _ranges(call: cst.Call) -> list | None:
    """The `range(...)` calls product iterates over, repeated as `repeat=` says, or None."""
    ranges, repeat = [], 1
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is not None:
            if arg.keyword.value != "repeat" or not isinstance(arg.value, cst.Integer):
                return None
            repeat = int(arg.value.value, 0)
            continue
        r = arg.value
        if not (isinstance(r, cst.Call) and isinstance(r.func, cst.Name) and r.func.value == "range"
                and 1 <= len(r.args) <= 3 and all(a.keyword is None and not a.star and _simple(a.value)
                                                  for a in r.args)):
            return None
        ranges.append(r)
    if not ranges or repeat < 1:
        return None
    return ranges + [r.deep_clone() for _ in range(repeat - 1) for r in ranges]  # one node a loop


def nested(loop: cst.For, names, bound_in_loop: set[str], used_outside: set[str], has_break: bool):
    """The nested `for` loops `loop` stands for, or None (left as written)."""
    if not isinstance(loop.iter, cst.Call) or not _is_product(loop.iter.func, names) \
            or loop.orelse is not None or has_break or loop.asynchronous is not None:
        return None
    ranges = _ranges(loop.iter)
    target = loop.target
    if ranges is None or not isinstance(target, (cst.Tuple, cst.List)) or len(target.elements) != len(ranges) \
            or not all(isinstance(e.value, cst.Name) for e in target.elements):
        return None
    targets = [e.value.value for e in target.elements]
    if len(set(targets)) != len(targets) or set(targets) & used_outside:
        return None
    for r in ranges:
        inside = set()

        class V(cst.CSTVisitor):
            def visit_Name(self, n: cst.Name) -> None:
                inside.add(n.value)
        run_visitor(r, V())
        if inside & (bound_in_loop | set(targets)):
            return None
    body = loop.body
    for name, r in reversed(list(zip(targets, ranges))[1:]):
        body = cst.IndentedBlock(body=[cst.For(cst.Name(name), r, body)])
    return loop.with_changes(target=cst.Name(targets[0]), iter=ranges[0], body=body)
