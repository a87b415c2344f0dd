"""WhileHistories: the lists a `while` loop on data only appends to, kept in chunks (rt/histories.py).

    times = [t]                                times = [t]
    while t < t_end:                           def _body_3(h, t):
        ...                                        ...
        if err <= tol:                  ->         def _then_2(t):
            t += h                                     t += h
            times.append(t)                            npr_append(times, t)
    print(len(times) - 1)                      ...
    return np.array(times)                     h, t = npr_while(_test_3, _body_3, h, t, appends=(times,))
                                               print(npr_len(times) - 1)
                                               return npr_np_array(times)

What: a list bound only to list displays (`hist = []`, `times = [t]`) outside the loop, whose only
uses in the loop are `x.append(v)` statements (at the body's level or under `if`s: a `continue`'s
flag, a test on data), and whose uses elsewhere in the function are `len(x)`, `np.array(x)`,
`np.asarray(x)`, `x[-1]` and `return x` (alone or in a returned tuple or list). The loop is in
no other loop. Why: how many items the list ends with is known only when the loop has run, so the
compiled program cannot hold the list; rt/histories.py writes the appended values into a
buffer that hands full chunks to the host, and the list (or np.array of it) is made there from
them, in NumPy's types. `len(x)` becomes `npr_len(x)`, the count the program carries. Exact:
the runtime probes the loop first and keeps the refusal (NPR034) where a value cannot be held.
"""

from __future__ import annotations

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits, emits_special
from .loop_appends import ListUses, _plain_append, _takes_whole


def history_lists(loop: cst.While, function: cst.FunctionDef, facts):
    """The names of the lists `loop` keeps as histories, the `len(x)` calls and `x[-1]` reads of them."""
    finder = _Uses(loop, _display_lists(facts))
    function.body.visit(finder)
    if finder.nested_loop:
        return (), [], []
    names = finder.kept(dict.fromkeys(finder.appended))
    return names, [c for c in finder.lens if c.args[0].value.value in names], \
        [s for s in finder.lasts if s.value.value in names]


def _display_lists(facts) -> frozenset[str]:
    """Local names every binding of which is a list display."""
    names: dict[str, bool] = {}
    for t, v in facts.bindings:
        if isinstance(t, cst.Name):
            names[t.value] = names.get(t.value, True) and isinstance(v, cst.List)
    return frozenset(n for n, ok in names.items() if ok and n not in facts.params)


class _Uses(ListUses):
    """Every occurrence of the candidate lists' names, and which of them are of an allowed form."""

    def __init__(self, loop, lists):
        super().__init__(lists)
        self.loop = loop
        self.appended: list[str] = []
        self.lens: list[cst.Call] = []
        self.lasts: list[cst.Subscript] = []
        self.loops, self.inside, self.blocked, self.nested_loop = 0, False, 0, False

    def _enter_loop(self, node) -> None:
        if node is self.loop:
            self.nested_loop = self.loops > 0
            self.inside = True
        elif self.inside:
            self.blocked += 1
        self.loops += 1

    def _leave_loop(self, node) -> None:
        self.loops -= 1
        if node is self.loop:
            self.inside = False
        elif self.inside:
            self.blocked -= 1

    visit_For = visit_While = _enter_loop
    leave_For = leave_While = _leave_loop

    def _block(self, node) -> None:
        if self.inside:
            self.blocked += 1

    def _unblock(self, node) -> None:
        if self.inside:
            self.blocked -= 1

    visit_With = visit_Try = _block
    leave_With = leave_Try = _unblock

    def visit_Expr(self, node) -> None:  # `x.append(v)` as a statement, in the loop
        call = node.value
        if self.inside and not self.blocked and isinstance(call, cst.Call) and _plain_append(call) \
                and call.func.value.value in self.lists:
            self.ok.add(id(call.func.value))
            self.appended.append(call.func.value.value)

    def visit_Assign(self, node) -> None:  # `x = [...]`, `x, y = [], []` outside the loop
        if len(node.targets) != 1 or self.inside or self.loops:
            return
        target, value = node.targets[0].target, node.value
        pairs = [(target, value)]
        if isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) \
                and len(target.elements) == len(value.elements):
            pairs = [(t.value, v.value) for t, v in zip(target.elements, value.elements)]
        self.ok.update(id(t) for t, v in pairs if isinstance(t, cst.Name) and isinstance(v, cst.List))

    def visit_Call(self, node) -> None:
        if _takes_whole(node) and isinstance(node.args[0].value, cst.Name) and not self.inside:
            self.ok.add(id(node.args[0].value))
            if isinstance(node.func, cst.Name):
                self.lens.append(node)

    def visit_Subscript(self, node) -> None:  # `x[-1]` outside the loop: the last item
        index = node.slice[0].slice if len(node.slice) == 1 else None
        if isinstance(node.value, cst.Name) and not self.inside and isinstance(index, cst.Index) \
                and isinstance(index.value, cst.UnaryOperation) and isinstance(index.value.operator, cst.Minus) \
                and isinstance(index.value.expression, cst.Integer) and index.value.expression.value == "1":
            self.ok.add(id(node.value))
            self.lasts.append(node)


def history_note(plan) -> str:
    return f"a lax while loop keeping the appends to {', '.join(plan.appends)} in chunks handed to the host"


@emits_special("history_len")
def emit_history_len(original: cst.Call, updated: cst.Call, detail, ctx) -> cst.Call:
    """`len(x)` of a history: the count the program carries (rt/histories.npr_len)."""
    return updated.with_changes(func=cst.Name(J.HISTORY_LEN))



@emits(cst.Subscript, order=0)
def emit_history_last(original: cst.Subscript, updated: cst.Subscript, ctx):
    """`x[-1]` of a history: its last item (rt/histories.npr_history_last)."""
    if original not in ctx.m.history_last:
        return None
    return cst.Call(cst.Name(J.HISTORY_LAST), [cst.Arg(updated.value)])
