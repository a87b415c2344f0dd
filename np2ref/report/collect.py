"""What a readiness report shows, per function: which convert exactly, which are refused and
what refuses them.

`np2ref convert` refuses a whole file when any function in it is refused. A report asks a
finer question: which functions would convert if the refused ones stayed NumPy? A function is
*refused* when a diagnostic error lies inside it, *blocked* when it calls (directly or through
other functions) a refused one, *host* when it stays NumPy code by design (printing, I/O,
random set-up), and *exact* otherwise. The exact functions are converted together (with
`only=`), which may bring out errors the first pass did not reach (a stage stops at the first
function with errors); those functions are refused in turn until the rest converts.
"""

from __future__ import annotations

import ast
import dataclasses
from typing import Callable, Iterable

from .. import codes
from ..diagnostics import Diagnostic, DiagnosticSink
from ..emit import module as emit_module
from ..frontend.files import python_files
from ..frontend.source import read_text
from ..pipeline import ConversionResult, convert_source
from .align import align

EXACT, HOST, REFUSED, BLOCKED = "exact", "host", "refused", "blocked"
FAILED = "failed"  # exact on its own, but the converted script failed when run (check --report --run)


@dataclasses.dataclass
class Function:
    name: str
    line: int        # first line (decorators included)
    end_line: int
    status: str = EXACT
    blocked_by: tuple[str, ...] = ()   # refused callees, for a blocked function
    host_reason: str | None = None
    compiled: tuple[str, ...] = ()      # a host function's loops or steps that convert compiles (NPR036)
    plain: bool = False                # exact with nothing to translate: left as written


@dataclasses.dataclass
class Construct:
    """One refused construct (an error diagnostic) and the functions it keeps from converting."""
    diagnostic: Diagnostic
    function: str | None               # the function it lies in (None: module level)
    blocks: tuple[str, ...]            # that function and every function that calls it

    @property
    def title(self) -> str:
        return code_title(self.diagnostic.code)


@dataclasses.dataclass
class FileReport:
    path: str
    source: str | None
    functions: list[Function]
    diagnostics: list[Diagnostic]      # every diagnostic, errors and notes
    constructs: list[Construct]
    converted: str | None = None       # the right-hand side of the side-by-side view
    complete: bool = False             # `np2ref convert` writes this file as a whole
    # `convert --partial`: the conversion with the exact functions converted, the rest NumPy
    partial: ConversionResult | None = None
    rows: list[tuple[int | None, int | None]] = dataclasses.field(default_factory=list)
    run: str | None = None             # --run: what running the original and the converted script showed

    def count(self, *statuses: str) -> int:
        return sum(f.status in statuses for f in self.functions)

    @property
    def exact(self) -> int:
        return self.count(EXACT)

    @property
    def host(self) -> int:
        return self.count(HOST)

    @property
    def refused(self) -> int:
        return self.count(REFUSED, BLOCKED, FAILED)

    @property
    def partly(self) -> int:
        """Host functions whose loops or steps convert compiles: half migrated."""
        return sum(f.status == HOST and bool(f.compiled) for f in self.functions)

    @property
    def file_error(self) -> bool:
        """Unreadable or unparsable: no function could be looked at."""
        return self.source is None or any(d.code in ("NPR001", "NPR002") for d in self.diagnostics)


    @property
    def ready(self) -> float | None:
        return None if self.file_error else ready_percent(self.exact, self.refused, self.host, self.partly)


@dataclasses.dataclass
class Report:
    files: list[FileReport]
    converted: list[str] = dataclasses.field(default_factory=list)  # files np2ref wrote: not counted

    def total(self, attr: str) -> int:
        return sum(getattr(f, attr) for f in self.files)

    @property
    def functions(self) -> int:
        return sum(len(f.functions) for f in self.files)

    def constructs(self) -> list[Construct]:
        """Every refused construct, the ones that block the most functions first."""
        every = [c for f in self.files for c in f.constructs]
        return sorted(every, key=lambda c: (-len(c.blocks), c.diagnostic.filename, c.diagnostic.line))

    @property
    def ready(self) -> float | None:
        return ready_percent(self.total("exact"), self.total("refused"), self.total("host"), self.total("partly"))

    def by_code(self) -> list[tuple[str, int, int]]:
        """(code, constructs, functions blocked), most blocking first."""
        count: dict[str, int] = {}
        blocked: dict[str, set] = {}
        for c in self.constructs():
            code = c.diagnostic.code
            count[code] = count.get(code, 0) + 1
            blocked.setdefault(code, set()).update((c.diagnostic.filename, name) for name in c.blocks)
        return sorted(((k, count[k], len(blocked[k])) for k in count), key=lambda t: (-t[2], -t[1], t[0]))

    @property
    def codes(self) -> list[str]:
        """Every code shown anywhere in the report (errors and notes), sorted."""
        return sorted({d.code for f in self.files for d in f.diagnostics})


def run_scripts(report: Report, timeout: float = 300.0, on_file: Callable[[str], None] | None = None) -> None:
    """--run: run each file whose conversion is complete as a script, original and converted; where
    the converted script fails or prints something else, its exact functions become FAILED."""
    from . import run
    from ..pipeline import convert_source

    for file in report.files:
        if on_file is not None:
            on_file(file.path)
        if not file.complete or file.source is None or not file.exact:
            continue
        result = convert_source(file.source, file.path)
        if not result.ok:
            continue
        ok, file.run = run.check(file.path, result.code, timeout)
        if ok is False:
            for fn in file.functions:
                if fn.status == EXACT:
                    fn.status = FAILED


def ready_percent(exact: int, refused: int, host: int = 0, partly: int = 0) -> float | None:
    """Share of the functions that convert exactly: refused, blocked and host functions (which
    stay NumPy) are not migrated; a host function whose loops or steps are compiled (`partly`,
    counted in `host` too) counts half. None when there is no function at all (nothing measured)."""
    total = exact + refused + host
    return None if total == 0 else 100.0 * (exact + partly / 2) / total


def code_title(code: str) -> str:
    entry = codes.CODES.get(code)
    return entry.title if entry else ""


def collect(paths: Iterable[str], on_file: Callable[[str], None] | None = None) -> Report:
    """A report over files and folders (walked as frontend/files.py says), its files sorted by
    path (as coverage.py sorts them). Files np2ref wrote itself (`# np2ref: converted`) are
    listed apart."""
    report = Report([])
    for path in sorted(python_files(paths).files, key=str):
        if on_file is not None:
            on_file(str(path))
        f = collect_file(str(path))
        if f.source is not None and emit_module.is_converted(f.source):
            report.converted.append(f.path)
        else:
            report.files.append(f)
    return report


def collect_file(path: str) -> FileReport:
    sink = DiagnosticSink(path, "")
    text = read_text(path, sink)
    if text is None:
        return FileReport(path, None, [], sink.sorted(), [])
    return collect_source(text, path)


def collect_source(text: str, filename: str) -> FileReport:
    if emit_module.is_converted(text):  # np2ref's own output: nothing to migrate
        return FileReport(filename, text, [], [], [])
    full = convert_source(text, filename)
    functions = top_level_functions(text)
    report = FileReport(filename, text, list(functions.values()), list(full.diagnostics), [])
    if report.file_error:
        return report
    for name, why in full.host.items():
        if name in functions:
            functions[name].status, functions[name].host_reason = HOST, why
            functions[name].compiled = tuple(sorted(f for f in full.functions if f.startswith(
                (f"_{name}_loop_", f"_{name}_step_")) and f not in functions))
    for name in full.plain & set(functions):
        functions[name].plain = True
    callers = _callers(full)
    errors = [d for d in full.diagnostics if d.is_error]
    while True:
        _refuse(report, functions, callers, errors)
        exact = {n for n, f in functions.items() if f.status == EXACT}
        partial = convert_source(text, filename, only=exact | set(full.host))
        errors = [d for d in partial.diagnostics if d.is_error and d not in report.diagnostics]
        if not errors or not exact:
            break
        report.diagnostics = sorted(report.diagnostics + errors, key=lambda d: (d.line, d.col, d.code))
    if partial.ok:
        _side_by_side(report, full, partial)
        report.partial = full if full.ok else partial
    return report


def top_level_functions(text: str) -> dict[str, Function]:
    """The module-level functions of a module, by name, with their lines (decorators included)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            out[node.name] = Function(node.name, first, node.end_lineno or node.lineno)
    return out


def _callers(result: ConversionResult) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for name, facts in result.functions.items():
        for _, callee in facts.calls:
            out.setdefault(callee, set()).add(name)
    return out


def _refuse(report: FileReport, functions: dict[str, Function], callers: dict[str, set[str]],
            errors: list[Diagnostic]) -> None:
    """Refuse the functions the errors lie in, block their callers, and record each construct."""
    for d in errors:
        owner = next((f for f in functions.values() if f.line <= d.line <= f.end_line), None)
        blocks: list[str] = []
        if owner is not None:
            owner.status, owner.blocked_by = REFUSED, ()
            blocks = _with_callers(owner.name, callers)
            for name in blocks[1:]:
                caller = functions.get(name)
                if caller is not None and caller.status in (EXACT, BLOCKED):
                    caller.status = BLOCKED
                    caller.blocked_by = tuple(sorted(set(caller.blocked_by) | {owner.name}))
        report.constructs.append(Construct(d, owner.name if owner else None, tuple(blocks)))


def _with_callers(name: str, callers: dict[str, set[str]]) -> list[str]:
    """`name` first, then every function that calls it, directly or not."""
    seen, todo = [name], [name]
    while todo:
        for caller in sorted(callers.get(todo.pop(), ())):
            if caller not in seen:
                seen.append(caller)
                todo.append(caller)
    return seen


def _side_by_side(report: FileReport, full: ConversionResult, partial: ConversionResult) -> None:
    """The converted text and its rows aligned with the source. A file that converts as a whole
    shows what `np2ref convert` writes (less its header); otherwise the exact functions
    converted and the refused ones as they are. Line marks come from the `only=` conversion,
    which numbers its statements with their source lines."""
    marked = emit_module.emit(partial.rewritten, report.path, with_header=False)
    report.complete = full.ok
    shown = full.body if full.ok else emit_module.strip_line_marks(marked)
    if shown.count("\n") != marked.count("\n"):  # the marks no longer fit: align by text alone
        marked = shown
    report.converted = shown
    report.rows = align(report.source.splitlines(), marked.splitlines())

