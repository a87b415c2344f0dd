"""Families for the forms XLA's simplifier rewrites (fuzz11), with their own arguments and weight 0
in other runs. Their data sit where a rewrite changes the answer, not the last bit: on the edges of
cells, and at the special values of floating point. The wrong answers found by hand in round 3,
session 10 (rt/divisions.py's fences) were there, where no family's data (small multiples of 1/4,
exact in every order) could reach:

    fold_edges      data on a grid of cell edges (`k * h`, and one ulp either side, for h = 0.1,
                    0.25, 1/3, 1e-3, ...), float64 and float32; literals chained onto it
                    (`(x + c1) + c2`, `(x - c1) + c2`, `(x * c1) * c2`, `c1 * (c2 * x)`,
                    `x * c1 / c2`, `x / h`), bound, stored into an array, added in place
                    (`w += c1; w += c2`) or carried by a loop (`y = y - 0.1 - 0.2`); then a
                    DECISION on the result: `.astype(np.int64)`, `np.floor`, `//`, `%`, a
                    comparison into np.where, a mask store or an `if`, np.searchsorted /
                    np.digitize bins, histogram cells
    xla_identities  the identities XLA's simplifier applies (benchmarks/xla_folds.py lists 75):
                    `np.log(np.exp(x))`, `np.sqrt(x * x)`, `np.exp(a) * np.exp(b)`, `x ** 2.0`,
                    `x / c`, `(x * 2) / 2`, `abs(x) >= 0`, `x + 0.0`, on data with -0.0, inf,
                    nan, values whose exp or square overflows or underflows to zero (never to a
                    subnormal: XLA:CPU flushes those, a documented difference), under
                    `with np.errstate(all="ignore")`; then what tells the values apart: isnan,
                    isinf, signbit, a comparison, `1.0 / v`, np.arctan2, the value itself

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

import re

from .exprs import Gen
from .program import Block, Line, Param, Stmt, render
from .reach_families import _have
from .runner import COMPILED_CALL_ONLY
from .shadow import Frame


def _pristine(fr: Frame, *names: str) -> bool:
    """f's own scope, where no statement before has touched `names`: a sum of the grid that another
    family wrote into `x` would decide in XLA's summation order (documented, not a fold), and the
    data would sit on no edge any more."""
    text = "\n".join(render(tuple(fr.body)))
    return not fr.depth and not fr.in_helper and not any(re.search(rf"\b{n}\b", text) for n in names)


def _call_only(stmts: list[Stmt]) -> list[Stmt]:
    """The statements with the runner's mark: a fence of XLA's rewrites is the compiled call's
    promise, not that of `.pure` traced by vmap (docs/semantics.md, "Floating point"), so the
    program is not checked under vmap."""
    first = stmts[0]
    if isinstance(first, Line):
        return [Line(f"{first.text}  {COMPILED_CALL_ONLY}"), *stmts[1:]]
    return [Block(f"{first.header}  {COMPILED_CALL_ONLY}", first.body, first.unwrap), *stmts[1:]]

# -- fold_edges -------------------------------------------------------------------------------
_WIDTHS = ["0.1", "0.25", "1 / 3", "1e-3", "0.7", "0.05", "0.3", "0.01", "0.2"]


def _grid(g: Gen, n: int, dtype: str) -> str:
    """`n` values on a grid of cell edges, maybe with the values one ulp either side mixed in."""
    lo, h = g.pick([0, -40, 7, -n // 2]), g.pick(_WIDTHS)
    if dtype == "np.float32":
        base = f"np.arange({lo}, {lo + n}, dtype=np.float32) * np.float32({h})"
    else:
        base = f"np.arange({lo}, {lo + n}) * {h}"
    # one ulp away from zero (`G * 2`) or towards it (`G / 2`): zero stays zero, never a subnormal
    nudge = g.pick(["", "", "up", "down", "both"])
    up, down = f"np.nextafter({base}, ({base}) * 2)", f"np.nextafter({base}, ({base}) / 2)"
    if nudge == "both":
        return f"np.concatenate([{base}, {up}, {down}])"
    return {"up": up, "down": down}.get(nudge, base)


def edge_params(g: Gen, ns: dict) -> list[Param]:
    n = g.pick([40, 90, 160, 300])
    dtype = g.pick(["np.float64", "np.float64", "np.float32"])
    x = _grid(g, n, dtype)
    size = 3 * n if "concatenate" in x else n
    h = g.pick(_WIDTHS)
    edges = g.pick([f"np.arange(-10, 40) * {h}", f"np.linspace(-3.0, 12.0, {g.pick([16, 31, 61])})",
                    "np.arange(-20, 60) * 0.5", f"np.arange(-30, 90) * {h}"])
    return [Param("x", x), Param("cells", f"np.zeros({size}, dtype=np.int64)"),
            Param("w", f"np.zeros({size}, dtype={dtype})"), Param("h", g.pick([h, "0.1", f"np.float64({h})"])),
            Param("edges", edges), Param("n", str(g.int(0, 4)))]


_CONSTS = ["0.1", "0.2", "0.7", "0.3", "1.1", "1.3", "3.0", "10.0", "0.01", "7.0", "0.6", "1e-3", "2.5"]
_CHAINS = ["({v} + {c1}) + {c2}", "{v} + {c1} + {c2}", "({v} - {c1}) + {c2}", "{v} - {c1} - {c2}",
           "({v} * {c1}) * {c2}", "{c1} * ({c2} * {v})", "{v} * {c1} / {c2}", "{v} / {c1} / {c2}",
           "({v} + {c1}) * {c2}", "{v} * {c1} + {c2}", "({v} - {c1}) / h", "{v} / h", "{c1} - ({v} + {c2})",
           "({v} + {c1}) - {c2}", "{v} * {c1} * h", "({v} + h) + {c2}", "{v} / {c1}", "({v} * {c1}) / {c1}",
           "{v} * h + {c1}", "{v} + {c1} - {c1}"]


def _chain(g: Gen, v: str) -> str:
    return g.pick(_CHAINS).format(v=v, c1=g.pick(_CONSTS), c2=g.pick(_CONSTS))


def _made(g: Gen, y: str) -> list[Stmt]:
    """`y` bound to a chain of x: as it is, through a store into `w`, `op=` in place, a loop's carry."""
    form = g.pick(["bind", "bind", "store", "in_place", "loop", "loop", "local_const", "grid"])
    if form == "grid":  # a grid made in f from np.arange: LLVM proves it no NaN (the product fence's test)
        c1, c2 = g.pick(_CONSTS), g.pick(_CONSTS)
        return [Line(f"{y} = {g.pick(['np.arange(x.shape[0])', 'np.arange(-20, x.shape[0] - 20)', 'np.arange(x.size) * 1.0'])}"
                     f" * {c1} + {c2}{g.pick(['', ' + 0.7', ' - 0.1'])}"),
                Line(g.pick([f"{y} = np.searchsorted({y}, x)", f"{y} = {y} + x * 0.0", f"{y} = {y}"]))]
    if form == "store":
        return [Line(f"w[...] = {_chain(g, 'x')}"), Line(f"{y} = w")]
    if form == "in_place":
        c1, c2, op = g.pick(_CONSTS), g.pick(_CONSTS), g.pick(["+", "-", "*"])
        first = g.pick([f"{y} = x.copy()", f"{y} = x", f"w[...] = x\n{y} = w", f"{y} = x * h"])
        lines = [Line(t) for t in first.split("\n")]
        return lines + [Line(f"{y} {op}= {c1}"), Line(f"{y} {g.pick(['+', '-', op])}= {c2}")]
    if form == "loop":  # XLA unrolls a short loop: `y = y - 0.1 - 0.2` a trip is one chain to it
        k = g.name("k")
        c1, c2 = g.pick(_CONSTS[:6]), g.pick(_CONSTS[:6])
        step = g.pick([f"{y} = {y} - {c1} - {c2}", f"{y} = {y} + {c1}", f"{y} -= {c1}", f"{y} = ({y} + {c1}) * {c2}",
                       f"{y} = {y} * {c1} + {c2}", f"{y} = {y} + h"])
        bound = g.pick(["2", "3", "n", "4"])
        return [Line(f"{y} = {g.pick(['x.copy()', 'x', 'x + 0.1', 'x * 1.1'])}"),
                Block(f"for {k} in range({bound}):", (Line(step),), (f"{k} = 0",))]
    if form == "local_const":  # a name bound to a literal: a constant to XLA as well
        c = g.name("c")
        return [Line(f"{c} = {g.pick(_CONSTS)}"), Line(f"{y} = {_chain(g, 'x').replace(g.pick(['0.1', '0.7']), c, 1)}")]
    return [Line(f"{y} = {_chain(g, 'x')}")]


_THRESHOLDS = ["1.0", "0.8", "3.0", "2.5", "10.0", "0.0", "-1.1", "0.3", "15.0"]


def _decision(g: Gen, y: str, r: str) -> list[Stmt]:
    """A decision on `y`: a cast, floor, `//`, `%`, a comparison, bins; stored or bound to `r`."""
    t = g.pick(_THRESHOLDS)
    form = g.pick(["cast", "cast", "floor", "floordiv", "mod", "compare", "where", "mask", "if", "bins",
                   "bins", "hist", "count"])
    if form == "cast":
        cast = g.pick([f"{y}.astype(np.int64)", f"{y}.astype(np.int32)", f"np.int64(1) * {y}.astype(int)"])
        return [Line(g.pick([f"cells[...] = {cast}", f"{r} = {cast}"]))]
    if form == "floor":
        fn = g.pick(["np.floor", "np.ceil", "np.round", "np.trunc", "np.rint"])
        return [Line(g.pick([f"cells[...] = {fn}({y})", f"{r} = {fn}({y})", f"{r} = {fn}({y} / h).astype(np.int64)"]))]
    if form == "floordiv":
        return [Line(g.pick([f"{r} = {y} // 1.0", f"{r} = {y} // {g.pick(['0.1', '0.5', '3.0', '0.3'])}",
                             f"cells[...] = {y} // h", f"{r} = np.floor_divide({y}, 0.2)"]))]
    if form == "mod":
        return [Line(g.pick([f"{r} = {y} % 1.0", f"{r} = {y} % {g.pick(['0.1', '0.3', '2.5'])}",
                             f"{r} = np.fmod({y}, 1.0)", f"{r} = np.remainder({y}, h)"]))]
    if form == "compare":
        op = g.pick([">", ">=", "<", "<=", "==", "!="])
        return [Line(g.pick([f"{r} = {y} {op} {t}", f"cells[...] = {y} {op} {t}", f"{r} = np.count_nonzero({y} {op} {t})"]))]
    if form == "where":
        return [Line(f"{r} = np.where({y} >= {t}, {g.pick(['1', 'x', '1.0'])}, {g.pick(['0', '-1', '0.0'])})")]
    if form == "mask":
        return [Line(g.pick([f"w[{y} < {t}] = 0.0", f"cells[{y} > {t}] += 1", f"w[{y} >= {t}] = {y}[{y} >= {t}]"]))]
    if form == "if":
        j = g.name("j")
        body = (Block(f"if {y}[{j}] {g.pick(['>', '>=', '<'])} {t}:", (Line(f"cells[{j}] += 1"),)),)
        return [Block(f"for {j} in range({g.pick(['n', '5', f'{y}.shape[0]'])}):", body, (f"{j} = 0",))]
    if form == "bins":
        side = g.pick(["", ", side='right'", ", side='left'"])
        return [Line(g.pick([f"{r} = np.searchsorted(edges, {y}{side})", f"{r} = np.digitize({y}, edges)",
                             f"cells[...] = np.digitize({y}, edges, right=True)",
                             f"{r} = np.searchsorted(np.sort({y}), {t}{side})"]))]
    if form == "hist":
        return [Line(g.pick([f"{r} = np.histogram({y}, bins=edges)[0]",
                             f"{r} = np.histogram({y}, bins={g.pick([5, 10, 30])}, range=(0.0, 3.0))[0]",
                             f"{r} = np.bincount(np.clip({y}, 0, 50).astype(np.int64), minlength=51)"]))]
    return [Line(f"{r} = np.sum({y} > {t}) + np.sum({y} == {t})")]


def fold_edges(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "cells", "w", "edges") or not _pristine(fr, "x", "w", "cells"):
        return None
    y, r = g.name("y"), g.name("r")
    made = _made(g, y)
    decisions = _decision(g, y, r)
    if g.chance(25):
        decisions += _decision(g, y, g.name("r"))
    return _call_only(made + decisions), (y, *bound_names(decisions))


def bound_names(stmts: list[Stmt]) -> tuple[str, ...]:
    """The names simple statements bind (`r3 = ...`; not `cells[...] = ...`)."""
    targets = [ln.text.split(" = ")[0] for ln in stmts if isinstance(ln, Line) and " = " in ln.text]
    return tuple(t for t in targets if t.isidentifier())


def edge_tail(g: Gen, fr: Frame, body: tuple, ret):
    """The decisions returned, with the cells: what the program decided is the answer."""
    made = [n for n in fr.names if n[:1] == "r" and n[1:].isdigit() and n in fr.ns]
    if not made:
        return body, g.pick(["cells", "(cells, w)", ret or "cells"])
    return body, g.pick([made[-1], f"({made[-1]}, cells)", f"({', '.join(made)}, cells, w)"])


# -- xla_identities ------------------------------------------------------------------------------
# values whose exp overflows (800, 100 in float32) or underflows to zero, whose square overflows
# (1e300, 5e37) or underflows to zero (1e-200, 1e-25, whose power 1.5 is still normal), whose
# product with 10 overflows (4e307, 5e37) while their reciprocal stays normal: never a subnormal
# result (3e38's reciprocal is one in float32, which XLA:CPU flushes to zero, a documented
# difference: fuzz11's first xla_identities run met it)
_SPECIAL = {"np.float64": ["-0.0", "0.0", "np.inf", "-np.inf", "np.nan", "1e300", "-1e300", "1.0", "-1.0", "0.5",
                           "2.0", "-2.5", "700.0", "800.0", "-800.0", "-700.0", "1e-200", "-1e-200", "3.0", "0.1",
                           "4e307", "-4e307"],
            "np.float32": ["-0.0", "0.0", "np.inf", "-np.inf", "np.nan", "5e37", "-5e37", "1.0", "-1.0", "0.5", "2.0",
                           "-2.5", "80.0", "100.0", "-120.0", "-80.0", "1e-25", "-1e-25", "3.0", "0.1"]}


def _specials(g: Gen, dtype: str, n: int) -> str:
    pool = _SPECIAL[dtype]
    return f"np.array([{', '.join(g.pick(pool) for _ in range(n))}], dtype={dtype})"


def identity_params(g: Gen, ns: dict) -> list[Param]:
    dtype = g.pick(["np.float64", "np.float64", "np.float32"])
    n = g.pick([8, 12, 20])
    return [Param("x", _specials(g, dtype, n)), Param("y", _specials(g, dtype, n)),
            Param("flags", f"np.zeros({n}, dtype=np.int64)"), Param("v", f"np.zeros({n}, dtype={dtype})")]


_FORMS = ["np.log(np.exp({a}))", "np.sqrt({a} * {a})", "np.exp({a}) * np.exp({b})", "np.exp({a}) / np.exp({b})",
          "{a} ** 2.0", "{a} ** 2", "np.power({a}, 2.0)", "{a} ** -1.0", "{a} / 3.0", "({a} * 2.0) / 2.0",
          "{a} * 3.0 / 3.0", "{a} + 0.0", "{a} - 0.0", "0.0 - {a}", "{a} - -0.0", "0.0 + {a}", "{a} * 1.0",
          "{a} / 1.0", "{a} * 0.0", "{a} - {a}", "-({a} - {b})", "({a} - {b}) + {b}", "({a} + {b}) - {b}",
          "{a} * {b} / {b}", "np.log({a} * {a})", "np.log(np.abs({a}) ** 1.5)", "{a} * (1.0 / {b})",
          "({a} / {b}) * {b}", "np.sqrt({a}) * np.sqrt({a})", "{a} / np.sqrt({b})", "np.abs(-{a})",
          "-(-{a}) * 3.0", "{a} * -1.0", "np.maximum({a}, {a})", "np.minimum(np.maximum({a}, 0.0), 1.0)",
          "np.clip({a}, -1.0, 1.0)", "np.where({a} > 0, {a}, 0.0) * 3.0", "{a} ** 3", "{a} ** 3.0",
          "np.exp(np.log({a}))", "np.log({a}) + np.log({a})", "{a} ** 0.5", "np.sqrt({a} * {a} + {b} * {b})",
          "np.square({a})", "np.abs({a}) ** 2", "{a} / np.exp({b})", "np.log(np.exp({a}) * 2.0)",
          "{a} * 10.0 / 10.0", "{a} / 10.0 * 10.0", "np.exp({a} + 0.0)", "({a} + 0.0) * {b}",
          "np.exp2({a}) * np.exp2({b})", "np.log(np.exp2({a}))", "np.log2(np.exp2({a}))", "np.exp2({a}) / np.exp2({b})"]
# an identity split by a store (the inner result written into `v`, a Ref once translated, then read):
# (inner, outer of `w`)
_SPLITS = [("np.exp({a})", "np.log({w})"), ("{a} * {a}", "np.sqrt({w})"), ("np.exp({a})", "{w} * np.exp({b})"),
           ("np.exp2({a})", "{w} / np.exp2({b})"), ("np.abs({a})", "{w} >= 0"), ("{a} + 0.0", "1.0 / {w}"),
           ("{a} * 2.0", "{w} / 2.0"), ("np.exp({a})", "np.log({w}[::-1])"), ("{a} ** 2.0", "np.sqrt({w})")]
_READS = ["np.isnan({u})", "np.isinf({u})", "np.isfinite({u})", "np.signbit({u})", "{u} > 0", "{u} >= 0",
          "{u} == 0", "np.abs({u}) >= 0", "{u} != {u}", "np.sign({u})", "1.0 / {u}", "np.copysign(1.0, {u})",
          "np.arctan2({u}, -1.0)", "{u}", "np.isposinf({u})", "np.nan_to_num({u})", "np.maximum({u}, 0.0)",
          "np.count_nonzero(np.isnan({u}))", "np.abs({u}) >= 0.0", "{u} < {u} + 1.0"]


def xla_identities(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "flags", "v") or not _pristine(fr, "x", "y", "v", "flags"):
        return None
    u, r = g.name("u"), g.name("r")
    a, b = g.pick(["x", "x", "y", "v"]), g.pick(["y", "x"])
    template = g.pick(_FORMS)
    form = template.format(a=a, b=b)
    read = g.pick(_READS).format(u=u)
    where = g.pick(["bind", "bind", "store", "flags", "loop", "split", "split"])
    body: list[Stmt] = [Line(f"{u} = {form}")]
    if where == "store":  # through an array: a Ref once translated
        body = [Line(f"v[...] = {form}"), Line(f"{u} = v")]
    if where == "split":  # the identity's two halves on either side of a store, or an op= in place
        inner, outer = g.pick(_SPLITS)
        a = a if a != "v" else "x"
        body = [Line(f"v[...] = {inner.format(a=a)}"), Line(f"{u} = {outer.format(w='v', b=b)}")]
        if inner == "{a} * {a}" and g.chance(50):
            body = [Line(f"{u} = {a}.copy()"), Line(f"{u} *= {u}"), Line(f"{u} = np.sqrt({u})")]
    if where == "flags" and read.startswith(("np.is", "np.sign", "{u} ".format(u=u), "np.abs")):
        body.append(Line(f"flags[...] = {read}"))
    elif where == "loop":  # the form in a loop's trip, read after
        k = g.name("k")
        body = [Line(f"{u} = v * 1.0"),
                Block(f"for {k} in range({g.pick(['2', '3'])}):", (Line(f"{u} = {template.format(a=u, b=b)}"),), (f"{k} = 0",))]
        body.append(Line(f"{r} = {read}"))
    else:
        body.append(Line(f"{r} = {read}"))
    return _call_only([Block('with np.errstate(all="ignore"):', tuple(body))]), (u, r)


def identity_tail(g: Gen, fr: Frame, body: tuple, ret):
    made = [n for n in fr.names if n[:1] in "ru" and n[1:].isdigit() and n in fr.ns]
    if not made:
        return body, g.pick(["flags", "(flags, v)", ret or "flags"])
    return body, g.pick([made[-1], f"({made[-1]}, flags)", f"({', '.join(made)}, flags, v)"])


# weight 0: they need their own arguments (PARAMS), which only `--family NAME` gives a program
FAMILIES = {"fold_edges": (fold_edges, 0), "xla_identities": (xla_identities, 0)}
PARAMS = {"fold_edges": edge_params, "xla_identities": identity_params}
TAILS = {"fold_edges": edge_tail, "xla_identities": identity_tail}
TAIL_CHANCE = {"fold_edges": 90, "xla_identities": 90}
