"""`np2ref convert --standalone`: the runtime package np2ref.rt written out as one module.

The modules of np2ref.rt are joined in an order where every name a module uses while it is
imported is defined above it; the package's own imports (`from .core import ...`) are dropped,
since every runtime name is unique across the package (npr_*, _npr_*, Npr*). The result
imports only jax, numpy and the standard library, and is what `from np2ref_rt import ...` in a
standalone converted file reads.
"""

from __future__ import annotations

import ast
import graphlib
import importlib.metadata

from .module import RUNTIME_PACKAGE, STANDALONE_MODULE

FILENAME = STANDALONE_MODULE + ".py"


def _package_imports(tree: ast.Module) -> tuple[set[str], list[tuple[int, int]]]:
    """(modules imported at the top, before the first definition; line ranges of every
    `from .x import ...` statement)."""
    eager, ranges, seen_def = set(), [], False
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Assign)):
            seen_def = True
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            ranges.append((node.lineno, node.end_lineno))
            if not seen_def and node.module:
                eager.add(node.module)
    return eager, ranges


def _init_prologue() -> str:
    """The package __init__'s code up to its submodule imports (the random-state guard)."""
    text = (RUNTIME_PACKAGE / "__init__.py").read_text()
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    out = []
    for node in tree.body[1:]:  # after the docstring
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            break
        out.append("".join(lines[node.lineno - 1:node.end_lineno]))
    return "\n".join(out)


_TITLE = "np2ref's runtime (np2ref.rt "


def is_bundle(path) -> bool:
    """Whether the file at `path` is a standalone runtime np2ref wrote."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read(200).startswith('"""' + _TITLE)
    except (OSError, UnicodeDecodeError):
        return False


def bundle() -> str:
    """The standalone runtime module's text."""
    sources, graph = {}, {}
    for path in sorted(RUNTIME_PACKAGE.glob("*.py")):
        if path.name == "__init__.py":
            continue
        text = path.read_text()
        eager, ranges = _package_imports(ast.parse(text))
        drop = {i for a, b in ranges for i in range(a, b + 1)}
        kept = [line for i, line in enumerate(text.splitlines(keepends=True), 1) if i not in drop]
        sources[path.stem] = "".join(kept).rstrip("\n") + "\n"
        graph[path.stem] = eager
    order = list(graphlib.TopologicalSorter(graph).static_order())
    try:
        version = importlib.metadata.version("np2ref")
    except importlib.metadata.PackageNotFoundError:
        version = "(source tree)"
    parts = [f'"""{_TITLE}{version}) as one module, written by `np2ref convert '
             f'--standalone`.\n\nConverted programs beside it import their helpers from here; it needs only '
             f'jax and numpy. Generated: edit np2ref/rt/ instead.\n"""\n',
             _init_prologue()]
    for name in order:
        parts.append(f"\n\n# ==== np2ref.rt.{name} " + "=" * (80 - len(name)) + "\n" + sources[name])
    return "".join(parts)
