"""A top-level loop nest of element reads and writes, written as a Pallas kernel (`loops="pallas"`).

What: with `np2ref.compile(fn, loops="pallas")`, a `for` loop at the top of a function whose nest
is only `range` loops and statements on array elements and scalars becomes, beside its lax loop,
a kernel function that rt/pallas.py runs with one `pl.pallas_call`:

    for j in range(n):                          def _pallas_j(A, n):
        for k in range(j):                          def _pk_j(j, _c):
            for i in range(j, n):                       def _pk_k(k, _c):
                A[i, j] -= A[i, k] * A[j, k]                def _pk_i(i, _c):
        A[j, j] = np.sqrt(A[j, j])          ->                  A[i, j] -= A[i, k] * A[j, k]
                                                                return ()
                                                            npr_pk_for(j, n, 1, _pk_i, ())
                                                            ...
                                                npr_pallas(_pallas_j, ('A', 'n'), (A, n),
                                                           lambda: npr_for(npr_range(n), _loop_j), line=1)

Accepted (else the reason goes in the loop's note and the lax loop stays): `for v in range(...)`
loops (a literal step); `X[i, j] = e`, `X[i, j] op= e` and `s = e`, `s op= e` (op: + - * /) with
one integer index per dim; values built from element reads, scalars the loop computes, names
from outside the nest, number literals, + - * / and `np.sqrt`, `np.abs`; indices and bounds from
loop variables, outside names and integer literals (+ - * // %). A loop variable used as a value
(NumPy's Python int arithmetic), a scalar the nest computes that is read outside it, or one carried
into the nest from before it are refused. Exact: the kernel runs the nest's own statements, in
order, element by element (rt/pallas.py); what it cannot run there it refuses when traced.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses

import libcst as cst

PALLAS = contextvars.ContextVar("np2ref_pallas_loops", default=False)
_OPS = {cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//", cst.Modulo: "%"}
_AUG = {cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*", cst.DivideAssign: "/"}
_FUNCS = {"sqrt": "jnp.sqrt", "abs": "jnp.abs", "absolute": "jnp.abs"}


@contextlib.contextmanager
def pallas_loops(loops: str):
    """With loops="pallas", conversions within the block write the Pallas form of eligible loop
    nests (np2ref.compile's `loops=`); with "xla", and elsewhere (files, the CLI), they do not."""
    if loops not in ("xla", "pallas"):
        raise ValueError(f"loops must be 'xla' or 'pallas', not {loops!r}")
    token = PALLAS.set(loops == "pallas")
    try:
        yield
    finally:
        PALLAS.reset(token)


class _Refuse(Exception):
    pass


@dataclasses.dataclass
class _Loop:
    var: str
    bounds: tuple[str, str, str]
    body: list
    carried: tuple[str, ...] = ()


@dataclasses.dataclass
class _Stmt:
    text: str
    reads: frozenset   # scalars of the nest it reads
    binds: str | None  # the scalar it assigns


@dataclasses.dataclass(frozen=True)
class KernelPlan:
    names: tuple[str, ...]  # the arrays and outside names the kernel takes, in order
    source: str             # the kernel function


def kernel_plan(loop: cst.For, name: str, lax_loops, outside_uses) -> KernelPlan | str:
    """The kernel for the nest `loop` (its function `name`), or why there is none. `lax_loops`:
    the loops lowered to lax loops; `outside_uses`: names used in the function outside the nest."""
    scope = _Scope()
    try:
        tree = scope.loop(loop, lax_loops)
        scope.settle()
        for t in scope.temps:
            if t in outside_uses:
                raise _Refuse(f"the scalar `{t}` it computes is used outside the nest")
        _carry(tree, frozenset())
        if tree.carried:
            raise _Refuse(f"it carries `{tree.carried[0]}` from before the nest")
    except _Refuse as why:
        return str(why)
    names = tuple(dict.fromkeys([*scope.arrays, *scope.outside]))
    lines = [f"def {name}({', '.join(names)}):"] + _lines(tree, 1)
    return KernelPlan(names, "\n".join(lines) + "\n")


class _Scope:
    """The names of the nest by role, filled while it is read."""

    def __init__(self):
        self.arrays, self.outside, self.temps, self.vars = {}, {}, {}, {}
        self.plain: set[str] = set()

    def settle(self):
        both = (set(self.arrays) & (self.plain | set(self.temps) | set(self.vars))) | (set(self.temps) & set(self.vars))
        if both:
            raise _Refuse(f"`{sorted(both)[0]}` is used both as an array and as a scalar or index")
        for n in self.temps:
            self.outside.pop(n, None)

    def loop(self, node: cst.For, lax_loops) -> _Loop:
        if node not in lax_loops or lax_loops[node].python or lax_loops[node].kind != "range":
            raise _Refuse("a loop of the nest is not a lax loop over `range`")
        if node.orelse is not None or not isinstance(node.target, cst.Name):
            raise _Refuse("a loop with an `else:` or a tuple target")
        call = node.iter
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "range"
                and 1 <= len(call.args) <= 3 and all(a.keyword is None and not a.star for a in call.args)):
            raise _Refuse("a loop that is not over `range(...)`")
        var = node.target.value
        args = [self.expr(a.value, "index") for a in call.args]
        lo, hi = ("0", args[0]) if len(args) == 1 else args[:2]
        step = call.args[2].value if len(args) == 3 else None
        if step is not None and not _literal_step(step):
            raise _Refuse("a `range` step that is not an integer literal")
        self.vars[var] = True
        body = [self.stmt(s, lax_loops) for s in node.body.body]
        return _Loop(var, (lo, hi, args[2] if len(args) == 3 else "1"), body)

    def stmt(self, s, lax_loops):
        if isinstance(s, cst.For):
            return self.loop(s, lax_loops)
        if not isinstance(s, cst.SimpleStatementLine) or len(s.body) != 1:
            raise _Refuse(f"a statement the kernel does not hold ({type(s).__name__})")
        small = s.body[0]
        if isinstance(small, cst.Pass):
            return _Stmt("pass", frozenset(), None)
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target, op, value = small.targets[0].target, "", small.value
        elif isinstance(small, cst.AugAssign) and type(small.operator) in _AUG:
            target, op, value = small.target, _AUG[type(small.operator)], small.value
        else:
            raise _Refuse(f"a statement the kernel does not hold ({type(small).__name__})")
        reads = set()
        text = self.expr(value, "value", reads)
        if isinstance(target, cst.Name):
            if target.value in self.vars or target.value in self.arrays:
                raise _Refuse(f"`{target.value}` is rebound in the nest")
            self.temps[target.value] = True
            if op:
                reads.add(target.value)
            lhs, binds = target.value, target.value
        elif isinstance(target, cst.Subscript):
            lhs, binds = self.element(target, reads), None
        else:
            raise _Refuse("an assignment to something other than a name or an element")
        return _Stmt(f"{lhs} {op}= {text}", frozenset(reads), binds)

    def element(self, node: cst.Subscript, reads) -> str:
        if not isinstance(node.value, cst.Name):
            raise _Refuse("an element of something other than a named array")
        idx = []
        for el in node.slice:
            if not isinstance(el.slice, cst.Index) or el.slice.star:
                raise _Refuse("a slice: the kernel reads and writes single elements")
            idx.append(self.expr(el.slice.value, "index", reads))
        self.arrays[node.value.value] = True
        return f"{node.value.value}[{', '.join(idx)}]"

    def expr(self, node, role, reads=None) -> str:
        reads = set() if reads is None else reads
        if isinstance(node, cst.Integer) or isinstance(node, cst.Float) and role == "value":
            return node.value
        if isinstance(node, cst.Name):
            return self.name(node.value, role, reads)
        if isinstance(node, cst.BinaryOperation) and type(node.operator) in _OPS:
            op = _OPS[type(node.operator)]
            if op in (("//", "%") if role == "value" else ("/",)):
                raise _Refuse(f"`{op}` on {'values' if role == 'value' else 'indices'}")
            return f"({self.expr(node.left, role, reads)} {op} {self.expr(node.right, role, reads)})"
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
            return f"({'-' if isinstance(node.operator, cst.Minus) else '+'}{self.expr(node.expression, role, reads)})"
        if isinstance(node, cst.Subscript) and role == "value":
            return self.element(node, reads)
        if isinstance(node, cst.Call) and role == "value" and _np_func(node) in _FUNCS and len(node.args) == 1 \
                and node.args[0].keyword is None and not node.args[0].star:
            return f"{_FUNCS[_np_func(node)]}({self.expr(node.args[0].value, role, reads)})"
        raise _Refuse(f"an expression the kernel does not hold: `{cst.Module([]).code_for_node(node)}`")

    def name(self, n, role, reads) -> str:
        if n in ("True", "False", "None", "np", "numpy", "jnp"):
            raise _Refuse(f"`{n}` in an expression")
        if n in self.vars and role == "value":
            raise _Refuse(f"the loop variable `{n}` used as a value (NumPy's Python int arithmetic)")
        if n in self.temps:
            if role == "index":
                raise _Refuse(f"the scalar `{n}` the nest computes used as an index")
            reads.add(n)
        elif n not in self.vars:
            self.outside[n] = True
            self.plain.add(n)
        return n


def _literal_step(node) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, cst.Integer) and int(node.value, 0) != 0


def _np_func(call: cst.Call) -> str:
    f = call.func
    if isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.value.value in ("np", "numpy"):
        return f.attr.value
    return ""


def _first_reads(body, defined) -> set:
    """Scalars the statements read before they bind them (a nested loop may not run: what it
    binds is not bound after it)."""
    defined, out = set(defined), set()
    for s in body:
        if isinstance(s, _Loop):
            out |= _first_reads(s.body, defined)
        else:
            out |= set(s.reads) - defined
            if s.binds:
                defined.add(s.binds)
    return out


def _binds(body) -> set:
    return {b for s in body for b in (_binds(s.body) if isinstance(s, _Loop) else {s.binds} - {None})}


def _carry(loop: _Loop, live_after) -> None:
    """Set each loop's carried scalars: those it binds that it reads before binding them, that
    are read after it, or that the loop around it carries; refuse one not bound before an
    inner loop that carries it."""
    bound = _binds(loop.body)
    loop.carried = tuple(sorted(bound & (_first_reads(loop.body, ()) | set(live_after))))
    defined = set()
    for k, s in enumerate(loop.body):
        if isinstance(s, _Loop):
            after = _first_reads(loop.body[k + 1:], defined) | set(loop.carried)
            _carry(s, after)
            if set(s.carried) - defined:
                raise _Refuse(f"the scalar `{sorted(set(s.carried) - defined)[0]}` may be unbound when a loop starts")
        elif s.binds:
            defined.add(s.binds)


def _lines(loop: _Loop, depth: int) -> list[str]:
    pad, inner = "    " * depth, "    " * (depth + 1)
    c = loop.carried
    out = [f"{pad}def _pk_{loop.var}({loop.var}, _c):"]
    if c:
        out.append(f"{inner}{', '.join(c)}, = _c")
    for s in loop.body:
        out += _lines(s, depth + 1) if isinstance(s, _Loop) else [f"{inner}{s.text}"]
    out.append(f"{inner}return ({''.join(n + ', ' for n in c)})")
    call = f"npr_pk_for({', '.join(loop.bounds)}, _pk_{loop.var}, ({''.join(n + ', ' for n in c)}))"
    out.append(f"{pad}{', '.join(c)}, = {call}" if c else f"{pad}{call}")
    return out


def top_loops(function: cst.FunctionDef) -> set[int]:
    """ids of the `for` loops of a function that no loop holds (not looking into nested defs)."""
    found: set[int] = set()

    def walk(node, inside):
        for child in node.children:
            if isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                continue
            if isinstance(child, cst.For) and not inside:
                found.add(id(child))
            walk(child, inside or isinstance(child, (cst.For, cst.While)))
    walk(function.body, False)
    return found
