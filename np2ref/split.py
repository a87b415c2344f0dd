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
each part, and no part may have lifted a host function's loop (pipeline._lift_driver_loops
lifts every part's loops into one text, or none); otherwise the whole module is checked in one
run, as before.
"""

from __future__ import annotations

import ast
import concurrent.futures
import contextlib
import dataclasses
import functools
import multiprocessing
import sys

from .diagnostics import Diagnostic

MIN_LINES = 1500  # a smaller module checks in well under a second: a fork would not pay
_ASKS = frozenset({"isinstance", "type", "str", "repr", "format", "print"})
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Global, ast.Nonlocal)


@dataclasses.dataclass(frozen=True)
class Part:
    """A part's text (the module with the other parts' functions blanked) and its functions' lines."""
    text: str
    lines: frozenset[int]


def parts(text: str, filename: str, jobs: int, min_lines: int = MIN_LINES) -> list[Part] | None:
    """At most `jobs` parts of the module, or None when it is not cut (small, a syntax error, or
    something a function's analysis reads across the module)."""
    if jobs < 2 or text.count("\n") < min_lines:
        return None
    tree = syntax_tree(text)
    if tree is None:
        return None
    functions = _functions(tree, text, filename)
    if functions is None or len(functions) < 2:
        return None
    names = [_names(f) for f in functions]
    if any(n is None for n in names):
        return None
    groups = _groups(functions, names)
    if len(groups) < 2:
        return None
    return [Part(_blanked(text, functions, keep), frozenset(
        n for i in keep for n in range(functions[i].lineno, functions[i].end_lineno + 1)))
        for keep in _balanced(groups, functions, jobs)]


@functools.lru_cache(maxsize=1)
def syntax_tree(text: str) -> ast.Module | None:
    """Python's `ast` of the text, parsed once for the cut and for split_convert.py (0.1 s for
    6,000 lines, on the parent's critical path); None for a syntax error. Read only."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None


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
    return functions


def _names(f: ast.FunctionDef) -> tuple[set[str], set[str]] | None:
    """(the names the function binds outside comprehensions: parameters, stores, imports, and its
    own name; the names it reads free, builtins too: another function may bind one), in one walk;
    None when it holds what is read across the module (nested scopes, introspection, `global`)."""
    args = f.args
    bound = {f.name, *(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)),
             *(a.arg for a in (args.vararg, args.kwarg) if a is not None)}
    read: set[str] = set()
    stores: dict[str, int] = {}
    comprehended: dict[str, int] = {}
    for node in _walk(f):
        kind = type(node)
        if kind is ast.Name:
            if node.id in _ASKS:
                return None
            if type(node.ctx) is ast.Load:
                read.add(node.id)
            else:
                stores[node.id] = stores.get(node.id, 0) + 1
        elif kind is ast.comprehension:
            for t in ast.walk(node.target):
                if type(t) is ast.Name:
                    comprehended[t.id] = comprehended.get(t.id, 0) + 1
        elif kind is ast.alias:
            bound.add((node.asname or node.name).split(".")[0])
        elif kind is ast.ExceptHandler and node.name:
            bound.add(node.name)
        elif kind is ast.Attribute and node.attr == "format" or kind is ast.JoinedStr \
                or node is not f and isinstance(node, _NESTED):
            return None
    bound |= {n for n, k in stores.items() if k > comprehended.get(n, 0)}
    return bound, read - bound


def _walk(root: ast.AST) -> list[ast.AST]:
    """Every node under root, root too, in no particular order (_names counts and collects):
    ast.walk's generators cost as much as the parse (0.1 s for 6,000 lines, in the parent)."""
    found, todo = [], [root]
    AST = ast.AST
    while todo:
        node = todo.pop()
        found.append(node)
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                todo.extend(v for v in value if isinstance(v, AST))
            elif isinstance(value, AST):
                todo.append(value)
    return found


def _groups(functions: list[ast.FunctionDef], names: list[tuple[set[str], set[str]]]) -> list[list[int]]:
    """The functions (indices) in groups: connected when one names the other, or reads free a
    name the other binds."""
    parent = list(range(len(functions)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owners: dict[str, list[int]] = {}
    for j, (bound, _) in enumerate(names):
        for name in bound:
            owners.setdefault(name, []).append(j)
    for i, (_, free) in enumerate(names):
        for name in free:
            for j in owners.get(name, ()):
                parent[root(i)] = root(j)
    found: dict[int, list[int]] = {}
    for i in range(len(functions)):
        found.setdefault(root(i), []).append(i)
    return list(found.values())


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


@dataclasses.dataclass
class Done:
    """What a part's run found: its diagnostics; what became of its host functions' loops: "none"
    to lift, "lifted", or "kept" when lifting them failed (the whole module's run decides that
    for every function at once: pipeline._lift_driver_loops); for convert, its output in pieces
    (emit/module.Pieces, when it converts with no loop to lift and numbers no lowered branch:
    those numbers run on through the module) and whether it translated a function."""
    diagnostics: list[Diagnostic]
    lifts: str
    ok: bool = False
    pieces: object | None = None
    translated: bool = False


def run_part(text: str, filename: str, emit: tuple | None = None) -> Done:
    """A part's run; `emit` (the runtime module, the dtype policy, the entry options, the sums
    mode): convert's, its output in pieces too."""
    from . import pipeline
    from .rewrite import function
    from .rewrite.sum_reorder import sums_mode

    ctx = pipeline.PipelineContext.of(text, filename)
    before = function.numbered
    with sums_mode(emit[3]) if emit else contextlib.nullcontext(), pipeline._fewer_collections():
        result = pipeline._convert(ctx)
        translated = bool(set(result.functions) - set(result.plain))
        if not result.ok or not pipeline.lift_candidates(ctx, result):
            pieces = None
            if emit is not None and result.ok and result.rewritten is not None and function.numbered == before:
                from .emit.module import pieces as emitted

                pieces = emitted(result.rewritten, emit[1], emit[2])
            return Done(result.diagnostics, "none", result.ok, pieces, translated)
        final = pipeline._lift_driver_loops(ctx, result)
        return Done(final.diagnostics, "kept" if final is result else "lifted", final.ok)


def run_parts(cut: list[Part], filename: str, jobs: int, emit: tuple | None = None) -> list[Done]:
    """run_part of each part, in `jobs` processes (forked: np2ref is imported once, here); one
    after another in a process that imported JAX (a test, a notebook: forking JAX's threads can
    hang)."""
    if "jax" in sys.modules:
        return [run_part(p.text, filename, emit) for p in cut]
    from . import command_process

    command_process.ready()  # (np2ref imported once, before the fork)
    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    with concurrent.futures.ProcessPoolExecutor(min(jobs, len(cut)), mp_context=context) as pool:
        return list(pool.map(run_part, [p.text for p in cut], [filename] * len(cut), [emit] * len(cut)))


def check_split(cut: list[Part], filename: str, jobs: int) -> list[Diagnostic] | None:
    """The module's diagnostics from its parts checked in parallel, as one run gives them; None
    where one run is needed (merged())."""
    return merged(cut, run_parts(cut, filename, jobs))


def merged(cut: list[Part], found: list[Done]) -> list[Diagnostic] | None:
    """The parts' diagnostics in one run's order; None when the parts disagree on what lies
    outside their functions, or a part's loops were lifted: one run lifts every part's loops
    into one text, or none when one part's cannot be, and a few messages name a line of that
    text (NPR039's host calls)."""
    if any(done.lifts == "lifted" for done in found):
        return None  # (one run converts the lifted text of every part at once: lines in messages move)
    outside = [[d for d in done.diagnostics if d.line not in part.lines] for done, part in zip(found, cut)]
    if any(o != outside[0] for o in outside[1:]):
        return None
    inside = [d for done, part in zip(found, cut) for d in done.diagnostics if d.line in part.lines]
    return sorted(outside[0] + inside, key=lambda d: (d.line, d.col, d.code))

