"""Storage roots: for each name in a function, the buffers it may refer to.

A root is a parameter (`param a`), an allocation site (`alloc 3`: numbered per function in the
order first met), a module-level name (`global G`). Basic slicing, `.T`, `reshape`, `ravel`,
`asarray` and `view` pass the root on (NumPy returns a view); arithmetic, copies and advanced
indexing make a new one. The analysis is flow-insensitive (a may-alias form): a name's roots are
the union over all its bindings (collect.py's one pass finds them), which is what makes the
choice "this name holds a jax.Ref" safe for every program point.

`x = f(x)` with a module function f that returns that parameter as itself binds nothing
(analysis/identity.py): it is left out of the bindings, and x keeps the roots it had.

`mutated` is the set of roots some write reaches; a name whose roots meet it must be a Ref (or a
view of one), so that every read sees every earlier write, as in NumPy.
"""

from __future__ import annotations

import collections
import dataclasses

import libcst as cst

from . import containers, reaching
from . import effects as fx
from .identity import identity_binds
from .snapshots import return_binds, snapshot_binds, window_binds
from .names import ImportMap, dotted
from .nodes import number_literal
from .numbers import python_number_names
from .collect import call_writes, chosen_functions, Collected, param_names, Write


@dataclasses.dataclass
class FunctionFacts:
    name: str
    node: cst.FunctionDef
    params: tuple[str, ...]
    roots: dict[str, frozenset[str]]
    writes: list[Write]
    mutated_roots: frozenset[str]
    ref_names: frozenset[str]
    mutated_params: tuple[str, ...]
    returns_alias: frozenset[str]
    maybe_scalar: frozenset[str]      # ref names that may hold a Python scalar (params)
    array_names: frozenset[str]       # names every binding of which is an array expression
    calls: list[tuple[cst.Call, str]]  # calls to module functions, with the callee name
    store_names: frozenset = frozenset()  # Name nodes that are assignment targets
    bindings: tuple = ()                  # (target Name, value) pairs, in source order
    for_names: frozenset = frozenset()    # loop variables (plain integers under `range`)
    returns_param: str | None = None      # the parameter returned as itself on every path
    # written parameters whose every write is `p op= v` on the name itself, no other name bound to
    # p: a jax.Array passed there is rebound in NumPy code (it cannot be written in place)
    rebound_params: tuple[str, ...] = ()
    identity_binds: frozenset = frozenset()  # `x = f(x)` Assigns that rebind x (nothing else: see identity.py)
    # of those, the ones npr_returned checks when traced (tuple items, `op=`'d parameters) -> per
    # target, the name it keeps (None: the item is bound anew)
    identity_items: dict = dataclasses.field(default_factory=dict)
    returned: object = None               # identity.ReturnedItems of this function's returns
    item_alias: tuple = ()                # per returned item, the parameters it may share storage with
    element_reads: frozenset = frozenset()  # `m = x[i, j]` values bound as elements (see _element_reads)
    # The analysis's own roots_of, which the marks pass asks: an allocation keeps the label it has
    # in `roots` (a new _RootsOf would number its sites from "alloc 1" again, and they would collide).
    roots_of: _RootsOf | None = dataclasses.field(default=None, repr=False, compare=False)
    # what the rules derive from these facts alone, made once (rewrite/rules/sequences.py's
    # integer_names and list_params: asked again at every call site of a function)
    derived: dict = dataclasses.field(default_factory=dict, repr=False, compare=False)

    def effects(self) -> fx.Effects:
        return fx.Effects(frozenset(self.mutated_params), self.returns_alias, self.params, self.returns_param,
                          self.returned, self.item_alias)

    @property
    def copied_params(self) -> tuple[str, ...]:
        """Parameters whose `.copy()` is bound to a name that is written (`x = state.copy()` then
        `x[0] += v`): a list's or dict's copy holds the caller's arrays, which NumPy writes
        through, so npr_jit's `copied=` refuses a container argument there (NPR207); an array's
        copy is fresh. A written parameter is left out: a container for it is refused as it is."""
        found = {value.func.value.value for target, value in self.bindings
                 if isinstance(target, cst.Name) and target.value in self.ref_names and isinstance(value, cst.Call)
                 and not value.args and isinstance(value.func, cst.Attribute) and value.func.attr.value == "copy"
                 and isinstance(value.func.value, cst.Name)}
        return tuple(p for p in self.params if p in found and p not in self.mutated_params)

    def dump(self) -> str:
        """Sorted `name -> {roots}` lines, then the refs and mutated parameters (for tests)."""
        lines = [f"{n} -> {{{', '.join(sorted(r))}}}" for n, r in sorted(self.roots.items()) if r]
        lines.append(f"refs: {', '.join(sorted(self.ref_names))}")
        lines.append(f"mutated params: {', '.join(self.mutated_params)}")
        return "\n".join(lines)


def _element_reads(bindings, writes, col, params=()) -> frozenset:
    """The values `x[i, j]` of bindings `m = x[i, j]` whose indices are integer-valued
    expressions: NumPy's element, a scalar copy, when there are as many indices as x has axes,
    so `m` shares no buffer with `x` (`if x[i] > m: m = x[i]` before `x /= m`; union-find's
    `i = parent[i]`). The emitted read is `npr_scalar_read(...)`, which refuses when traced if
    the read has axes left (then NumPy's `m` is a view), and checks a bare name in the index for
    an Ellipsis (`x[k]` with `k = (0, ...)` is a 0-d view). Only for names never written
    through and bound more than once, a parameter's own binding counted (a name bound once stays
    a possible view: exact as it was). `m op= v` on such an `m` rebinds the scalar (Kadane's
    `cur = a[0]` ... `cur += a[i]`): a written name, but not written through."""
    written = {w.target.value for w in writes if isinstance(w.target, cst.Name)}
    aug = {id(name) for name, _ in col.aug_names}  # `m op= v` binds m again only if m is a scalar
    bound = collections.Counter(target.value for target, _ in bindings if id(target) not in aug)
    bound.update(params)
    return frozenset(  # a name bound once stays a view, exact either way (one bound again is not)
        value for target, value in bindings
        if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and target.value not in written
        and bound[target.value] > 1 and all(isinstance(e.slice, cst.Index) and integer_index(e.slice.value)
                                            for e in value.slice))


def integer_index(e) -> bool:
    """Whether an index expression is an integer when it is valid at all: literals, names and
    attributes (checked when traced by npr_scalar_read, see index_names_to_check), elements of
    arrays (`parent[i]`), and sums, differences and products of those. Not a slice, `...`,
    `None`, a bool or a tuple or list, nor a call (evaluated again by the check)."""
    if isinstance(e, cst.Integer):
        return True
    if isinstance(e, cst.Name):
        return e.value not in ("None", "True", "False")
    if isinstance(e, cst.Attribute):
        return isinstance(e.value, cst.Name)
    if isinstance(e, cst.Subscript):
        return isinstance(e.value, cst.Name) and all(
            isinstance(s.slice, cst.Index) and integer_index(s.slice.value) for s in e.slice)
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
        return integer_index(e.expression)
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, (cst.Add, cst.Subtract, cst.Multiply)):
        return integer_index(e.left) and integer_index(e.right)
    return False


def index_names_to_check(node: cst.Subscript, for_names) -> list:
    """The index elements of an element read that are a bare name other than a loop variable
    (or an attribute): their value may be anything, an Ellipsis included, which npr_scalar_read
    checks when traced. Arithmetic on a name is an integer or fails in NumPy as in JAX."""
    return [e.slice.value for e in node.slice
            if isinstance(e.slice.value, cst.Attribute)
            or isinstance(e.slice.value, cst.Name) and e.slice.value.value not in for_names]


@dataclasses.dataclass
class _Context:
    func: cst.FunctionDef
    imports: ImportMap
    module_functions: frozenset[str]
    module_globals: frozenset[str]
    effects: dict[str, fx.Effects]
    locals: frozenset[str] = frozenset()


def analyse_function(func: cst.FunctionDef, imports: ImportMap, module_functions: frozenset[str],
                     module_globals: frozenset[str], effects: dict[str, fx.Effects],
                     positions=None, col: Collected | None = None, number_globals=frozenset()) -> FunctionFacts:
    params = param_names(func)
    col = col or Collected(func)
    ctx = _Context(func, imports, module_functions, module_globals, effects, col.locals)
    identity = _identity_binds(col, ctx, params)
    kept_targets = {id(t): kept for node, kept in identity.items() for t, kept in zip(_targets(node), kept)}
    dropped = {t for t, _ in col.bindings if kept_targets.get(id(t)) is not None}
    fresh_items = {id(t) for t, _ in col.bindings if id(t) in kept_targets and t not in dropped}
    bindings = [(t, v) for t, v in col.bindings if t not in dropped]
    calls: list = []
    chosen = chosen_functions(col.bindings, module_functions, col.locals)
    call_write_list = [w for node in col.call_nodes for w in call_writes(node, ctx, calls, chosen)]
    roots_of = _RootsOf(ctx, positions)
    writes = list(col.writes) + call_write_list

    def fixed_point(elements) -> dict[str, set[str]]:  # bindings may refer to each other (swaps, loops)
        roots: dict[str, set[str]] = {p: {f"param {p}"} for p in params}
        changed = True
        while changed:
            changed = False
            roots_of.roots = roots
            for target, value in bindings:
                new = roots_of(value) if value is not None and value not in elements else set()
                if id(target) in fresh_items:  # `e, m, A = run(A)`: e, m share no argument's storage
                    new = {roots_of.site(target)}
                cur = roots.setdefault(target.value, set())
                if not new <= cur:
                    cur |= new
                    changed = True
        return roots

    roots = fixed_point(frozenset())
    # `m = x[i, j]` of an array that is written: an element, not a view (checked when traced)
    elements = _element_reads(bindings, writes, col, params)
    if elements:
        written_roots = set().union(set(), *(roots_of(w.target) for w in writes),
                                    *(roots_of(name) for name, _ in col.aug_names))  # `x /= m` too
        elements = frozenset(v for v in elements if roots.get(v.value.value, set()) & written_roots)
        if elements:
            roots = fixed_point(elements)
    roots_of.roots = roots
    # `u = unew` of a buffer made afresh in the iteration and never written after: a load
    in_place = writes + [Write(name, stmt, "augname") for name, stmt in col.aug_names]  # `u += v` too
    snapshots = snapshot_binds(func, bindings, in_place, roots, roots_of, imports, ctx.locals)
    # `region = padded[i:i + kh, j:j + kw]` only read in the iteration: a loaded window
    snapshots |= window_binds(func, bindings, in_place, roots_of, imports, ctx.locals, col.for_names)
    snapshots |= return_binds(func, bindings, roots)
    if snapshots:
        roots = fixed_point(elements | snapshots)
        roots_of.roots = roots
    # `out[k] = v` into a local dict is an insertion, not an array write, when v shares no buffer
    # with an array that is written (else the dict would hold a Ref: refused NPR207 as before)
    dicts = containers.dict_names(bindings, params)
    inserts = [w for w in writes if w.kind == "store" and isinstance(w.target, cst.Name)
               and w.target.value in dicts and isinstance(w.node, cst.Assign)]
    writes = [w for w in writes if w not in inserts]
    # `name op= v` writes in place when `name` holds an ndarray; that is visible only if its
    # buffer is shared with another name, a parameter or a global.
    count: dict[str, int] = {}
    for rs in roots.values():
        for r in rs:
            count[r] = count.get(r, 0) + 1
    written_roots = _WriteRoots(func, col, roots_of)
    # `x = y = 0.0`: two names of one number, which no write can share (`x += v` rebinds x)
    number_sites = {site for site, node in roots_of.sites.values() if number_literal(node)}
    # ... unless another name is bound to this one (`u = t`, `prev = total`): once `op=` has made it
    # an array they share it (npr_iop rebinds it while it holds a number: maybe_scalar, augassign.py)
    shared_numbers = {v.value for _, v in bindings if isinstance(v, cst.Name)}
    numbers = python_number_names(func, bindings, col.aug_names, params,
                                  col.locals | module_functions | module_globals, number_globals)
    for name, stmt in col.aug_names:
        if name.value in numbers:  # `i -= 1` of a Python number rebinds it
            continue
        rs = written_roots(Write(name, stmt, "augname"))
        if any(count.get(r, 0) > 1 and (r not in number_sites or name.value in shared_numbers)
               or not r.startswith("alloc") for r in rs):
            writes.append(Write(name, stmt, "augname"))
    mutated = set()
    for w in writes:
        mutated |= written_roots(w)
    if any(roots_of(w.node.value) & mutated for w in inserts):
        writes += inserts
        for w in inserts:
            mutated |= roots_of(w.target)
    ref_names = {n for n, rs in roots.items() if rs & mutated}
    # `_return_1 = y, 0` (frontend/returns.py's one exit for `return y, 0`): the last binding on
    # its path, whose items are the values at the return (nothing writes after it): no Ref
    # (one holding a written parameter's array stays refused: NumPy returns the caller's object
    # itself; a parameter only read, `return x, maxit`, is no Ref)
    ref_names -= {n for n in ref_names if n.startswith("_return_") and n[8:].isdigit() and all(
        isinstance(v, (cst.Tuple, cst.List)) for t, v in bindings if t.value == n)
        and not any(r.startswith("param ") and r in mutated for r in roots[n])}
    mutated_params = tuple(p for p in params if f"param {p}" in mutated)
    rebound = tuple(p for p in mutated_params if _rebinds_only(p, writes, written_roots, roots))
    # per return, the roots of the binding that reaches it (`v = v * 2.0; return v` returns a
    # new array, not v's parameter, though the name v also held the parameter)
    items = [written_roots.returned(ret) for ret in col.return_nodes]
    returned = set().union(set(), *(r for item in items for r in item))
    returns_alias = frozenset(p for p in params if f"param {p}" in returned)
    item_alias = tuple(frozenset(p for p in params if any(f"param {p}" in item[i] for item in items))
                       for i in range(len(col.returned.items))) if col.returned is not None else ()
    subscript_written = {dotted(w.target) for w in writes if w.kind != "augname"}
    array_names = _array_names(bindings, ctx)
    # Names that may hold a scalar when `name op= v` runs (a parameter, `s = b[i]` on a 1-D b):
    # then it rebinds, else it writes in place; npr_iop decides at trace time.
    # A name bound to a number (`t = 0.0` ... `t += a[i]` ... `t[1] = 7.0`) holds a Python number
    # when an `op=` rebinds it to an array that is then written: a scalar there too; so does one
    # bound to a NumPy scalar (`t = a.sum()` ... `t += a[0]` ... `t[1] = 3.0`).
    aug_targets = {w.target.value for w in writes if w.kind == "augname"}
    augmented = {name.value for name, _ in col.aug_names}
    numbers = _number_names(bindings) & augmented
    maybe_scalar = frozenset(
        n for n in ref_names
        if (n in mutated_params and n not in subscript_written)
        or (n in (aug_targets | subscript_written & augmented) and n not in array_names and n not in params)
        or (n in numbers and n not in params))
    return FunctionFacts(
        name=func.name.value, node=func, params=params,
        roots={k: frozenset(v) for k, v in roots.items()}, writes=writes,
        mutated_roots=frozenset(mutated), ref_names=frozenset(ref_names),
        mutated_params=mutated_params, rebound_params=rebound, returns_alias=returns_alias, maybe_scalar=maybe_scalar,
        array_names=array_names, calls=calls, store_names=col.store_names - dropped, bindings=tuple(bindings),
        for_names=col.for_names, returns_param=col.returns_param, identity_binds=frozenset(identity),
        identity_items={node: kept for node, kept in identity.items() if _checked(node, ctx)},
        returned=col.returned, item_alias=item_alias,
        element_reads=elements,
        roots_of=roots_of)


def _rebinds_only(param, writes, written_roots, roots) -> bool:
    """Whether parameter `param` is written only by `param op= v` on its own name, and no other
    name holds its array (a return's own `_return_N` aside): with a jax.Array passed, NumPy's
    program rebinds the name (jax.Array has no in-place operators) and nothing else sees it."""
    root = f"param {param}"
    if any(root in rs for n, rs in roots.items() if n != param and not n.startswith("_return_")):
        return False
    return all(w.kind == "augname" and isinstance(w.target, cst.Name) and w.target.value == param
               for w in writes if root in written_roots(w))


def _identity_binds(col: Collected, ctx: _Context, params) -> dict:
    """identity_binds for one function, where each name kept is a parameter or has a binding of
    its own (else NumPy raises UnboundLocalError at the call, which the statement as written keeps)."""
    found = identity_binds(col.call_assigns, ctx.effects, ctx.module_functions, ctx.locals)
    targets = {id(t) for node in found for t in _targets(node)}
    # a name bound to a number (`E = 0.0; E = acc(E, x)`, acc `op=`ing it) is rebound by the
    # call, to NumPy's scalar: a binding as written (a number's `op=` is not in place). Outside
    # loops `x = npr_own(f(x))` keeps the Ref f returns, and binds a number's new value, as it is.
    numbers = _number_names(col.bindings)

    # A parameter used as no array in the function (`t = advance(t, dt)`, t a float) may be a
    # number, which the loop must carry: one used as an array (`Mass.sum()`) is checked when traced.
    def checked_only(node) -> bool:
        returned = ctx.effects[node.value.func.value].returned
        kept = set(found[node]) - {None}
        return returned.checked and bool(numbers & kept or not returned.unpacked and (
            node not in col.loop_assigns or kept & set(params) - col.array_uses))
    return {node: kept for node, kept in found.items()
            if all(x is None or x in params or any(t.value == x and id(t) not in targets for t, _ in col.bindings)
                   for x in kept) and not checked_only(node)}


def _targets(node: cst.Assign) -> list[cst.Name]:
    target = node.targets[0].target
    return [target] if isinstance(target, cst.Name) else [e.value for e in target.elements]


def _checked(node: cst.Assign, ctx: _Context) -> bool:
    """Whether npr_returned checks the identity bind `node` when traced (a tuple's items, or a
    parameter the callee `op=`s): the plain `x = f(x)` of identity.returned_param is exact as written."""
    returned = ctx.effects[node.value.func.value].returned
    return returned.unpacked or returned.checked


class _WriteRoots:
    """The storage a write reaches: the roots of the one binding of its name that reaches it,
    where the code shows it (`x, v = state; x = x.copy(); x += v` writes the copy only:
    analysis/reaching.py), else every root the name may hold."""

    def __init__(self, func: cst.FunctionDef, col, roots_of):
        self.func, self.col, self.roots_of = func, col, roots_of
        self.tree = None  # (reaching.parents: one walk, read by every question)

    def __call__(self, w: Write) -> set[str]:
        base = w.target
        while isinstance(base, cst.Subscript):
            base = base.value
        if not isinstance(base, cst.Name) or base.value not in self.roots_of.roots:
            return self.roots_of(w.target)
        if self.tree is None:
            self.tree = reaching.parents(self.func)
        aug = {name for name, _ in self.col.aug_names}
        targets = frozenset(t for t, _ in self.col.bindings if t.value == base.value and t not in aug)
        value = reaching.reaching_value(self.tree, w.node, base.value, targets)
        return self.roots_of(w.target) if value is None else self.roots_of(value)

    def at(self, node: cst.CSTNode, expr: cst.BaseExpression) -> set[str]:
        """The roots of `expr` evaluated at `node`: a bare name through the one binding of it
        that reaches `node` (where the code shows it), else every root the name may hold."""
        if not isinstance(expr, cst.Name) or expr.value not in self.roots_of.roots:
            return self.roots_of(expr)
        if self.tree is None:
            self.tree = reaching.parents(self.func)
        aug = {name for name, _ in self.col.aug_names}
        targets = frozenset(t for t, _ in self.col.bindings if t.value == expr.value and t not in aug)
        value = reaching.reaching_value(self.tree, node, expr.value, targets)
        return self.roots_of(expr) if value is None else self.roots_of(value)

    def returned(self, ret: cst.Return) -> list[set[str]]:
        """The roots of what `ret` returns, per item of a tuple display (one item else)."""
        value = ret.value
        if isinstance(value, (cst.Tuple, cst.List)) and not any(isinstance(e, cst.StarredElement)
                                                               for e in value.elements):
            return [self.at(ret, e.value) for e in value.elements]
        return [self.at(ret, value)]


class _RootsOf:
    """roots_of(expr): the storage an expression's value may share."""

    def __init__(self, ctx: _Context, positions):
        self.ctx = ctx
        self.positions = positions
        self.roots: dict[str, set[str]] = {}
        self.sites: dict[int, tuple[str, cst.CSTNode]] = {}

    def site(self, node: cst.CSTNode) -> str:
        """Allocation sites are numbered in the order first met: stable for dump() in tests.
        The numbers mean something only within one instance, so the passes after the analysis
        ask the analysis's own (FunctionFacts.roots_of), never a new one."""
        key = id(node)
        if key not in self.sites:
            self.sites[key] = (f"alloc {len(self.sites) + 1}", node)
        return self.sites[key][0]

    def __call__(self, expr: cst.BaseExpression, through_tuples: bool = False) -> set[str]:
        ctx = self.ctx
        if isinstance(expr, cst.Name):
            if expr.value in ctx.locals:
                return set(self.roots.get(expr.value, ()))
            if expr.value in ctx.module_globals:
                return {f"global {expr.value}"}
            return set()
        if isinstance(expr, cst.Subscript):
            return self(expr.value)
        if isinstance(expr, cst.Attribute):
            if expr.attr.value in fx.VIEW_ATTRIBUTES or expr.attr.value in fx.OPAQUE_VIEW_ATTRIBUTES:
                return self(expr.value)
            if expr.attr.value in fx.METADATA_ATTRIBUTES:
                return set()  # `x.shape`, `x.size`: Python values, no buffer (`i = n; i -= 1` rebinds)
            if ctx.imports.qualify(expr, ctx.locals) is not None:
                return set()
            return {self.site(expr)}
        if isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
            out = set() if through_tuples else {self.site(expr)}
            for e in expr.elements:  # a container holds its elements' buffers
                out |= self(e.value, through_tuples)
            return out
        if isinstance(expr, cst.Dict):
            out = {self.site(expr)}
            for e in expr.elements:
                if isinstance(e, cst.DictElement):
                    out |= self(e.value)
            return out
        if isinstance(expr, cst.IfExp):
            return self(expr.body) | self(expr.orelse)
        if isinstance(expr, cst.Call):
            return self._call(expr)
        return {self.site(expr)}

    def _call(self, call: cst.Call) -> set[str]:
        ctx = self.ctx
        takes_out = not isinstance(call.func, cst.Name) or ctx.imports.qualify_numpy(call.func, ctx.locals)
        for a in call.args:
            if takes_out and a.keyword is not None and a.keyword.value == "out":
                return self(a.value)
        positional = [a.value for a in call.args if a.keyword is None]
        if isinstance(call.func, cst.Name) and call.func.value in _SCALAR_BUILTINS and call.func.value not in ctx.locals \
                and call.func.value not in ctx.module_functions:
            return set()  # `n = len(a)`: an int, no buffer a later `i = n; i -= 1` could write
        qual = ctx.imports.qualify_numpy(call.func, ctx.locals)
        if qual is not None:
            if (fx.view_call(qual, call) or qual in fx.OPAQUE_VIEW_FUNCTIONS or fx.copy_false(call, qual)) and positional:
                return self(positional[0])
            return {self.site(call)}
        func = call.func
        if isinstance(func, cst.Attribute) and not (dotted(func) and ctx.imports.qualify(func, ctx.locals)):
            if func.attr.value in fx.VIEW_METHODS or func.attr.value in fx.OPAQUE_VIEW_METHODS or fx.copy_false(call, None):
                return self(func.value)
            return {self.site(call)}
        if isinstance(func, cst.Name) and func.value in ctx.module_functions and func.value not in ctx.locals:
            eff = ctx.effects.get(func.value, fx.Effects())
            out = {self.site(call)}
            for arg, pname in fx.call_params(call.args, eff.params):
                if pname in eff.returns_alias:
                    out |= self(arg.value)
            return out
        return {self.site(call)}


# Builtins whose result is a Python scalar or range (never an array's buffer).
_SCALAR_BUILTINS = frozenset({"len", "int", "float", "bool", "complex", "range", "str", "ord", "hash"})

_ARRAY_MAKERS = frozenset({
    "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like",
    "arange", "linspace", "array", "copy", "eye", "identity", "meshgrid",
})


def makes_array(qual: str) -> bool:
    """Whether the NumPy function `qual` always returns an array, never a NumPy scalar (a 0-d
    result of one is an array that `op=` writes in place; a reduction's is a scalar it rebinds)."""
    return qual.split(".")[-1] in _ARRAY_MAKERS | {"asarray", "asanyarray", "ascontiguousarray"}


def _number_names(bindings) -> frozenset[str]:
    """Names bound to a number literal somewhere (`t = 0.0`, `n = -1`)."""
    def number(value) -> bool:
        if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, (cst.Minus, cst.Plus)):
            return number(value.expression)
        return isinstance(value, (cst.Integer, cst.Float))
    return frozenset(t.value for t, value in bindings if isinstance(t, cst.Name) and value is not None and number(value))


def _array_names(bindings, ctx: _Context) -> frozenset[str]:
    """Names every binding of which is plainly an array (a creation call or `.copy()`)."""
    verdict: dict[str, bool] = {}
    for target, value in bindings:
        ok = False
        if isinstance(value, cst.Call):
            qual = ctx.imports.qualify_numpy(value.func, ctx.locals)
            if qual is not None and qual.split(".")[-1] in _ARRAY_MAKERS:
                ok = True
            elif isinstance(value.func, cst.Attribute) and value.func.attr.value in ("copy", "astype"):
                ok = True
        if isinstance(value, cst.Subscript) and any(
                isinstance(e.slice, cst.Slice) or (isinstance(e.slice, cst.Index) and
                                                   isinstance(e.slice.value, (cst.Ellipsis,)))
                for e in value.slice):
            ok = True  # a slice of an array is an array (a view), never a scalar
        if value is None:  # augmented assignment keeps an array an array
            ok = verdict.get(target.value, False)
        verdict[target.value] = verdict.get(target.value, True) and ok
    return frozenset(n for n, ok in verdict.items() if ok)
