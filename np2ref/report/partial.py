"""`np2ref convert --partial`: a refused file written with its exact functions converted and
the refused (or blocked) ones kept as NumPy host code, each marked with a comment.

The readiness report already finds that version of a file (collect.collect_source converts the
exact functions together with `only=`, refusing in turn what that brings out); this module
marks it up. A kept function is called as before: a converted function called from it takes
and writes back NumPy arrays, as from any host code.
"""

from __future__ import annotations

import ast

from ..emit.module import RUNTIME_MODULE
from ..policy import DtypePolicy
from .collect import BLOCKED, REFUSED, FileReport

KEPT = "# np2ref: kept as NumPy host code -- "


def kept(report: FileReport) -> dict[str, str]:
    """The functions kept as NumPy, by name, with why (the first refused construct in each,
    or the refused functions it calls)."""
    why: dict[str, str] = {}
    for c in report.constructs:
        if c.function is not None and c.function not in why:
            d = c.diagnostic
            why[c.function] = f"refused: {d.code} line {d.line}: {d.message}"
    for f in report.functions:
        if f.status == BLOCKED:
            why[f.name] = f"blocked: calls {', '.join(f.blocked_by)}"
        elif f.status == REFUSED and f.name not in why:
            why[f.name] = "refused"
    return why


def marked(report: FileReport, policy: DtypePolicy = DtypePolicy(), options=None) -> str | None:
    """The partial conversion with a comment above each kept function; None when there is none."""
    code = report.partial.code_for(RUNTIME_MODULE, policy, options) if report.partial is not None else None
    if code is None:
        return None
    why = kept(report)
    try:
        tree = ast.parse(code)
    except SyntaxError:  # not expected: the output of a conversion parses
        return None
    lines = code.splitlines(keepends=True)
    for node in sorted((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and n.name in why), key=lambda n: -n.lineno):
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        indent = lines[first - 1][: len(lines[first - 1]) - len(lines[first - 1].lstrip())]
        lines.insert(first - 1, f"{indent}{KEPT}{' '.join(why[node.name].split())}\n")
    return "".join(lines)
