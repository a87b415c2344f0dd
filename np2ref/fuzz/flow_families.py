"""Families for last session's loop and helper features, which no other family wrote:

    comp_rows    comprehensions over the rows of an array (rules/comprehensions.py -> lax.map):
                 `np.array([np.sum(r * 2) for r in t])`, `[r @ r for r in t]`, a helper of a row,
                 pairs of rows (`[[np.sum((x - y) ** 2) for x in t] for y in u]`), rows made anew,
                 `sum(...)` of a list of row reductions, stored back or reduced
    append_loop  list appends inside loops: copies, the array itself (the list holds the caller's
                 buffer, written later), rows (views), reductions, Python floats; then np.stack,
                 np.array, len, sum, or the list returned
    draw_loop    draws from a Generator argument inside loops (rules/loop_draws.py): normal,
                 random, integers, uniform, sized like the array or scalar, under a condition on a
                 draw, two draws in one statement, and NumPy's global generator
    tuple_unpack tuple unpacks of helper returns: `u, s = h(t)` (the argument and a reduction),
                 views of the written argument (`lo, hi = h(t)`, then written), nested tuples,
                 `t, u = h(t, u)` in loops (a written array rebound), swapped pairs
    call_in_expr helpers that write an argument called inside expressions (NPR201's territory):
                 `t[...] = t * h(t)`, `s = h(t) + t.sum()`, `t.sum() + h(t)`, `t[1:] += h(t)`,
                 `u[...] = h(t) * u`, `h(t) + h(t)`

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from .exprs import Gen
from .host_families import _bound, _floats, _maybe_loop, _numeric, define
from .program import Block, Line, Param
from .shadow import Frame


# -- comp_rows ------------------------------------------------------------------------------
def comp_rows(g: Gen, fr: Frame, helpers) -> tuple | None:
    arrays = [a for a in _numeric(fr, 1) if fr.ns[a].shape[0]]
    if not arrays:
        return None
    t = g.pick(arrays)
    kind = fr.ns[t].dtype.kind
    v, r = g.name("v"), g.name("r")
    others = [a for a in arrays if fr.ns[a].shape[1:] == fr.ns[t].shape[1:] and fr.ns[a].dtype == fr.ns[t].dtype]
    items = [f"np.sum({r} * 2)", f"{r}.max()", f"{r}.sum() - {r}.min()", f"np.count_nonzero({r} > 0)",
             f"{r}.sum() if {r}.max() > 0 else {r}.min()"]
    if kind == "f":
        items += [f"np.sqrt(np.sum({r} * {r}))", f"np.mean({r})"]
        if fr.ns[t].ndim == 2:
            items.append(f"{r} @ {r}")
    form = g.pick(["reduce"] * 3 + ["helper", "rows", "range", "pysum"] + ["pairs"] * bool(others))
    if form == "helper":
        h = define(g, fr, helpers, ("x",), (), g.pick(["x.sum() * 0.5", "np.max(x) - np.min(x)", "(x * x).sum()"]))
        comp = f"np.array([{h}({r}) for {r} in {t}])"
    elif form == "rows":  # rows made anew: a 2-d result
        comp = f"np.array([{g.pick([f'{r} * 2', f'{r}[::-1]', f'np.cumsum({r})'])} for {r} in {t}])"
    elif form == "range":
        comp = f"np.array([{t}[{r}].sum() for {r} in range({t}.shape[0])])"
    elif form == "pysum":
        comp = f"sum([{g.pick(items)} for {r} in {t}])"
    elif form == "pairs":
        u, x = g.pick(others), g.name("x")
        comp = f"np.array([[np.sum(({x} - {r}) ** 2) for {x} in {t}] for {r} in {u}])"
    else:
        comp = f"np.array([{g.pick(items)} for {r} in {t}])"
    lines = [Line(f"{v} = {comp}")]
    sinks = [a for a in _floats(fr, 0)]
    if sinks and g.chance(70):
        s = g.pick(sinks)
        lines.append(Line(g.pick([f"{s}[...] += {v}.sum()", f"{s}[...] -= np.max({v}) if np.size({v}) else 0.0"])))
    elif fr.ns[t].ndim == 2 and form in ("reduce", "helper") and g.chance(50):
        lines.append(Line(f"{t}[:, 0] = {v}"))
    return _maybe_loop(g, fr, lines, 25), (v,)


# -- append_loop ----------------------------------------------------------------------------
def append_loop(g: Gen, fr: Frame, helpers) -> tuple | None:
    arrays = _numeric(fr, 0)
    if not arrays:
        return None
    t = g.pick(arrays)
    kind = fr.ns[t].dtype.kind
    hist, i = g.name("hist"), g.name("i")
    item = g.pick([f"{t}.copy()", t, f"{t}.sum()", f"float({t}.sum())" if kind == "f" else f"int({t}.sum())",
                   f"{t}[0]" if fr.ns[t].ndim else f"{t} * 2", f"{t} * {i}", f"({i}, {t}.max())" if fr.ns[t].size else f"{i}"])
    work = Line(g.pick([f"{t}[...] += 1", f"{t}[...] *= 2"] if kind in "iu" else [f"{t}[...] += 0.5", f"{t}[...] *= -1.5"]))
    append = Line(f"{hist}.append({item})")
    body = (work, append) if g.chance(50) else (append, work)
    if g.chance(25):
        body = (Block(f"if {t}.sum() > {g.pick(['0', '2'])}:", (append,)), work)
    lines = [Line(f"{hist} = []"), Block(f"for {i} in range({_bound(g, fr)}):", body, (f"{i} = 0",))]
    sinks = _floats(fr, 0)
    use = g.pick(["keep", "len", "stack", "array", "sum"])
    v = g.name("v")
    if use == "len":
        lines.append(Line(f"{v} = len({hist})"))
    elif use == "stack":
        lines.append(Line(f"{v} = np.stack({hist}) if {hist} else np.zeros(0)"))
    elif use == "array":
        lines.append(Line(f"{v} = np.array({hist})"))
    elif use == "sum":
        lines.append(Line(f"{v} = sum({hist})"))
    else:
        return lines, (hist,)
    if sinks and g.chance(60):
        lines.append(Line(f"{g.pick(sinks)}[...] += np.sum({v})"))
    return lines, (hist, v)


# -- draw_loop ------------------------------------------------------------------------------
def draw_loop(g: Gen, fr: Frame, helpers) -> tuple | None:
    floats = _floats(fr, 0)
    if not floats or "rng" not in fr.names:
        return None
    t = g.pick(floats)
    rng = g.pick(["rng"] * 4 + ["np.random"])
    size = g.pick([f"size={t}.shape", "", f"size={t}.shape[-1:]" if fr.ns[t].ndim else ""])
    draw = g.pick([f"{rng}.normal(0.0, 0.5{', ' + size if size else ''})", f"{rng}.random({size.replace('size=', '')})",
                   f"{rng}.uniform(-1.0, 1.0{', ' + size if size else ''})" if rng == "rng" else f"{rng}.random()",
                   f"{rng}.integers(0, 4{', ' + size if size else ''})" if rng == "rng" else f"{rng}.randint(0, 4)",
                   f"{rng}.standard_normal({size.replace('size=', '')})"])
    form = g.pick(["add", "add", "accept", "two", "element", "scale"])
    if form == "add":
        body = (Line(f"{t} += {draw}" if size or g.chance(50) else f"{t}[...] += {draw}"),)
    elif form == "accept":
        u = g.name("u")
        body = (Line(f"{u} = {rng}.random()"),
                Block(f"if {u} < {g.pick(['0.5', f'np.exp(-{t}.sum() ** 2)'])}:", (Line(f"{t}[...] *= 0.5"),)))
    elif form == "two":
        body = (Line(f"{t}[...] += {rng}.random() - {rng}.random()"),)
    elif form == "element":
        at = "0" if fr.ns[t].ndim else "..."
        body = (Line(f"{t}[{at}] += {rng}.random()"),)
    else:
        body = (Line(f"{t}[...] = {t} * {rng}.uniform(0.5, 1.5)" if rng == "rng" else f"{t}[...] = {t} * {rng}.random()"),)
    if g.chance(20):
        body += (Block(f"if {t}.sum() > 2.0:", (Line("break"),)),)
    return [Block(f"for {g.name('i')} in range({_bound(g, fr)}):", body, ())], ()


def draw_params(g: Gen, ns: dict) -> list[Param]:
    return [Param("rng", f"np.random.default_rng({g.int(0, 9)})")]


# -- tuple_unpack ---------------------------------------------------------------------------
def tuple_unpack(g: Gen, fr: Frame, helpers) -> tuple | None:
    floats = [a for a in _floats(fr, 1) if fr.ns[a].shape[0] >= 2]
    if not floats:
        return None
    t = g.pick(floats)
    partners = [a for a in _floats(fr, 1) if a != t and fr.ns[a].shape == fr.ns[t].shape]
    p, q = g.name("p"), g.name("q")
    form = g.pick(["reduction", "views", "nested", "new_pair"] + ["swap", "rebind_pair"] * bool(partners))
    loop = False
    if form == "reduction":
        name = define(g, fr, helpers, ("x",), (Line(g.pick(["x[0] += 1.0", "x *= 0.5", "x[...] = x[::-1].copy()"])),),
                      g.pick(["x, x.sum()", "x.sum(), x", "x, float(x.max())"]))
        first, second = (t, q) if g.chance(60) else (p, q)
        lines = [Line(f"{first}, {second} = {name}({t})")]
        loop = first == t
    elif form == "views":  # views of the written argument: writing them writes t
        name = define(g, fr, helpers, ("x",), (Line("x += 0.5"),), g.pick(["x[:1], x[1:]", "x[::2], x[1::2]", "x[0], x[-1]"]))
        lines = [Line(f"{p}, {q} = {name}({t})"), Line(f"{p}[...] = 2.0" if g.chance(50) else f"{q}[...] *= -1.0")]
    elif form == "nested":
        name = define(g, fr, helpers, ("x",), (Line("x -= 0.25"),), "x, (x.sum(), x.max())")
        r = g.name("r")
        lines = [Line(f"{p}, ({q}, {r}) = {name}({t})"), Line(f"{p}[...] += {q} - {r}")]
    elif form == "new_pair":
        name = define(g, fr, helpers, ("x",), (), g.pick(["x * 2.0, x - 1.0", "np.cumsum(x, axis=0), x.copy()"]))
        lines = [Line(f"{p}, {q} = {name}({t})"), Line(f"{t}[...] = {p} - {q}")]
        loop = True
    elif form == "swap":
        u = g.pick(partners)
        name = define(g, fr, helpers, ("x", "y"), (Line("x += y * 0.5"),), "y, x")
        lines = [Line(f"{t}, {u} = {name}({t}, {u})")]
        loop = True
    else:  # a written array rebound as an item of a helper's result, in a loop
        u = g.pick(partners)
        body = g.pick([(Line("x[...] = x * 0.5"), Line("y = y + x")), (Line("y[0] += 1.0"),),
                       (Line("x[1:] += y[:-1]"), Line("y = y[::-1]"))])
        name = define(g, fr, helpers, ("x", "y"), body, "x, y")
        lines = [Line(f"{t}, {u} = {name}({t}, {u})"), Line(f"{u}[...] += 0.25" if g.chance(50) else f"{t}[0] -= 1.0")]
        loop = True
    if loop and g.chance(60):
        return [Block(f"for {g.name('i')} in range({_bound(g, fr)}):", tuple(lines), ())], ()
    return lines, tuple(n for n in (p, q) if any(n in ln.text.split("=")[0] for ln in lines if isinstance(ln, Line)))


# -- call_in_expr ---------------------------------------------------------------------------
def call_in_expr(g: Gen, fr: Frame, helpers) -> tuple | None:
    floats = _floats(fr, 1)
    if not floats:
        return None
    t = g.pick(floats)
    body = g.pick([(Line("x[0] += 1.0"),), (Line("x *= 0.5"),), (Line("x[...] = x[::-1].copy()"),),
                   (Line("x[x > 0.5] = 0.5"),)])
    h = define(g, fr, helpers, ("x",), body, g.pick(["x.sum()", "x.max()", "x[0] * 2.0", "x", "x * 2.0"]))
    others = [a for a in floats if a != t and fr.ns[a].shape == fr.ns[t].shape]
    v = g.name("v")
    forms = [f"{t}[...] = {t} * {h}({t})", f"{v} = {h}({t}) + {t}.sum()", f"{v} = {t}.sum() + {h}({t})",
             f"{t}[1:] += {h}({t})", f"{v} = {h}({t}) + {h}({t})",
             f"{v} = {t}[0] - {h}({t})", f"{v} = np.sum({t}) * {h}({t})", f"{v} = {h}({t})"]
    forms += [f"{u}[...] = {h}({t}) * {u}" for u in others[:1]]
    line = g.pick(forms)
    lines = [Line(line)]
    return _maybe_loop(g, fr, lines, 30), (v,) if line.startswith(v) else ()


FAMILIES = {"comp_rows": (comp_rows, 1), "append_loop": (append_loop, 1), "draw_loop": (draw_loop, 1),
            "tuple_unpack": (tuple_unpack, 1), "call_in_expr": (call_in_expr, 1)}
PARAMS = {"draw_loop": draw_params}
