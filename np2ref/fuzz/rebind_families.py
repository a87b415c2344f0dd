"""The `rebind` family's loop forms (issues 37 and 44), which whole programs write and no other
family did:

    wrap      an array written in place and then rebound inside a loop (`y += v; y = y % L`,
              the periodic wrap of every particle code): in a `for` over a static or a
              data-dependent range, or a `while` on array data; the rebinding to an expression,
              to a view, to a helper's result (one that returns its argument after writing it
              in place, one that returns a new array or a view), inside an `if` on the data or
              on the loop index, for one name or two, with a second name seeing the old buffer,
              and a write or a read after the loop
    targets   loop targets rebound in the body (`for r1, r2 in zip(a, a): r1 = r1[::-1]`,
              `for i, r in enumerate(a): r = r * 2`, `for k in range(n): k = k * 2`)

`np2ref fuzz --family rebind` draws these (`loop_rebind`) in three programs of four and the
`rebind` statement of statements.py in the rest; other runs draw `loop_rebind` by its weight. `fn(g, fr, helpers) -> (statements, names they define) | None`, as in
families.py.
"""

from __future__ import annotations

import numpy as np

from .exprs import Gen, basic_index, scalar
from .program import Block, Function, Line
from .shadow import Frame


def _numeric(fr: Frame) -> list[str]:
    return [a for a in fr.arrays() if fr.ns[a].dtype.kind in "fi"]


def _bound(g: Gen, fr: Frame, t: str) -> str:
    shapes = [f"{t}.shape[0]"] if fr.ns[t].ndim else []
    return g.pick(["n"] * 3 * ("n" in fr.ints()) + shapes + ["0", "1", "2", "3", "5"])


def _helper(g: Gen, fr: Frame, t: str, helpers: list[Function]) -> str:
    """A module helper of one array `x` (defined here) and the call that rebinds t with it: one
    that writes x in place and returns it (the same buffer), a new array, or a view."""
    kind = fr.ns[t].dtype.kind
    mod = "3.0" if kind == "f" else "7"
    body, ret = g.pick([((Line(f"x %= {mod}"),), "x"), ((Line("x *= 2"), Line(f"x -= {mod}")), "x"),
                        ((), f"x % {mod}"), ((Line("x += 1"),), f"x % {mod}"),
                        ((), "x[::-1]" if fr.ns[t].ndim else "x[...]")])
    fn = Function(g.name("h"), ("x",), body, ret)
    helpers.append(fn)
    ns: dict = {"np": np}
    exec(compile(fn.source(), "<np2ref fuzz>", "exec"), ns)
    fr.shared[fn.name] = ns[fn.name]
    return f"{fn.name}({t})"


def _rebinding(g: Gen, fr: Frame, t: str, helpers: list[Function]) -> str:
    """What t is rebound to: an expression of t (a new array, mostly of t's shape and dtype)."""
    arr = fr.ns[t]
    if g.chance(25):
        return _helper(g, fr, t, helpers)
    if arr.dtype.kind == "f":
        options = [f"{t} % 3.0", f"{t} % 3.0", f"{t} * 0.5", f"np.where({t} > 2.0, {t} - 4.0, {t})",
                   f"np.abs({t})", f"{t} - {t}.mean()" if arr.size else f"{t} * 2"]
    else:
        options = [f"{t} % 7", f"{t} % 7", f"{t} // 2", f"np.where({t} > 2, {t} - 4, {t})", f"{t} / 2"]
    options += [f"{t}.copy()", f"{t}[::-1]" if arr.ndim else f"{t}[...]", f"{t}.T" if arr.ndim > 1 else f"{t} + 1"]
    return g.pick(options)


def _write(g: Gen, fr: Frame, t: str) -> Line:
    """An in-place write of t: `t += v`, `t *= 2`, or a store at a basic index."""
    arr = fr.ns[t]
    form = g.pick(["aug", "aug", "index", "scalar"])
    if form == "index" and arr.ndim:
        return Line(f"{t}[{basic_index(g, arr.shape)}] += {scalar(g, arr.dtype, '+')}")
    others = [a for a in _numeric(fr) if a != t and _widens_to(fr.ns[a].shape, arr.shape)
              and np.can_cast(fr.ns[a].dtype, arr.dtype, "same_kind")] if form == "aug" else []
    if others:
        return Line(f"{t} += {g.pick(others)}{' * 0.5' if arr.dtype.kind == 'f' else ''}")
    return Line(f"{t} {g.pick(['+', '*', '-'])}= {scalar(g, arr.dtype, '+')}")


def _widens_to(shape, target) -> bool:
    try:
        return np.broadcast_shapes(shape, target) == target
    except ValueError:
        return False


def wrap(g: Gen, fr: Frame, helpers: list[Function]):
    """`for k in range(B): t += v; t = t % L` (module docstring), with its variations."""
    arrays = _numeric(fr)
    if not arrays:
        return None
    t = arrays[0] if g.chance(50) else g.pick(arrays)  # the first: often a parameter
    k = g.name("k")
    body, defined = [_write(g, fr, t)], ()
    if g.chance(20):  # a second name keeps the old buffer: the loop must not reuse it
        z = g.name("z")
        body.append(Line(f"{z} = {t}"))
        defined = (z,)
    rebind = Line(f"{t} = {_rebinding(g, fr, t, helpers)}")
    cond = None
    if g.chance(20):
        cond = g.pick([f"{t}.sum() > 1", f"{k} % 2 == 0", f"{k} >= 1"])
        rebind = Block(f"if {cond}:", (rebind,))
    body.append(rebind)
    if g.chance(25):  # a second name written and rebound alike
        others = [a for a in arrays if a != t]
        if others:
            u = g.pick(others)
            body += [_write(g, fr, u), Line(f"{u} = {_rebinding(g, fr, u, helpers)}")]
    if g.chance(30):
        body.append(_write(g, fr, t))  # the new buffer written in the same trip
    kind = g.pick(["range", "range", "range", "while", "data_range"])
    bound = _bound(g, fr, t)
    if kind == "while":
        c = g.name("c")
        test = f"{c} < {bound} and {t}.sum() {g.pick(['<', '>', '!='])} {g.pick(['50', '0', '-3'])}"
        loop = [Line(f"{c} = 0"), Block(f"while {test}:", (*body, Line(f"{c} += 1")))]
    else:
        header = f"for {k} in range(int({t}.sum() > 0) + {bound}):" if kind == "data_range" \
            else f"for {k} in range({bound}):"
        loop = [Block(header, tuple(body), (f"{k} = 0",))]
    after = []
    if g.chance(40):
        arr = fr.ns[t]
        after.append(Line(g.pick([f"{t}[...] += 1", f"{t}[{basic_index(g, arr.shape)}] = 0"])))
    return [*loop, *after], defined


def targets(g: Gen, fr: Frame, helpers: list[Function]):
    """A loop target rebound in the body (module docstring)."""
    rows = [a for a in fr.arrays() if fr.ns[a].ndim and fr.ns[a].dtype.kind in "fi"]
    k = g.name("k")
    if not rows:
        return None
    t = g.pick(rows)
    acc = [a for a in fr.arrays() if a != t and fr.ns[a].dtype.kind == "f"]
    r, r2 = g.name("r"), g.name("r")
    again = g.pick([f"{r} = {r}[::-1]", f"{r} = {r} * 2", f"{r} = {r}.copy()", f"{r} = {r} + 1"])
    use = g.pick([f"{g.pick(acc)}[...] += {r}.sum()" if acc else f"{r}[...] = 0", f"{r}[...] = 0",
                  f"{t}[0] += 1"])
    form = g.pick(["rows", "enumerate", "zip", "range"])
    if form == "rows":
        header = f"for {r} in {t}:"
    elif form == "enumerate":
        header = f"for {k}, {r} in enumerate({t}):"
    elif form == "zip":
        u = g.pick(rows)
        header = f"for {r}, {r2} in zip({t}, {u}):"
        if g.chance(50):
            again = f"{again}; {r2} = {r2}[::-1]"
    else:
        header = f"for {k} in range({_bound(g, fr, t)}):"
        again, use = f"{k} = {k} * 2 + 1", f"{t}[{k} % {t}.shape[0]] += 1" if fr.ns[t].shape[0] else f"{t}[...] += 1"
    body = [Line(again), Line(use)] if g.chance(80) else [Line(again)]
    return [Block(header, tuple(body))], ()


def rebind(g: Gen, fr: Frame, helpers: list[Function]):
    return (wrap if g.chance(75) else targets)(g, fr, helpers)


FAMILIES = {"loop_rebind": (rebind, 2)}  # also drawn among the compound families, by weight
