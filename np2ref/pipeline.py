"""THE ordered list of stages, on one screen.

    read -> parse -> fence -> analyse -> diagnose (plan) -> rewrite -> emit

One PipelineContext (context.py) goes through the stages: the file, the text converted, the
options, the dtype policy, and one line map to the user's text. Each stage reads those from it
(`fence(ctx, ...)`, `analyse(ctx, ...)`, `rewrite(ctx, ...)`, `emit(ctx, ...)`; the stages before
diagnosis are cached by `ctx.front()`), and passes on what it makes as its value. Each stage
reports into one DiagnosticSink; a stage that finds an error stops the pipeline before anything
is emitted, so a refused file never yields a half-converted output. Three front-end passes convert a text made
from the user's again (imported helpers, closures, driver loops): each with `ctx.again`, whose
result is placed on the user's lines once, where it is made (result.placed).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc

import libcst as cst
from libcst.metadata import MetadataWrapper

from .analysis import host_code, setup_code
from .analysis.aliases import FunctionFacts
from .analysis.module import LazyPositions, ModuleFacts, analyse_module, module_level_names
from .analysis.names import bound_anywhere
from .analysis.nodes import nodes_of, run_visitor, tour, walk
from .analysis.transform import run_transformer
from .context import Fenced, PipelineContext
from .diagnostics import Diagnostic, DiagnosticSink, Span
from .policy import DtypePolicy
from .emit import module as emit_module
from .frontend import closures, driver, host_loops, host_steps, lift_appends
from .frontend import imported, jumps, last_appended, namespaces, outs, shapes, view_helpers
from .frontend.rows import ROWS_HINT
from .frontend.fence import fence_function
from .frontend.source import parse, read_text
from .rewrite.function import ModuleRewriter
from .rewrite.marks import MarkPass
from .rewrite.rules import loop_forms, unbound
from .result import ConversionResult, placed

__all__ = ["ConversionResult", "convert_file", "convert_source"]


def convert_source(text: str, filename: str = "<string>", only: set[str] | None = None,
                   seeds: bool = False, known: frozenset = frozenset(),
                   policy: DtypePolicy = DtypePolicy(), host_lifts: bool = False) -> ConversionResult:
    """Convert a module. With `only`, just those functions and the module functions they call
    (what np2ref.compile needs: a refused function elsewhere in the module does not matter).
    Without, module-level driver loops are lifted into compiled functions where that is exact.
    `seeds`: `np.random.seed(s)` is translated (seeded on the host when the program runs, in
    program order: np2ref.compile of a function that seeds); else a function that seeds stays
    host code, as a script's `main()` does (NPR021). `known`: names the module does not bind
    that the program will find bound (np2ref.compile of a closure: its cells' names). `policy`:
    what the emitted `@npr_jit`s are given (ConversionResult.code_for gives another). `host_lifts`
    (with `only`: np2ref.compile of a host function, compiled/host_function.py): the functions the
    host functions call are converted too, and the host functions' loops lifted as convert lifts them."""
    ctx = PipelineContext.of(text, filename, only, seeds=seeds, known=known, policy=policy, host_lifts=host_lifts)
    with _fewer_collections():
        result = _convert(ctx)
        if (ctx.only is not None and not host_lifts) or not result.ok:
            return result
        return _lift_driver_loops(ctx, result)


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


def _lift_driver_loops(ctx: PipelineContext, result: ConversionResult) -> ConversionResult:
    """The conversion with the module-level loops, and the top-level loops of host functions, that
    np2ref can compile lifted into functions (frontend/driver.py, frontend/host_loops.py); a loop
    whose function is refused, is host work or would run as a Python loop stays as it was."""
    text = ctx.text
    module = _parsed(text)  # (the tree _front made: a second parse of a large module is seconds)
    lifts = lift_candidates(ctx, result)
    broken: dict[str, tuple[driver.Lift, list[host_steps.Break]]] = {}  # a host loop's graph breaks
    classy = _class_culprits(result, lifts)  # a loop that calls an object's methods: steps at once
    lifts = _broken_up(module, [lift for lift in lifts if lift.holds and lift.name not in classy], [], broken) + \
        _broken_up(module, [lift for lift in lifts if lift.name in classy], [*classy.values()], broken) + [
        lift for lift in lifts if not lift.holds and lift.name not in classy]  # a loop that uses a list: steps at once
    while lifts:
        lifted, where = driver.apply(text, lifts)
        new = _convert(ctx.again(lifted, where, seeds=False, known=frozenset()) if ctx.only is None else
                       ctx.again(lifted, where, only=ctx.only | {lift.name for lift in lifts}))
        found = new.diagnostics  # (on the user's lines, as the lifts' start and end)
        inside = {lift.name: [d for d in found if lift.start <= d.line <= lift.end] for lift in lifts}
        # a lifted loop that would run as a Python loop (NPR033) is traced once per trip: a long
        # time loop would take minutes to compile, where NumPy's loop runs at once
        bad = {lift.name for lift in lifts if lift.name in new.host or lift.name not in new.functions
               or any(d.is_error for d in inside[lift.name]) or _python_loop(new.rewritten, lift.name)}
        if any(d.is_error and not any(lift.start <= d.line <= lift.end for lift in lifts) for d in found):
            if any(lift.host for lift in lifts):  # try again with the module-level loops only
                lifts = [lift for lift in lifts if not lift.host]
                continue
            return result  # the lifts disturbed a function of the user's: keep the file as it was
        if not bad:
            found = found + _break_notes(ctx, broken, lifts)
            return new.replaced(diagnostics=sorted(found, key=lambda d: (d.line, d.col, d.code)))
        host = [lift_appends.fallback(lift) if lift.appends else lift for lift in lifts
                if lift.name in bad and lift.name in new.host and host_steps.STEP not in lift.name]
        culprits = [list(new.host_lines.get(lift.name, ())) for lift in host]  # a host loop: its array work as compiled steps
        appended = [lift_appends.fallback(lift) for lift in lifts if lift.name in bad and lift.appends
                    and lift.name not in new.host]  # history lists it could not stack: steps, as a loop that uses a list
        lifts = sorted([lift for lift in lifts if lift.name not in bad] + _broken_up(module, host, culprits, broken)
                       + _broken_up(module, appended, [], broken), key=lambda lift: lift.start)
    return result


def _class_culprits(result: ConversionResult, lifts) -> dict[str, list]:
    """The host loops whose body uses an object of a module class (analysis/host_code._class_use),
    with the host function's culprits inside them: lifted whole, the object would be a parameter of
    the lifted function, its methods calls np2ref cannot see into (run while tracing)."""
    found = {}
    for lift in lifts:
        inside = [c for c in result.host_lines.get(lift.host, ()) if lift.start <= c[0] <= c[1] <= lift.end]
        if lift.host is not None and any(host_code.CLASS_USE in why for _, _, why in inside):
            found[lift.name] = inside
    return found


def lift_candidates(ctx: PipelineContext, result: ConversionResult) -> list[driver.Lift]:
    """The module-level loops and host functions' top-level loops _lift_driver_loops tries to lift
    (none: the conversion is the result; split.py checks a large module's parts on that)."""
    module = _parsed(ctx.text)
    return (driver.find_lifts(module) if ctx.only is None else []) + host_loops.find_host_lifts(module, result.host)


def _broken_up(module, loops, culprits, broken) -> list[driver.Lift]:
    """The compiled steps of host loops (frontend/host_steps.py), `culprits` the host calls of
    each (none: a loop that uses a list), their breaks noted in `broken`."""
    steps = []
    for i, lift in enumerate(loops):
        found, breaks = host_steps.find_steps(module, lift, culprits[i] if culprits else [])
        steps += found
        broken[lift.name] = (lift, breaks)
    return steps


def _break_notes(ctx: PipelineContext, broken, lifts) -> list[Diagnostic]:
    """NPR036 notes for each host loop with compiled steps: the steps, then each statement that
    stays host code, with its line and why."""
    sink = ctx.sink()
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


def _convert(ctx: PipelineContext) -> ConversionResult:
    """One pass over `ctx.text`, its result on the user's lines."""
    pulled = _pulled(ctx.text, ctx.filename)
    if pulled is not None:  # a readable module's higher-order helpers, as the script's own
        result = _convert(ctx.again(pulled.text, pulled.where))
        if result.ok:  # (else the helpers stay calls np2ref cannot see into, as before)
            return result
    sink = ctx.sink()
    front = _front(ctx.front())
    if front is None:
        parse(ctx.text, sink)  # reports the syntax error
        return placed(ctx, ConversionResult(ctx.filename, ctx.text, None, sink.sorted()))
    if front.lifted is not None:  # nested functions and lambdas became module helpers
        return _convert(ctx.again(front.lifted.text, front.lifted.where, over_rows=frozenset()))
    facts = _facts_for(ctx, front.facts, front.module)
    marks = diagnose(facts, front.fenced, sink)
    if not sink.has_errors:
        rewritten, lists, loops = rewrite(ctx, front.module, facts, marks, sink)
        if front.fenced.originals:  # functions left unconverted keep the user's break/continue
            rewritten = jumps.restore(rewritten, front.fenced.originals, set(marks))
    if sink.has_errors:
        blamed = _refused_generators(facts, sink)
        if blamed:  # a function refused that makes a generator stays host code for it, as before
            return _convert(ctx.retry(keep_generators=ctx.keep_generators | blamed))
        kept = setup_code.refused_setup(facts, sink, _called_by_name(front.module)) if ctx.setup else {}
        if kept:  # set-up code that writes no array: host code, the rest of the file converts
            return _convert(ctx.retry(planned=ctx.planned | frozenset(kept.items())))
        return _retried(ctx, sink) or placed(ctx, ConversionResult(
            ctx.filename, ctx.text, None, sink.sorted(), facts.functions, facts.host))
    return placed(ctx, ConversionResult(ctx.filename, ctx.text, functools.partial(emit, ctx, rewritten), sink.sorted(), facts.functions,
                                        facts.host, rewritten, frozenset(facts.plain), lists, _host_lines(facts),
                                        functools.partial(_loop_lines, facts.positions, loops), ctx.policy))


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


def _loop_lines(positions, notes: list) -> tuple[tuple[int, int, str, str, str], ...]:
    """ConversionResult.loops: the rewrite's loop notes (rewrite/rules/loop_notes.py) with each
    loop's line and column, in order."""
    found = []
    for loop, *rest in notes:
        start = positions[loop].start
        found.append((start.line, start.column + 1, *rest))
    return tuple(sorted(found))


def _host_lines(facts: ModuleFacts) -> dict[str, tuple[tuple[int, int, str], ...]]:
    """ConversionResult.host_lines: where each host function's host calls are."""
    def span(node):
        r = facts.positions[node]
        return r.start.line, r.end.line
    return {name: tuple((*span(node), why) for why, node in found) for name, found in facts.host_calls.items()}


@dataclasses.dataclass(frozen=True)
class _Front:
    """What the stages before diagnosis make of a module: the same for every function that
    `np2ref.compile` converts from it. `facts` is copied before use."""
    module: cst.Module | None = None
    fenced: Fenced | None = None
    facts: ModuleFacts | None = None
    lifted: closures.Lifted | None = None


@functools.lru_cache(maxsize=4)
def _front(ctx: PipelineContext) -> _Front | None:
    """parse -> lift closures -> fence -> desugar jumps -> analyse, once per module text and
    options (the caller passes ctx.front(), what these stages read of its context): a module
    with twenty compiled functions is analysed once, not twenty times. None for a syntax error
    (the caller parses again to report it). `ctx.setup` (convert, not np2ref.compile, which
    needs every function it calls): a refused function the module calls that writes no array
    stays host code, as does one of `ctx.planned` ((name, why): refused when planned)."""
    module = _parsed(ctx.text)
    if module is None:
        return None
    lifted = closures.lift(ctx.text, module)
    if lifted is not None:
        return _Front(lifted=lifted)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    tour(module)  # (one tour of the module for every visitor run in it: analysis/nodes.py)
    found = fence(ctx, module, wrapper)
    refused = dict(ctx.planned)  # functions refused that the module calls: set-up code that writes no
    called = _called_by_name(module)  # array stays host code (analyse_module)
    for node, diagnostics in found.items():
        if ctx.setup and node.name.value in called and any(d.is_error for d in diagnostics):
            first = next(d for d in diagnostics if d.is_error)
            refused[node.name.value] = f"has {first.code} on line {first.line} ({first.message})"
    module, wrapper, fenced = _desugar_jumps(ctx, module, wrapper, found)  # break/continue as flags
    tour(module)  # (the desugared module's, when it is another)
    facts = analyse(ctx, wrapper, refused)
    if fenced.positions is not None:  # every holder of the desugared module's positions sees the user's
        facts.positions.use(fenced.positions)
    return _Front(module, fenced, facts)


def _called_by_name(module: cst.Module) -> set[str]:
    """The names the module calls as `name(...)` (a function calling itself counts too: only
    a function nothing calls is left out)."""
    return {node.func.value for node in nodes_of(module, cst.Call) if isinstance(node.func, cst.Name)}


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


def _retried(ctx: PipelineContext, sink: DiagnosticSink) -> ConversionResult | None:
    """The conversion again with the loops NPR204 named (iterating over a written array's rows)
    as indexed loops, when this pass found new ones; None otherwise."""
    rows = frozenset((d.line, d.col) for d in sink.items if d.code == "NPR204" and d.hint == ROWS_HINT) - ctx.over_rows
    return _convert(ctx.retry(over_rows=ctx.over_rows | rows)) if rows else None


def fence(ctx: PipelineContext, module: cst.Module, wrapper: MetadataWrapper) -> dict[cst.FunctionDef, list[Diagnostic]]:
    """The syntax np2ref does not translate, per module function (frontend/fence.py), before any
    analysis. Reported by `diagnose` for the functions the analysis converts."""
    positions = LazyPositions(wrapper)
    found = {}
    for node in module_level_names(module)[0].values():
        own = ctx.sink()
        fence_function(node, own, positions)
        found[node] = own.items
    return found


def _desugar_jumps(ctx: PipelineContext, module: cst.Module, wrapper: MetadataWrapper, found: dict):
    """The module with `break`/`continue` rewritten to flags (frontend/jumps.py), the loops at
    `ctx.over_rows` indexed (frontend/rows.py) and ufuncs' positional outs as `out=`
    (frontend/outs.py), its wrapper, and the fence's `found` findings keyed by its functions
    (Fenced); positions still those of the user's text."""
    positions, over_rows = LazyPositions(wrapper), ctx.over_rows

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
    desugared, viewed = view_helpers.normalize_module(desugared)  # interior(u)[...] = v: u[1:-1][...] = v
    mine.update({new: mine.get(old, old) for new, old in viewed.items()})
    desugared, lasts = last_appended.normalize_module(desugared)  # hist.append(v); print(hist[-1]): v's name
    mine.update({new: mine.get(old, old) for new, old in lasts.items()})
    if desugared is module:
        return module, wrapper, Fenced(found)
    findings = {new: found.get(origin.get(made := mine.get(new, new), made), [])
                for new in module_level_names(desugared)[0].values()}
    originals = {new.name.value: old for new, old in origin.items()
                 if isinstance(new, cst.FunctionDef) and isinstance(old, cst.FunctionDef)}
    for new, old in mine.items():  # a node the normalization made stands for the desugared one
        if isinstance(new, cst.FunctionDef):
            originals.setdefault(new.name.value, origin.get(old, old))
        origin[new] = old
    fenced = Fenced(findings, originals, jumps.Positions(LazyPositions(wrapper), origin))
    return desugared, MetadataWrapper(desugared, unsafe_skip_copy=True), fenced


def analyse(ctx: PipelineContext, wrapper: MetadataWrapper, refused: dict[str, str]) -> ModuleFacts:
    """The module's facts (analysis/), for every function of it (_facts_for narrows a copy to
    one conversion's). `refused`: the functions the fence refuses, by name, with why
    (analyse_module's set-up code); `ctx.seeds`: np.random.seed translated;
    `ctx.keep_generators`: functions that stay host code for the generator they make."""
    facts = analyse_module(wrapper, ctx.seeds, refused, ctx.keep_generators)
    facts.bound = bound_anywhere(wrapper.module)
    return facts


def _facts_for(ctx: PipelineContext, facts: ModuleFacts, module: cst.Module) -> ModuleFacts:
    """A copy of the module's facts (_front's, shared by every conversion of the text) for this
    conversion: the names `ctx.known` holds bound too, only the functions `ctx.only` needs."""
    facts = dataclasses.replace(facts)
    if ctx.known and facts.bound is not None:
        facts.bound = facts.bound | ctx.known
    if ctx.only is not None:
        _restrict(facts, ctx.only, module_level_names(module)[0] if ctx.host_lifts else {})
    return facts


def diagnose(facts: ModuleFacts, fenced: Fenced, sink: DiagnosticSink) -> dict:
    """Host functions (NPR021), fence findings, then the plan of every fenced-clean function
    (rewrite/marks.py runs the rules' planners, which report refusals)."""
    positions = facts.positions
    for name, why in facts.host.items():
        r = positions[facts.host_nodes[name]]
        sink.report("NPR021", f"{name}() stays NumPy host code: it {why}",
                    Span(r.start.line, r.start.column + 1, r.end.line, r.end.column + 1), severity="info",
                    hint=host_code.host_hint(name, facts.host_nodes[name], facts.imports, why))
    marks = {}
    for name, f in facts.functions.items():
        before = len(sink.items)
        for d in fenced.findings[f.node]:
            if d not in sink.items:
                sink.items.append(d)
        if len(sink.items) == before:  # only fenced-clean functions go on to be diagnosed
            marks[name] = _mark(f, facts, sink)
    return marks


def rewrite(ctx: PipelineContext, module: cst.Module, facts: ModuleFacts, marks: dict,
            sink: DiagnosticSink) -> tuple[cst.Module, dict[str, tuple[str, ...]], list]:
    """The converted module tree (rewrite/function.py runs the rules' emitters), the list
    parameters it found by function (ConversionResult.lists), and what became of each loop
    (ConversionResult.loops). For np2ref.compile (`ctx.only`), each statement is marked with
    its line (`# @L<n>`, kept in ConversionResult.exec_source)."""
    rewriter = ModuleRewriter(facts.functions, marks, facts.imports, sink, facts.positions,
                              facts.plain, track_lines=ctx.only is not None)
    return run_transformer(module, rewriter), rewriter.lists, rewriter.loop_notes


def emit(ctx: PipelineContext, rewritten: cst.Module) -> str:
    """The converted module's text (emit/module.py), its `@npr_jit`s given the context's policy;
    without np2ref.compile's `# @L<n>` line marks (ConversionResult.exec_source keeps them)."""
    code = emit_module.emit(rewritten, ctx.filename, policy=ctx.policy)
    return code if ctx.only is None else emit_module.strip_line_marks(code)


def _restrict(facts: ModuleFacts, only: set[str], defs: dict) -> None:
    """Keep the named functions and their callees (transitively; a host function's too where
    its def is in `defs`); forget the rest."""
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
        elif name in defs:
            todo += [c.func.value for c in nodes_of(defs[name], cst.Call) if isinstance(c.func, cst.Name)]
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
