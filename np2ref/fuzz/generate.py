"""The hypothesis strategy `programs(max_statements)`: random, valid, mutating NumPy programs.

A program is drawn in three steps: the arguments (arrays of float64, float32, int32, int64 or
bool, and in one draw in four int8, uint8, int16, uint16 or float16 (integers sometimes at the
ends of their range), of small random shapes, 0-d and empty included, sometimes Fortran-ordered, strided or
views of each other, plus maybe a traced float `s` and a static int `n`); then statements,
each proposed by a family (statements.py, or the loops, branches and helpers below) and kept
only when NumPy runs it (shadow.py); then a return expression.
"""

from __future__ import annotations

import time

import numpy as np
from hypothesis import strategies as st

from . import (blind_families, carry_families, edge_families, exprs, families, flow_families, habit_families, host_families,
               identity_families, idiom_families, int_families, lane_families, made_families, pick_families, plane_families, raise_families,
               reach_families, round14_families, script_families, seq_families, statements, trip_families, whole_families, world)
from .exprs import FLOATS, Gen, basic_index, condition
from .program import Block, Counter, Function, Line, Param, Program
from .shadow import Frame, evaluate

DTYPES = ["np.float64", "np.float32", "np.int32", "np.int64", "np.bool_"] * 3 + [
    "np.int8", "np.uint8", "np.int16", "np.uint16", "np.float16"]  # the small ones: 5 in 20
_EDGES = {"np.int8": [127, -128, 100], "np.uint8": [255, 200], "np.int16": [32767, -32768],
          "np.uint16": [65535, 40000]}
MAX_DEPTH = 2


# -- arguments ----------------------------------------------------------------------------
def _element(g: Gen, dtype: str):
    if dtype == "np.bool_":
        return g.chance(50)
    if dtype in _EDGES and g.chance(15):  # near the range's ends: wraparound
        return g.pick(_EDGES[dtype])
    if dtype.startswith("np.uint"):
        return g.int(0, 9)
    if dtype.startswith("np.int"):
        return g.int(-5, 9)
    return g.int(-8, 8) / 4


def _literal(g: Gen, dtype: str, shape: tuple[int, ...]) -> str:
    size = int(np.prod(shape))
    if size == 0:
        return f"np.zeros({shape}, dtype={dtype})"
    flat = [_element(g, dtype) for _ in range(size)]
    nested = np.array(flat, dtype=object).reshape(shape).tolist() if shape else flat[0]
    return f"np.array({nested!r}, dtype={dtype})"


def _shape(g: Gen) -> tuple[int, ...]:
    ndim = g.pick([2, 1, 0, 1, 1, 2, 2, 3])
    if ndim == 3:
        return tuple(g.int(1, 3) for _ in range(3))
    return tuple(g.pick([3, 1, 2, 3, 4, 4, 5]) if not g.chance(5) else 0 for _ in range(ndim))


def _array_param(g: Gen, name: str, first: tuple[str, tuple] | None) -> str:
    dtype = g.pick(DTYPES) if first is None or g.chance(60) else first[0]
    shape = _shape(g) if first is None or g.chance(45) else first[1]
    layout = g.pick(["C"] * 12 + ["F", "strided"]) if shape else "C"
    if layout == "strided":
        base = _literal(g, dtype, shape[:-1] + (2 * shape[-1],))
        return f"{base}[..., ::2]"
    literal = _literal(g, dtype, shape)
    return f"np.asfortranarray({literal})" if layout == "F" else literal


def parameters(g: Gen, family: str | None = None) -> list[Param]:
    params: list[Param] = []
    ns: dict = {"np": np}
    first = None
    for name in ["a", "b", "c"][:g.pick([2, 1, 2, 3, 3])]:
        value = None
        if params and g.chance(3):  # an argument that shares memory with an earlier one
            base = g.pick([p.name for p in params])
            value = g.pick([base, f"{base}[::-1]", f"{base}[1:]", f"{base}.T"])
            if not ns[base].ndim:
                value = base
        value = value or _array_param(g, name, first)
        params.append(Param(name, value))
        ns[name] = evaluate(value, ns)
        if first is None:
            arr = ns[name]
            first = (f"np.{arr.dtype.name}" if arr.dtype.kind != "b" else "np.bool_", arr.shape)
    if g.chance(12):  # a Generator passed in: draws from it run on the host (npr_random)
        params.append(Param("rng", f"np.random.default_rng({g.int(0, 9)})"))
    if g.chance(25):
        params.append(Param("s", g.pick(FLOATS)))
    if g.chance(15) or family in families.WANT_N and g.chance(60):  # those loop in lax loops
        params.append(Param("n", str(g.int(0, 3))))
    if family in plane_families.WANT_PLANES:  # planes big enough for rt/peepholes.py's rewrites
        params.append(Param("p", plane_families.planes_param(g)))
    if family == "list_join" or g.chance(3):  # a list argument, for list_join
        params.append(Param("w", families.list_param(g)))
    if family == "xp_calls" and g.chance(50) or g.chance(4):  # an array namespace passed in (issue 42)
        params.append(Param("xp", "np"))
    if family in blind_families.PARAMS:  # an index, a mask or a container of arrays
        params += blind_families.PARAMS[family](g, ns)
    own = {**host_families.PARAMS, **flow_families.PARAMS, **seq_families.PARAMS,  # an object, a jax.Array,
           **script_families.PARAMS, **whole_families.PARAMS, **idiom_families.PARAMS,
           **reach_families.PARAMS, **lane_families.PARAMS, **habit_families.PARAMS,
           **identity_families.PARAMS, **carry_families.PARAMS, **raise_families.PARAMS, **pick_families.PARAMS,
           **edge_families.PARAMS, **int_families.PARAMS, **trip_families.PARAMS, **made_families.PARAMS,
           **round14_families.PARAMS}.get(family)  # a Generator, the seq arrays, a 0-d array
    if own is not None:
        params += [p for p in own(g, ns) if p.name not in {q.name for q in params}]
    return params


def base_namespace(params: list[Param], helpers: list[Function]) -> dict:
    ns: dict = {"np": np, "COUNTER": Counter(), "xp": np, "time": time,  # xp: the module alias (program.py)
                **world.namespace()}
    for p in params:
        ns[p.name] = evaluate(p.value, ns)
    for h in helpers:
        exec(compile(h.source(), "<np2ref fuzz>", "exec"), ns)
    return ns


# -- statements in a scope ----------------------------------------------------------------
def fill(g: Gen, fr: Frame, count: int, helpers: list[Function]) -> None:
    """Add up to `count` statements to the scope (a few proposals may be dropped)."""
    for _ in range(3 * count):
        if len(fr.body) >= count:
            return
        kind = g.pick(_WEIGHTED + _compound(fr))
        if kind in statements.FAMILIES:
            proposal = statements.FAMILIES[kind][0](g, fr)
        else:
            proposal = _COMPOUND[kind](g, fr, helpers)
        if proposal:
            fr.add(*proposal)


_WEIGHTED = [name for name, (_, w) in statements.FAMILIES.items() for _ in range(w)]


def _compound(fr: Frame) -> list[str]:
    kinds = ["loop"] * 8 + ["static_if"] * 2 + ["data_dependent"] * 2 + ["collect"] * 2
    kinds += [name for name, (_, w) in families.FAMILIES.items() for _ in range(w)]
    if fr.depth >= MAX_DEPTH:
        kinds = []
    if not fr.in_helper:
        kinds += ["helper"] * 8
    return kinds


def _child(fr: Frame, prelude: str = "", in_helper: bool = False, ns_extra: dict | None = None,
           names: list[str] | None = None) -> Frame:
    def reset() -> dict:
        ns = fr.fresh()
        if prelude:
            exec(prelude, ns)
        ns.update(ns_extra or {})
        return ns
    return Frame(reset, names if names is not None else fr.names, fr.depth + 1, in_helper or fr.in_helper,
                 fr.shared)


def loop(g: Gen, fr: Frame, helpers: list[Function]):
    var = "k" if "k" not in fr.names else g.name("k")
    arrays = fr.arrays()
    bound = g.pick(["0", "1", "2", "2", "3"] + ["shape"] * bool(arrays) + ["n"] * ("n" in fr.ints()))
    if bound == "shape":
        t = g.pick(arrays)
        bound = f"{t}.shape[0]" if fr.ns[t].ndim else "2"
    header = f"for {var} in range({bound}):" if g.chance(85) else f"for {var} in range(1, {bound}):"
    form = loop_form(g, fr, var, bound) if g.chance(50) else None
    header, prelude, names = form or (header, f"{var} = 0", [var])
    body = _child(fr, prelude, names=fr.names + names)
    fill(g, body, g.int(1, 2), helpers)
    if g.chance(60):
        loop_index_statements(g, body, [n for n in names if n in body.ints()])
    jump_var = var if var in names else None
    stmts = [Block(header, with_jump(g, fr, jump_var, tuple(body.body)), tuple(prelude.split("\n")))]
    readers = [a for a in fr.arrays() if fr.ns[a].dtype.kind in "iuf"]
    if form is None and readers and g.chance(15):  # the loop variable read after the loop: the
        # last trip that ran (the break's), or what it was before when none ran
        stmts = [Line(f"{var} = -1"), *stmts, Line(f"{g.pick(readers)}[...] += {var}")]
    return stmts, tuple(body.names)


def loop_form(g: Gen, fr: Frame, var: str, bound: str):
    """Another way to write the loop (issue 18): (header, prelude binding the targets as in the
    first iteration, the targets) or None. `reversed(range(...))`, the rows of an array
    (`for r in a:`, written through), `enumerate`, `zip` of ranges or of rows, `np.ndindex` of a
    static shape (two loop variables: 2-D windows)."""
    rows = [a for a in fr.arrays() if fr.ns[a].ndim and fr.ns[a].shape[0]]
    form = g.pick(["reversed", "ndindex", "zip"] + ["rows", "enumerate", "zip_rows"] * bool(rows))
    k2 = g.name("k")
    if form == "reversed":
        return f"for {var} in reversed(range({bound})):", f"{var} = 0", [var]
    if form == "ndindex":
        d0, d1 = g.int(0, 3), g.int(1, 4)
        shape = g.pick([f"{d0}, {d1}", f"({d0}, {d1})"] + [f"{a}.shape" for a in fr.arrays() if fr.ns[a].ndim == 2])
        return f"for {var}, {k2} in np.ndindex({shape}):", f"{var} = 0\n{k2} = 0", [var, k2]
    if form == "zip":
        other = g.pick([f"range({bound} - 1, -1, -1)", f"range(1, {bound} + 1)", f"reversed(range({bound}))"])
        return f"for {var}, {k2} in zip(range({bound}), {other}):", f"{var} = 0\n{k2} = 0", [var, k2]
    t = g.pick(rows)
    r = g.name("r")
    if form == "rows":
        return f"for {r} in {t}:", f"{r} = {t}[0]", [r]
    if form == "enumerate":
        start = g.pick(["", "", ", 1", ", -1"])
        first = 0 if not start else int(start[2:])
        return f"for {var}, {r} in enumerate({t}{start}):", f"{var} = {first}\n{r} = {t}[0]", [var, r]
    u = g.pick(rows)
    r2 = g.name("r")
    return f"for {r}, {r2} in zip({t}, {u}):", f"{r} = {t}[0]\n{r2} = {u}[0]", [r, r2]


def loop_index_statements(g: Gen, fr: Frame, ivars: list[str]) -> None:
    """Statements on loop indices that stencil and kernel code writes (issue 18): clamped
    neighbours (`t[max(k - 1, 0)]`), a chained comparison guarding a neighbour, windows on two
    axes (`x[:, i:i + 2, j:j + 2]`), slices with a step that move with the index."""
    arrays = [a for a in fr.arrays() if fr.ns[a].ndim and fr.ns[a].shape[0] and fr.ns[a].dtype.kind in "fi"]
    if not ivars or not arrays:
        return
    k, t = g.pick(ivars), g.pick(arrays)
    arr = fr.ns[t]
    last = f"{t}.shape[0] - 1"
    form = g.pick(["clamp", "chain", "window2", "step", "step_sum", "clamped_slice"])
    op = g.pick(["=", "+="] + ["*="] * (arr.dtype.kind == "f"))
    if form == "clamp":
        at = f"min(max({k}, 0), {last})"
        lo, hi = f"max({k} - 1, 0)", f"min({k} + 1, {last})"
        lo = f"min({lo}, {last})"
        stmt = [Line(f"{t}[{at}] {op} {t}[{lo}] + {t}[{hi}]" if op != "*=" else f"{t}[{at}] *= 0.5")]
    elif form == "chain":
        a = g.pick(["0", "-1", "1"])
        stmt = [Block(f"if {a} <= {k} < {last}:", (Line(f"{t}[{k} + 1] {op} {t}[{k}]"),))]
    elif form == "window2":
        src = g.pick([a for a in arrays if fr.ns[a].ndim >= 2] or [t])
        d = fr.ns[src].shape
        k2 = g.pick(ivars)
        parts = [exprs.loop_slice(g, k, d[0])] if len(d) < 2 else             [exprs.loop_slice(g, k, d[-2]), exprs.loop_slice(g, k2, d[-1])]
        idx = ", ".join(([":"] if len(d) == 3 else []) + parts)
        if g.chance(50) or src != t:
            red = g.pick([f"{src}[{idx}].sum()", f"({src}[{idx}] * 2).sum()", f"np.sum({src}[{idx}])"])
            stmt = [Line(f"{t}[...] {op} {red}")]
        else:
            stmt = [Line(f"{t}[{idx}] {op} {g.pick([exprs.scalar(g, arr.dtype), f'{t}[{idx}] * 2'])}")]
    elif form in ("step", "step_sum"):
        step = g.pick([2, 3, -1, -2])
        w = g.pick([2, 4])
        sl = g.pick([f"{k}::{step}", f"{k}:{k} + {w}:{step}", f":{k}:{step}", f"{k}:{k} + {w} * {step}:{step}"])
        if form == "step":
            stmt = [Line(f"{t}[{sl}] {op} {g.pick([exprs.scalar(g, arr.dtype), f'{t}[{sl}] * 2'])}")]
        else:
            src = g.pick(arrays)
            stmt = [Line(f"{t}[...] {op} {src}[{sl}].sum()")]
    else:
        n = fr.ns[t].shape[0]
        lo, hi = f"max({k} - 1, 0)", f"min({k} + 2, {n})"
        stmt = [Line(f"{t}[{lo}:{hi}] {op} {g.pick([exprs.scalar(g, arr.dtype), f'{t}[{lo}:{hi}] * 2'])}")]
    fr.add(stmt)


def with_jump(g: Gen, fr: Frame, var: str, body: tuple) -> tuple:
    """Sometimes, the loop body with `if cond: break` or `if cond: continue` at a random place
    (issue 18): the condition on the loop variable, on array data, or both (a chain)."""
    if not body or not g.chance(30):
        return body
    arrays = [a for a in fr.arrays() if fr.ns[a].dtype.kind in "iuf"]
    conds = [f"{var} == {g.int(0, 2)}", f"{var} >= 1"] if var else []
    if arrays:
        a = g.pick(arrays)
        conds += [f"{a}.sum() > {g.pick(['0', '1', '-1', '2.5'])}"]
        conds += [f"0 < {var} + 1 < {a}.size", f"{a}.max() > {var}"] if var else []
    if not conds:
        return body
    jump = Block(f"if {g.pick(conds)}:", (Line(g.pick(["break", "continue"])),))
    at = g.int(0, len(body))
    return body[:at] + (jump,) + body[at:]


def static_if(g: Gen, fr: Frame, helpers: list[Function]):
    arrays = fr.arrays()
    conds = ["n > 1"] * ("n" in fr.ints()) + [f"{a}.ndim >= 1" for a in arrays[:1]] + \
            [f"{a}.size > 2" for a in arrays[-1:]]
    if not conds:
        return None
    body = _child(fr)
    fill(g, body, g.int(1, 2), helpers)
    return [Block(f"if {g.pick(conds)}:", tuple(body.body))], ()


def data_dependent(g: Gen, fr: Frame, helpers: list[Function]):
    """Branches and loops on array data: not translated yet, so they must be refused."""
    arrays = fr.arrays()
    if not arrays:
        return None
    subject = g.pick(arrays)
    kind = g.pick(["if", "while", "range"])
    body = _child(fr)
    fill(g, body, 1, helpers)
    if kind == "if":
        cond = f"{subject}.sum() > 0" if g.chance(50) else f"np.any({condition(g, fr, subject)})"
        return [Block(f"if {cond}:", tuple(body.body))], ()
    if kind == "range":
        var = g.name("k")
        return [Block(f"for {var} in range(int({subject}.sum()) % 3):", tuple(body.body))], ()
    var = g.name("i")
    step = Line(f"{var} += 1")
    return [Line(f"{var} = 0"),
            Block(f"while {var} < 2 and {subject}.sum() > 0:", tuple(body.body) + (step,))], ()


def helper(g: Gen, fr: Frame, helpers: list[Function]):
    """Define a module-level helper that mutates its argument and call it, or call one again."""
    arrays = fr.arrays()
    if not arrays:
        return None
    t = g.pick(arrays)
    arg = g.pick([t, t, f"{t}[1:]", f"{t}[::-1]", f"{t}.T", f"{t}[..., :1]"] if fr.ns[t].ndim else [t])
    if helpers and g.chance(30):
        fn = g.pick(helpers)
    else:
        fn = _define_helper(g, fr, arg, helpers)
        if fn is None:
            return None
    others = [a for a in arrays if a != t]
    same = not others or g.chance(12)  # the same buffer for `x` and `y`: the helper must see its writes
    args = [arg] + [(t if same else g.pick(others)) if p == "y" else g.pick(FLOATS[:4]) for p in fn.params[1:]]
    call = f"{fn.name}({', '.join(args)})"
    if g.chance(40):
        name = g.name("r")
        return [Line(f"{name} = {call}")], (name,)
    return [Line(call)], ()


def _define_helper(g: Gen, fr: Frame, arg: str, helpers: list[Function]) -> Function | None:
    second = g.pick(["s", "y"])

    def reset() -> dict:  # the argument as a view into a replay, so the caller's state is untouched
        x = evaluate(arg, fr.fresh())
        return {"np": np, **_helper_ns(helpers), "x": x, second: x.copy() if second == "y" else 0.5}

    try:
        scope = Frame(reset, ["x", second], fr.depth, True, fr.shared)
    except Exception:  # noqa: BLE001 - the argument expression is not valid here
        return None
    fill(g, scope, g.int(1, 3), helpers)
    ret = g.pick([None, None, "x", "x.sum()", basic_target(g, scope), second])
    fn = Function(g.name("h"), ("x", second), tuple(scope.body), ret)
    helpers.append(fn)
    fr.shared.update(_helper_ns([fn]))
    return fn


def basic_target(g: Gen, fr: Frame) -> str:
    x = fr.ns.get("x")
    return f"x[{basic_index(g, x.shape)}]" if isinstance(x, np.ndarray) else "x"


def _helper_ns(helpers: list[Function]) -> dict:
    ns: dict = {"np": np, **world.namespace()}
    for h in helpers:
        exec(compile(h.source(), "<np2ref fuzz>", "exec"), ns)
    return {h.name: ns[h.name] for h in helpers}


def collect(g: Gen, fr: Frame, helpers: list[Function]):
    """A history kept in a Python list: `hist = []`, then a loop that appends a value (an array
    reduction, a snapshot copy) every iteration, or under a branch on array data (a data-dependent
    count). The list may be returned."""
    arrays = fr.arrays()
    if not arrays:
        return None
    hist, var = g.name("hist"), g.name("k")
    t = g.pick(arrays)
    item = g.pick([f"{t}.sum()", f"{t}.sum()", f"{t}.copy()", f"float({t}.sum())" if fr.ns[t].size else f"{t}.copy()",
                   f"{t}.max()" if fr.ns[t].size else f"{t}.sum()"])
    body = _child(fr, f"{var} = 0\n{hist} = []", names=fr.names + [var])
    fill(g, body, g.int(0, 2), helpers)
    append = Line(f"{hist}.append({item})")
    if g.chance(35):
        append = Block(f"if {t}.sum() > {g.pick(['0', '1', '-1'])}:", (append,))
    bound = g.pick(["2", "3", "n"] if "n" in fr.ints() else ["2", "3", "4"])
    return [Line(f"{hist} = []"),
            Block(f"for {var} in range({bound}):", tuple(body.body) + (append,), (f"{var} = 0",))], (hist,)


_COMPOUND = {"loop": loop, "static_if": static_if, "data_dependent": data_dependent, "helper": helper,
             "collect": collect, **{name: fn for name, (fn, _) in families.FAMILIES.items()}}


# -- the return ---------------------------------------------------------------------------
def returned(g: Gen, fr: Frame) -> str | None:
    arrays = fr.arrays()
    if not arrays or g.chance(20):
        return None
    t = g.pick(arrays)
    u = g.pick(arrays)
    mask = f"{t} > 0" if fr.ns[t].dtype.kind != "b" else t
    options = [f"{t}.sum()", f"{t}.sum()", t, f"{t}[{basic_index(g, fr.ns[t].shape)}]", f"({t}, {u}.sum())",
               f"np.sum({t}[{mask}])", f"{t}.max()", f"{t}.copy()", f"({t}, {u})"]
    lists = [n for n in fr.names if isinstance(fr.ns.get(n), list)]
    if lists:  # a history the function collected: returned always, the list NumPy built
        options = [f"({g.pick(lists)}, {o})" for o in options[:3]] + [g.pick(lists)]
    for _ in range(3):
        ret = g.pick(options)
        try:
            evaluate(ret, fr.ns)
            return ret
        except Exception:  # noqa: BLE001
            continue
    return None


# -- the strategy -------------------------------------------------------------------------
@st.composite
def programs(draw, max_statements: int = 6, family: str | None = None) -> Program:
    """`family`: a family of families.py (or any compound or statement family) that every
    program holds at least once, at a random place among the others."""
    g = Gen(draw)
    params = parameters(g, family)
    helpers: list[Function] = []
    top = Frame(lambda: base_namespace(params, helpers), [p.name for p in params])
    count = g.pick(range(max(1, max_statements), 0, -1))
    if family:
        fill(g, top, g.int(0, count - 1), helpers)
        force(g, top, family, helpers)
    fill(g, top, count, helpers)
    ret = returned(g, top)
    body = tuple(top.body)
    tails = {**blind_families.TAILS, **seq_families.TAILS, **script_families.TAILS, **whole_families.TAILS,
             **lane_families.TAILS, **habit_families.TAILS, **identity_families.TAILS, **carry_families.TAILS,
             **raise_families.TAILS, **pick_families.TAILS, **edge_families.TAILS, **int_families.TAILS,
             **trip_families.TAILS, **made_families.TAILS, **round14_families.TAILS}
    chance = {**lane_families.TAIL_CHANCE, **identity_families.TAIL_CHANCE, **carry_families.TAIL_CHANCE,
              **raise_families.TAIL_CHANCE, **pick_families.TAIL_CHANCE, **edge_families.TAIL_CHANCE,
              **int_families.TAIL_CHANCE, **trip_families.TAIL_CHANCE, **made_families.TAIL_CHANCE,
              **round14_families.TAIL_CHANCE, **dict.fromkeys(habit_families.TAILS, 70)}
    if family in tails and g.chance(60 if family in blind_families.TAILS else chance.get(family, 20)):
        body, ret = tails[family](g, top, body, ret)
    if g.chance(2):
        params, line = mixed_dtypes(g, params)
        body += (line,)
    if g.chance(10):
        params, probe = index_probe(g, top, params)
        if probe is not None:
            return Program(tuple(params), tuple(helpers), body + (probe,), ret)
    return Program(tuple(params), tuple(helpers), body, ret)


def force(g: Gen, fr: Frame, family: str, helpers: list[Function]) -> None:
    """Add one proposal of `family` to the scope (up to 20 tries: NumPy may reject them)."""
    if family == "rebind" and g.chance(75):  # the loop forms of rebind_families.py, mostly
        family = "loop_rebind"
    for _ in range(20):
        if family in statements.FAMILIES:
            proposal = statements.FAMILIES[family][0](g, fr)
        else:
            proposal = _COMPOUND[family](g, fr, helpers)
        if proposal and fr.add(*proposal):
            return


def mixed_dtypes(g: Gen, params: list[Param]):
    """A last statement between an integer array and a float32 one (about 1 % of programs):
    NumPy computes `iv + fv` in float64, jax.numpy's own promotion in float32 (rt/promotion.py).
    2**24 + iv: float32 holds only even numbers there; the float64 result `dv` tells the two apart
    (a float32 one would, within float32's comparison tolerance, not)."""
    ints = f"np.array({[g.int(-3, 3) for _ in range(4)]}, dtype=np.{g.pick(['int64', 'int32'])})"
    floats = f"np.array({[g.int(-8, 8) / 4 for _ in range(4)]}, dtype=np.float32)"
    # names no statement draws
    params = params + [Param("iv", ints), Param("fv", floats), Param("dv", "np.zeros(4)")]
    a, b = ("(iv + 16777216)", "fv") if g.chance(50) else ("fv", "(iv + 16777216)")
    return params, Line(f"dv[...] = {a} {g.pick(['+', '-'])} {b}")


def index_probe(g: Gen, fr: Frame, params: list[Param]):
    """A last statement indexing an array with a traced NumPy integer `i` that may be out of
    range (not run on the shadow: NumPy may raise). np2ref must raise NumPy's IndexError with
    NumPy's message, from the call, or agree with NumPy when `i` is in range."""
    arrays = [a for a in fr.arrays() if fr.ns[a].ndim]
    if not arrays:
        return params, None
    t = g.pick(arrays)
    size = fr.ns[t].shape[0]
    params = params + [Param("i", f"np.int64({g.int(-size - 2, size + 2)})")]
    form = g.pick(["read", "store", "add_at"])
    if form == "read":
        return params, Line(f"_ = {t}[i]")
    if form == "store":
        return params, Line(f"{t}[i] = {t}[0]")
    return params, Line(f"np.add.at({t}, [i], {t}[0])")


FAMILY_NAMES = frozenset(statements.FAMILIES) | frozenset(_COMPOUND)  # for `np2ref fuzz --family`
