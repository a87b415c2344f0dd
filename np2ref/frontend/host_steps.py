"""Graph breaks: a host function's loop that holds a host call (plotting, a method of an opaque
object, a helper of another module) stays a host loop, and the array work of its body between
those calls is lifted into compiled steps (frontend/host_loops.py lifts whole loops; this file
is what it falls back to when the lifted loop turns out to be host code):

    def main():                                  def _main_step_8(F, tau):
        ...                                          F[1:] += tau * F[:-1]
        for it in range(Nt):                         u = F.sum(0)
            print(it)                                return u
            F[1:] += tau * F[:-1]        ->      def main():
            u = F.sum(0)                             ...
            plt.imshow(u)                            for it in range(Nt):
                                                         print(it)
                                                         u = _main_step_8(F, tau)
                                                         plt.imshow(u)

The host calls run on the host at their place in program order, on the very NumPy objects the
NumPy program holds there: a step writes back the arrays it changes in place (the same objects)
and returns the names it rebinds that anything later may read, so a call sees and changes what
it would in NumPy. A step is a maximal run of statements of one block (the loop's body, or a
block nested in it that holds a host call) that holds no host call and does array work. A
statement stays host code too when it reads a name that changes from pass to pass as a Python
int (an enclosing loop's index, a counter `k += 1`): passed to a compiled step, it would compile
the step once per value. The exactness conditions are host_loops' for a lifted loop (names read
bound on every path to the step, names returned bound on every path through it, nothing a nested
function sees, no two arguments that share memory); `live_after` is what the function may read
after the step, the next pass of each loop around it included.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from ..analysis.positions import module_positions
from ..analysis.module_state import names_bound, names_read
from ..analysis.nodes import contains
from . import driver, host_loops
from .host_loops import definite

STEP = "_step_"


@dataclasses.dataclass(frozen=True)
class Break:
    """A statement of a host loop that stays host code, and why (for `check` and the report)."""
    line: int
    col: int   # 1-based
    why: str
    loop: bool = False  # the statement is a loop that stays a host loop
    header: bool = False  # ... for a host call in its `for`/`while` line (`tqdm(range(n))`)

    def message(self) -> str:
        if self.header:
            return (f"line {self.line} stays a host loop, its array work compiled in steps: its `for` or `while` "
                    f"line {self.why} (run on the host each pass, as a progress bar or a clock must be)")
        return (f"line {self.line} stays a host loop, its array work compiled in steps: its body {self.why}"
                if self.loop else f"line {self.line} stays host code between compiled steps: it {self.why}")


def _in_header(loop, first: int, last: int, why: str, positions) -> bool:
    """Whether the host culprit at lines first-last is a call in the `for`/`while` line of `loop`
    (`for step in tqdm(range(n))`, `while time.time() < end`): the loop stays a host loop, which
    evaluates its header on the host each pass as NumPy's does, and its body becomes steps."""
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    return bool(body) and why.startswith("calls ") and positions[loop].start.line <= first <= last \
        < positions[body[0]].start.line


def find_steps(module: cst.Module, lift: driver.Lift, culprits) -> tuple[list[driver.Lift], list[Break]]:
    """The compiled steps of the loop `lift` (a host function's top-level loop, or a module-level
    one, found host code because of the calls at `culprits`: (first line, last line, why)), and
    the statements that stay host code. Nothing when a culprit is not a call inside the loop."""
    positions = module_positions(module)
    if lift.host is None:
        body, scope, hoist = _module_level(module, lift, positions)
    else:
        func = next((f for f in module.body if isinstance(f, cst.FunctionDef) and f.name.value == lift.host), None)
        body = list(func.body.body) if func is not None else []
        scope = host_loops._Scope(func, names_bound(module) | driver.module_objects(module)) if func else None
        hoist = positions[func.decorators[0] if func.decorators else func].start.line if func else None
    index = next((i for i, s in enumerate(body) if isinstance(s, (cst.For, cst.While))
                  and positions[s].start.line == lift.start), None)
    if index is None or not all(lift.start < a <= b <= lift.end or _in_header(body[index], a, b, why, positions)
                                for a, b, why in culprits):
        return [], []
    culprits = list(culprits) + [(a, b, f"uses `{name}`, a {kind} (a compiled step would get an array)")
                                 for name in lift.holds for a, b, kind in _uses(body[index], name, positions)]
    planner = _Planner(scope, positions, driver.module_objects(module), names_read(module) | names_bound(module),
                       culprits, module.code, hoist)
    planner.survey(body)
    bound = definite(body[:index], set(scope.params))[0]
    live = definite(body[index + 1:], set())[1] | getattr(scope, "live", set())
    for line in host_loops._simple_lines(body[index]):  # `k += 1` anywhere in the loop: a counter
        planner._counters(line)
    while True:  # a counter bound late in the body is read early on the next pass: to a fixed point
        varying = set(planner.varying)
        planner.steps, planner.breaks = [], []
        planner.plan(body[index:index + 1], bound, live)
        if planner.varying == varying:
            return planner.steps, planner.breaks


def _uses(loop, name: str, positions) -> list[tuple[int, int, str]]:
    """The lines of the simple statements of `loop` that mention `name`."""
    return [(positions[line].start.line, positions[line].end.line, "Python container")
            for line in host_loops._simple_lines(loop) if name in names_read(line) | names_bound(line)]


@dataclasses.dataclass
class _ModuleScope:
    """A module's top level as host_loops._Scope describes a host function: its locals are the
    names it binds that are neither functions, classes, imports nor small constants (those the
    steps read as module names, as the module's functions do)."""
    name: str
    locals: set[str]
    live: set[str]  # names the module's functions read: rebound, they must be returned
    params: frozenset = frozenset()
    captured: frozenset = frozenset()
    objects: frozenset = frozenset()
    declared: frozenset = frozenset()
    container_defaults: frozenset = frozenset()


def _module_level(module: cst.Module, lift: driver.Lift, positions):
    """The statements of the block the module-level loop `lift` is in, its scope, and the line
    its steps' defs go before (the loop's, or the `if __name__ == "__main__":` line)."""
    imports = driver.ImportMap(module)
    constants = driver._literal_constants(module, imports) - driver.changing_globals(module, imports)
    names = names_bound(cst.Module(body=[s for s in module.body if not isinstance(s, (cst.FunctionDef, cst.ClassDef))]))
    reads = set().union(*(driver.globals_read(f) for f in driver._all_functions(module)))
    scope = _ModuleScope("_module", names - driver.module_objects(module) - constants, reads)
    for stmt in module.body:
        if isinstance(stmt, cst.If) and driver._is_main_test(stmt.test) and stmt.orelse is None \
                and any(positions[s].start.line == lift.start for s in stmt.body.body):
            return list(stmt.body.body), scope, positions[stmt].start.line
    return list(module.body), scope, lift.start


class _Planner:
    def __init__(self, scope, positions, functions, taken, culprits, text: str, hoist: int):
        self.scope, self.positions, self.functions, self.taken = scope, positions, functions, taken
        self.culprits, self.text, self.hoist = culprits, text, hoist
        self.views: dict[str, str] = {}
        self.containers = set(scope.container_defaults)
        self.varying: set[str] = set()
        self.steps: list[driver.Lift] = []
        self.breaks: list[Break] = []

    def survey(self, body) -> None:
        """The views and containers bound anywhere in the block, before or after the loop."""
        for stmt in body:
            for line in host_loops._simple_lines(stmt):
                self.views.update(driver._views_bound(line))
                self.containers |= driver._containers_bound(line)

    def plan(self, stmts, bound: set[str], live_out: set[str]) -> None:
        """Steps and breaks of one block: `bound` the names bound on every path to it,
        `live_out` the names that may be read after it."""
        run: list = []
        for i, stmt in enumerate(stmts):
            why = self._host(stmt)
            if why is None:
                run.append(stmt)
            else:
                self._step(run, bound, _live_after(stmts[i:], live_out))
                bound = definite(run, bound)[0]
                run = []
                self._descend(stmt, bound, _live_after(stmts[i + 1:], live_out), why)
                bound = definite([stmt], bound)[0]
        self._step(run, bound, live_out)

    def _host(self, stmt) -> str | None:
        """Why `stmt` stays host code, or None when it may be part of a step."""
        first, last = self.positions[stmt].start.line, self.positions[stmt].end.line
        inside = [why for a, b, why in self.culprits if first <= a and b <= last]
        if inside:
            return inside[0]
        varying = names_read(stmt) & self.varying
        if varying:
            name = sorted(varying)[0]
            return f"reads `{name}`, a Python int that changes on each pass (compiled, once per value)"
        if _jumps(stmt):
            return "leaves or restarts the host loop (break, continue)"
        if contains(stmt, host_loops._NOT_IN_LOOP) or host_loops._SCOPE_CALLS & host_loops._called_names(stmt):
            return "holds a statement a compiled step cannot (return, yield, global, import, def, ...)"
        if (names_read(stmt) | names_bound(stmt)) & (self.scope.captured | self.scope.objects | self.scope.declared):
            return "uses a name a nested function of the host sees, or a module it imports"
        return None

    def _descend(self, stmt, bound: set[str], live_after: set[str], why: str) -> None:
        """A host statement: its nested blocks, when it holds a host call, may hold steps."""
        line, col = self.positions[stmt].start.line, self.positions[stmt].start.column + 1
        header = isinstance(stmt, (cst.For, cst.While)) and any(
            _in_header(stmt, a, b, w, self.positions) and w == why for a, b, w in self.culprits)
        if isinstance(stmt, cst.For):
            target = names_bound(cst.Assign([cst.AssignTarget(stmt.target)], cst.Name("_")))
            self.varying |= target
            self.plan(stmt.body.body, bound | target, live_after | definite([stmt], set())[1])
        elif isinstance(stmt, cst.While):
            self.plan(stmt.body.body, bound, live_after | definite([stmt], set())[1])
        elif isinstance(stmt, cst.If):
            if not any(line <= a for a, _, _ in self.culprits if a <= self.positions[stmt].end.line):
                self.breaks.append(Break(line, col, why))
            self.plan(stmt.body.body, bound, live_after)
            if isinstance(stmt.orelse, cst.If):
                self._descend(stmt.orelse, bound, live_after, why)
            elif stmt.orelse is not None:
                self.plan(stmt.orelse.body.body, bound, live_after)
            return
        else:
            self.breaks.append(Break(line, col, why))
            self._counters(stmt)
            return
        self.breaks.append(Break(line, col, why, loop=True, header=header))

    def _counters(self, stmt) -> None:
        """Names a host statement binds to a Python int (`k += 1`, `n = len(xs)`): varying."""
        for small in (stmt.body if isinstance(stmt, cst.SimpleStatementLine) else []):
            if isinstance(small, cst.AugAssign) and isinstance(small.value, cst.Integer):
                self.varying |= names_bound(small)
            elif isinstance(small, cst.Assign) and _int_valued(small.value, self.varying):
                self.varying |= names_bound(small)

    def _step(self, run, bound: set[str], live_after: set[str]) -> None:
        if not run or not driver._does_array_work(cst.Module(body=run), self.functions):
            return
        lift = self._plan(run, bound, live_after)
        if lift is not None and not driver._may_share_memory(lift.params, self.views) \
                and not self.containers & set(lift.params):
            self.steps.append(dataclasses.replace(lift, hoist=self.hoist, host=self.scope.name))

    def _plan(self, run, bound: set[str], live_after: set[str]) -> driver.Lift | None:
        incoming = definite(run, set())[1]
        binds = set().union(*(names_bound(s) for s in run))
        returns = binds & self.scope.locals & live_after
        if not returns <= definite(run, bound)[0]:
            return None  # a name the run may leave unbound that NumPy reads later
        params = (incoming & self.scope.locals) | (returns & bound)
        if not params <= bound:
            return None
        name = f"{self.scope.name if self.scope.name.startswith('_') else '_' + self.scope.name}{STEP}" \
               f"{self.positions[run[0]].start.line}"
        if name in self.taken:
            return None
        return driver.placed_run(run, self.positions, name, tuple(sorted(params)), tuple(sorted(returns)), self.text)


def _jumps(stmt) -> bool:
    """Whether `stmt` holds a `break` or `continue` of the loop around it (not of a loop of its own)."""
    if isinstance(stmt, (cst.For, cst.While)):
        return False
    if isinstance(stmt, cst.SimpleStatementLine):
        return any(isinstance(small, (cst.Break, cst.Continue)) for small in stmt.body)
    blocks = [getattr(stmt, "body", None), getattr(stmt, "orelse", None)] + list(getattr(stmt, "handlers", ()))
    blocks += [getattr(stmt, "finalbody", None)]
    return any(_jumps(inner) for block in blocks if block is not None
               for inner in (block.body.body if isinstance(getattr(block, "body", None), cst.BaseSuite)
                             else [block] if isinstance(block, cst.If) else getattr(block, "body", ())))


def _live_after(rest, live_out: set[str]) -> set[str]:
    """The names that may be read after the statements before `rest`: read by `rest` before it
    binds them, or read after the block and not bound on every path through `rest`."""
    after, incoming = definite(rest, set())
    return incoming | (live_out - after)


def _int_valued(expr, varying: set[str]) -> bool:
    """An expression of int literals, varying names, len() and int() calls."""
    if isinstance(expr, cst.Integer):
        return True
    if isinstance(expr, cst.Name):
        return expr.value in varying
    if isinstance(expr, cst.BinaryOperation):
        return _int_valued(expr.left, varying) and _int_valued(expr.right, varying)
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value in ("len", "int")
