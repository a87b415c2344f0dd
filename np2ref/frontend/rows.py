"""`for row in a:` over an array the function writes, as the indexed loop it stands for, so
that `row` is the view `a[k]` the rest of np2ref models (NPR204 before):

    for row in a:                              for _row_1 in range(len(a)):
        row /= row.sum()               ->          row = a[_row_1]
                                                   row /= row.sum()
    for i, row in enumerate(a):                for i in range(len(a)):
        row *= i                       ->          row = a[i]
                                                   row *= i

    for i, row in enumerate(a, 1):            for _row_2 in range(len(a)):
                                                   i = _row_2 + 1
                                                   row = a[_row_2]
    for p, v in zip(pos, vel):                 for _row_3 in range(min(len(pos), len(vel))):
        p += v * dt                    ->          p, v = pos[_row_3], vel[_row_3]
                                                   p += v * dt

Applied only to the loops the analysis found iterating over a written array (pipeline.py retries
the conversion with them; a `zip` only when every sequence it pairs is a written array, the
hint ROWS_HINT says so): iterating over a NumPy array yields `a[0]`, `a[1]`, ... up to the
length it had when the loop began, which is what the indexed loop reads, provided the arrays
are names the loop body does not rebind (and a start is a literal or such a name). Other
iterables are left as written (refused as before).
"""

from __future__ import annotations

import libcst as cst
from ..analysis.nodes import run_visitor


ROWS_HINT = "loop over indices: `for i in range(len(a)): row = a[i]`"  # NPR204's, for a loop rows.py takes


def indexed(loop: cst.For, counter: str, bound_in_loop: set[str]) -> cst.For | None:
    """The indexed loop `loop` stands for (counting with `counter`), or None (left as written)."""
    if loop.asynchronous is not None:
        return None
    it, target = loop.iter, loop.target
    first = []  # the statements binding the targets at the top of each trip
    if _called(it, "enumerate", 1, 2) and _pair(target):
        seqs, (index, item) = [it.args[0].value], [e.value for e in target.elements]
        start = it.args[1].value if len(it.args) == 2 else None
        if start is not None and not _simple(start, bound_in_loop):
            return None
        first.append(_assign(index, cst.Name(counter) if start is None else
                             cst.BinaryOperation(cst.Name(counter), cst.Add(), start)))
        first.append(_assign(item, _row(seqs[0], counter)))
    elif _called(it, "zip", 2, 8) and isinstance(target, (cst.Tuple, cst.List)) \
            and len(target.elements) == len(it.args) and all(type(e) is cst.Element for e in target.elements):
        seqs = [a.value for a in it.args]
        first.append(_assign(target, cst.Tuple([cst.Element(_row(s, counter)) for s in seqs])))
    else:
        seqs = [it]
        first.append(_assign(target, _row(it, counter)))
    if not all(_sequence(s, bound_in_loop | names_in(target)) for s in seqs):
        return None
    lengths = [cst.Arg(cst.Call(cst.Name("len"), [cst.Arg(s.deep_clone())])) for s in seqs]
    trips = lengths[0].value if len(lengths) == 1 else cst.Call(cst.Name("min"), lengths)
    body = loop.body
    if isinstance(body, cst.IndentedBlock):
        body = body.with_changes(body=[*first, *body.body])
    else:  # `for row in a: row *= 2` on one line
        body = cst.IndentedBlock(body=[*first, cst.SimpleStatementLine(body.body)])
    return loop.with_changes(target=cst.Name(counter), iter=cst.Call(cst.Name("range"), [cst.Arg(trips)]), body=body)


def _called(it, name: str, least: int, most: int) -> bool:
    return isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == name \
        and least <= len(it.args) <= most and all(a.keyword is None and not a.star for a in it.args)


def _pair(target) -> bool:
    return isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2 \
        and all(type(e) is cst.Element for e in target.elements)


def _simple(expr, bound: set[str]) -> bool:
    """A literal int, its negation, or a name the loop does not bind."""
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, cst.Integer) or isinstance(expr, cst.Name) and expr.value not in bound


def _sequence(expr, bound: set[str]) -> bool:
    """An array the loop can index afresh each trip: a name the loop does not rebind, its `.T`,
    or a basic slice of one by literals and such names (the same elements every time)."""
    if isinstance(expr, cst.Name):
        return expr.value not in bound
    if isinstance(expr, cst.Attribute):
        return expr.attr.value == "T" and _sequence(expr.value, bound)
    if isinstance(expr, cst.Subscript):
        parts = []
        for element in expr.slice:
            if isinstance(element.slice, cst.Index):
                parts.append(element.slice.value)
            else:
                parts += [p for p in (element.slice.lower, element.slice.upper, element.slice.step) if p is not None]
        return _sequence(expr.value, bound) and all(_simple(p, bound) for p in parts)
    return False


def _row(seq, k: str):
    return cst.Subscript(seq.deep_clone(), [cst.SubscriptElement(cst.Index(cst.Name(k)))])


def _assign(target, value) -> cst.SimpleStatementLine:
    if isinstance(target, (cst.Tuple, cst.List)):
        target = cst.Tuple([cst.Element(e.value) for e in target.elements])
    return cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(target)], value)])


def names_in(node) -> set[str]:
    """Every name that occurs in `node`."""
    found: set[str] = set()

    class V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)
    run_visitor(node, V())
    return found
