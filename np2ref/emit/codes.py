"""A converted module's text from each top-level statement's text, made once per statement.

np2ref.compile of one function converts that function's whole module (`only=`): every other
statement comes through unchanged, the very node of the module's one parse (pipeline._parsed),
yet libcst wrote the whole module out again at each compile, and Python's parser read it all
again for the runtime names it uses: 80% of a conversion in a 1,100-line module (each of its
86 functions compiled in turn: the tests' third-party programs). Here a statement's text and
the runtime names it holds are kept by the node's identity (libcst's trees are immutable), so
only the statements a conversion rewrote are written. The text is libcst's own, joined as
Module._codegen_impl joins it (header, body, footer, then the trailing newline).
"""

from __future__ import annotations

import ast
import collections
import threading

import libcst as cst

# id(statement) -> (statement, indent, newline, text, names), least recently used first: the
# statement held, so its id is not reused while the entry lives. A rewritten statement is a new
# node each conversion and ages out; the unchanged ones of the modules compiled from are met
# again and stay (the pipeline keeps the last 4 modules' parses).
_MADE: collections.OrderedDict[int, tuple] = collections.OrderedDict()
_MAX = 4096
_LOCK = threading.Lock()  # np2ref.compile may be called from several threads


def module_text(module: cst.Module, header, body, footer, names_of) -> tuple[str, frozenset | None]:
    """`module.with_changes(header=header, body=body, footer=footer).code`, and the union of
    `names_of(text)` over its statements (None where a statement's text alone does not parse:
    the caller reads the whole text then). A module without a trailing newline: libcst's
    codegen as it was (None for the names)."""
    if not module.has_trailing_newline:
        return module.with_changes(header=header, body=body, footer=footer).code, None
    parts, names = [module.code_for_node(n) for n in header], set()
    for stmt in body:
        text, found = _statement(module, stmt, names_of)
        parts.append(text)
        names = None if found is None or names is None else names | found
    parts += [module.code_for_node(n) for n in footer]
    text = "".join(parts)
    return text or module.default_newline, None if names is None else frozenset(names)


def _statement(module: cst.Module, stmt: cst.CSTNode, names_of) -> tuple[str, frozenset | None]:
    with _LOCK:
        made = _MADE.get(id(stmt))
        if made is not None and made[0] is stmt and made[1:3] == (module.default_indent, module.default_newline):
            _MADE.move_to_end(id(stmt))
            return made[3], made[4]
    text = module.code_for_node(stmt)
    try:
        found = frozenset(names_of(ast.parse(text)))
    except (SyntaxError, ValueError):
        found = None
    with _LOCK:
        _MADE[id(stmt)] = (stmt, module.default_indent, module.default_newline, text, found)
        _MADE.move_to_end(id(stmt))  # (one made under another indent or newline: replaced)
        while len(_MADE) > _MAX:
            _MADE.popitem(last=False)
    return text, found
