"""One large file's `np2ref convert` across the `--jobs` processes (issue 43): the parts of
split.py converted at once, their outputs joined into the text one run writes.

Each part's converted module comes back in pieces (emit/module.Pieces): its head (the imports,
the same in every part), each function's text, its footer. The output is the head, then every
function's text taken from the part that converted it, each after the lines the user wrote
before it (blank lines and comments at column 0: libcst gives those to the function, where a
part gives it the blanked lines above them too), then the footer of the part holding the last
function. A refused part refuses the file, with the diagnostics `check` merges. Anything else (a
loop lifted, a statement that is not the part's function, heads that differ, a comment libcst
may give to the function above) and the file is converted in one run, as before.
"""

from __future__ import annotations

import ast
import dataclasses
import re

from . import split
from .diagnostics import Diagnostic


# what may become a lowered `if` or `while` (break, continue and a return in a loop become flags and ifs)
_NUMBERED = (ast.If, ast.While, ast.Break, ast.Continue)


@dataclasses.dataclass(frozen=True)
class Joined:
    code: str | None  # None: refused
    diagnostics: list[Diagnostic]
    translated: bool


def convert_split(text: str, filename: str, jobs: int, runtime_module: str, policy, options,
                  sums: str = "exact", min_lines: int = split.MIN_LINES) -> Joined | None:
    """The module converted in parts, as one run converts it; None: the caller converts it in one run."""
    cut = split.parts(text, filename, jobs, min_lines)
    if cut is None:
        return None
    tree = split.syntax_tree(text)  # (the cut's own: parsed once)
    functions = [s for s in tree.body if isinstance(s, ast.FunctionDef)]
    if any(not isinstance(s, ast.FunctionDef) for s in tree.body[tree.body.index(functions[0]):]):
        return None  # an import between functions: each part's head would hold its own
    if any(isinstance(node, _NUMBERED) or isinstance(node, ast.For) and any(
            isinstance(inner, ast.Return) for inner in ast.walk(node)) for f in functions for node in ast.walk(f)):
        return None  # a lowered branch is numbered through the module (`_then_3`): one run
    gaps = _gaps(text, tree, functions)
    if gaps is None:
        return None
    found = split.run_parts(cut, filename, jobs, (runtime_module, policy, options, sums))
    diagnostics = split.merged(cut, found)
    if diagnostics is None or any(done.lifts != "none" for done in found):
        return None
    translated = any(done.translated for done in found)
    if not all(done.ok for done in found):
        return Joined(None, diagnostics, translated)
    code = _code(cut, [done.pieces for done in found], functions, gaps, filename, runtime_module)
    return Joined(code, diagnostics, translated) if code is not None else None


def _gaps(text: str, tree: ast.Module, functions: list[ast.FunctionDef]) -> list[str] | None:
    """The text before each function back to the statement above it; None when a line there is
    neither blank nor a comment at column 0 (libcst may give a comment indented further to the
    function above)."""
    lines = text.splitlines(keepends=True)
    gaps = []
    for f in functions:
        i = tree.body.index(f)
        gap = lines[(tree.body[i - 1].end_lineno if i else 0):f.lineno - 1]
        if any(line.strip() and not line.startswith("#") for line in gap):
            return None
        gaps.append("".join(gap))
    return gaps


def _code(cut: list[split.Part], pieces: list, functions, gaps: list[str], filename: str,
          runtime_module: str) -> str | None:
    """The converted module joined from the parts' pieces; None where they do not fit."""
    from .emit import module as emit_module

    if any(p is None for p in pieces) or len({(p.first, p.head, p.head_names) for p in pieces}) != 1 \
            or pieces[0].first is not None:
        return None
    owner = {}
    for part, made in zip(cut, pieces):
        kept = [i for i, f in enumerate(functions) if f.lineno in part.lines]
        if len(made.statements) != len(kept):
            return None  # the rewrite added or dropped a statement
        owner.update(zip(kept, made.statements))
    texts = []
    for i, gap in enumerate(gaps):
        lead, text, names = owner[i]
        if not text.startswith(lead) or not lead.endswith(gap) or _defined(text) != functions[i].name:
            return None
        texts.append((gap, gap + text[len(lead):], names))
    last = next(k for k, part in enumerate(cut) if functions[-1].lineno in part.lines)
    whole = emit_module.Pieces(None, pieces[0].head, pieces[0].head_names, tuple(texts), pieces[last].footer)
    return emit_module.assembled(whole, filename, runtime_module=runtime_module)


_DEF = re.compile(r"^def (\w+)", re.M)


def _defined(text: str) -> str | None:
    """The name of the first function a statement's text defines at column 0."""
    m = _DEF.search(text)
    return m.group(1) if m else None
