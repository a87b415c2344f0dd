"""`for row in a:` over an array the function writes, as the indexed loop it stands for, so
that `row` is the view `a[k]` the rest of np2ref models (NPR204 before):

    for row in a:                              for _row_1 in range(len(a)):
        row /= row.sum()               ->          row = a[_row_1]
                                                   row /= row.sum()
    for i, row in enumerate(a):                for i in range(len(a)):
        row *= i                       ->          row = a[i]
                                                   row *= i

Applied only to the loops the analysis found iterating over a written array (pipeline.py retries
the conversion with them): iterating over a NumPy array yields `a[0]`, `a[1]`, ... up to the
length it had when the loop began, which is what the indexed loop reads, provided `a` is a name
the loop body does not rebind. `enumerate(a)` with a start, `zip(...)` and other iterables are
left as written (refused as before).
"""

from __future__ import annotations

import libcst as cst


def indexed(loop: cst.For, counter: str, bound_in_loop: set[str]) -> cst.For | None:
    """The indexed loop `loop` stands for (its counter `counter` unless enumerate names one),
    or None (left as written)."""
    if loop.asynchronous is not None:
        return None
    seq, index, item = loop.iter, None, loop.target
    if isinstance(seq, cst.Call) and isinstance(seq.func, cst.Name) and seq.func.value == "enumerate":
        target = loop.target
        if len(seq.args) != 1 or seq.args[0].keyword is not None or seq.args[0].star \
                or not isinstance(target, (cst.Tuple, cst.List)) or len(target.elements) != 2 \
                or not all(type(e) is cst.Element for e in target.elements) \
                or not isinstance(target.elements[0].value, cst.Name):
            return None
        seq, index, item = seq.args[0].value, target.elements[0].value.value, target.elements[1].value
    if not isinstance(seq, cst.Name) or seq.value in bound_in_loop or seq.value in _names(loop.target):
        return None
    k = index or counter
    read = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(item)], cst.Subscript(
        cst.Name(seq.value), [cst.SubscriptElement(cst.Index(cst.Name(k)))]))])
    length = cst.Call(cst.Name("range"), [cst.Arg(cst.Call(cst.Name("len"), [cst.Arg(cst.Name(seq.value))]))])
    body = loop.body
    if isinstance(body, cst.IndentedBlock):
        body = body.with_changes(body=[read, *body.body])
    else:  # `for row in a: row *= 2` on one line
        body = cst.IndentedBlock(body=[read, cst.SimpleStatementLine(body.body)])
    return loop.with_changes(target=cst.Name(k), iter=length, body=body)


def _names(node) -> set[str]:
    found: set[str] = set()

    class V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)
    node.visit(V())
    return found
