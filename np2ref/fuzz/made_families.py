"""Families for the constructs made to translate in round 3, session 12, which no family wrote
(fuzz13), with their own arguments (edge data: -0.0, inf, nan among small floats, the ends of an
integer dtype's range) and weight 0 in other runs:

    try_loop       a `try`/`except`/`finally` around a loop, inside one or between two: f is host
                   code (NPR021), checked through `convert` (its loops compiled around the `try`);
                   the `try` raises IndexError, ValueError, OverflowError, ZeroDivisionError or a
                   FloatingPointError of its own `np.errstate`, or not, on the data
    class_attrs    an object of a plain module class (or a dataclass) made in f, its array and
                   number attributes read and written in a loop (frontend/carried_attrs.py), a
                   method called after it: convert's route too
    pair_history   lists made in one assignment (`a, b = [], [x0]`), appended to in a `while` on
                   data (rt/histories.py), returned, counted or stacked
    chosen_call    a call through a local bound to one of several module functions (`step = euler
                   if flag else rk2`, an if/else, a tuple looped over), the helpers returning new
                   arrays or writing their argument
    mask_cast      masked stores that cast their masked reads: `q[m] = x[m] * 2` (an int or float32
                   target, a float64 source), `.astype(...)`, `np.float32(3.0)` leaves
    module_consts  module number constants (`G = 6.674e-11`, `N = 64`, `EPS = np.float32(1e-6)`,
                   `NEG0 = -0.0`) in arithmetic on data, as trip counts, op='d under a branch on data
    round_digits   `round(v, n)` of a Python float of the data in a loop, n from -3 to 22, on
                   halves, near-halves (2.675), -0.0, nan, inf, huge and tiny values; `round(v)`

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

import numpy as np

from . import edges
from .converted import CONVERT_MARK
from .exprs import Gen
from .program import Block, Function, Line, Param, Stmt
from .reach_families import _have
from .shadow import Frame, run
from .trip_families import ModuleSetup

_ROUNDED = ["0.5", "1.5", "2.5", "-2.5", "2.675", "0.125", "0.285", "1.005", "-0.0", "0.0", "1234.5678", "-0.05",
            "4503599627370495.5", "0.49999999999999994", "5e-324", "1e+300", "0.1", "1e-07", "123456789.98765432",
            "-1.25", "3.0", "-0.75", "0.045", "9.995"]


def made_params(g: Gen, ns: dict) -> list[Param]:
    n = g.pick([3, 4, 5])
    dtype = g.pick(["np.float64", "np.float64", "np.float32"])
    special = g.pick([0, 15, 25])
    idt = g.pick(["np.int64", "np.int32", "np.int16", "np.uint8", "np.float32"])
    halves = [g.pick(_ROUNDED + ["np.nan", "np.inf", "-np.inf"] * (special > 0)) for _ in range(n)]
    return [Param("x", edges.literal(g, dtype, (n,), special)), Param("y", edges.literal(g, dtype, (n,), special)),
            Param("q", edges.literal(g, idt, (n,), 30)), Param("M", edges.literal(g, dtype, (n, 3), special)),
            Param("h", f"np.array([{', '.join(halves)}])"), Param("alpha", g.pick(["0.5", "-1.0", "2.0", "0.25"])),
            Param("n", str(g.int(0, 3))), Param("flag", g.pick(["True", "False"])),
            Param("r", f"np.zeros(2, dtype={dtype})")]


def _setup(helpers, fr: Frame, name: str, lines: list[str]) -> bool:
    """Module-level lines (a class, constants) above every def, run into the live namespace."""
    setup = ModuleSetup(name, (), (Line("\n".join(lines)),))  # one piece to the shrinker
    if any(h.name == name for h in helpers):
        return True
    try:
        run(setup.body, fr.ns)
    except Exception:  # noqa: BLE001 - no proposal
        return False
    helpers.insert(0, setup)
    fr.shared[name] = fr.ns[name]  # (every later scope of the program sees it)
    return True


# -- try_loop ---------------------------------------------------------------------------------
_WORK = ["x[1:] += 0.5 * x[:-1]", "y[...] = y * alpha + x", "x *= -1.0", "r[0] += x[{k}]", "M[:, 0] += y"]
# what the `try` runs: (the exception it may raise on the data, its statements; "head\nline" a block)
_RISKY = [("IndexError", ["v = x[int(q[{k}])]"]), ("IndexError", ["y[q[{k}]] = -0.0"]),
          ("ValueError", ["v = int(x[{k}])"]), ("OverflowError", ["v = int(x[{k}])"]),
          ("ZeroDivisionError", ["v = 1 / int(q[{k}])"]),
          ("ValueError", ["v = np.float64(x[{k}])", "if v < 0:\nraise ValueError('negative')"]),
          ("FloatingPointError", ["with np.errstate(all='raise'):\nv = y / x[{k}]"]),
          ("FloatingPointError", ["with np.errstate(all='raise'):\nv = np.sqrt(x[{k}]) + np.log(y[{k}])"]),
          ("IndexError", ["v = x.sum()"])]
_HANDLERS = ["v = -1.0", "r[1] += 1.0", "x[...] = 0.0", "v = x.sum()", "continue", "break"]


def _stmts(texts: list[str], k: str) -> list[Stmt]:
    out: list[Stmt] = []
    for text in texts:
        head, *inner = text.format(k=k).split("\n")
        out.append(Block(head, tuple(Line(t) for t in inner)) if inner else Line(head))
    return out


def try_loop(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "q", "r", "M") or fr.in_helper or fr.depth:
        return None
    k, tot = g.name("k"), g.name("tot")
    form = g.pick(["around", "inside", "between", "finally"])
    kind, risky = g.pick(_RISKY)
    catch = g.pick([kind, kind, f"({kind}, KeyError)", "(IndexError, ValueError)"])
    handler = Line(g.pick(_HANDLERS[:None if form == "inside" else -2]))
    final = Block("finally:", (Line(g.pick([f"print('done', {tot})", "r[1] = r[1] * 2.0 + 1.0", f"{tot} += 1"])),))
    head = f"for {k} in range({g.pick(['x.shape[0]', 'n', '3', 'len(q)'])}):"
    start = [Line(f"{tot} = 0"), Line(f"v = 0.0  {CONVERT_MARK}")]
    if form == "inside":
        body = (*_stmts([g.pick(_WORK)], k), Block("try:", tuple(_stmts(risky, k))), Block(f"except {catch}:", (handler,)))
        body += (final,) * g.chance(40) + (Line(f"{tot} += 1"),)
        return start + [Block(head, body, (f"{k} = 0",))], (tot, "v")
    loop = Block(head, (*_stmts([g.pick(_WORK)], k), Line(f"{tot} += 1")) +
                 (tuple(_stmts(risky, k)) if form == "around" and g.chance(40) else ()), (f"{k} = 0",))
    tried = Block("try:", tuple(_stmts(risky, "0")))
    caught = Block(f"except {catch}:", (handler,))
    if form == "around":
        inner = (loop, *tried.body) if g.chance(50) else (*tried.body, loop)
        stmts = start + [Block("try:", inner), caught] + [final] * g.chance(30)
    elif form == "between":
        second = Block(f"for {g.name('k')} in range({g.pick(['n', '2'])}):", tuple(_stmts([g.pick(_WORK)], "0")))
        stmts = start + [loop, tried, caught, second]
    else:
        stmts = start + [loop, tried] + [caught] * g.chance(50) + [final]
    return stmts, (tot, "v")


# -- class_attrs ------------------------------------------------------------------------------
_CLASSES = {
    "State": ["class State:", "    def __init__(self, x, v):", "        self.x = x", "        self.v = v",
              "        self.t = 0.0", "        self.kicks = 0", "", "    def energy(self):",
              "        return 0.5 * float((self.v ** 2 + self.x ** 2).sum())"],
    "Params": ["from dataclasses import dataclass", "", "", "@dataclass", "class Params:", "    dt: float",
               "    nu: float = 0.5", "    steps: int = 0"],
}
_STATE_STEPS = ["{s}.v -= alpha * {s}.x", "{s}.x += 0.25 * {s}.v", "{s}.t += 0.25", "{s}.kicks += 1",
                "{s}.x = {s}.x * -1.0", "{s}.v[0] = -0.0", "{s}.t = {s}.t * 2.0 + {s}.x[0]", "y[...] += {s}.v"]
_PARAM_STEPS = ["x[1:-1] += {s}.nu * {s}.dt * (x[2:] - 2.0 * x[1:-1] + x[:-2])", "{s}.steps += 1",
                "{s}.dt = {s}.dt * 0.5", "y[...] = y * {s}.nu + {s}.dt", "{s}.nu += x[0]"]


def class_attrs(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "alpha", "r") or fr.in_helper or fr.depth:
        return None
    cls = g.pick(sorted(_CLASSES))
    if not _setup(helpers, fr, cls, _CLASSES[cls]):
        return None
    s, k = g.name("s"), g.name("k")
    if cls == "State":
        make = g.pick(["State(x, y)", "State(x.copy(), y.copy())", "State(x.copy(), y)", "State(x * 1.0, np.zeros_like(y))"])
        steps = [g.pick(_STATE_STEPS).format(s=s) for _ in range(g.int(1, 4))]
        after = g.pick([f"r[0] = {s}.t", f"r[1] = {s}.energy()", f"r[0] = {s}.kicks", f"r[...] = {s}.x[:2]", "pass"])
    else:
        make = g.pick(["Params(0.1)", "Params(0.05, nu=0.25)", "Params(alpha, 0.5, 0)", "Params(dt=-0.0)"])
        steps = [g.pick(_PARAM_STEPS).format(s=s) for _ in range(g.int(1, 3))]
        after = g.pick([f"r[0] = {s}.dt", f"r[1] = {s}.steps", f"print({s})", "pass"])
    bound = g.pick(["n", "3", "x.shape[0]", "0"])
    body = tuple(Line(t) for t in dict.fromkeys(steps))
    if g.chance(25):  # a break on the data
        body = (Block(g.pick([f"if {s}.x[0] > 2.0:" if cls == "State" else "if x[0] > 2.0:", "if np.isnan(y).any():"]),
                      (Line("break"),)),) + body
    stmts = [Line(f"{s} = {make}  {CONVERT_MARK}"), Block(f"for {k} in range({bound}):", body, (f"{k} = 0",)),
             Line(after)]
    return stmts, (s,)


# -- pair_history -----------------------------------------------------------------------------
def pair_history(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y") or fr.in_helper:
        return None
    a, b, c, z, it = (g.name(p) for p in ("hist", "hist", "hist", "z", "it"))
    first = g.pick(["np.abs(x).min()", "x[0]", "0.0", "x.copy()", "float(y.sum())", "-0.0"])
    make = g.pick([f"{a}, {b} = [], [{first}]", f"{a}, {b} = [{first}], []", f"({a}, {b}) = ([], [])",
                   f"{a}, {b}, {c} = [], [{first}], []", f"[{a}, {b}] = [[], [{first}]]"])
    three = f", {c} =" in make
    cond = g.pick([f"np.abs({z}).max() > {g.pick(['1e-3', '0.25', '1.0'])} and {it} < {g.pick(['8', 'n + 2', '30'])}",
                   f"{z}.sum() > 0.5 and {it} < 6", f"not np.isnan({z}).any() and np.abs({z}).max() > 0.1 and {it} < 12"])
    step = g.pick([f"{z} *= 0.5", f"{z} = {z} * 0.5 - 0.25", f"{z}[1:] -= {z}[:-1] * 0.5", f"{z} = np.sqrt(np.abs({z}))"])
    items = [f"{a}.append(np.abs({z}).max())", f"{b}.append(np.abs({z}).min() / 3.0)", f"{a}.append({z}.copy())",
             f"{b}.append(float({z}.sum()))", f"{a}.append({it})", f"{b}.append(({it}, {z}[0]))", f"{a}.append({z}[-1])"]
    appends = [g.pick(items[0::2]), g.pick(items[1::2])] + ([f"{c}.append({z}.max() * 2)"] if three else [])
    if g.chance(25):
        appends = [Block(f"if {z}[0] > 0:", (Line(appends[0]),)), *map(Line, appends[1:])]
    else:
        appends = [Line(t) for t in appends]
    body = (Line(step), *appends, Line(f"{it} += 1"))
    stmts = [Line(f"{z} = {g.pick(['x.copy()', 'y * 2.0', 'np.abs(x) + 1.0'])}"), Line(f"{it} = 0"), Line(make),
             Block(f"while {cond}:", body)]
    use = g.pick(["keep", "keep", "len", "array"])
    if use == "len":
        stmts.append(Line(f"r[0] = len({a}) + len({b})"))
    return stmts, (a, b, z, it) + ((c,) if three else ())


# -- chosen_call ------------------------------------------------------------------------------
# module functions a local is bound to: (body lines, returned expression or None)
_STEPPERS = {"euler": ((), "v + 0.25 * (1.0 - v)"), "rk2": (("w = v + 0.125 * (1.0 - v)",), "v + 0.25 * (1.0 - w)"),
             "halve": ((), "v * 0.5"), "negate": ((), "-v"), "clip1": ((), "np.minimum(v, 1.0)")}
_WRITERS = {"bump": (("v[1:] += v[:-1]",), None), "flip": (("v[...] = v[::-1]",), None),
            "zero0": (("v[0] = -0.0",), None), "scale2": (("v *= 2.0",), None)}


def _define(helpers, fr: Frame, name: str, body: tuple, ret) -> None:
    if any(h.name == name for h in helpers):
        return
    fn = Function(name, ("v",), tuple(Line(t) for t in body), ret)
    helpers.append(fn)
    ns: dict = {"np": np}
    exec(compile(fn.source(), "<np2ref fuzz>", "exec"), ns)
    fr.shared[name] = ns[name]


def chosen_call(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "flag", "n") or fr.in_helper:
        return None
    writes = g.chance(40)
    table = _WRITERS if writes else _STEPPERS
    one, two = g.pick(sorted(table)), g.pick(sorted(table))
    for name in (one, two):
        _define(helpers, fr, name, *table[name])
    step, k, t = g.name("step"), g.name("k"), g.pick(["x", "y"])
    cond = g.pick(["flag", "not flag", "n > 1", f"{t}[0] > 0", "x.sum() > y.sum()"])
    call = f"{step}({t})" if writes else f"{t}[...] = {step}({t})" if g.chance(40) else f"{t} = {step}({t})"
    loop = Block(f"for {k} in range({g.pick(['n', '3', f'{t}.shape[0]'])}):", (Line(call),), (f"{k} = 0",))
    form = g.pick(["ifexp", "ifexp", "if", "tuple"])
    if form == "tuple":
        return [Block(f"for {step} in ({one}, {two}):", (Line(call),), (f"{step} = {one}",))], ()
    if form == "if":
        pick = [Block(f"if {cond}:", (Line(f"{step} = {one}"),)), Block("else:", (Line(f"{step} = {two}"),))]
    else:
        pick = [Line(f"{step} = {one} if {cond} else {two}")]
    return pick + [loop], ()


# -- mask_cast --------------------------------------------------------------------------------
_MASKS = ["x > 0", "q > 0", "~np.isnan(x)", "np.abs(x) < 100.0", "y == 0", "np.signbit(x)", "x != x"]
_CASTS = ["q[{m}] = x[{m}] * 2", "q[{m}] = (x[{m}] + 100.0).astype(np.uint8)", "q[{m}] = (x[{m}] * 4).astype(q.dtype)",
          "y[{m}] = -(q[{m}] - 3).astype(np.float64)", "y[{m}] *= x[{m}].astype(np.float32) / np.float32(3.0)",
          "q[{m}] = np.float32(2.5) * x[{m}]", "q[{m}] += (x[{m}] * 2.0).astype(np.int64)",
          "y[{m}] = q[{m}].astype(np.float32) * 0.5", "q[{m}] = -x[{m}]", "y[{m}] = (x[{m}] * 8).astype(np.int32)",
          "M[{m}, 0] = q[{m}] * 0.5"]


def mask_cast(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "q", "M"):
        return None
    m = g.name("m")
    stmts: list[Stmt] = [Line(f"{m} = {g.pick(_MASKS)}")]
    for _ in range(g.int(1, 2)):
        stmts.append(Line(g.pick(_CASTS).format(m=m)))
    if g.chance(25):
        k = g.name("k")
        stmts = [Block(f"for {k} in range({g.pick(['n', '2'])}):", tuple(stmts), (f"{k} = 0",))]
    return stmts, (m,)


# -- module_consts ----------------------------------------------------------------------------
_CONSTS = {"G": "6.674e-11", "N": "64", "EPS": "np.float32(1e-6)", "HALF": "0.5", "NEG0": "-0.0", "K": "3",
           "BIG": "2 ** 31", "TOL": "1e-300", "F_A": "0.99", "INF": "float('inf')", "I8": "np.int8(100)"}
_USES = ["y[...] = x * {c}", "y += {c}", "r[0] = x.sum() / {c}", "r[1] = {c} * alpha", "x[...] = x + {c} * y",
         "r[0] = 1.0 / ({c} + x[0] * 0.0)", "q[...] = q + {c}", "y[...] = np.copysign({c}, x)", "r[1] = max({c}, x[0])",
         "y[0] = {c} - x[0]"]


def module_consts(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "q", "r", "alpha") or fr.in_helper:
        return None
    names = [g.pick(sorted(_CONSTS)) for _ in range(g.int(1, 2))]
    for c in names:
        if not _setup(helpers, fr, c, [f"{c} = {_CONSTS[c]}"]):
            return None
    c = names[0]
    a, k = g.name("acc"), g.name("k")
    form = g.pick(["use", "use", "range", "opassign", "returned"])
    if form == "range":
        trips = f"range({c} // 16)" if c == "N" else f"range({c})" if c in ("K",) else "range(2)"
        return [Block(f"for {k} in {trips}:", (Line(g.pick(_USES).format(c=names[-1])),), (f"{k} = 0",))], ()
    if form == "opassign":  # `a = A0; if data: a *= F_A` (analysis/numbers.py)
        return [Line(f"{a} = {c}"), Block(f"for {k} in range(x.shape[0]):",
                                          (Block(f"if x[{k}] > 0:", (Line(f"{a} *= {names[-1]}"),)),
                                           Block("else:", (Line(f"{a} = {c}"),))), (f"{k} = 0",))], (a,)
    if form == "returned":
        return [Line(f"{a} = {g.pick(['{c} * 2', '{c} + x[0]', '{c} * alpha', '-{c}', 'x.sum() * {c}'])}".format(c=c))], (a,)
    return [Line(g.pick(_USES).format(c=c)) for _ in range(g.int(1, 2))], ()


# -- round_digits -----------------------------------------------------------------------------
def round_digits(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "h", "r") or fr.in_helper:
        return None
    i, v, o, s = g.name("i"), g.name("v"), g.name("o"), g.name("s")
    nd = g.pick([str(d) for d in (0, 1, 2, 3, 5, 9, 15, 17, 22)] + ["-1", "-2", "n", "None", ""])
    arg = f", {nd}" if nd else ""
    src = g.pick([f"float(h[{i}])", f"float(h[{i}])", f"h[{i}]", f"float(h[{i}] * 2.0)"])
    use = g.pick([f"{o}[{i}] = round({v}{arg})", f"{s} += round({v}{arg})", f"{o}[{i}] = round({v}{arg}) - {v}",
                  f"{s} = round({v}{arg})"])
    body = (Line(f"{v} = {src}"), Line(use))
    stmts = [Line(f"{o} = np.zeros(h.shape[0])"), Line(f"{s} = 0.0"),
             Block(f"for {i} in range({g.pick(['h.shape[0]', 'len(h)', 'n'])}):", body, (f"{i} = 0", f"{v} = 0.0"))]
    return stmts, (o, s, v)


def made_tail(g: Gen, fr: Frame, body: tuple, ret):
    """What the family made, returned: a history, a rounded sum, a constant's product, an object's field."""
    made = [n for n in fr.names if n[:1] in "sovt" or n.startswith(("hist", "acc", "it", "z"))]
    made = [n for n in made if n in fr.ns and not callable(fr.ns[n]) and not hasattr(fr.ns[n], "__dict__")]
    arrays = g.pick(["(x, y, r)", "r", "(q, y)", "M", "(x, r)"])
    if not made:
        return body, arrays
    v = g.pick(made)
    return body, g.pick([v, v, f"({v}, {arrays})", f"({', '.join(made[-3:])})", f"type({v}).__name__"])


# weight 0: they need their own arguments (PARAMS), which only `--family NAME` gives a program
_NAMES = ("try_loop", "class_attrs", "pair_history", "chosen_call", "mask_cast", "module_consts", "round_digits")
FAMILIES = {name: (globals()[name], 0) for name in _NAMES}
PARAMS = dict.fromkeys(_NAMES, made_params)
TAILS = dict.fromkeys(_NAMES, made_tail)
TAIL_CHANCE = dict.fromkeys(_NAMES, 80)
