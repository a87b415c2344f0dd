"""Operators between Python scalars: `float(x[0]) / float(x[1])`, `n * n` after `n = int(x[0])`,
`s ** 0.5` after `s = math.sqrt(v)`, `divmod(int(a[0]), k)`, `n *= 3` -> `npr_pyop(a, '/', b)`.

What: Python's float and int operators raise ZeroDivisionError, follow their own `//` and `%`, give a complex
for a negative float to a fractional power and an unbounded int; traced, a Python scalar is a weakly typed
float64 / int64 scalar, on which jax.numpy's operators give inf, 0, nan or wrap around. npr_pyop
(rt/pyscalars.py) keeps Python's rules, refusing when the call runs (NPR031) what a float64 / int64 cannot
hold.

Which expressions are Python scalars is decided here, statically: literals, `float()`, `int()`, `len()`,
one-argument `round()`, `math.*` functions (math.floor/ceil/trunc give ints), a `range` loop variable,
`abs`/`min`/`max` of those, the operators between them, and locals every binding of which is one of those (a
fixed point: `s = 0.0` ... `s += float(x[i])`). An array element `x[i]`, `np.float64(...)` or a reduction is a
NumPy scalar and keeps NumPy's rules (`x[0] / x[1]` is inf), as does anything mixed with one. Only an
operation with an operand that may come from array data (float()/int()/round()/math.* of something that is not
a literal or a size) is rewritten, and only where Python's result can differ from jax.numpy's: `+ - *` of two
ints (overflow), `/` (a zero divisor; ints beyond 2**53), `//`, `%`, divmod() unless the divisor is a literal
other than 0 and -1 (the existing npr_floordiv/npr_mod keep float signs exact there), `**`, `<<` and `>>`.
Float `+ - *` are IEEE's in both, and `& | ^ ~` of ints are exact in int64.

A parameter never rebound may be a Python float or int (`f(x, dt)` called with dt=0.0: NumPy's program runs
Python's `1.0 / dt`, a ZeroDivisionError) or an array or NumPy scalar: only the call decides. A Python scalar
divided by one (`/`, `//`, `%`, divmod(); the parameter in the divisor) is `npr_pyop(a, '/', dt,
passed=True)`: Python's rules when the value passed is a Python scalar (a weakly typed value, traced), NumPy's
operator otherwise.
"""

from __future__ import annotations

import builtins
import functools

import libcst as cst

from ...analysis.library_table import MATH_FUNCS
from ...analysis.names import dotted
from ...analysis.nodes import contains, nodes_of
from ...emit import jaxnames as J
from ..registry import emits
from ..syntax import AUG_OPS, walk
from . import pylists, pytuples
from .calls import is_static_meta
from .list_items import item_params
from .param_arithmetic import divides_by_parameter, float_constant, returns_scalar_arithmetic
from .helper_kinds import callee_kinds, Through, through_parts, unpacked_kinds

INT, FLOAT = "int", "float"
# in Scalar.passed (no name of the program): a draw's value, or an item of a list parameter read item by item
# (list_items.py: passed as a weakly typed array), a Python number when it is weakly typed
DRAWN = "_npr_drawn"
_OPS = {cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//",
        cst.Modulo: "%", cst.Power: "**", cst.LeftShift: "<<", cst.RightShift: ">>",
        cst.BitAnd: "&", cst.BitOr: "|", cst.BitXor: "^"}
_INT_ONLY = frozenset({"<<", ">>", "&", "|", "^"})  # of a float: Python's TypeError
_MATH_INT = frozenset({"floor", "ceil", "trunc"})
_MATH_BOOL = frozenset({"isnan", "isinf", "isfinite", "isclose"})


class Scalar:
    """What is known of a Python-scalar expression: the kinds it may have (int, float), whether
    it may come from array data (traced), and the parameters it holds (`passed`, names: a Python
    scalar or not, as the call decides)."""
    __slots__ = ("kinds", "data", "passed")

    def __init__(self, kinds, data, passed=frozenset()):
        self.kinds, self.data, self.passed = frozenset(kinds), data, frozenset(passed)

    def __eq__(self, other):
        return isinstance(other, Scalar) and (self.kinds, self.data, self.passed) == \
            (other.kinds, other.data, other.passed)

    def __hash__(self):
        return hash((self.kinds, self.data, self.passed))

    def join(self, other: "Scalar") -> "Scalar":
        return Scalar(self.kinds | other.kinds, self.data or other.data, self.passed | other.passed)


class _Classifier:
    def __init__(self, ctx, names: dict[str, Scalar], lists: dict[str, Scalar] | None = None, tuples=None):
        self.ctx, self.names, self.lists = ctx, names, {} if lists is None else lists  # (lists: pylists.py)
        self.tuples = {} if tuples is None else tuples  # name -> its items' Scalars (pytuples.py)
        # builtins (float, len...) a local name shadows are not Python's
        self.shadowed = frozenset(ctx.f.params) | frozenset(ctx.f.roots) | frozenset(
            t.value for t, _ in ctx.f.bindings if isinstance(t, cst.Name))
        self.passed = passed_params(ctx.f)
        self.listed = frozenset(item_params(ctx.f))  # `ks[k]` of a list of Python numbers: one of them

    def __call__(self, e: cst.BaseExpression) -> Scalar | None:
        if isinstance(e, cst.Integer):
            return Scalar({INT}, False)
        if isinstance(e, cst.Float):
            return Scalar({FLOAT}, False)
        if isinstance(e, cst.Name):
            if e.value in self.passed or module_value(self.ctx, e):
                # `1.0 / dt`: a Python float when the caller passes one; `G * dt` of a module's
                # `G = 9.81`: one when the module holds one (npr_pyreturn looks at both)
                return Scalar({INT, FLOAT}, True, passed={e.value})
            qual = self._qualify(e) if e.value not in self.names else None  # `from math import pi`
            return Scalar({FLOAT}, False) if float_constant(qual) else self.names.get(e.value)
        if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, (cst.Minus, cst.Plus)):
            return self(e.expression)
        if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.BitInvert):
            inner = self(e.expression)  # `~n` of an int: an int (exact in int64, as -n - 1); no
            return inner if inner is not None and FLOAT not in inner.kinds else None  # kind yet: _scan's start
        if isinstance(e, cst.BinaryOperation) and type(e.operator) in _OPS:
            return self._binary(_OPS[type(e.operator)], e.left, e.right)
        if isinstance(e, cst.IfExp):
            a, b = self(e.body), self(e.orelse)
            return a.join(b) if a is not None and b is not None else None
        if e in self.ctx.m.selection_sizes or isinstance(e, cst.Attribute) and e in self.ctx.m.mask_items:
            # `v.size`, `x[m].shape[0]` of a masked read, `np.nonzero(m)[0].size`: a Python int of array data
            return Scalar({INT}, True)
        if isinstance(e, cst.Attribute):
            held = module_attribute(self.ctx, e, self.shadowed)
            if held is not None:  # `Constants.G * dt`: as a module's `G` (npr_pyreturn looks at it)
                return Scalar({INT, FLOAT}, True, passed={held})
            if e.attr.value in ("size", "ndim") and self._qualify(e) is None:
                return Scalar({INT}, False)  # `k = x.size - 1`: a Python int, as `x.shape[0]` is
            return Scalar({FLOAT}, False) if float_constant(self._qualify(e)) else None
        if isinstance(e, cst.Subscript) and is_static_meta(e):  # x.shape[0]
            return Scalar({INT}, False)
        if type(e) is cst.Subscript and type(e.value) is cst.Name and e.value.value in self.tuples:
            return pytuples.item(self.tuples, e)  # `v[0]` of `v = (dt, 0.0)`
        if isinstance(e, cst.Subscript) and isinstance(e.value, cst.Name) and e.value.value in self.lists \
                and len(e.slice) == 1 and isinstance(e.slice[0].slice, cst.Index):  # `hist[-1]` (pylists.py)
            return self.lists[e.value.value]
        if isinstance(e, cst.Subscript) and isinstance(e.value, (cst.Tuple, cst.List)) and len(e.slice) == 1 \
                and isinstance(e.slice[0].slice, cst.Index) and e.value.elements \
                and all(isinstance(x, cst.Element) for x in e.value.elements):  # `for s in (0.5, 1.0)`: an item
            parts = [self(x.value) for x in e.value.elements]  # of the display (collect.py binds s to `(...)[0]`)
            return None if None in parts else functools.reduce(Scalar.join, parts)
        if isinstance(e, cst.Subscript) and isinstance(e.value, cst.Name) and e.value.value in self.listed:
            return Scalar({INT, FLOAT}, True, passed={DRAWN})  # (item_params: a single index, no slice)
        if isinstance(e, cst.Call):
            return self._call(e)
        return None

    def _qualify(self, node):
        return self.ctx.imports.qualify(node, frozenset(self.ctx.f.roots))

    def _binary(self, op, left, right) -> Scalar | None:
        a, b = self(left), self(right)
        if a is None or b is None:
            return None
        kinds = set()
        for ka in a.kinds:
            for kb in b.kinds:
                if op == "/":
                    kinds.add(FLOAT)
                elif ka == kb == INT:
                    kinds.add(INT)
                    if op == "**" and not _literal_value(right, lambda v: v >= 0):
                        kinds.add(FLOAT)  # 2 ** -1 is 0.5
                elif op in _INT_ONLY:
                    continue  # of a float: Python's TypeError, no value
                else:
                    kinds.add(FLOAT)
        if not kinds and a.kinds and b.kinds:  # only floats where ints are needed
            return None
        return Scalar(kinds, a.data or b.data, a.passed | b.passed)

    def _summed(self, seq) -> Scalar | None:
        """`sum([float(a), 1.0])`, `sum(float(x[i]) for i in r)`: Python's `0 + item + ...`, an int
        where every item is one, else a float (a comprehension's items, maybe none: the int 0 too)."""
        if isinstance(seq, (cst.List, cst.Tuple)) and all(isinstance(e, cst.Element) for e in seq.elements):
            parts, empty = [self(e.value) for e in seq.elements], not seq.elements
        elif isinstance(seq, (cst.GeneratorExp, cst.ListComp)):
            parts, empty = [self(seq.elt)], True
        else:
            return None
        if any(p is None or not p.kinds for p in parts):
            return None
        kinds = set().union(*(p.kinds for p in parts)) | ({INT} if empty else set())  # (both: the dtype tells)
        return Scalar(kinds, any(p.data for p in parts), frozenset().union(*(p.passed for p in parts)))

    def _call(self, call: cst.Call) -> Scalar | None:
        args = call.args
        if call in self.ctx.m.special_calls and self.ctx.m.special_calls[call][0] == "random":
            # `rng.exponential(s)`, `rng.random()`: a Python number when NumPy draws one (npr_random
            # gives it weakly typed), else an array: told apart when the program runs, as a parameter is
            return Scalar({INT, FLOAT}, True, passed={DRAWN})
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "item" and self._qualify(call.func) is None:
            return Scalar({INT, FLOAT}, True)  # ndarray.item(): a Python int or float of array data
        kind = callee_kinds(self.ctx, call.func.value) if isinstance(call.func, cst.Name) else None
        if isinstance(kind, str):
            return Scalar({kind}, True)  # `count(x) * 2`: a helper's Python number (pyreturns.note_kinds)
        if isinstance(kind, Through) and (parts := through_parts(self, args, kind)) is not None:
            return Scalar({INT, FLOAT}, True, frozenset().union(*(p.passed for p in parts)))  # `s = scale(t)`
        if any(a.keyword is not None or a.star for a in args) or not args:
            return None
        data = not all(is_static_meta(a.value) for a in args)
        func = call.func
        if isinstance(func, cst.Name) and func.value not in self.shadowed:
            name = func.value
            if name in ("float", "int") and len(args) == 1:
                return Scalar({FLOAT if name == "float" else INT}, data)
            if name == "len" and len(args) == 1:  # of a masked read (`len(x[m])`): array data
                return Scalar({INT}, data)
            if name == "round" and len(args) == 1:
                return Scalar({INT}, data)  # round(np.float64) is an int too
            if name == "round" and len(args) == 2:  # round(v, n): v's kind (npr_round, rt/host.py)
                return self(args[0].value)
            if name == "pow" and len(args) == 2:  # pow(a, b): a ** b
                return self._binary("**", args[0].value, args[1].value)
            if name in ("max", "min", "sum") and len(args) == 1 and _name_of(args[0].value) in self.listed:
                return Scalar({INT, FLOAT}, True, passed={DRAWN})  # of a list of numbers passed (item_params)
            if name == "sum" and len(args) == 1:
                return self._summed(args[0].value)
            if name in ("abs", "min", "max") and (len(args) == 1) == (name == "abs"):
                parts = [self(a.value) for a in args]
                if all(p is not None for p in parts):
                    out = parts[0]
                    for p in parts[1:]:
                        out = out.join(p)
                    return out
            return None
        qual = self._qualify(func)
        if qual == "numpy.size" and len(args) == 1:  # of a masked read (`np.size(x[m])`): array data
            return Scalar({INT}, data)
        if qual is None or not qual.startswith("math.") or qual[5:] not in MATH_FUNCS or qual[5:] in _MATH_BOOL:
            return None
        return Scalar({INT if qual[5:] in _MATH_INT else FLOAT}, data)


class PyScalars:
    """A function's Python scalars (ModuleRewriter.py_scalars): `names`, the locals that only ever
    hold them, with what is known of each; `classify(expr)`; `active`, whether the function has
    any (a call of float/int/round/math... or such a name: else no operator is looked at)."""

    def __init__(self, ctx=None):
        self.names: dict[str, Scalar] = {}
        self.lists: dict[str, Scalar] = {}  # lists of Python numbers: their items (rules/pylists.py)
        self.displays: frozenset = frozenset()  # the list displays bound to them
        self.items: dict[str, tuple] = {}  # tuples of Python numbers: their items (rules/pytuples.py)
        self.classify = _Classifier(ctx, self.names, self.lists, self.items) if ctx is not None else None
        self.active = False
        self.entries: set[str] = set()  # rebound parameters whose value on entry a return reads
        # (rules/pyreturns.py, at the first return: names bound only to tuple displays, each
        # item's Scalar; names bound only to True and False)
        self.tuples: dict[str, tuple] | None = None
        self.bools: frozenset[str] | None = None
        if ctx is not None:
            displays: set = set()
            self.active = _scan(ctx, self.names, (self.lists, self.items), displays)
            self.displays = frozenset(displays)

    def entry_statements(self) -> list[cst.SimpleStatementLine]:
        """`_it_passed = it` for each parameter in `entries`: what the caller passed, read by
        npr_pyreturn after the body rebinds the name (`it += 1` in a `while`)."""
        return [cst.parse_statement(f"{entry_name(p)} = {p}") for p in sorted(self.entries)]


def entry_name(param: str) -> str:
    return f"_{param}_passed"


def module_value(ctx, name: cst.Name) -> bool:
    """A name the function reads from its module (no local, parameter or builtin of that name)."""
    return name.value not in ctx.f.roots and name.value not in ctx.f.params \
        and ctx.f.roots_of(name) == {f"global {name.value}"}


def module_attribute(ctx, e: cst.Attribute, local=frozenset()) -> str | None:
    """`Constants.G`, `cfg.physics.dt`: an attribute of a name the module itself binds (a class,
    an object; not an imported module, `np.pi`, nor a builtin), as dotted text; else None.
    `local`: the function's own names (parameters and locals)."""
    text = dotted(e)
    if text is None:
        return None
    head = text.partition(".")[0]
    if head in ctx.imports.aliases or head in local or hasattr(builtins, head):
        return None
    return text


def _held_value(ctx, p: str) -> bool:
    """Whether `p` (a parameter never rebound, a module name, or a module_attribute) holds what
    the caller or the module holds."""
    return "." in p or module_value(ctx, cst.Name(p))


def passed_params(f) -> frozenset[str]:
    """The parameters never rebound in the function: each holds what the caller passed."""
    bound = {t.value for t, _ in f.bindings if isinstance(t, cst.Name)}
    return frozenset(p for p in f.params if p not in bound)


_BINDINGS = (cst.AugAssign, cst.Assign)


def _scan(ctx, names: dict[str, Scalar], held: tuple[dict, dict], displays: set) -> bool:
    """Fill `names` with the locals that only ever hold Python scalars: a greatest fixed point
    over the bindings (a name a comprehension, lambda or `:=` binds anywhere is left out); and
    `held`'s `lists` with the lists of Python numbers, `displays` with their displays (rules/pylists.py),
    its `tuples` with the tuple display names' items (rules/pytuples.py). Returns whether the
    function can have a Python scalar from array data at all."""
    f, (lists, tuples) = ctx.f, held
    augs, range_targets, excluded, branched = {}, set(), set(), False
    looped = set()  # the targets of bindings in a loop body
    passed = passed_params(f)
    sizes, items = ctx.m.selection_sizes, ctx.m.mask_items
    listed = frozenset(item_params(f))  # lists of Python numbers read item by item (list_items.py)
    item_targets = set()  # `v` of `for v in ks`, `for i, v in enumerate(ks)`: an item of one
    calls = bool(listed)
    # (one walk, each node's checks chosen by its type: libcst's node types have no subclasses, and
    # their isinstance, an ABC's, was most of this scan's time, issue 43)
    for node in walk(f.node):
        kind = type(node)
        if kind is cst.Call and not calls:
            func = node.func
            calls = isinstance(func, cst.Name) and func.value in ("float", "int", "round", "bool", "complex") or \
                isinstance(func, cst.Name) and func.value == "len" and len(node.args) == 1 \
                and not is_static_meta(node.args[0].value) or \
                isinstance(func, cst.Attribute) and func.attr.value == "item" or \
                (ctx.imports.qualify(func, frozenset(f.roots)) or "").startswith(("math.", "numpy.size")) or \
                ctx.m.special_calls.get(node, ("",))[0] == "random" or \
                isinstance(func, cst.Name) and isinstance(callee_kinds(ctx, func.value), (str, Through))
            # (`t = t * 0.5 + rng.normal()`: a draw's number; `total += count(x)`: a helper's)
        if not calls and kind is cst.Return and passed and returns_scalar_arithmetic(ctx, node, passed):
            calls = True  # `return dt * 2`: a Python float when the caller passes one (rules/pyreturns.py)
        if not calls and (node in sizes or kind is cst.Attribute and node in items):
            calls = True  # `v.size` of a masked read, `np.nonzero(m)[0].size`: array data
        if not calls and passed and (kind is cst.BinaryOperation or kind is cst.Call) \
                and divides_by_parameter(node, passed):
            calls = True  # `1.0 / dt`: Python's ZeroDivisionError when dt is a Python float
        elif kind is cst.AugAssign and isinstance(node.target, cst.Name):
            augs[id(node.target)] = node
        elif kind is cst.For and isinstance(node.target, cst.Name) and isinstance(node.iter, cst.Call) \
                and isinstance(node.iter.func, cst.Name) and node.iter.func.value == "range":
            range_targets.add(id(node.target))
        elif kind is cst.For and isinstance(node.target, (cst.Tuple, cst.List)) \
                and len(node.target.elements) == 2 and isinstance(node.target.elements[0].value, cst.Name) \
                and isinstance(node.iter, cst.Call) and isinstance(node.iter.func, cst.Name) \
                and node.iter.func.value == "enumerate" and "enumerate" not in f.roots \
                and all(a.keyword is None or a.keyword.value == "start" for a in node.iter.args):
            range_targets.add(id(node.target.elements[0].value))  # `for i, v in enumerate(x)`: i is an int
            if _name_of(node.iter.args[0].value) in listed and isinstance(node.target.elements[1].value, cst.Name):
                item_targets.add(id(node.target.elements[1].value))
        if kind is cst.For and isinstance(node.target, cst.Name) and _name_of(node.iter) in listed:
            item_targets.add(id(node.target))
        if kind is cst.For or kind is cst.While:
            for m in nodes_of(node.body, _BINDINGS):
                looped.update(id(t.target if isinstance(t, cst.AssignTarget) else t)
                              for t in (m.targets if isinstance(m, cst.Assign) else (m.target,)))
        if kind is cst.If and not branched:  # `if c: r = 1 else: r = 0` on data: a lax.cond's
            branched = contains(node, _BINDINGS)  # value, still Python's int
        if kind is cst.CompFor or kind is cst.Lambda or kind is cst.NamedExpr:
            excluded.update(n.value for n in nodes_of(node.target if kind is not cst.Lambda else node.params,
                                                      cst.Name))
    unpacked = unpacked_kinds(ctx, f)  # `road, passed = step(...)`: step's Python int
    candidates = pylists.list_candidates(ctx)  # `hist = [dt]`: a Python float's list when dt is one
    shown = pytuples.candidates(f)  # `v = (dt, 0.0)`, `v[0] + v[1]`: a Python float when dt is one
    calls = calls or bool(unpacked) or pylists.holds_names(candidates, passed) or pytuples.read_items(f, shown, passed)
    if not calls and not looped and not branched:  # no float(), int(), round(), math.*, no binding
        # in a loop or branch: no Python scalar comes from array data
        return False
    bindings: dict[str, list] = {}
    for target, value in f.bindings:
        if isinstance(target, cst.Name):
            bindings.setdefault(target.value, []).append((target, value))
    # a parameter rebound to Python scalars (`lo = mid` in a bisection) starts as what the caller passed
    names.update({n: Scalar((), False) for n in bindings if n not in excluded})
    lists.update({n: Scalar((), False) for n in candidates})
    tuples.update({n: (Scalar((), False),) * len(d[0].elements) for n, d in shown.items()})
    classify = _Classifier(ctx, names, lists, tuples)
    for _ in range(64):
        changed = pylists.settle(candidates, classify, lists, passed | {DRAWN})
        changed = pytuples.settle(shown, classify, tuples) or changed
        new = {}
        for n in names:
            out = Scalar({INT, FLOAT}, True, passed={n}) if n in f.params else Scalar((), False)
            for target, value in bindings[n]:
                if id(target) in range_targets:
                    got = Scalar({INT}, False)
                elif id(target) in unpacked:
                    got = Scalar({unpacked[id(target)]}, True)
                elif id(target) in item_targets:
                    got = Scalar({INT, FLOAT}, True, passed={DRAWN})
                elif id(target) in augs:
                    aug = augs[id(target)]
                    op = AUG_OPS.get(type(aug.operator))
                    got = classify._binary(op, target, aug.value) if op in _OPS.values() else None
                else:
                    got = None if value is None else classify(value)
                if got is None:
                    break
                if id(target) in looped and not got.data and _recurrence(target, value, augs.get(id(target))):
                    got = Scalar(got.kinds, True)  # `n *= 3` in a loop: it grows with the data's trip count
                out = out.join(got)
            else:
                new[n] = out
        if new == names and not changed:
            for n in [n for n, k in lists.items() if not k.kinds]:  # (nothing put in)
                del lists[n]
            displays.update(d for n in lists for d in candidates[n][0])
            tuples.update({n: tuple(k if k and k.kinds else None for k in ks) for n, ks in tuples.items()})
            return True
        names.clear()
        names.update(new)
    names.clear()  # pragma: no cover (no fixed point: nothing is taken for a Python scalar)
    lists.clear()
    tuples.clear()
    return True


def _recurrence(target: cst.Name, value, aug) -> bool:
    """A binding in a loop body that computes the name from itself (`n *= 3`, `n = n * k`), other
    than by adding or subtracting a literal (a counter cannot leave the int64 range)."""
    if aug is not None:
        return not (isinstance(aug.operator, (cst.AddAssign, cst.SubtractAssign)) and _literal_value(aug.value, bool))
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.Add, cst.Subtract)) \
            and _literal_value(value.right, bool) and isinstance(value.left, cst.Name) \
            and value.left.value == target.value:
        return False
    return any(isinstance(n, cst.Name) and n.value == target.value for n in walk(value))


def _literal_value(expr, test) -> bool:
    """An int or float literal (`-1` included) whose value passes `test`."""
    sign = 1
    while isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        sign = -sign if isinstance(expr.operator, cst.Minus) else sign
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float)) and test(sign * expr.evaluated_value)


def _needs_python(ctx, op: str, left, right) -> bool:
    """Whether `left op right` is between Python scalars, one of them from array data, where
    Python's result can differ from jax.numpy's."""
    a, b = ctx.py_scalars.classify(left), ctx.py_scalars.classify(right)
    if a is None or b is None or not (a.data or b.data):
        return False
    if a.passed or b.passed:  # only a Python scalar divided by a parameter (`1.0 / dt`)
        return b.passed and not a.passed and op in ("/", "//", "%", "divmod") and \
            not _literal_value(right, bool)
    ints = INT in a.kinds and INT in b.kinds
    if op in ("+", "-", "*", "<<", ">>"):
        return ints
    if op == "/":
        return ints or not _literal_value(right, lambda v: v != 0)
    if op in ("//", "%", "divmod"):
        return not _literal_value(right, lambda v: v not in (0, -1))
    return op == "**"


def _call(left, op, right, ctx=None, original_right=None) -> cst.Call:
    flags = {}
    if ctx is not None and ctx.py_scalars.classify(original_right).passed:
        flags["passed"] = cst.Name("True")  # a Python scalar's rules only if the caller passed one
    return J.call(J.PYOP, _bare(left), J.string(op), _bare(right), **flags)


def _name_of(expr) -> str | None:
    return expr.value if isinstance(expr, cst.Name) else None


def _bare(expr):
    return expr.with_changes(lpar=[], rpar=[]) if getattr(expr, "lpar", None) else expr


@emits(cst.BinaryOperation, order=40)
def emit_python_scalar_op(original: cst.BinaryOperation, updated: cst.BinaryOperation, ctx):
    op = _OPS.get(type(original.operator))
    if op is None or not ctx.py_scalars.active or not _needs_python(ctx, op, original.left, original.right):
        return None
    return _call(updated.left, op, updated.right, ctx, original.right).with_changes(lpar=updated.lpar, rpar=updated.rpar)


@emits(cst.Call, order=14)
def emit_python_divmod(original: cst.Call, updated: cst.Call, ctx):
    """`divmod(a, b)`, `pow(a, b)` between Python scalars -> `npr_pyop(a, 'divmod', b)`,
    `npr_pyop(a, '**', b)` (`pow(n, -1)` is 0.5 in Python, a TypeError from JAX's integer_pow)."""
    op = {"divmod": "divmod", "pow": "**"}.get(original.func.value) if isinstance(original.func, cst.Name) else None
    if not (ctx.py_scalars.active and op is not None
            and original.func.value not in ctx.f.roots and len(original.args) == 2
            and all(a.keyword is None and a.star == "" for a in original.args)
            and original not in ctx.m.value_wrap
            and _needs_python(ctx, op, original.args[0].value, original.args[1].value)):
        return None
    return _call(updated.args[0].value, op, updated.args[1].value, ctx, original.args[1].value)


@emits(cst.AugAssign, order=15)
def emit_python_scalar_aug(original: cst.AugAssign, updated: cst.AugAssign, ctx):
    """`n op= v` on a Python-scalar name -> `n = npr_pyop(n, op, v)` (a rebinding, as Python's)."""
    op = AUG_OPS.get(type(original.operator))
    if not isinstance(original.target, cst.Name) or op not in _OPS.values() \
            or ctx.m.iop_names.get(original) not in (None, "iop_maybe_scalar") \
            or original.target.value not in ctx.py_scalars.names \
            or not _needs_python(ctx, op, original.target, original.value):
        return None
    return cst.Assign([cst.AssignTarget(updated.target)], _call(updated.target, op, updated.value, ctx, original.value))
