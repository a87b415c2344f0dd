"""The exact rewrite as the hint of a trace-time refusal, read from the form of the statement
the refusal is placed at (compiled/refusals.py), where the generic hint would not say it:

- NPR030 at `sum(1 for s in sizes if s > 0)` (a comprehension's `if` over values from array data,
  a count printed after a time loop): `int(np.count_nonzero([s > 0 for s in sizes]))`, the same
  Python int, with no Python branch on the data;
- NPR031 at `hists.append(hist.tolist())` in a compiled loop (the Python values of an array known
  only when the program runs): append the array itself, print `hist.tolist()` (a print's methods
  run on the host, on NumPy's value) and take `.tolist()` of the rows after the call.

Each hint is checked against NumPy (tests/script_breaks/test_statement_hints.py)."""

from __future__ import annotations

import ast


def statement_hint(code: str, source: str, line: int) -> str | None:
    """A hint for the refusal `code` at the statement starting at `line` of `source`, or None."""
    stmt = _statement(source, line)
    if stmt is None:
        return None
    if code == "NPR030":
        return _filtered_count(stmt, source)
    if code == "NPR031":
        return _appended_tolist(stmt)
    return None


def _statement(source: str, line: int):
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    found = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno == line
             and not isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.For, ast.While, ast.If, ast.With))]
    return min(found, key=lambda n: n.end_lineno - n.lineno, default=None)


def _filtered_count(stmt, source: str) -> str | None:
    for node in ast.walk(stmt):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sum"
                and len(node.args) == 1 and not node.keywords
                and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp))):
            continue
        comp = node.args[0]
        if len(comp.generators) != 1 or len(comp.generators[0].ifs) != 1 or comp.generators[0].is_async:
            continue
        gen = comp.generators[0]
        if not (isinstance(comp.elt, ast.Constant) and type(comp.elt.value) is int and comp.elt.value == 1):
            continue
        cond, target, items = (ast.unparse(n) for n in (gen.ifs[0], gen.target, gen.iter))
        return (f"count without a Python `if` on array data: `int(np.count_nonzero([{cond} for {target} in "
                f"{items}]))` for `{ast.get_source_segment(source, node)}` (the same Python int)")
    if any(isinstance(n, ast.comprehension) and n.ifs for n in ast.walk(stmt)):
        return ("a comprehension's `if` reads array data: keep the values in an array and reduce under a "
                "mask (`np.count_nonzero(v > 0)`, `np.where(v > 0, v, 0).sum()`, `v[v > 0].max()`)")
    return None


def _appended_tolist(stmt) -> str | None:
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append"
            and len(call.args) == 1 and isinstance(arg := call.args[0], ast.Call)
            and isinstance(arg.func, ast.Attribute) and arg.func.attr == "tolist" and not arg.args):
        return None
    lst, value = ast.unparse(call.func.value), ast.unparse(arg.func.value)
    return (f"append the array itself, `{lst}.append({value})` (a print of it can print `{value}.tolist()`: "
            f"a print's methods run on the host), and take the Python lists after the call: "
            f"`[row.tolist() for row in {lst}]`")
