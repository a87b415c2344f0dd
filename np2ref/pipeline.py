"""THE ordered list of stages, on one screen.

    read -> parse -> fence -> analyse -> diagnose (plan) -> rewrite -> emit

Each stage reports into one DiagnosticSink; a stage that finds an error stops the pipeline
before anything is emitted, so a refused file never yields a half-converted output.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc

import libcst as cst
from libcst.metadata import MetadataWrapper

from .analysis import closures, setup_code
from .analysis.aliases import FunctionFacts
from .analysis.module import LazyPositions, ModuleFacts, analyse_module, module_level_names
from .analysis.names import bound_anywhere
from .analysis.nodes import walk, run_visitor
from .analysis.transform import run_transformer
from .diagnostics import Diagnostic, DiagnosticSink, Np2RefError, Span
from .policy import DtypePolicy
from .emit import module as emit_module
from .frontend import driver, host_loops, host_steps, lift_appends
from .frontend import imported, jumps, namespaces, outs, shapes
from .frontend.rows import ROWS_HINT
from .frontend.fence import fence_function
from .frontend.source import parse, read_text
from .rewrite.function import ModuleRewriter
from .rewrite.marks import MarkPass
from .rewrite.rules import loop_forms, unbound


@dataclasses.dataclass
class ConversionResult:
    filename: str
    source: str | None
    code: str | None                 # the converted module (None when refused)
    diagnostics: list[Diagnostic]
    functions: dict[str, FunctionFacts] = dataclasses.field(default_factory=dict)
    host: dict[str, str] = dataclasses.field(default_factory=dict)
    rewritten: cst.Module | None = None
    plain: frozenset[str] = frozenset()  # functions with no array work, left undecorated
    # by function: the parameters a list argument reaches as a list (npr_jit's `lists=`)
    lists: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    # by host function: (first line, last line, why) of each call that keeps it host code
    host_lines: dict[str, tuple[tuple[int, int, str], ...]] = dataclasses.field(default_factory=dict)
    # (line, col, function, loop variable, what became of the loop) of each loop converted
    loops: tuple[tuple[int, int, str, str, str], ...] = ()

    @functools.cached_property
    def body(self) -> str | None:
        """The converted module without its header (what `compile(...).source` shows)."""
        if self.rewritten is None:
            return self.code
        return emit_module.strip_line_marks(emit_module.emit(self.rewritten, self.filename, with_header=False))

    @functools.cached_property
    def exec_source(self) -> str | None:
        """The converted functions only, their lines marked `# @L<n>` with the original line
        (what compile executes)."""
        if self.rewritten is None:
            return None
        return emit_module.functions_source(self.rewritten, self.functions)

    def code_for(self, runtime_module: str, policy: DtypePolicy = DtypePolicy(), options=None) -> str | None:
        """The converted module importing its helpers from `runtime_module` (np2ref.rt, or
        "np2ref_rt": the standalone copy that `convert --standalone` writes beside it), its
        `@npr_jit`s given the dtype policy and `options` (Config.entry_options)."""
        if self.rewritten is None or self.code is None or (
                runtime_module == emit_module.RUNTIME_MODULE and policy == DtypePolicy() and not options):
            return self.code
        return emit_module.emit(self.rewritten, self.filename, runtime_module=runtime_module, policy=policy,
                                options=options)

    @property
    def ok(self) -> bool:
        return self.code is not None and not any(d.is_error for d in self.diagnostics)

    def raise_for_errors(self) -> None:
        if not self.ok:
            raise Np2RefError([d for d in self.diagnostics if d.is_error], self.source,
                              f"np2ref refused {self.filename}:")


def convert_source(text: str, filename: str = "<string>", only: set[str] | None = None,
                   seeds: bool = False, known: frozenset = frozenset()) -> ConversionResult:
    """Convert a module. With `only`, just those functions and the module functions they call
    (what np2ref.compile needs: a refused function elsewhere in the module does not matter).
    Without, module-level driver loops are lifted into compiled functions where that is exact.
    `seeds`: `np.random.seed(s)` is translated (seeded on the host when the program runs, in
    program order: np2ref.compile of a function that seeds); else a function that seeds stays
    host code, as a script's `main()` does (NPR021). `known`: names the module does not bind
    that the program will find bound (np2ref.compile of a closure: its cells' names)."""
    with _fewer_collections():
        result = _convert(text, filename, only, seeds=seeds, known=known)
        if only is not None or not result.ok:
            return result
        return _lift_driver_loops(result, text, filename)


@contextlib.contextmanager
def _fewer_collections():
    """Python's cyclic collector run 300x less often for the call (as mypy does): a conversion
    makes millions of small libcst nodes, few of them in cycles, and the default threshold (a
    collection every 700 allocations, a full one every 70,000) walked the whole young heap again
    and again: a quarter of a 6,000-line module's conversion. The caller's thresholds come back."""
    before = gc.get_threshold()
    gc.set_threshold(200_000, 30, 30)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _lift_driver_loops(result: ConversionResult, text: str, filename: str) -> ConversionResult:
    """The conversion with the module-level loops, and the top-level loops of host functions, that
    np2ref can compile lifted into functions (frontend/driver.py, frontend/host_loops.py); a loop
    whose function is refused, is host work or would run as a Python loop stays as it was."""
    module = _parsed(text)  # (the tree _front made: a second parse of a large module is seconds)
    lifts = driver.find_lifts(module) + host_loops.find_host_lifts(module, result.host)
    broken: dict[str, tuple[driver.Lift, list[host_steps.Break]]] = {}  # a host loop's graph breaks
    lifts = _broken_up(module, [lift for lift in lifts if lift.holds], [], broken) + [
        lift for lift in lifts if not lift.holds]  # a loop that uses a list: steps at once
    while lifts:
        lifted, where = driver.apply(text, lifts)
        new = _convert(lifted, filename, None)
        placed = [driver.remap(d, where) for d in new.diagnostics]
        inside = {lift.name: [d for d in placed if lift.start <= d.line <= lift.end] for lift in lifts}
        # a lifted loop that would run as a Python loop (NPR033) is traced once per trip: a long
        # time loop would take minutes to compile, where NumPy's loop runs at once
        bad = {lift.name for lift in lifts if lift.name in new.host or lift.name not in new.functions
               or any(d.is_error for d in inside[lift.name]) or _python_loop(new.rewritten, lift.name)}
        if any(d.is_error and not any(lift.start <= d.line <= lift.end for lift in lifts) for d in placed):
            if any(lift.host for lift in lifts):  # try again with the module-level loops only
                lifts = [lift for lift in lifts if not lift.host]
                continue
            return result  # the lifts disturbed a function of the user's: keep the file as it was
        if not bad:
            placed += _break_notes(broken, lifts, filename, text)
            return dataclasses.replace(new, source=text, diagnostics=sorted(placed, key=lambda d: (d.line, d.col, d.code)),
                                       loops=_loops_placed(new.loops, where))
        host = [lift_appends.fallback(lift) if lift.appends else lift for lift in lifts
                if lift.name in bad and lift.name in new.host and host_steps.STEP not in lift.name]
        culprits = [[(where[a][0], where[b][0], why) for a, b, why in new.host_lines.get(lift.name, ())]
                    for lift in host]  # a host loop: its array work as compiled steps
        appended = [lift_appends.fallback(lift) for lift in lifts if lift.name in bad and lift.appends
                    and lift.name not in new.host]  # history lists it could not stack: steps, as a loop that uses a list
        lifts = sorted([lift for lift in lifts if lift.name not in bad] + _broken_up(module, host, culprits, broken)
                       + _broken_up(module, appended, [], broken), key=lambda lift: lift.start)
    return result


def _broken_up(module, loops, culprits, broken) -> list[driver.Lift]:
    """The compiled steps of host loops (frontend/host_steps.py), `culprits` the host calls of
    each (none: a loop that uses a list), their breaks noted in `broken`."""
    steps = []
    for i, lift in enumerate(loops):
        found, breaks = host_steps.find_steps(module, lift, culprits[i] if culprits else [])
        steps += found
        broken[lift.name] = (lift, breaks)
    return steps


def _break_notes(broken, lifts, filename: str, text: str) -> list[Diagnostic]:
    """NPR036 notes for each host loop with compiled steps: the steps, then each statement that
    stays host code, with its line and why."""
    sink = DiagnosticSink(filename, text)
    for loop, breaks in broken.values():
        steps = [lift for lift in lifts if loop.start <= lift.start and lift.end <= loop.end]
        if not steps:
            continue
        names = ", ".join(f"lines {s.start}-{s.end} as {s.name}()" if s.end > s.start else
                          f"line {s.start} as {s.name}()" for s in steps)
        where = f"the loop of {loop.host}()" if loop.host else "the module-level loop"
        calls = len(steps) + len(breaks)  # each pass: every step a dispatch, every break a host statement
        sink.report("NPR036", f"{where} stays a host loop with compiled steps ({names}): {calls} host "
                    f"round trip{'s' if calls > 1 else ''} per pass, which dominate{'s' if calls == 1 else ''} "
                    "a loop of small array work",
                    Span(loop.start, len(loop.indent) + 1, loop.start, len(loop.indent) + 1), severity="info")
        for b in breaks:
            sink.report("NPR036", b.message(),
                        Span(b.line, b.col, b.line, b.col), severity="info")
    return sink.items


def _python_loop(module: cst.Module | None, name: str) -> bool:
    """Whether the lifted function `name` kept its loop a Python loop (NPR033: jit would trace it
    one iteration at a time, so compile time grows with the trip count, without NPR035's limit):
    NumPy runs such a loop faster than XLA compiles it. A short literal range is unrolled by
    design (rewrite/rules/loop_forms.py) and stays lifted."""
    for stmt in module.body if module is not None else ():
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
            return any(isinstance(s, cst.While) or (isinstance(s, cst.For) and not (
                (args := loop_forms.range_args(s, ())) is not None and loop_forms.short_literal_range(args)))
                for s in stmt.body.body)
    return False


def _convert(text: str, filename: str, only: set[str] | None, over_rows=frozenset(), seeds=False,
             known=frozenset(), keep_generators=frozenset(), setup=frozenset()) -> ConversionResult:
    """`over_rows`: the (line, column) of the loop targets NPR204 named in a first pass, whose
    loops over a written array's rows are converted as indexed loops (frontend/rows.py); `setup`:
    (name, why) of set-up functions a first pass refused, kept host code (analysis/setup_code.py)."""
    pulled = _pulled(text, filename)
    if pulled is not None:  # a readable module's higher-order helpers, as the script's own
        result = _placed_back(_convert(pulled.text, filename, only, over_rows, seeds, known, keep_generators),
                              text, pulled.where)
        if result.ok:  # (else the helpers stay calls np2ref cannot see into, as before)
            return result
    sink = DiagnosticSink(filename, text)
    front = _front(text, filename, over_rows, seeds, only is None, keep_generators, setup)
    if front is None:
        parse(text, sink)  # reports the syntax error
        return ConversionResult(filename, text, None, sink.sorted())
    if front.lifted is not None:  # nested functions and lambdas became module helpers
        return _placed_back(_convert(front.lifted.text, filename, only, seeds=seeds, known=known,
                                     keep_generators=keep_generators), text,
                            front.lifted.where)
    module, fenced = front.module, dict(front.fenced)
    facts = dataclasses.replace(front.facts)
    if known and facts.bound is not None:
        facts.bound = facts.bound | known
    if only is not None:
        _restrict(facts, only)
    originals = fenced.pop("_originals", {})
    if "_positions" in fenced:  # every holder of the desugared module's positions sees the user's
        facts.positions._map = fenced.pop("_positions")
    marks = diagnose(facts, fenced, sink)
    if not sink.has_errors:
        rewritten, lists, loops = rewrite(module, facts, marks, sink, track_lines=only is not None)
        if originals:  # functions left unconverted keep the user's break/continue
            rewritten = jumps.restore(rewritten, originals, set(marks))
    if sink.has_errors:
        blamed = _refused_generators(facts, sink)
        if blamed:  # a function refused that makes a generator stays host code for it, as before
            return _convert(text, filename, only, over_rows, seeds, known, keep_generators | blamed, setup)
        kept = setup_code.refused_setup(facts, sink, _called_by_name(module)) if only is None else {}
        if kept:  # set-up code that writes no array: host code, the rest of the file converts
            return _convert(text, filename, only, over_rows, seeds, known, keep_generators,
                            setup | frozenset(kept.items()))
        return _retried(sink, text, filename, only, over_rows, seeds, known, keep_generators, setup) or \
            ConversionResult(filename, text, None, sink.sorted(), facts.functions, facts.host)
    code = emit_module.emit(rewritten, filename)
    if only is not None:
        code = emit_module.strip_line_marks(code)
    return ConversionResult(filename, text, code, sink.sorted(), facts.functions, facts.host, rewritten,
                            frozenset(facts.plain), lists, _host_lines(facts), tuple(sorted(loops)))


@functools.lru_cache(maxsize=4)
def _pulled(text: str, filename: str) -> imported.Pulled | None:
    """frontend/imported.py's text, once per module text (None when it imports no such helper)."""
    if not imported.has_sibling_import(text, filename):  # (no second parse of most modules)
        return None
    module = _parsed(text)
    return imported.pull_in(text, filename, module) if module is not None else None


@functools.lru_cache(maxsize=4)
def _parsed(text: str) -> cst.Module | None:
    """The module's libcst tree, parsed once per text for every stage that reads it (libcst's
    trees are immutable: sharing one is safe); None for a syntax error (parse reports it)."""
    try:
        return cst.parse_module(text)
    except Exception:  # (a syntax error; libcst raises a few other errors on odd input, as parse says)
        return None


def _host_lines(facts: ModuleFacts) -> dict[str, tuple[tuple[int, int, str], ...]]:
    """ConversionResult.host_lines: where each host function's host calls are."""
    def span(node):
        r = facts.positions[node]
        return r.start.line, r.end.line
    return {name: tuple((*span(node), why) for why, node in found) for name, found in facts.host_calls.items()}


@dataclasses.dataclass(frozen=True)
class _Front:
    """What the stages before diagnosis make of a module: the same for every function that
    `np2ref.compile` converts from it. `fenced` and `facts` are copied before use."""
    module: cst.Module | None = None
    fenced: dict | None = None
    facts: ModuleFacts | None = None
    lifted: closures.Lifted | None = None


@functools.lru_cache(maxsize=4)
def _front(text: str, filename: str, over_rows: frozenset, seeds: bool = False, setup: bool = False,
           keep_generators: frozenset = frozenset(), planned: frozenset = frozenset()) -> _Front | None:
    """parse -> lift closures -> fence -> desugar jumps -> analyse, once per module text: a
    module with twenty compiled functions is analysed once, not twenty times. None for a
    syntax error (the caller parses again to report it). `setup` (convert, not np2ref.compile,
    which needs every function it calls): a refused function the module calls that writes no
    array stays host code, as does one of `planned` ((name, why): refused when planned)."""
    module = _parsed(text)
    if module is None:
        return None
    lifted = closures.lift(text, module)
    if lifted is not None:
        return _Front(lifted=lifted)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    fenced = fence(module, wrapper, filename, text)
    refused = dict(planned)  # functions refused that the module calls: set-up code that writes no
    called = _called_by_name(module)  # array stays host code (analyse_module)
    for node, found in fenced.items():
        if setup and node.name.value in called and any(d.is_error for d in found):
            first = next(d for d in found if d.is_error)
            refused[node.name.value] = f"has {first.code} on line {first.line} ({first.message})"
    module, wrapper, fenced = _desugar_jumps(module, wrapper, fenced, over_rows)  # break/continue as flags
    return _Front(module, fenced, analyse(wrapper, None, seeds, refused, keep_generators))


def _called_by_name(module: cst.Module) -> set[str]:
    """The names the module calls as `name(...)` (a function calling itself counts too: only
    a function nothing calls is left out)."""
    return {node.func.value for node in walk(module) if isinstance(node, cst.Call) and isinstance(node.func, cst.Name)}


def _refused_generators(facts: ModuleFacts, sink: DiagnosticSink) -> frozenset[str]:
    """The functions making a generator at run time (analysis/generators.py) that hold a refusal:
    set-up code (`make_inputs` drawing from its own generator, then `np.nonzero`) was host code
    before generators were translated, and a refusal there must not block the file."""
    lines = [d.line for d in sink.items if d.is_error]
    found = set()
    for name in facts.generators & facts.functions.keys():
        r = facts.positions[facts.functions[name].node]
        if any(r.start.line <= line <= r.end.line for line in lines):
            found.add(name)
    return frozenset(found)


def _retried(sink: DiagnosticSink, text: str, filename: str, only, over_rows, seeds=False,
             known=frozenset(), keep=frozenset(), setup=frozenset()) -> ConversionResult | None:
    """The conversion again with the loops NPR204 named (iterating over a written array's rows)
    as indexed loops, when this pass found new ones; None otherwise."""
    rows = frozenset((d.line, d.col) for d in sink.items if d.code == "NPR204" and d.hint == ROWS_HINT) - over_rows
    return _convert(text, filename, only, over_rows | rows, seeds, known, keep, setup) if rows else None


def _placed_back(result: ConversionResult, text: str, where) -> ConversionResult:
    """A conversion of lifted text (analysis/closures.py) reported on the user's lines."""
    rewritten = result.rewritten.visit(closures.RemapMarks(where)) if result.rewritten is not None else None
    host_lines = {name: tuple((where[min(a, len(where) - 1)][0], where[min(b, len(where) - 1)][0], why)
                              for a, b, why in found) for name, found in result.host_lines.items()}
    return dataclasses.replace(result, source=text, rewritten=rewritten, host_lines=host_lines,
                               loops=_loops_placed(result.loops, where), diagnostics=sorted((driver.remap(d, where) for d in result.diagnostics),
                                                  key=lambda d: (d.line, d.col, d.code)))


def _loops_placed(loops, where) -> tuple:
    """ConversionResult.loops of lifted text on the user's lines (as driver.remap places a diagnostic)."""
    def place(line, col):
        to, shift = where[min(line, len(where) - 1)]
        return to, max(1, col - shift)
    return tuple(sorted((*place(line, col), *rest) for line, col, *rest in loops))


def fence(module: cst.Module, wrapper: MetadataWrapper, filename: str, text: str) -> dict[cst.FunctionDef, list[Diagnostic]]:
    """The syntax np2ref does not translate, per module function (frontend/fence.py), before any
    analysis. Reported by `diagnose` for the functions the analysis converts."""
    positions = LazyPositions(wrapper)
    found = {}
    for node in module_level_names(module)[0].values():
        own = DiagnosticSink(filename, text)
        fence_function(node, own, positions)
        found[node] = own.items
    return found


def _desugar_jumps(module: cst.Module, wrapper: MetadataWrapper, fenced: dict, over_rows=frozenset()):
    """The module with `break`/`continue` rewritten to flags (frontend/jumps.py), the loops at
    `over_rows` indexed (frontend/rows.py) and ufuncs' positional outs as `out=` (frontend/outs.py), its wrapper, and the fence findings keyed by its
    functions; positions still those of the user's text."""
    positions = LazyPositions(wrapper)

    def over(loop: cst.For) -> bool:
        if loop.target not in positions:  # a loop the desugaring made
            return False
        start = positions[loop.target].start
        return (start.line, start.column + 1) in over_rows
    desugared, origin = jumps.desugar_module(module, over if over_rows else None)
    desugared, mine = outs.normalize_module(desugared)  # np.add(a, b, c): out=c
    desugared, spaces = namespaces.normalize_module(desugared)  # xp = array_namespace(x): numpy
    mine.update({new: mine.get(old, old) for new, old in spaces.items()})
    desugared, shaped = shapes.normalize_module(desugared)  # X = np.zeros(n); X.shape = S: a rebinding
    mine.update({new: mine.get(old, old) for new, old in shaped.items()})
    if desugared is module:
        return module, wrapper, fenced
    fenced = {(new if (old := origin.get(found := mine.get(new, new), found)) in fenced else new): fenced.get(old, [])
              for new in module_level_names(desugared)[0].values()}
    originals = {new.name.value: old for new, old in origin.items()
                 if isinstance(new, cst.FunctionDef) and isinstance(old, cst.FunctionDef)}
    for new, old in mine.items():  # a node the normalization made stands for the desugared one
        if isinstance(new, cst.FunctionDef):
            originals.setdefault(new.name.value, origin.get(old, old))
        origin[new] = old
    fenced["_originals"] = originals
    fenced["_positions"] = jumps.Positions(LazyPositions(wrapper), origin)
    return desugared, MetadataWrapper(desugared, unsafe_skip_copy=True), fenced


def analyse(wrapper: MetadataWrapper, only: set[str] | None, seeds: bool = False, refused=None,
            keep_generators=frozenset()) -> ModuleFacts:
    """The module's facts (analysis/), restricted to `only` and its callees when given.
    `refused`: the functions the fence refuses, by name, with why (analyse_module's set-up code);
    `keep_generators`: functions that stay host code for the generator they make."""
    facts = analyse_module(wrapper, seeds, refused or {}, keep_generators)
    facts.bound = bound_anywhere(wrapper.module)
    if only is not None:
        _restrict(facts, only)
    return facts


def diagnose(facts: ModuleFacts, fenced: dict[cst.FunctionDef, list[Diagnostic]], sink: DiagnosticSink) -> dict:
    """Host functions (NPR021), fence findings, then the plan of every fenced-clean function
    (rewrite/marks.py runs the rules' planners, which report refusals)."""
    positions = facts.positions
    for name, why in facts.host.items():
        r = positions[facts.host_nodes[name]]
        sink.report("NPR021", f"{name}() stays NumPy host code: it {why}",
                    Span(r.start.line, r.start.column + 1, r.end.line, r.end.column + 1), severity="info")
    marks = {}
    for name, f in facts.functions.items():
        before = len(sink.items)
        for d in fenced[f.node]:
            if d not in sink.items:
                sink.items.append(d)
        if len(sink.items) == before:  # only fenced-clean functions go on to be diagnosed
            marks[name] = _mark(f, facts, sink)
    return marks


def rewrite(module: cst.Module, facts: ModuleFacts, marks: dict, sink: DiagnosticSink,
            track_lines: bool) -> tuple[cst.Module, dict[str, tuple[str, ...]], list]:
    """The converted module tree (rewrite/function.py runs the rules' emitters), the list
    parameters it found by function (ConversionResult.lists), and what became of each loop
    (ConversionResult.loops)."""
    rewriter = ModuleRewriter(facts.functions, marks, facts.imports, sink, facts.positions,
                              facts.plain, track_lines=track_lines)
    return run_transformer(module, rewriter), rewriter.lists, rewriter.loop_notes


def _restrict(facts: ModuleFacts, only: set[str]) -> None:
    """Keep the named functions and their callees (transitively); forget the rest."""
    keep: set[str] = set()
    todo = [n for n in only if n in facts.functions or n in facts.host]
    while todo:
        name = todo.pop()
        if name in keep:
            continue
        keep.add(name)
        if name in facts.functions:
            todo += [callee for _, callee in facts.functions[name].calls]
            todo += [n for n in _passed_functions(facts.functions[name]) if n in facts.functions]
    facts.functions = {n: f for n, f in facts.functions.items() if n in keep}
    facts.host = {n: r for n, r in facts.host.items() if n in keep}


def _passed_functions(f: FunctionFacts) -> set[str]:
    """The names a function uses as values that are no local of its own: passed as call
    arguments (`rk4(rhs, y0, h)` with the module's `rhs`), or chosen first and passed on
    (`limiter = minmod if flag else superbee`, `for f in (sq, cube)`): converted too, so that
    the call through the parameter runs the converted function (rt/host.py npr_call)."""
    values = (node for node in walk(f.node) for node in _value_names(node))
    return {n.value for n in values if isinstance(n, cst.Name) and n.value not in f.roots and n.value not in f.params}


def _value_names(node: cst.CSTNode):
    """The expressions in a node's value positions that may hold a function to pass on."""
    if isinstance(node, (cst.Arg, cst.Assign, cst.Element, cst.DictElement)):
        return (node.value,)
    if isinstance(node, cst.IfExp):
        return (node.body, node.orelse)
    return ()


def _mark(f: FunctionFacts, facts: ModuleFacts, sink: DiagnosticSink):
    mark = MarkPass(f, facts.functions, facts.imports, sink, facts.positions)
    mark.bound = facts.bound
    mark.objects = facts.objects
    run_visitor(f.node, mark)
    unbound.plan_unbound(mark)
    return mark.m.freeze(facts.positions)


def convert_file(path: str) -> ConversionResult:
    sink = DiagnosticSink(str(path), "")
    text = read_text(str(path), sink)
    if text is None:
        return ConversionResult(str(path), None, None, sink.sorted())
    return convert_source(text, str(path))
