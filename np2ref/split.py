"""One large file's `np2ref check` across the `--jobs` processes (issue 43): the module cut at its
top-level statements into groups of functions that know nothing of each other, each group
checked in a process of its own, the diagnostics merged in the order one run gives.

A part is the module's text with the other groups' functions blanked out, line for line: every
line and column is the user's, and a diagnostic is found where the whole module's run finds it.
That holds when nothing a function's analysis reads comes from another group, so a module is cut
only where Python's own `ast` (milliseconds, where libcst's parse is a second) shows:

- at module level only imports, a docstring and undecorated functions (no loop to lift, no
  class, no module state), and no import of a sibling module (frontend/imported.py pulls its
  helpers in);
- no nested function or lambda (frontend/closures.py lifts them into the module), no `global`,
  no introspection or print anywhere (rules/introspection.asks is one fact for the whole module);
- a function and every function it names, or that binds a name it reads free, in one group
  (the call graph, the set-up code refused when called, names bound anywhere).

After the parts run, a module-level diagnostic (outside every function) must be the same in
each part, and the host functions' loops must fare as in one run (pipeline._lift_driver_loops
lifts every loop or none: none when any function is refused or any lift fails); otherwise the
whole module is checked in one run, as before.
"""

from __future__ import annotations

import ast
import concurrent.futures
import multiprocessing

from .diagnostics import Diagnostic

MIN_LINES = 1500  # a smaller module checks in well under a second: a fork would not pay
_ASKS = frozenset({"isinstance", "type", "str", "repr", "format", "print"})
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Global, ast.Nonlocal)


def parts(text: str, filename: str, jobs: int, min_lines: int = MIN_LINES) -> list[str] | None:
    """The texts of at most `jobs` parts of the module, or None when it is not cut (small, a
    syntax error, or something a function's analysis reads across the module)."""
    if jobs < 2 or text.count("\n") < min_lines:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    functions = _functions(tree, text, filename)
    if functions is None or len(functions) < 2:
        return None
    groups = _groups(functions)
    if len(groups) < 2:
        return None
    return [_blanked(text, functions, keep) for keep in _balanced(groups, functions, jobs)]


def _functions(tree: ast.Module, text: str, filename: str) -> list[ast.FunctionDef] | None:
    """The module's functions when its top level is imports, a docstring and plain functions."""
    from .frontend.files import sibling_files

    if sibling_files(text, filename, every=True):
        return None
    functions = []
    for i, stmt in enumerate(tree.body):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            continue
        if i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                and isinstance(stmt.value.value, str):
            continue
        if not isinstance(stmt, ast.FunctionDef) or stmt.decorator_list:
            return None
        functions.append(stmt)
    names = [f.name for f in functions]
    if len(set(names)) != len(names):  # a function defined twice: the later one wins, module-wide
        return None
    for f in functions:
        for node in ast.walk(f):
            if node is not f and isinstance(node, _NESTED) or isinstance(node, ast.JoinedStr):
                return None
            if isinstance(node, ast.Name) and node.id in _ASKS:
                return None
            if isinstance(node, ast.Attribute) and node.attr == "format":
                return None
    return functions


def _groups(functions: list[ast.FunctionDef]) -> list[list[int]]:
    """The functions (indices) in groups: connected when one names the other, or reads free a
    name the other binds."""
    bound = [_bound(f) | {f.name} for f in functions]
    free = [_read(f) - _bound(f) for f in functions]
    parent = list(range(len(functions)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owners: dict[str, list[int]] = {}
    for j, names in enumerate(bound):
        for name in names:
            owners.setdefault(name, []).append(j)
    for i, names in enumerate(free):
        for name in names:
            for j in owners.get(name, ()):
                parent[root(i)] = root(j)
    found: dict[int, list[int]] = {}
    for i in range(len(functions)):
        found.setdefault(root(i), []).append(i)
    return list(found.values())


def _bound(f: ast.FunctionDef) -> set[str]:
    """Names the function binds outside comprehensions (its parameters, stores, imports)."""
    args = f.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    comprehended: dict[str, int] = {}
    stores: dict[str, int] = {}
    for node in ast.walk(f):
        if isinstance(node, ast.comprehension):
            for t in ast.walk(node.target):
                if isinstance(t, ast.Name):
                    comprehended[t.id] = comprehended.get(t.id, 0) + 1
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names | {n for n, k in stores.items() if k > comprehended.get(n, 0)}


def _read(f: ast.FunctionDef) -> set[str]:
    """Names the function reads (builtins too: another function may bind one)."""
    return {node.id for node in ast.walk(f) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


def _balanced(groups: list[list[int]], functions, jobs: int) -> list[set[int]]:
    """The groups dealt into `jobs` parts of about equal lines, each group whole, in file order."""
    lines = sum(functions[i].end_lineno - functions[i].lineno + 1 for g in groups for i in g)
    share, made, current, size = lines / jobs, [], set(), 0
    for g in sorted(groups, key=lambda g: functions[g[0]].lineno):
        current |= set(g)
        size += sum(functions[i].end_lineno - functions[i].lineno + 1 for i in g)
        if size >= share * (len(made) + 1) and len(made) < jobs - 1:
            made.append(current)
            current = set()
    if current:
        made.append(current)
    return made


def _blanked(text: str, functions, keep: set[int]) -> str:
    """The text with the lines of every function not in `keep` emptied (line ends kept)."""
    lines = text.splitlines(keepends=True)
    for i, f in enumerate(functions):
        if i not in keep:
            for n in range(f.lineno - 1, f.end_lineno):
                line = lines[n]
                lines[n] = line[len(line.rstrip("\r\n")):]
    return "".join(lines)


def _part_result(text: str, filename: str) -> tuple[list[Diagnostic], str]:
    """(the part's diagnostics, what became of its host functions' loops: "none" to lift,
    "lifted", or "kept" when lifting them failed, which the whole module's run decides for
    every function at once: pipeline._lift_driver_loops)."""
    from . import pipeline

    ctx = pipeline.PipelineContext.of(text, filename)
    with pipeline._fewer_collections():
        result = pipeline._convert(ctx)
        if not result.ok or not pipeline.lift_candidates(ctx, result):
            return result.diagnostics, "none"
        final = pipeline._lift_driver_loops(ctx, result)
        return final.diagnostics, "kept" if final is result else "lifted"


def check_split(texts: list[str], text: str, filename: str, jobs: int) -> list[Diagnostic] | None:
    """The module's diagnostics from its parts checked in parallel, as one run gives them; None
    when the parts disagree on what lies outside their functions, or one part's loops were
    lifted where another's could not be (one run keeps every loop then)."""
    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    with concurrent.futures.ProcessPoolExecutor(min(jobs, len(texts)), mp_context=context) as pool:
        found = list(pool.map(_part_result, texts, [filename] * len(texts)))
    if any(lifts == "kept" for _, lifts in found) and any(lifts == "lifted" for _, lifts in found):
        return None
    if any(lifts == "lifted" for _, lifts in found) and not all(
            lifts == "lifted" or not _errors(ds) for ds, lifts in found):
        return None
    owned = [_owned_lines(part) for part in texts]
    outside = [[d for d in ds if d.line not in mine] for (ds, _), mine in zip(found, owned)]
    if any(o != outside[0] for o in outside[1:]):
        return None
    merged = outside[0] + [d for (ds, _), mine in zip(found, owned) for d in ds if d.line in mine]
    return sorted(merged, key=lambda d: (d.line, d.col, d.code))


def _errors(diagnostics: list[Diagnostic]) -> bool:
    return any(d.is_error for d in diagnostics)


def _owned_lines(part: str) -> set[int]:
    """The lines of the functions the part kept."""
    tree = ast.parse(part)
    return {n for stmt in tree.body if isinstance(stmt, ast.FunctionDef)
            for n in range(stmt.lineno, stmt.end_lineno + 1)}
