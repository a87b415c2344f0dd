"""A family for max()/min() of mixed kinds (fuzz10), with its own arguments and weight 0 in other
runs (the programs of existing seeds stay as they were):

    minmax_kinds  `m = max(x[0], 0.5)`, `min(dt, t_end - t)`, `max(i32[j], 2)`, three arguments,
                  nested picks: Python returns one of its arguments as it is, so `m` is a Python
                  int or float, or NumPy's float64, float32, int32 or int64 scalar, as the data
                  decides (equal values: the first). `m` flows through names (`m2 = m * 2`, a
                  running `m = max(m, x[k])` over a loop that may run no trip) into arithmetic
                  with arrays and scalars of other dtypes (`y32 * m`: float32 or float64; `i32 + m`:
                  int32, int64 or float64; `m + y32[0]`), into stores (`u32 -= dt * F`, `i32 += m`:
                  NumPy's casting TypeError where `m` is a float) and into the result (a Python
                  float against NumPy's scalar), and a time loop `dt = min(dt, t_end - t)` whose `t`
                  turns into NumPy's float64 after a trip where the array's value wins
                  (analysis/pick_uses.py, rt/picks.py: NPR128 where the kind cannot be followed).
    number_kinds  Python numbers against NumPy scalars elsewhere (kinds13): a helper's `p *= 2;
                  return p` of a Python float, int, np.float64 or array passed (rules/helper_kinds.py
                  Through); a tuple of Python numbers rebound under an `if` on data, its items
                  summed and returned; a walk `i = start; while par[i] != i: i = par[i]` whose
                  start is a Python int or an np.int64 and whose steps are np.int32 (the last
                  binding's dtype, as the data decides); a counter a `while` on data carries, asked
                  its type() or isinstance(); max()/sum() of a list of Python ints passed in.

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from . import edges
from .exprs import Gen
from .host_families import define
from .program import Block, Line, Param, Stmt
from .reach_families import _have
from .shadow import Frame


def pick_params(g: Gen, ns: dict) -> list[Param]:
    m = g.int(2, 5)
    return [Param("x", edges.literal(g, "np.float64", (m,), 3)), Param("y32", edges.literal(g, "np.float32", (m,), 0)),
            Param("i32", edges.literal(g, "np.int32", (m,), 0)), Param("i64", edges.literal(g, "np.int64", (m,), 0)),
            Param("u", edges.literal(g, g.pick(["np.float64", "np.float32"]), (m,), 0)),
            Param("F", edges.literal(g, g.pick(["np.float64", "np.float32"]), (m,), 0)),
            Param("dt", g.pick(["0.25", "0.5", "np.float64(0.25)"])), Param("t_end", g.pick(["0.75", "1.0", "1.25"])),
            Param("c32", g.pick(["np.float32(0.5)", "np.float32(-0.25)"])), Param("n", str(g.int(0, 3)))]


# the arguments a pick draws from, by kind ({j} an index that moves with a loop, else 0)
_KINDS = {"py_float": ["0.5", "1.0", "-0.25", "0.0", "dt", "float(x[{j}])"],
          "py_int": ["0", "1", "2", "n", "len(x)", "int(i32[{j}])"],
          "f64": ["x[{j}]", "x.max()", "x[{j}] * 2", "x.sum()"],
          "f32": ["y32[{j}]", "y32.min()", "c32", "y32[{j}] * 2"],
          "i32": ["i32[{j}]", "i32.max()"],
          "i64": ["i64[{j}]", "i64.min()", "np.int64(n)"]}
_USES = ["{z} = y32 * {m}", "{z} = i32 + {m}", "{z} = {m} * x", "{z} = {m} + y32[0]", "{z} = u - {m} * F",
         "{z} = np.float32(1.5) * {m}", "{z} = i64 * {m}", "{z} = {m} - i32[0]", "{z} = np.multiply(y32, {m})",
         "{z} = {m} / 2", "{z} = {m} * 2 + y32"]
_STORES = ["u -= {m} * F", "y32 *= {m}", "i32 += {m}", "x[{j}] = {m}", "y32[...] = y32 * {m}", "u[0] = {m}",
           "i64[{j}] = {m}", "F += {m}"]


def _arg(g: Gen, j: str, not_of: tuple[str, ...] = ()) -> str:
    kinds = [k for k in _KINDS if k not in not_of]
    return g.pick(_KINDS[g.pick(kinds)]).format(j=j)


def _pick(g: Gen, j: str) -> str:
    """`max(a, b)`, `min(a, b, c)` or a nested pick, of arguments of different kinds (the first two)."""
    fn = g.pick(["max", "min"])
    kind = g.pick(list(_KINDS))
    # mostly a Python number against a NumPy scalar: where the kind of the result is the data's
    other = _arg(g, j, (kind,)) if not g.chance(60) else \
        g.pick(_KINDS[g.pick(["py_float", "py_int"] if kind not in ("py_float", "py_int") else ["f64", "f32", "i64"])])
    args = [g.pick(_KINDS[kind]).format(j=j), other.format(j=j)] + [_arg(g, j) for _ in range(g.pick([0, 0, 1]))]
    if g.chance(50):
        args.reverse()
    if g.chance(20):
        return f"{g.pick(['max', 'min'])}({fn}({', '.join(args)}), {_arg(g, j)})"
    return f"{fn}({', '.join(args)})"


def _time_loop(g: Gen, fr: Frame) -> list[Stmt]:
    """`t = 0.0` stepped by `h = min(dt, t_end - t)` (maybe also capped by data) until t_end."""
    t, h, k = g.name("t"), g.name("h"), g.name("k")
    cap = g.pick(["min(dt, t_end - {t})", "min(dt, t_end - {t})", "min(dt, t_end - {t}, x.max() + 1)",
                  "max(min(dt, t_end - {t}), 0.25)", "min(t_end - {t}, dt * y32[0] + 0.5)"]).format(t=t)
    step = g.pick(["u -= {h} * F", "u[...] = u - {h} * (u - F)", "u[1:] -= {h} * (u[1:] - u[:-1])",
                   "F *= 1 - {h}"]).format(h=h)
    body = (Line(f"{h} = {cap}"), Block(f"if {h} <= 0:", (Line("break"),)), Line(step), Line(f"{t} += {h}"))
    if g.chance(50):
        return [Line(f"{t} = 0.0"), Line(f"{k} = 0"),
                Block(f"while {t} < t_end and {k} < 6:", body + (Line(f"{k} += 1"),), (f"{k} = 0",))]
    return [Line(f"{t} = 0.0"), Block(f"for {k} in range(6):", body, (f"{k} = 0",))]


def minmax_kinds(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y32", "i32", "i64", "u", "F", "dt", "t_end", "n"):
        return None
    if g.chance(20):
        return _time_loop(g, fr), ()
    m, z = g.name("m"), g.name("z")
    form = g.pick(["plain", "plain", "running", "in_loop", "through"])
    k = g.name("k")
    j = f"{k} % x.shape[0]" if form in ("running", "in_loop") else "0"
    use = Line(g.pick(_STORES if g.chance(35) else _USES).format(m=m, z=z, j=j))
    if form == "running":  # the kind a loop carries: Python's start until the data wins
        start = g.pick(["0.0", "0", "-1.0", "x[0]", "i32[0]"])
        loop = Block(f"for {k} in range({g.pick(['n', 'x.shape[0]', '2'])}):",
                     (Line(f"{m} = {g.pick(['max', 'min'])}({m}, {_arg(g, j)})"),), (f"{k} = 0",))
        return [Line(f"{m} = {start}"), loop, Line(use.text.replace(j, "0"))], (m, z)
    if form == "in_loop":
        return [Block(f"for {k} in range({g.pick(['n', '2'])}):", (Line(f"{m} = {_pick(g, j)}"), use),
                      (f"{k} = 0",))], (z,)
    lines = [Line(f"{m} = {_pick(g, j)}")]
    if form == "through":  # another name, computed on
        m2 = g.name("m")
        lines.append(Line(f"{m2} = {g.pick([m, f'{m} * 2', f'-{m}', f'{m} + 1', f'abs({m})'])}"))
        use = Line(use.text.replace(m, m2))
    return lines + [use], (m, z)


def pick_tail(g: Gen, fr: Frame, body: tuple, ret):
    """What the picks made, returned: an array whose dtype, or a scalar whose type, the kind decides;
    maybe after a store of a pick that NumPy refuses when the data picks a float (`i32 += m`: its
    casting TypeError; not run on the shadow)."""
    made = [n for n in fr.names if n[:1] in "mz" and n[1:].isdigit() and n in fr.ns]
    if not made:
        return body, g.pick(["(u, F)", "y32", "(i32, x)", ret])
    v = g.pick(made)
    picks = [n for n in made if n[0] == "m"]
    if picks and g.chance(35):
        body += (Line(g.pick(["i32 += {m}", "i64 -= {m}", "i32[0] = {m}", "i64[:] = i64 * {m}"]).format(m=g.pick(picks))),)
    return body, g.pick([v, v, v, f"({v}, y32)", f"({v}, u, i32)", f"type({v}).__name__"])


# -- number_kinds ------------------------------------------------------------------------------
def number_params(g: Gen, ns: dict) -> list[Param]:
    m = g.int(2, 5)
    par = [0] + [g.int(0, j) for j in range(1, m)]  # par[j] <= j: every walk ends at a root
    return [Param("x", edges.literal(g, "np.float64", (m,), 0)), Param("y32", edges.literal(g, "np.float32", (m,), 0)),
            Param("par", f"np.array({par}, dtype=np.int32)"),
            Param("i64", f"np.array({[g.int(0, m - 1)]}, dtype=np.int64)"),
            Param("dt", g.pick(["0.5", "0.25", "3", "np.float64(0.5)", "np.float32(0.5)", "np.array([0.5])"])),
            Param("ks", g.pick(["[2, 3]", "[1]", "[4, 1, 2]", "[0.5, 2]"])), Param("n", str(g.int(0, 3)))]


_OPS = ["p *= 2", "p += 1", "p -= 0.5", "p *= k", "p += k"]


def number_kinds(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y32", "par", "i64", "dt", "ks", "n"):
        return None
    v, k = g.name("v"), g.name("k")
    form = g.pick(["helper", "helper", "tuple", "tuple", "walk", "walk", "counter", "list"])
    if form == "helper":
        ops = tuple(Line(g.pick(_OPS)) for _ in range(g.pick([1, 2])))
        name = define(g, fr, helpers, ("p", "k"), ops, "p")
        if g.chance(40):
            name = define(g, fr, helpers, ("p", "k"), (), f"{name}(p, k)")
        lines = [Line(f"{v} = {name}(dt, {g.pick(['2', '0.5', 'n', 'x[0]'])})")]
        if g.chance(50):
            lines.append(Line(g.pick([f"{v} += 1.0", f"{v} *= 2", f"x[:1] = {v}"])))
        return lines, (v,)
    if form == "tuple":
        j = g.pick(["0", "1 % x.shape[0]"])
        bound = g.pick([f"(x[{j}], y32[0])", f"(x[{j}], {v}[1])", f"({v}[1], x[{j}])", "(1.0, 2)"])
        lines = [Line(f"{v} = {g.pick(['(0.0, 0.0)', '(0.5, 1)', '(dt, 0.0)'])}"),
                 Block(f"if x[{j}] > {g.pick(['0.5', '0.0', '-1.0'])}:", (Line(f"{v} = {bound}"),))]
        if g.chance(50):
            lines.append(Line(f"{v} = ({v}[0] + {v}[1], {v}[1])"))
        return lines, (v,)
    if form == "walk":
        start = g.pick(["i64[0]", "int(i64[0])", "0", "par.shape[0] - 1"])
        body = [Line(f"{v} = par[{v}]")]
        if g.chance(40):  # path halving, as union-find writes it
            body.insert(0, Line(f"par[{v}] = par[par[{v}]]"))
        return [Line(f"{v} = {start}"), Block(f"while par[{v}] != {v}:", tuple(body))], (v,)
    if form == "counter":
        cond = g.pick([f"{v} < x.shape[0] and x[{v}] > 0.0", f"{v} < n and x.sum() > 0", f"{v} < 3 and y32[0] < 2"])
        step = g.pick([f"{v} += 1", f"{v} = {v} + 1", f"{v} += 0.5"])
        return [Line(f"{v} = 0"), Block(f"while {cond}:", (Line(step),))], (v,)
    return [Line(f"{v} = {g.pick(['max(ks)', 'sum(ks)', 'min(ks)', 'max(ks) + 1'])}")], (v,)


def number_tail(g: Gen, fr: Frame, body: tuple, ret):
    """A name the forms made, returned as it is, in a tuple, or asked its type."""
    made = [n for n in fr.names if n[:1] == "v" and n[1:].isdigit() and n in fr.ns]
    if not made:
        return body, ret
    v = g.pick(made)
    return body, g.pick([v, v, f"({v}, x)", f"type({v}).__name__", f"isinstance({v}, (int, float))",
                         f"({v}, type({v}).__name__)"])


# -- number_paths ------------------------------------------------------------------------------
_EARLY = ["2.5", "np.inf", "dt", "dt * 2", "x[1]", "float(x[0])", "0.5", "x[0] * 2.0"]


def _early_returns(g: Gen) -> tuple:
    """Two or three `if`s on data, each returning a Python float or NumPy's scalar, an `if` maybe
    nested in another (garch_nelder_mead's `if a < 0: return np.inf`, round 14)."""
    tests, chosen = ["x[0] < 0.0", "x[1 % x.shape[0]] < 0.5", "x[0] + x[-1] >= 1.0", "x.sum() > 2.0", "y32[0] > 1"], []
    for _ in range(g.pick([2, 3])):
        chosen.append(g.pick([t for t in tests if t not in chosen]))
    ifs = [Block(f"if {t}:", (Line(f"return {g.pick(_EARLY)}"),)) for t in chosen]
    if g.chance(40):  # the first inside another, with a return of its own after it
        outer = g.pick([t for t in tests if t not in chosen])
        ifs[0] = Block(f"if {outer}:", (ifs[0], Line(f"return {g.pick(_EARLY)}")))
    return tuple(ifs)


def number_paths(g: Gen, fr: Frame, helpers) -> tuple | None:
    """Python numbers against NumPy scalars along paths (round 14): nested early returns in a helper,
    items of a tuple rebound from itself, a parameter appended to a list then returned computed on,
    a helper's `op=` of a NumPy scalar shared by a name and `op=`'d again."""
    if not _have(fr, "x", "y32", "par", "i64", "dt", "ks", "n"):
        return None
    v, w = g.name("v"), g.name("w")
    form = g.pick(["early", "early", "items", "items", "appended", "scalar_op", "scalar_op"])
    if form == "early":
        pair = g.chance(30)  # a tuple, item by item
        last = g.pick(["x[0] * 2.0", "np.sum(x)", "dt", "0.25"])
        body = tuple(_paired(g, b) if pair else b for b in _early_returns(g))
        name = define(g, fr, helpers, ("x", "y32", "dt", "n"), body, f"{last}, n" if pair else last)
        return [Line(f"{v} = {name}(x, y32, dt, n)")], (v,)
    if form == "items":
        first = g.pick(["(dt, 0.0)", "(float(x[0]), dt)", "(x[0], 1.5)", "(dt, n)", "(0.5, dt)"])
        again = g.pick([f"({v}[0] + {v}[1], {v}[1])", f"({v}[1], {v}[0] * 2)", f"({v}[0] * {v}[-1], {v}[0])"])
        lines = [Line(f"{v} = {first}"), Line(f"{v} = {again}")]
        if g.chance(40):
            lines.append(Line(f"{w} = {g.pick([f'{v}[0] * 2', f'{v}[0] - {v}[1]', f'{v}[1] + x[0]'])}"))
            return lines, (v, w)
        return lines, (v,)
    if form == "appended":
        lines = [Line(f"{v} = []"), Line(f"{v}.append(dt)")]
        if g.chance(50):
            lines.append(Line(f"{v}.append({g.pick(['dt * 2', f'{v}[-1] + 1.0', 'float(x[0])'])})"))
        lines.append(Line(f"{w} = {g.pick(['dt * 2', f'{v}[-1] * 2', 'dt + n', '-dt'])}"))
        return lines, (w, v)
    ops = tuple(Line(g.pick(_OPS)) for _ in range(g.pick([1, 2])))
    name = define(g, fr, helpers, ("p", "k"), ops, "p")
    arg = g.pick(["i64[0]", "x.sum()", "np.int64(3)", "np.float32(1.5)", "dt", "y32[0]"])
    lines = [Line(f"{v} = {name}({arg}, {g.pick(['2', '0.5', 'n', 'x[0]'])})")]
    if g.chance(60):
        lines += [Line(f"{w} = {v}"), Line(g.pick([f"{v} += 1.0", f"{v} *= 2", f"{v} -= 1"]))]
        return lines, (v, w)
    return lines, (v,)


def _paired(g: Gen, stmt):
    """`stmt` with each `return r` in it made `return r, k` (k an int: 0, 1 or n)."""
    if isinstance(stmt, Block):
        return Block(stmt.header, tuple(_paired(g, b) for b in stmt.body))
    return Line(f"{stmt.text}, {g.pick(['0', 'n', '1'])}") if stmt.text.startswith("return") else stmt


def paths_tail(g: Gen, fr: Frame, body: tuple, ret):
    """A name the forms made, returned as it is, computed on, beside another, or asked its type."""
    made = [n for n in fr.names if n[:1] in "vw" and n[1:].isdigit() and n in fr.ns]
    if not made:
        return body, ret
    v = g.pick(made)
    return body, g.pick([v, v, f"({v}, x)", f"{v} * 2", f"type({v}).__name__", f"isinstance({v}, (int, float))",
                         f"({', '.join(made)})", "dt * 2"])


# weight 0: it needs its own arguments (PARAMS), which only `--family NAME` gives a program
FAMILIES = {"minmax_kinds": (minmax_kinds, 0), "number_kinds": (number_kinds, 0), "number_paths": (number_paths, 0)}
PARAMS = {"minmax_kinds": pick_params, "number_kinds": number_params, "number_paths": number_params}
TAILS = {"minmax_kinds": pick_tail, "number_kinds": number_tail, "number_paths": paths_tail}
TAIL_CHANCE = {"minmax_kinds": 80, "number_kinds": 85, "number_paths": 85}
