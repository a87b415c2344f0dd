"""np2ref.compile's refusals of what went wrong while a translation was traced or called,
placed at the line of the user's source the error passed through (at the call it names, where
the line has one)."""

from __future__ import annotations

import ast

from ..diagnostics import Diagnostic, Np2RefError, Span
from ..emit.module import line_map
from ..frontend.returns import left_as_written
from ..pipeline import ConversionResult
from .statement_hints import statement_hint
from ..analysis.host_code import CLASS_USE, TRY_REASON


def trace_refusal(exc: BaseException, conversion: ConversionResult, exec_name: str,
                  traced_scalars=()) -> Np2RefError | None:
    """The refusal for a JAX error met while tracing (None: not one of its gaps). `traced_scalars`:
    the parameters bound to Python floats, traced: a size taken from one of them is their doing."""
    from ..rt.compile_api import NprError, NprTraceGap, npr_known_gap  # (rt imports jax: when a call has gone wrong)
    if isinstance(exc, NprTraceGap) and exc.__cause__ is not None:
        exc = exc.__cause__  # npr_jit's coded form of the JAX error: the JAX error has the user's line
    gap, call = npr_known_gap(exc), None
    if gap is not None:
        code, message, hint = gap
    elif isinstance(exc, NprError):
        code, message, hint, call = exc.code, exc.message, exc.hint, exc.call
    else:
        return None
    if code == "NPR030" and (why := left_as_written(conversion.source or "", source_line(exc, conversion, exec_name))):
        message, hint = why, ("copy the array before the `if` (`x = x.copy()`), so that the write reaches a new "
                              "array on either path" if "rebinds" in why else "assign the value to one name in each "
                              "branch and return it after the `if`, or use np.where(cond, a, b)")
    if (better := statement_hint(code, conversion.source or "", source_line(exc, conversion, exec_name))):
        hint = better
    if code == "NPR031" and traced_scalars:
        names = ", ".join(f"`{n}`" for n in traced_scalars)
        message = (f"a Python value (a size, a range bound, an index) depends on a traced value: array data "
                   f"or the float argument {names} (a Python float argument is traced, like an array)")
        hint = (f"pass {names} as an int where it is one, or name it in static_argnames=(...) so its "
                "value is fixed when the function is traced")
    return located(code, message, hint, exc, conversion, exec_name, call)


def located(code: str, message: str, hint: str | None, exc: BaseException, conversion: ConversionResult,
             exec_name: str, call: str | None = None) -> Np2RefError:
    """The refusal at the innermost line of the user's source that `exc` passed through: at the
    call it names (`call`, an NprError's: `np.bincount`) when that line has one."""
    line = source_line(exc, conversion, exec_name)
    span = Span(line, 1, line, 1)
    if line and conversion.source:
        text_line = conversion.source.splitlines()[line - 1]
        col = len(text_line) - len(text_line.lstrip()) + 1
        span = ((call and _named_call(conversion.source, line, call))
                or Span(line, col, line, len(text_line.rstrip()) + 1))
    return Np2RefError([Diagnostic(code, message, conversion.filename, span, hint)], conversion.source)


def _named_call(source: str, line: int, call: str) -> Span | None:
    """The span of the call a refusal names (`np.bincount`) in the statement that starts at
    `line` (it may go on over more lines), or None: the statement is the place."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    statements = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno == line
                  and not isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    name = call.split(".")[-1]
    for stmt in sorted(statements, key=lambda n: n.end_lineno - n.lineno):
        for node in ast.walk(stmt):
            func = node.func if isinstance(node, ast.Call) else None
            if (isinstance(func, ast.Attribute) and func.attr == name) or (isinstance(func, ast.Name) and func.id == name):
                return Span(node.lineno, node.col_offset + 1, node.end_lineno, node.end_col_offset + 1)
    return None


def traced_in(exc: BaseException, programs: list) -> tuple[ConversionResult, str]:
    """The (conversion, exec name) of `programs` whose lines `exc` (or the JAX error it wraps)
    passed through: np2ref.compile's program or its 0-d variant's; the first where none."""
    for conversion, exec_name in programs:
        if any(e is not None and _user_line(e, exec_name) for e in (exc, exc.__cause__)):
            return conversion, exec_name
    return programs[0]


def source_line(exc: BaseException, conversion: ConversionResult, exec_name: str) -> int:
    return line_map(conversion.exec_source).get(_user_line(exc, exec_name), 0)


def _user_line(exc: BaseException, filename: str) -> int:
    line = 0
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    if not line:  # a run-time check that failed (rt/bounds.py): the lines that traced it
        from ..rt.compile_api import npr_check_lines
        line = next((n for name, n in reversed(npr_check_lines(exc)) if name == filename), 0)
    return line


def host_hint(result, name) -> str | None:
    """The rewrite the NPR021 note of `name()` gives (a clock, a logger), found by its line."""
    first = result.host_lines.get(name)
    line = first[0][0] if first else None
    hint = next((d.hint for d in result.diagnostics if d.code == "NPR021" and d.line == line and d.hint), None)
    return hint and f"{hint}; or `np2ref convert` the script: {name}() stays host code there, its array work compiled"


def host_line(result, name) -> str:
    """`, line N` of the `try` or the class that keeps `name()` host code (its first culprit)."""
    first = result.host_lines.get(name)
    return f", line {first[0][0]}" if first and (first[0][2] == TRY_REASON or CLASS_USE in first[0][2]) else ""
