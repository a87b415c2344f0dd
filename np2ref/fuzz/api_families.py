"""Families for the forms last session's features translate, which no other family wrote:

    xp_calls        array-API style code (issue 42): `xp.` calls where `xp` is NumPy, passed in as
                    a parameter (`def f(a, xp)`, `make_args` gives `np`) or a module-level alias
                    (`xp = np`, rendered by program.py when `f` uses `xp.` and takes no `xp`), or
                    the arrays' own namespace (`t.__array_namespace__()`): creations written in
                    place, reductions, `xp.asarray(t)` (t itself: a write through it is t's)
    shape_set       `X.shape = S` right after a fresh C-contiguous creation (frontend/shapes.py):
                    np.arange, np.linspace, np.zeros, np.ones, `t.ravel() * 2`, `t.copy()`, then
                    written or read into an array; `-1` in S; back to 1-d
    seq_args        sequences where NumPy takes an array (issue 37 case 3): np.meshgrid of ranges,
                    np.array of nested lists (of numbers, of array elements), np.concatenate /
                    np.stack / np.vstack of a list of arrays, np.sum of a list, np.asarray(range(k))
    host_step       a loop whose body prints a Python scalar or the loop index beside array work,
                    and reads `time.time()` / `time.perf_counter()` (a host call: f is host code, so
                    np2ref.compile refuses it NPR021, and the runner checks `convert`'s graph breaks
                    instead: frontend/host_steps.py, NPR036)
    helper_returns  helpers that rebind their parameter (`x = x * 2.0; x += 1; return x`), write
                    their arguments and return them as a tuple (`a, b = h(a, b)`: a boundary
                    helper), or return the argument they wrote, called in a loop (issue 37 case 6)

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

import numpy as np

from .exprs import Gen
from .program import Block, Function, Line
from .shadow import Frame

HOST_MARK = "time."  # a program whose f reads the clock: the runner checks it through `convert`


def _numeric(fr: Frame, kinds: str = "iuf", ndim: int = 0) -> list[str]:
    return [a for a in fr.arrays() if fr.ns[a].dtype.kind in kinds and fr.ns[a].ndim >= ndim and fr.ns[a].size]


def _loop_bound(g: Gen, fr: Frame) -> str:
    return g.pick(["n"] * 2 * ("n" in fr.ints()) + ["2", "3", "1", "0"])


# -- xp_calls -----------------------------------------------------------------------------
def xp_calls(g: Gen, fr: Frame, helpers) -> tuple | None:
    targets = _numeric(fr, "iuf", 1)
    if not targets:
        return None
    t = g.pick(targets)
    xp = "xp"
    lines = []
    if g.chance(20):  # the arrays' own namespace: NumPy itself in NumPy 2
        xp = g.name("xq")
        lines.append(Line(f"{xp} = {t}.__array_namespace__()"))
    kind = fr.ns[t].dtype.kind
    one = "1.5" if kind == "f" else "2"
    y = g.name("y")
    form = g.pick(["shifted", "reduce", "where", "concat", "asarray", "clip", "out"])
    if form == "shifted":
        lines += [Line(f"{y} = {xp}.zeros_like({t})"), Line(f"{y}[1:] = {t}[:-1] * 2"),
                  Line(f"{t}[...] {g.pick(['+=', '-=', '='])} {y}")]
    elif form == "reduce":
        red = g.pick([f"{xp}.sum({t})", f"{xp}.max({t})", f"{xp}.mean({t} * {t})" if kind == "f" else f"{xp}.min({t})",
                      f"{xp}.sum({t}, axis=0)[0]"])
        lines += [Line(f"{y} = {red}"), Line(f"{t}[0] = {y}")]
    elif form == "where":
        lines.append(Line(f"{t}[...] = {xp}.where({t} > {one}, {t}, {t} * 2)"))
    elif form == "concat":
        lines += [Line(f"{y} = {xp}.concatenate([{t}, {t}[::-1]])"), Line(f"{t}[...] = {y}[:{t}.shape[0]]")]
    elif form == "asarray":  # the same array: a write through y is a write to t
        lines += [Line(f"{y} = {xp}.asarray({t})"), Line(f"{y}[0] = {one}")]
    elif form == "clip":
        lines.append(Line(f"{t}[...] = {xp}.clip({t}, -1, {one})" if kind != "u" else f"{t}[...] = {xp}.clip({t}, 0, 5)"))
    else:
        lines.append(Line(f"{xp}.{g.pick(['add', 'multiply', 'maximum'])}({t}, {one}, out={t})"))
    if g.chance(30):
        return [Block(f"for {g.name('i')} in range({_loop_bound(g, fr)}):", tuple(lines), ())], ()
    return lines, (y,) if form in ("shifted", "concat", "asarray") else ()


# -- shape_set ----------------------------------------------------------------------------
def shape_set(g: Gen, fr: Frame, helpers) -> tuple | None:
    rows, cols = g.pick([(2, 3), (3, 2), (4, 2), (1, 5), (2, 2)])
    size = rows * cols
    sources = [a for a in _numeric(fr) if fr.ns[a].size == size]
    X = g.name("X")
    made = [f"np.arange({size}.0)", f"np.arange({size})", f"np.linspace(-1.0, 1.0, {size})", f"np.zeros({size})",
            f"np.ones({size}, dtype=np.int64)"]
    made += [f"{a}.ravel() * 2" for a in sources] + [f"{a}.copy()" for a in sources]
    shape = g.pick([f"({rows}, {cols})", f"(-1, {cols})", f"({rows}, -1)"])
    lines = [Line(f"{X} = {g.pick(made)}"), Line(f"{X}.shape = {shape}")]
    if g.chance(40):
        lines.append(Line(f"{X}[{g.int(0, rows - 1)}] {g.pick(['+=', '*=', '='])} {g.int(1, 3)}"))
    if g.chance(25):
        lines.append(Line(f"{X}.shape = ({size},)"))
    sinks = [a for a in _numeric(fr, "f") if fr.ns[a].ndim]
    if sinks:
        s = g.pick(sinks)
        lines.append(Line(g.pick([f"{s}[...] += {X}.sum()", f"{s}[0] = {X}[-1].max() if {X}.ndim else {X}.max()",
                                  f"{s}[...] -= {X}.mean()"])))
    return lines, (X,)


# -- seq_args -----------------------------------------------------------------------------
def seq_args(g: Gen, fr: Frame, helpers) -> tuple | None:
    arrays = _numeric(fr, "iuf", 1)
    sinks = [a for a in _numeric(fr, "f") if fr.ns[a].ndim]
    v = g.name("v")
    forms = ["meshgrid", "nested", "asarray_range"] + ["elements", "concat", "stack", "sum_list"] * bool(arrays)
    form = g.pick(forms)
    t = g.pick(arrays) if arrays else None
    if form == "meshgrid":
        X, Y = g.name("X"), g.name("Y")
        p, q = g.int(1, 4), g.int(1, 3)
        extra = g.pick(["", "", ", indexing='ij'", ", sparse=True"])
        lines = [Line(f"{X}, {Y} = np.meshgrid(range({p}), range({q}){extra})"), Line(f"{v} = ({X} * {Y} + {X}).sum()")]
    elif form == "nested":
        rows = [[g.pick(["1", "2", "-3", "0.5", "2.25"]) for _ in range(2)] for _ in range(g.int(1, 3))]
        text = "[" + ", ".join("[" + ", ".join(r) + "]" for r in rows) + "]"
        lines = [Line(f"{v} = np.array({text}).sum(axis={g.pick([0, 1])}).max()")]
    elif form == "asarray_range":
        lines = [Line(f"{v} = np.asarray(range({g.int(1, 5)})).sum() * {g.pick(['1', '0.5'])}")]
    elif form == "elements":
        lines = [Line(f"{v} = np.array([{t}[0], {t}[-1], {t}.sum()]).max()")]
    elif form == "concat":
        lines = [Line(f"{v} = np.concatenate([{t}, {t}[:1], {t} * 2]).sum()")]
    elif form == "stack":
        fn = g.pick(["np.stack", "np.vstack", "np.column_stack"])
        lines = [Line(f"{v} = {fn}([{t}, {t} + 1]).sum(axis=0)")]
    else:
        lines = [Line(f"{v} = np.sum([{t}, {t}], axis={g.pick([0, None])})")]
    if sinks and g.chance(80):
        lines.append(Line(f"{g.pick(sinks)}[...] += {v}"))
    elif t is not None and form in ("stack", "sum_list") and g.chance(50):
        lines.append(Line(f"{t}[...] = {v}"))
    return lines, (v,)


# -- host_step ----------------------------------------------------------------------------
def host_step(g: Gen, fr: Frame, helpers) -> tuple | None:
    """Only at f's top level: the loop is the host loop `convert` breaks into compiled steps."""
    targets = [a for a in _numeric(fr, "f", 1) if fr.ns[a].shape[0] >= 2]
    if not targets or fr.depth or fr.in_helper:
        return None
    t, i = g.pick(targets), g.name("i")
    work = g.pick([f"{t}[1:] += {t}[:-1] * 0.5", f"{t}[...] = {t} * 0.5 + 1.0", f"{t}[0] += {t}.sum() * 0.25",
                   f"{t}[...] = np.roll({t}, 1, axis=0)"])
    clock = Line(f"{g.name('t')} = time.{g.pick(['time', 'perf_counter'])}()")
    show = Line(g.pick([f"print({i}, float({t}.sum()))", f'print("step", {i})', f"print(round(float({t}.max()), 6))",
                        f'print("%d %.6f" % ({i}, {t}.mean()))']))
    body = [Line(work), show] if g.chance(50) else [show, Line(work)]
    body.insert(g.int(0, len(body)), clock)
    if g.chance(30):
        e = g.name("e")
        body.append(Line(f"{e} = float(({t} * {t}).sum())"))
    return [Block(f"for {i} in range({_loop_bound(g, fr)}):", tuple(body), (f"{i} = 0",))], ()


# -- helper_returns -----------------------------------------------------------------------
def _define(g: Gen, fr: Frame, helpers: list[Function], params: tuple[str, ...], body: tuple, ret: str) -> str:
    fn = Function(g.name("h"), params, body, ret)
    helpers.append(fn)
    ns: dict = {"np": np}
    exec(compile(fn.source(), "<np2ref fuzz>", "exec"), ns)
    fr.shared[fn.name] = ns[fn.name]
    return fn.name


def helper_returns(g: Gen, fr: Frame, helpers) -> tuple | None:
    floats = [a for a in _numeric(fr, "f", 1)]
    if not floats:
        return None
    t = g.pick(floats)
    partners = [a for a in floats if a != t and fr.ns[a].shape == fr.ns[t].shape]
    form = g.pick(["rebind_param", "rebind_param", "returns_written", "tuple"] + ["pair"] * 2 * bool(partners))
    if form == "rebind_param":  # the parameter rebound: the caller's array is left alone
        body = g.pick([(Line("x = x * 2.0"), Line("x += 1.0")), (Line("x = x % 3.0"),),
                       (Line("x += 0.5"), Line("x = x - x.mean()")), (Line("x = np.abs(x)"), Line("x[0] = 0.0"))])
        call = f"{t} = {_define(g, fr, helpers, ('x',), body, 'x')}({t})"
    elif form == "returns_written":  # the argument written in place and returned: the same buffer
        body = g.pick([(Line("x[0] += 1.0"),), (Line("x *= 0.5"),), (Line("x[x > 1.0] = 1.0"),)])
        call = f"{t} = {_define(g, fr, helpers, ('x',), body, 'x')}({t})"
    elif form == "tuple":  # a tuple of the argument and a new value
        body = (Line("x -= 0.25"),)
        name = _define(g, fr, helpers, ("x",), body, g.pick(["x, x.sum()", "x, x * 2.0", "x.copy(), x"]))
        call = f"{t}, {g.name('r')} = {name}({t})"
    else:  # a boundary helper: two arrays written where one is out of range, returned as a pair
        u = g.pick(partners)
        body = g.pick([(Line("m = x > 1.0"), Line("y[m] *= -1.0"), Line("x[m] = 2.0 - x[m]")),
                       (Line("x += y * 0.5"), Line("y = y * 0.5")), (Line("x %= 2.0"),)])
        name = _define(g, fr, helpers, ("x", "y"), body, g.pick(["x, y", "y, x"]))
        call = f"{t}, {u} = {name}({t}, {u})"
    lines: list = [Line(call)]
    if g.chance(65):
        lines = [Block(f"for {g.name('i')} in range({_loop_bound(g, fr)}):", (Line(call),), ())]
    if g.chance(50):
        lines.append(Line(f"{t}[...] += 1.0"))
    return lines, ()


FAMILIES = {"xp_calls": (xp_calls, 1), "shape_set": (shape_set, 1), "seq_args": (seq_args, 1),
            "host_step": (host_step, 1), "helper_returns": (helper_returns, 1)}
