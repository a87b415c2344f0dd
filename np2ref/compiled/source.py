"""The source np2ref.compile translates for a function, and the closure values it reads.

A module-level function is translated with its whole module (the helpers it calls come along);
a method, a nested function or a name the module defines twice with its own source, after imports
of the modules its globals name. Closure cells are read as module-level values are: again at every
call (rt/module_globals.py); a function in a cell, or `nonlocal`, is refused (NPR022).
"""

from __future__ import annotations

import ast
import dis
import inspect
import os
import textwrap
import tokenize
import types

import numpy as np

from ..diagnostics import Diagnostic, Np2RefError, Span


def refuse(code: str, message: str, fn=None, hint: str | None = None) -> Np2RefError:
    filename, line = "<unknown>", 1
    if fn is not None:
        try:
            filename = inspect.getsourcefile(fn) or filename
            line = inspect.getsourcelines(fn)[1]
        except (TypeError, OSError):
            code_obj = getattr(fn, "__code__", None)
            if code_obj is not None:
                filename, line = code_obj.co_filename, code_obj.co_firstlineno
    return Np2RefError([Diagnostic(code, message, filename, Span(line, 1, line, 1), hint)])


def source_of(fn) -> tuple[str, str]:
    """(module or function source, filename) for a plain Python function, or an NPR020 error."""
    if isinstance(fn, (types.BuiltinFunctionType, np.ufunc)) or not isinstance(fn, types.FunctionType):
        kind = "a method" if isinstance(fn, types.MethodType) else f"a {type(fn).__name__}"
        raise refuse("NPR020", f"np2ref.compile needs a plain Python function; got {kind}",
                      fn if isinstance(fn, types.FunctionType) else None,
                      hint="decorate a module-level `def` function")
    if fn.__name__ == "<lambda>":
        raise refuse("NPR020", "np2ref.compile cannot translate a lambda", fn,
                      hint="write it as a module-level `def`")
    if inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn):
        raise refuse("NPR013", f"{fn.__name__}() is a generator or coroutine; it is not translated", fn)
    if fn.__closure__:
        closure_values(fn)  # NPR022 unless the cells hold values the program may read
    try:
        filename = inspect.getsourcefile(fn) or "<unknown>"
        if "<locals>" in fn.__qualname__:
            return _own_source(fn), filename
        if filename != "<unknown>" and os.path.exists(filename):
            with tokenize.open(filename) as fh:  # the whole module, read as Python reads it (PEP 263)
                text = fh.read()
            if _defined_once_at_module_level(fn, text):
                return text, filename
            # a method (`C.step`), or a name the module defines twice: the module's `def` of that
            # name is another function, so translate this one's own source
            return _own_source(fn), filename
        module = inspect.getmodule(fn)
        if module is not None:
            return inspect.getsource(module), filename
        return _imports_from_globals(fn) + inspect.getsource(fn), filename
    except (OSError, TypeError) as exc:
        raise refuse("NPR020", f"the source of {fn.__name__}() cannot be read ({exc})", fn,
                      hint="np2ref needs the function's source file") from None


def closure_values(fn) -> dict:
    """The values of the enclosing function's variables that `fn` reads (its closure cells):
    np2ref.compile translates it as if they were module-level names, each read again at every
    call and compared as module-level values are (rt/module_globals.py), so a rebinding in the
    enclosing function between calls reaches the program. Refused (NPR022) where that is not
    exact: a function in a cell (its body would run once, while tracing), or `nonlocal` (the
    function rebinds the enclosing function's variable). A cell not bound yet (`@np2ref.compile`
    on a def above the variable's assignment) is read at the first call."""
    values, refused = {}, []
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__):
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if _is_function(value):
            refused.append(f"{name} (a function)")
        values[name] = value
    # `nonlocal n; n += 1`: the function stores into a cell (not a guess from the source's text)
    nonlocal_ = any(i.opname in ("STORE_DEREF", "DELETE_DEREF") and i.argval in fn.__code__.co_freevars
                    for i in dis.get_instructions(fn))
    if refused or nonlocal_:
        why = ", ".join(refused) if refused else "`nonlocal`: it rebinds the enclosing function's variables"
        raise refuse("NPR022", f"{fn.__name__}() closes over local variables np2ref cannot read as values "
                      f"({why})", fn, hint="move the function to module level and pass those values as parameters")
    return values


def _is_function(value) -> bool:
    return callable(value) and not isinstance(value, (type, np.ufunc))


class ClosureScope:
    """fn's globals with its closure cells over them, as rt/module_globals.py reads a
    namespace (`.get`): each cell's value now (NPR022 for a function bound since)."""

    def __init__(self, fn):
        self.fn, self.globals, self.cells = fn, fn.__globals__, dict(zip(fn.__code__.co_freevars, fn.__closure__))
        self.names = tuple(self.cells)  # watched whether or not the program read them at its first trace

    def get(self, name, default=None):
        cell = self.cells.get(name)
        if cell is None:
            return self.globals.get(name, default)
        try:
            value = cell.cell_contents
        except ValueError:
            return default
        if _is_function(value):
            raise refuse("NPR022", f"{self.fn.__name__}() closes over `{name}`, now a function (its body "
                          "would run once, while tracing)", self.fn,
                          hint="move the function to module level and pass those values as parameters")
        return value


def _defined_once_at_module_level(fn, text: str) -> bool:
    """Whether `fn` is the module's only module-level `def` of its name, at its own line."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return True  # the conversion reports it
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == fn.__name__]
    return len(defs) == 1 and fn.__qualname__ == fn.__name__ and \
        min([defs[0].lineno] + [d.lineno for d in defs[0].decorator_list]) == fn.__code__.co_firstlineno


def _own_source(fn) -> str:
    """The function's own source, dedented, after imports of the modules its globals name, on
    the lines it has in its file (diagnostics then name the user's lines)."""
    lines, first = inspect.getsourcelines(fn)
    imports = _imports_from_globals(fn).splitlines()
    head = "; ".join(imports)
    pad = max(first - 1 - (1 if head else 0), 0)
    return (head + "\n" if head else "") + "\n" * pad + textwrap.dedent("".join(lines))


def _imports_from_globals(fn) -> str:
    """Import lines for the modules a function's globals name (when only its own source is
    available), so that `np.zeros` is still known to be NumPy's."""
    lines = []
    for name, value in fn.__globals__.items():
        if isinstance(value, types.ModuleType) and name.isidentifier() and \
                all(part.isidentifier() for part in value.__name__.split(".")):  # not pytest's `@py_builtins`
            lines.append(f"import {value.__name__} as {name}" if value.__name__ != name else f"import {name}")
    return "".join(line + "\n" for line in lines)
