"""Attributes carried through a lifted loop: a host function's loop that reads and writes the
attributes of an object it made of a plain class of the module (`s = State(x, v)`, then
`s.v -= dt * s.x` in the loop) is lifted with each attribute as a local of its own:

    def simulate(x, v, dt, n):                   def simulate(x, v, dt, n):
        s = State(x.copy(), v.copy())                s = State(x.copy(), v.copy())
        log = Log()                                  log = Log()
        for step in range(n):            ->          _s_v, _s_x = s.v, s.x
            s.v -= dt * s.x                          _s_v, _s_x = _simulate_loop_4(dt, n, _s_v, _s_x)
            s.x += dt * s.v                          s.v, s.x = _s_v, _s_x
        log.show(s.x)                                log.show(s.x)

Exact when each read of `s.a` in the loop is the object the last write left there, and the write
back leaves the object as NumPy's loop did: the class is plain (no base but `object`, no
descriptor, setter or `__slots__`; a `@property` getter that uses `self` only through its
attributes is read as written, never carried, no `__getattr__`/`__setattr__` and the like, a `@dataclass`
only without `frozen` or `slots`, an `__init__`/`__post_init__` that only reads and assigns
attributes of `self`), and the function uses the object only through its attributes (never
bare, never a method: nothing else reaches it while the loop runs). An array attribute written
in place is the same object in the local; a number rebound is written back after the call. A
name the constructor call or an assignment of an attribute reads that the loop also reads may
be the attribute's very array: not carried. Anything else: the loop as written (host code, or
its steps)."""

from __future__ import annotations

import dataclasses

import libcst as cst

from ..analysis.module_state import names_bound, names_read
from ..analysis.names import dotted
from ..analysis.nodes import nodes_of

_HOOKS = frozenset({"__getattr__", "__getattribute__", "__setattr__", "__delattr__", "__slots__",
                    "__set_name__", "__init_subclass__", "__class_getitem__", "__new__"})
_CONSTRUCTORS = frozenset({"__init__", "__post_init__"})
_LITERALS = (cst.Integer, cst.Float, cst.SimpleString, cst.Imaginary)


@dataclasses.dataclass(frozen=True)
class Carry:
    pairs: tuple[tuple[str, str, str], ...]  # (object, attribute, local), in order of the locals
    written: tuple[str, ...]                  # the locals the loop binds: written back after the call
    node: cst.CSTNode                         # the loop, each `o.a` read as its local
    lines: tuple[str, ...]                    # its text, line for line the loop's

    def before(self, indent: str) -> str:
        return f"{indent}{', '.join(l for _, _, l in self.pairs)} = {', '.join(f'{o}.{a}' for o, a, _ in self.pairs)}\n"

    def after(self, indent: str) -> str | None:
        back = [(o, a, l) for o, a, l in self.pairs if l in self.written]
        if not back:
            return None
        return f"{indent}{', '.join(f'{o}.{a}' for o, a, _ in back)} = {', '.join(l for _, _, l in back)}\n"


@dataclasses.dataclass(frozen=True)
class _Plain:
    methods: frozenset[str]  # those that use `self` only through its attributes
    attrs: frozenset[str]    # those every object has once made: fields, class names, `__init__`'s own


def plain_classes(module: cst.Module) -> dict[str, _Plain]:
    """The module's classes whose objects hold their attributes as a dict does (module docstring)."""
    found = {}
    for c in module.body:
        if isinstance(c, cst.ClassDef) and _plain(c):
            defs = [f for f in c.body.body if isinstance(f, cst.FunctionDef)]
            attrs = set().union(*(names_bound(s) for s in c.body.body if isinstance(s, cst.SimpleStatementLine)))
            if c.decorators:  # a dataclass's __init__ sets each field
                attrs |= {a.target.value for s in c.body.body if isinstance(s, cst.SimpleStatementLine)
                          for a in s.body if isinstance(a, cst.AnnAssign) and isinstance(a.target, cst.Name)}
            for f in defs:
                if f.name.value == "__init__":
                    me = f.params.params[0].name.value
                    attrs |= {t.target.attr.value for s in f.body.body if isinstance(s, cst.SimpleStatementLine)
                              for a in s.body if isinstance(a, cst.Assign) for t in a.targets
                              if isinstance(t.target, cst.Attribute) and dotted(t.target.value) == me}
            found[c.name.value] = _Plain(frozenset(f.name.value for f in defs if _keeps_self(f)), frozenset(attrs))
    return found


def _plain(c: cst.ClassDef) -> bool:
    if c.keywords or any(dotted(b.value) != "object" for b in c.bases):
        return False
    for d in c.decorators:
        call = d.decorator if isinstance(d.decorator, cst.Call) else None
        if dotted(call.func if call else d.decorator) not in ("dataclass", "dataclasses.dataclass") or (
                call and any(a.keyword is None or a.keyword.value in ("frozen", "slots") for a in call.args)):
            return False
    for stmt in c.body.body:
        if isinstance(stmt, cst.FunctionDef):
            if stmt.name.value in _HOOKS or (stmt.decorators and not _getter(stmt)) or (
                    stmt.name.value in _CONSTRUCTORS and not _keeps_self(stmt)):
                return False
        elif not (isinstance(stmt, cst.SimpleStatementLine) and all(_field(s) for s in stmt.body)):
            return False
    return True


def _getter(method: cst.FunctionDef) -> bool:
    """`@property` alone (no setter: a write raises, as the object's own would) over a method that
    uses `self` only through its attributes: read as an attribute, never carried (not one of the
    attributes an object has once made), so each read in the loop would run it; one read outside
    the loop runs as written."""
    return len(method.decorators) == 1 and dotted(method.decorators[0].decorator) == "property" \
        and _keeps_self(method)


def _field(small) -> bool:
    """A docstring, `pass`, or a field with a literal (or no) default: no descriptor."""
    if isinstance(small, cst.Expr):
        return isinstance(small.value, cst.SimpleString)
    if isinstance(small, (cst.AnnAssign, cst.Assign)):
        targets = [small.target] if isinstance(small, cst.AnnAssign) else [t.target for t in small.targets]
        return all(isinstance(t, cst.Name) and t.value not in _HOOKS for t in targets) and (
            small.value is None or isinstance(small.value, _LITERALS))
    return isinstance(small, cst.Pass)


def _keeps_self(method: cst.FunctionDef) -> bool:
    """`self` (the first parameter) only as `self.a`, never bare nor a method called: the object
    made cannot be kept anywhere else."""
    params = method.params.params
    if not params:
        return False
    me = params[0].name.value
    attrs = {id(a.value) for a in nodes_of(method.body, cst.Attribute)}
    called = {id(c.func.value) for c in nodes_of(method.body, cst.Call) if isinstance(c.func, cst.Attribute)}
    return all(id(n) in attrs and id(n) not in called for n in nodes_of(method.body, cst.Name) if n.value == me)


def instances(func: cst.FunctionDef, classes: dict[str, _Plain]) -> dict[str, tuple]:
    """The names `func` binds once, at its top level, to an object of one of `classes` (never in
    `del`): the index of the binding statement; the names the constructor call, the calls of its
    methods and the assignments of its attributes read (NumPy's objects it may hold); the attributes
    it has once made; and the first statement that uses it otherwise than as `o.a` or to call a
    method that uses `self` only so (`print(o)`, `keep(o)`): a loop after that is not carried, nor
    one that calls a method."""
    body = func.body.body if isinstance(func.body, cst.IndentedBlock) else ()
    found = {}
    for i, stmt in enumerate(body):
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
                and isinstance(small.value, cst.Call) and dotted(small.value.func) in classes:
            found.setdefault(small.targets[0].target.value, []).append((i, small))
    attrs = {id(a.value): a for a in nodes_of(func.body, cst.Attribute)}
    calls = {id(c.func.value): c for c in nodes_of(func.body, cst.Call) if isinstance(c.func, cst.Attribute)}
    params = {p.name.value for p in func.params.params}
    out = {}
    for name, binds in found.items():
        if len(binds) != 1 or name in params or sum(name in names_bound(s) for s in body) != 1:
            continue
        index, small = binds[0]
        plain = classes[dotted(small.value.func)]
        methods = plain.methods
        if any(name in names_read(d) for d in nodes_of(func.body, cst.Del)):
            continue
        held, until = _held(small.value), len(body)  # (a bare use, from statement `until` on)
        for i, stmt in enumerate(body[index + 1:], index + 1):
            uses = [n for n in nodes_of(stmt, cst.Name) if n.value == name]
            if not all(id(n) in attrs and (id(n) not in calls or calls[id(n)].func.attr.value in methods) for n in uses):
                until = i  # (the object may be kept elsewhere from here on: the loops before it only)
                break
            held |= {r for n in uses if id(n) in calls for r in names_read(calls[id(n)])}
            for a in nodes_of(stmt, cst.Assign):
                if any(isinstance(t.target, cst.Attribute) and dotted(t.target.value) == name for t in a.targets):
                    held |= names_read(a.value)
        out[name] = (index, frozenset(held - {name}), plain.attrs, until)
    return out


_SIZES = frozenset({"size", "shape", "ndim", "dtype"})


def _held(call: cst.Call) -> set[str]:
    """The names a constructor call reads that the object may hold: not those read only for a
    size (`Grid(n=u.size)`: a Python int or tuple, a dtype, never the array)."""
    sized = {id(a.value) for a in nodes_of(call, cst.Attribute) if a.attr.value in _SIZES}
    return set(names_read(call)) & {n.value for n in nodes_of(call, cst.Name) if id(n) not in sized}


class _Locals(cst.CSTTransformer):
    def __init__(self, names: dict[tuple[str, str], str]):
        self.names = names

    def leave_Attribute(self, original, updated):
        key = (dotted(original.value), original.attr.value)
        return cst.Name(self.names[key]) if key in self.names else updated


def carry(loop, index: int, found: dict, indent: str, taken: set[str]) -> Carry | None:
    """The attributes of the objects of `found` (instances) that the loop (statement `index` of
    its function, at `indent`) uses, each as a local; None when it uses none, or may hold one."""
    used = sorted({(dotted(a.value), a.attr.value) for a in nodes_of(loop, cst.Attribute)
                   if isinstance(a.value, cst.Name) and a.value.value in found and found[a.value.value][0] < index})
    methods = {dotted(c.func.value) for c in nodes_of(loop, cst.Call) if isinstance(c.func, cst.Attribute)}
    if not used or any(names_read(loop) & found[o][1] or o in methods or a not in found[o][2] or index >= found[o][3]
                       for o, a in used):
        return None
    names = {}
    for o, a in used:
        local = f"_{o}_{a}"
        while local in taken or local in names.values():
            local = "_" + local
        names[(o, a)] = local
    node = loop.with_changes(leading_lines=()).visit(_Locals(names))
    lines = cst.Module(body=[node]).code.splitlines(keepends=True)
    old = cst.Module(body=[loop.with_changes(leading_lines=())]).code.splitlines()
    if len(lines) != len(old):
        return None
    lines = [indent + line if line.strip() else line for line in lines]
    written = tuple(sorted(set(names.values()) & names_bound(node)))
    return Carry(tuple((o, a, names[(o, a)]) for o, a in used), written, node, tuple(lines))
