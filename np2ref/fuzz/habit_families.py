"""Families for script habits the last session made translatable and no family wrote (fuzz8), each
with its own arguments and weight 0 in other runs (the programs of existing seeds stay as they were):

    guarded_append  appends under an `if` of the trip in a loop (`if step % every == 0:
                    snaps.append(U.copy())`, `float(U.sum())`, a tuple, a test on a host-known
                    name `flag`), then `snaps = np.array(snaps)` / `np.asarray` / `np.stack` after
                    the loop, returned (rules/loop_appends.py `when=`, rt/appends.py); one loop in
                    six guarded by array data, which the host cannot evaluate (the Python loop, or
                    NPR034)
    items_list      a list of Python floats or ints `ks` passed for a parameter read item by item
                    in a loop (`for k in range(nk): X *= ks[k]`; npr_jit's `items=`), meeting
                    float32 / int32 arrays (NumPy's weak Python scalars keep the array's dtype)
    py_draws        draws NumPy returns as Python numbers (`rng.random()`, `rng.exponential(s)`,
                    `np.random.randint(m)`, `np.random.random()`, now and then `random.random()`)
                    meeting float32 arrays, and a Python float a draw feeds, returned

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from . import edges
from .exprs import Gen
from .program import Block, Line, Param
from .reach_families import _float, _have
from .shadow import Frame


def _for(k: str, bound: str, body: list) -> Block:
    return Block(f"for {k} in range({bound}):", tuple(body), (f"{k} = 0",))


# -- guarded_append ----------------------------------------------------------------------------
def guarded_params(g: Gen, ns: dict) -> list[Param]:
    return [Param("U", edges.literal(g, _float(g), (g.pick([2, 3, 4]),), 0)), Param("n", str(g.int(0, 5))),
            Param("every", str(g.int(1, 3))), Param("flag", g.pick(["True", "False"]))]


_GUARD_ITEMS = {"array": ["U.copy()", "U * 2", "U[::-1].copy()", "U[1:] - U[:-1]"],
                "number": ["float(U.sum())", "U.sum()", "U[0]", "U.max() * 0.5", "{k} * 0.5", "{k}", "float(U[-1])"],
                "tuple": ["({k}, U.copy())", "(float(U.sum()), U[1:].copy())", "({k} * 0.25, U.sum())"]}
_GUARDS = ["{k} % every == 0", "{k} % every == 0", "{k} % every == 0 or {k} == n - 1", "{k} == n - 1",
           "flag and {k} % 2 == 0", "{k} >= every", "not flag or {k} % every == 1", "{k} % 2 == 0 and {k} > 0"]
_DATA_GUARDS = ["U.sum() > 0", "U[0] > {k} * 0.25", "float(U.max()) > 1.0"]  # array data: not the host's alone
_STEPS = ["U[1:] += U[:-1] * 0.5", "U *= 0.5", "U[0] -= U[-1] * 0.25", "U[...] = U[::-1] + 0.25", "U += {k} * 0.125"]
_STACKED = {"array": ["{h} = np.array({h})", "{h} = np.asarray({h})", "{h} = np.stack({h}) if {h} else U[:0] * 1.0"],
            "number": ["{h} = np.array({h})", "{h} = np.asarray({h})", "{h} = np.stack({h}) if {h} else np.zeros(0)"],
            "tuple": ["{h} = [p[1] for p in {h}]", "{h} = len({h})"]}


def guarded_append(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "U", "n", "every", "flag") or fr.depth:
        return None
    h, k = g.name("snaps"), g.name("step")
    kind = g.pick(["array", "array", "number", "number", "tuple"])
    item = g.pick(_GUARD_ITEMS[kind]).format(k=k)
    guard = g.pick(_DATA_GUARDS if g.chance(15) else _GUARDS).format(k=k)
    branch = [Line(f"{h}.append({item})")]
    if g.chance(15):
        branch.append(Line(f"print({k}, {h}[-1])"))
    step = Line(g.pick(_STEPS).format(k=k))
    body = [step, Block(f"if {guard}:", tuple(branch))]
    if g.chance(20):  # a step after the append too: the row is the value at the append
        body.append(Line(g.pick(_STEPS).format(k=k)))
    if g.chance(15):  # an append every trip beside it, to another list
        other = g.name("every_trip")
        body.append(Line(f"{other}.append(float(U[0]))"))
        lines = [Line(f"{other} = []")]
    else:
        lines = []
    start = g.pick(["[]", "[]", "[]", "[U.copy()]" if kind == "array" else "[]"])
    lines += [Line(f"{h} = {start}"), _for(k, g.pick(["n", "n", "5", "0", "U.shape[0]"]), body)]
    if g.chance(75):
        lines.append(Line(g.pick(_STACKED[kind]).format(h=h)))
    return lines, (h,)


def guarded_tail(g: Gen, fr: Frame, body: tuple, ret):
    """The history returned, alone or beside the argument."""
    made = [n for n in fr.names if n.startswith("snaps")]
    if not made:
        return body, ret
    h = g.pick(made)
    return body, g.pick([h, h, f"({h}, U)", f"({h}, U.sum())"])


# -- items_list --------------------------------------------------------------------------------
def items_params(g: Gen, ns: dict) -> list[Param]:
    size = g.int(1, 4)
    kind = g.pick(["float", "float", "int", "mixed"])
    items = [g.pick(["0.5", "2.0", "-1.5", "0.25", "3.0"]) if kind == "float" or kind == "mixed" and g.chance(50)
             else str(g.int(-2, 3)) for _ in range(size)]
    dtype = g.pick(["np.float32", "np.float32", "np.int32", "np.float64", "np.int64"])
    params = [Param("X", edges.literal(g, dtype, (g.pick([2, 3]),), 0)), Param("ks", f"[{', '.join(items)}]"),
              Param("nk", str(g.int(0, size)))]
    if g.chance(40):
        params.append(Param("W", edges.literal(g, "np.float64", (3,), 0)))
    return params


_ITEM_USES = ["X *= {v}", "X[...] = X * {v} + {v}", "X[{k} % X.shape[0]] += {v}", "{t} = {t} + {v}",
              "{y} = X * {v}", "X = X + {v}", "X[0] += {v} * X.sum()", "X[...] = np.maximum(X, {v})",
              "{t} = {t} * {v} + 1", "X -= {v} * 2", "X[-1] = {v}", "{y} = {v} * X[::-1]",
              "W[{k} % 3] = {v} * X[0]", "W += X[0] * {v}", "X //= {v} if {v} else 1"]


def items_list(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "X", "ks", "nk") or fr.depth:
        return None
    k, t, y = g.name("k"), g.name("t"), g.name("y")
    form = g.pick(["index", "index", "index", "iterate"])
    v = f"ks[{k}]" if form == "index" else g.name("v")
    uses = [u for u in _ITEM_USES if "W" in fr.names or "W" not in u]
    body = [Line(g.pick(uses).format(v=v, k=k, t=t, y=y)) for _ in range(g.int(1, 2))]
    if form == "index":
        loop = _for(k, g.pick(["nk", "nk", "len(ks)"]), body)
    else:
        loop = Block(f"for {k}, {v} in enumerate(ks):", tuple(body), (f"{k} = 0", f"{v} = ks[0] if ks else 0"))
    lines = [Line(f"{t} = {g.pick(['0.0', '0', '1.0'])}"), loop]
    if g.chance(50):
        lines.append(Line(g.pick([f"X[0] = {t}", f"X[...] += {t}", f"print({t})", f"X[-1] = ks[-1] * {t}"])))
    return lines, (t,)


def _number_tail(options: list[str]):
    """A tail returning one of `options` of a Python number the family made (`t0`, `{t}` in them)."""
    def tail(g: Gen, fr: Frame, body: tuple, ret):
        made = [n for n in fr.names if n.startswith("t") and n[1:].isdigit()]
        return (body, g.pick(options).format(t=g.pick(made))) if made else (body, ret)
    return tail


# the accumulated Python number, the array, or an item computed on
items_tail = _number_tail(["{t}", "(X, {t})", "X", "({t}, ks[0] * 2)", "{t} * 2", "(X.dtype.name, {t})"])


# -- py_draws ----------------------------------------------------------------------------------
def draw_params(g: Gen, ns: dict) -> list[Param]:
    dtype = g.pick(["np.float32", "np.float32", "np.float64"])
    return [Param("X", edges.literal(g, dtype, (g.pick([2, 3, 4]),), 0)),
            Param("rng", f"np.random.default_rng({g.int(0, 9)})"), Param("sc", g.pick(["0.5", "1.0", "2.0"])),
            Param("n", str(g.int(0, 3)))]


_DRAWS = ["rng.random()", "rng.exponential(sc)", "rng.normal()", "rng.uniform(-1.0, 1.0)", "np.random.random()",
          "rng.standard_normal()", "np.random.rand()", "rng.exponential(sc) * 0.5"]
_INT_DRAWS = ["np.random.randint(X.shape[0])", "rng.integers(X.shape[0])", "int(rng.integers(0, X.shape[0]))"]
_DRAW_USES = ["X *= {d}", "X[...] = X + {d}", "{t} += {d}", "X[{j}] = {d}", "{y} = X * {d}", "X[0] -= {d} * X[-1]",
              "{t} = {t} * 0.5 + {d}", "X[{j}] *= 0.5", "{y} = {d} + X.sum()"]


def py_draws(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "X", "rng", "sc", "n") or fr.depth:
        return None
    t, y, j, k = g.name("t"), g.name("y"), g.name("j"), g.name("k")
    draw = "random.random()" if g.chance(8) else g.pick(_DRAWS)
    use = g.pick(_DRAW_USES)
    body = []
    if "{j}" in use:
        body.append(Line(f"{j} = {g.pick(_INT_DRAWS)}"))
    if g.chance(40):  # the draw bound to a name first, then used
        d = g.name("d")
        body.append(Line(f"{d} = {draw}"))
        draw = d
    body.append(Line(use.format(d=draw, t=t, y=y, j=j)))
    if g.chance(30):
        body.append(Line(g.pick([f"X[0] = {t}", f"X += {t} * 0.25", f"print({t})"])))
    lines = [Line(f"{t} = {g.pick(['0.0', '0.0', 'float(sc)', '1'])}")]
    if g.chance(65):
        lines.append(_for(k, g.pick(["n", "3", "X.shape[0]"]), body))
    else:
        lines += body
    return lines, (t,)


draws_tail = _number_tail(["{t}", "{t}", "(X, {t})", "{t} * 2", "(X * {t}, {t})"])


# weight 0: each needs its own arguments (PARAMS), which only `--family NAME` gives a program
FAMILIES = {"guarded_append": (guarded_append, 0), "items_list": (items_list, 0), "py_draws": (py_draws, 0)}
PARAMS = {"guarded_append": guarded_params, "items_list": items_params, "py_draws": draw_params}
TAILS = {"guarded_append": guarded_tail, "items_list": items_tail, "py_draws": draws_tail}
