"""A lifted loop called only where it makes a trip, so that the names it binds may be returned.

A loop lifted into a function of its own (frontend/driver.py at module level, host_loops.py in a
host function) returns the names it binds that the code after it reads. Where the loop may make
no trip such a name may be unbound after it, where NumPy's read raises UnboundLocalError (or
NameError) only if it is made. Written as

    for it in range(maxit):                     if len(range(maxit)) > 0:
        err = np.abs(new - u[1:-1]).max()   ->      it, err = _main_loop_7(u, f, maxit, tol)
        ...
        if err < tol:
            break
    print(f"{it + 1} sweeps, {err:.3e}")

the call is made only where the range is not empty: a `for` over a range that makes no trip runs
nothing (no `else` clause), so skipping the call is the loop's own effect, and a call that is made
makes a first pass, which binds the target and every name the pass binds before it could leave
it (a `break`, `continue`, `return` or `try`): a simple statement at the top of the body, before
the first statement that holds one. The range's arguments are read twice (by the test and by the
call): names, literals, attributes and `len`/`int` calls only, which read the same values twice.
"""

from __future__ import annotations

import libcst as cst

from ..analysis.module_state import names_bound
from ..analysis.nodes import run_visitor, walk


def guarded_range(loop, missing: set[str], shadowed: set[str]) -> str | None:
    """`range(...)`'s text where `loop`'s call may be guarded by it so that every name of
    `missing` (bound by the loop, read after it, maybe unbound before it) is bound when the call
    returns; None where it cannot be (another loop, an `else`, a name a pass may skip)."""
    it = range_text(loop, shadowed)
    if it is None or loop.orelse is not None:
        return None
    if not missing - {loop.target.value} <= bound_before_jumps(loop.body.body):
        return None
    return it


def range_text(loop, shadowed: set[str]) -> str | None:
    """The text of a `for t in range(...)`'s iterable where its arguments read the same values
    twice (names, literals, attributes, `len` and `int` calls), else None."""
    it = loop.iter if isinstance(loop, cst.For) else None
    if not (isinstance(loop, cst.For) and loop.asynchronous is None and isinstance(loop.target, cst.Name)
            and isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range"
            and "range" not in shadowed and 1 <= len(it.args) <= 3
            and all(a.keyword is None and not a.star for a in it.args)):
        return None
    calls = [c for a in it.args for c in walk(a.value) if isinstance(c, cst.Call)]
    if not all(isinstance(c.func, cst.Name) and c.func.value in ("len", "int") and c.func.value not in shadowed
               for c in calls):
        return None
    return cst.Module(body=[]).code_for_node(it)


def bound_before_jumps(stmts) -> set[str]:
    """The names the simple statements of a loop's body bind before its first statement that may
    leave the pass early (`break`, `continue`, `return`, a `try` that may catch half way) or
    unbinds a name (`del`)."""
    bound: set[str] = set()
    for stmt in stmts:
        if leaves_pass(stmt):
            break
        if isinstance(stmt, cst.SimpleStatementLine):
            bound |= names_bound(stmt)
    return bound


def leaves_pass(stmt) -> bool:
    """Whether `stmt` (of a loop's body) may leave the pass before its end or unbind a name: a
    `break`, `continue`, `return`, `try` or `del` outside the loops and functions it holds."""
    found = []

    class V(cst.CSTVisitor):
        def visit_For(self, _) -> bool:  # (their own break and continue; a name they bind is not counted)
            return False

        visit_While = visit_FunctionDef = visit_ClassDef = visit_Lambda = visit_For

        def visit_Break(self, node) -> None:
            found.append(node)

        visit_Continue = visit_Return = visit_Try = visit_TryStar = visit_Del = visit_Break
    run_visitor(stmt, V())
    return bool(found)

