"""Families of fuzz14, with their own arguments and weight 0 elsewhere: the gradient's blind spot
and the whole-program shapes of round 3 that no family wrote.

    where_poles    `np.where(c, f(x), e)` where f has a pole or a domain edge the condition
                   leaves out (sqrt, log, 1/x, arcsin, a power of negative bases; the double-where
                   problem of reverse mode), the safe forms (`np.sqrt(np.where(x > 0, x, 1.0))`),
                   masked stores of the same, in a loop or not: run under the gradient check
                   (gradients.py), on data at the poles (0.0, -0.0, -1.0, 1.0)
    rebound_loop   a written array rebound inside a loop: `u = u_new` then `u[1:-1] += ...`,
                   `u, v = v, u` with one written through a view, starting from the caller's arrays
                   or copies
    jax_setup      set-up code handing float32 jax.Arrays (jnp.asarray) and lists of numbers to
                   NumPy code: np.asarray of them, their items in a loop, mixed with float64 arrays
    two_names      two names for one buffer: a helper's return (`b = same(x)`, a view, a tuple of
                   its arguments), a dict, list or tuple holding the caller's arrays, written
                   through one name and read through the other
    host_beside    a `print`, `np.random.seed(k)` or a draw beside a hot loop's array work: before,
                   inside (every trip, under an `if`) or after it; or before a loop whose body binds
                   a name (and may `break` on it) that is read after it

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

import numpy as np

from .exprs import Gen
from .program import Block, Function, Line, Param, Stmt
from .reach_families import _have
from .shadow import Frame

_POLES = ["0.0", "-0.0", "-1.0", "1.0", "0.25", "2.0", "-2.0", "0.5", "-0.5", "4.0", "-0.25", "1.5"]


def round14_params(g: Gen, ns: dict) -> list[Param]:
    m = g.pick([3, 4, 5, 6])
    dtype = g.pick(["np.float64"] * 4 + ["np.float32"])
    xs = [g.pick(_POLES) for _ in range(m)]
    ys = [g.pick(_POLES) for _ in range(m)]
    j = [g.int(-8, 8) / 4 for _ in range(m)]
    lst = [g.pick(["0.5", "-1.0", "2.0", "-0.0", "0.25", "3", "-2"]) for _ in range(m)]
    return [Param("x", f"np.array([{', '.join(xs)}], dtype={dtype})"),
            Param("y", f"np.array([{', '.join(ys)}], dtype={dtype})"),
            Param("j", f"jnp.asarray(np.array({j!r}, dtype=np.float32))"), Param("w", f"[{', '.join(lst)}]"),
            Param("alpha", g.pick(["0.5", "0.25", "-1.0", "1.5"])), Param("n", str(g.int(0, 3))),
            Param("r", f"np.zeros(2, dtype={dtype})")]


def _loop(g: Gen, body: list[Stmt], bound: str | None = None) -> Block:
    k = g.name("k")
    return Block(f"for {k} in range({bound or g.pick(['n', '2', '3', 'x.shape[0]'])}):", tuple(body), (f"{k} = 0",))


# -- where_poles ------------------------------------------------------------------------------
# (the condition that leaves the pole out, the function with the pole, what stands for it there)
_WHERES = [("x > 0", "np.sqrt(x)", "0.0"), ("x >= 0.25", "x ** 0.5", "x"), ("x > 0", "np.log(x)", "-1.0"),
           ("x > 0", "np.log(x)", "x * 2.0"), ("x != 0", "1.0 / x", "0.0"), ("x != 0", "np.reciprocal(x)", "x"),
           ("np.abs(x) < 1", "np.arcsin(x)", "np.sign(x) * 1.5"), ("x > 0", "x ** 1.5", "x"),
           ("x > 0", "np.power(x, alpha)", "0.0"), ("y != 0", "x / y", "x"), ("x > -1", "np.log1p(x)", "0.0"),
           ("np.abs(x) < 1", "np.arccos(x)", "0.0"), ("x > 0", "x * np.log(x)", "0.0"),
           ("np.abs(y) > 0.3", "np.sin(x) / y", "np.cos(x)")]
_SAFE = ["np.sqrt(np.where(x > 0, x, 1.0))", "np.log(np.where(x > 0, x, 1.0))", "1.0 / np.where(x != 0, x, 1.0)",
         "np.where(x > 0, np.sqrt(np.where(x > 0, x, 1.0)), 0.0)", "np.sqrt(np.abs(x) + 1.0)", "np.hypot(x, y)"]
_STORES = ["y[...] = {e}", "y += {e}", "y[...] = y * {e}", "r[0] = np.sum({e})", "y[1:] = ({e})[1:] + y[:-1]"]
_MASKED = ["y[x > 0] = np.log(x[x > 0])", "y[x > 0] = np.sqrt(x[x > 0]) * alpha", "y[x != 0] = 1.0 / x[x != 0]",
           "y[np.abs(x) < 1] = np.arcsin(x[np.abs(x) < 1])", "m = x > 0\ny[m] += x[m] ** 1.5"]


def where_poles(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "r", "alpha") or fr.in_helper:
        return None
    form = g.pick(["where", "where", "where", "safe", "masked"])
    if form == "masked":
        lines: list[Stmt] = [Line(t) for t in g.pick(_MASKED).split("\n")]
    else:
        if form == "safe":
            expr = g.pick(_SAFE)
        else:
            cond, f, other = g.pick(_WHERES)
            expr = f"np.where({cond}, {f}, {other})" if g.chance(80) else f"np.where(~({cond}), {other}, {f})"
        stmt = Line(g.pick(_STORES).format(e=expr))
        lines = [Block("with np.errstate(divide='ignore', invalid='ignore'):", (stmt,))] if form == "where" else [stmt]
    if g.chance(30):
        lines = [_loop(g, lines + [Line(g.pick(["x *= 0.5", "x[...] = x + 0.25", "pass"]))])]
    return lines, ("m",) if any(isinstance(s, Line) and s.text.startswith("m = ") for s in lines) else ()


# -- rebound_loop -----------------------------------------------------------------------------
_NEW = ["{u}.copy()", "np.zeros_like({u})", "{u} * 1.0", "np.empty_like({u})", "{u}"]
_STENCIL = ["{n}[1:-1] = {u}[1:-1] + alpha * ({u}[2:] - 2.0 * {u}[1:-1] + {u}[:-2])",
            "{n}[1:-1] = 0.5 * ({u}[2:] + {u}[:-2])", "{n}[...] = {u} * alpha", "{n}[:-1] = {u}[1:] - {u}[:-1]"]
_AFTER = ["{u}[1:-1] += alpha * {u}[:-2]", "{u}[0] = {u}[-1]", "{u}[-1] = -0.0", "{u} *= 0.5", "{u}[::2] += 1.0"]


def rebound_loop(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "alpha", "n") or fr.in_helper or fr.depth:
        return None
    u, v, nw, t = g.name("u"), g.name("v"), g.name("un"), g.name("t")
    if g.chance(50):  # u = u_new, then written again
        start = g.pick(["x", "x.copy()", "x * 1.0"])
        new = g.pick(_NEW).format(u=u)
        body = [Line(f"{nw} = {new}")] if new != u else [Line(f"{nw} = {u}")]
        if "empty" in new:
            body.append(Line(f"{nw}[...] = {u}"))
        body += [Line(g.pick(_STENCIL).format(n=nw, u=u)), Line(f"{u} = {nw}"), Line(g.pick(_AFTER).format(u=u))]
        stmts = [Line(f"{u} = {start}"), _loop(g, body)]
        if g.chance(40):
            stmts.append(Line(g.pick([f"y[...] = {u}", f"x[0] = {u}.sum()", f"{u}[0] += 1.0"])))
        return stmts, (u, nw)
    # u, v = v, u with one written through a view
    start = g.pick([("x", "y"), ("x.copy()", "y.copy()"), ("x", "y.copy()"), ("x.copy()", "x")])
    view = g.pick([f"{u}[1:]", f"{u}[::2]", f"{v}[:-1]", f"{u}[::-1]", f"{v}.reshape(-1)"])
    write = g.pick([f"{t} *= 0.5", f"{t}[0] = -0.0", f"{t} += alpha", f"{t}[...] = {t}[::-1]"])
    body = [Line(g.pick(_STENCIL).format(n=v, u=u)), Line(f"{u}, {v} = {v}, {u}"), Line(f"{t} = {view}"), Line(write)]
    if g.chance(30):
        body = body[1:] + body[:1]
    stmts = [Line(f"{u}, {v} = {start[0]}, {start[1]}"), _loop(g, body)]
    return stmts, (u, v, t)


# -- jax_setup --------------------------------------------------------------------------------
_JAX = ["{z} = np.asarray(j)", "{z} = np.array(j) * alpha", "{z} = np.asarray(j, dtype=np.float64)",
        "{z} = np.asarray(w) + np.asarray(j)", "{z} = np.array(w, dtype=np.float32) * 2",
        "{z} = np.asarray(w) * x", "{z} = x + np.asarray(j)"]
_JAX_USES = ["x[...] += {z}", "y[...] = {z} * 2", "r[0] = {z}.sum()", "x[1:] = {z}[:-1]", "r[1] = float({z}[0])",
             "y[0] = max(w)", "y += np.sum(w)"]
_ITEMS = ["x[{k}] += w[{k}] * j[{k}]", "y[{k}] = w[{k}]", "r[0] += w[{k}] * x[{k}]", "y[{k}] = j[{k}] + x[{k}]",
          "r[1] = max(r[1], w[{k}])"]


def jax_setup(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "j", "w", "r") or fr.in_helper:
        return None
    z = g.name("z")
    if g.chance(40):
        k = g.name("k")
        body = [Line(g.pick(_ITEMS).format(k=k)) for _ in range(g.int(1, 2))]
        head = g.pick([f"for {k} in range(len(w)):", f"for {k} in range(x.shape[0]):", f"for {k}, wv in enumerate(w):"])
        names = (k, "wv") if "enumerate" in head else (k,)
        return [Block(head, tuple(body), tuple(f"{nm} = 0" for nm in names))], names
    lines = [Line(g.pick(_JAX).format(z=z))] + [Line(g.pick(_JAX_USES).format(z=z)) for _ in range(g.int(1, 2))]
    if g.chance(25):
        lines = [_loop(g, lines, g.pick(["n", "2"]))]
    return lines, (z,)


# -- two_names --------------------------------------------------------------------------------
_HELPERS = {"same": (("v",), (), "v"), "tail": (("v",), (), "v[1:]"), "pair": (("v", "u"), (), "v, u"),
            "bumped": (("v",), ("v += 1.0",), "v"), "rows": (("v",), (), "v.reshape(-1)"),
            "pick": (("v", "u", "first"), (), "v if first else u")}


def _define(helpers, fr: Frame, name: str) -> None:
    if any(h.name == name for h in helpers):
        return
    params, body, ret = _HELPERS[name]
    fn = Function(name, params, tuple(Line(t) for t in body), ret)
    helpers.append(fn)
    ns: dict = {"np": np}
    exec(compile(fn.source(), "<np2ref fuzz>", "exec"), ns)
    fr.shared[name] = ns[name]


_CALLS = {"same": "{b} = same(x)", "tail": "{b} = tail(x)", "pair": "{b}, {c} = pair(x, y)", "bumped": "{b} = bumped(x)",
          "rows": "{b} = rows(x)", "pick": "{b} = pick(x, y, {flag})"}
_CONTAINERS = ["{d} = {{'u': x, 'v': y}}\n{d}['u'][1:] += {d}['v'][:-1]", "{d} = [x, y]\n{d}[0] *= 2.0",
               "{d} = (x, y)\n{b}, {c} = {d}\n{b} += {c}", "{d} = {{'u': x}}\n{b} = {d}['u']\n{b}[0] = -0.0",
               "{d} = [x, x[::-1]]\n{d}[1][0] = alpha", "{d} = dict(u=x, v=y)\n{d}['v'][...] = {d}['u'] * alpha"]
_THROUGH = ["{b}[0] = -0.0", "{b} *= alpha", "{b}[...] = {b} + 1.0", "{b}[-1] += x[0]"]
_READ = ["y[...] += x", "r[0] = x.sum()", "r[1] = x[-1]", "y[0] = x[0] * 2.0"]


def two_names(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "alpha", "r") or fr.in_helper:
        return None
    b, c, d = g.name("b"), g.name("c"), g.name("d")
    if g.chance(50):
        name = g.pick(sorted(_HELPERS))
        _define(helpers, fr, name)
        lines: list[Stmt] = [Line(_CALLS[name].format(b=b, c=c, flag=g.pick(["True", "False", "n > 1", "x[0] > 0"])))]
        lines.append(Line(g.pick(_THROUGH).format(b=b)))
        if name == "pair" and g.chance(50):
            lines.append(Line(f"{c}[...] = {b} * 0.5"))
    else:
        lines = [Line(t) for t in g.pick(_CONTAINERS).format(b=b, c=c, d=d).split("\n")]
    lines.append(Line(g.pick(_READ)))
    if g.chance(25):
        lines = [_loop(g, lines, g.pick(["n", "2"]))]
    return lines, (b, c, d)


# -- host_beside ------------------------------------------------------------------------------
_HOT = ["x[1:] += alpha * x[:-1]", "y[...] = y * 0.5 + x", "x[...] = np.tanh(x)", "y[1:-1] = 0.5 * (y[2:] + y[:-2])"]
_HOST = ["print('step', {k}, float(x[0]))", "print({k}, x.sum())", "np.random.seed({k})", "np.random.seed(7)",
         "y += np.random.rand(*y.shape) * 0.1", "x[0] += np.random.standard_normal()", "print(x)",
         "r[0] = np.random.randint(0, 5)", "y[...] += np.random.normal(0.0, 1.0, y.shape)"]


_LAST = ["float(np.abs(x).max())", "np.abs(y).sum()", "x[0] * 2.0", "float(y.mean())", "y[-1] - x[0]"]


def host_beside(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "alpha", "r", "n") or fr.in_helper or fr.depth:
        return None
    k = g.name("k")
    host = g.pick(_HOST).format(k=k)
    hot = [Line(g.pick(_HOT)) for _ in range(g.int(1, 2))]
    where = g.pick(["before", "inside", "inside", "guarded", "after", "read_after"])
    outside = host.format(k="0").replace(k, "0")
    if where == "read_after":  # a name the body binds, read after the loop (frontend/lift_guard.py)
        return _read_after(g, k, hot, outside)
    if where == "inside":
        body = hot + [Line(host)] if g.chance(50) else [Line(host)] + hot
    elif where == "guarded":
        body = hot + [Block(f"if {k} % 2 == 0:", (Line(host),))]
    else:
        body = hot
    loop = Block(f"for {k} in range({g.pick(['n', '3', 'x.shape[0]'])}):", tuple(body), (f"{k} = 0",))
    if where == "before":
        return [Line(outside), loop], ()
    if where == "after":
        return [loop, Line(outside)], ()
    return [loop], ()


def _read_after(g: Gen, k: str, hot: list, outside: str) -> tuple:
    """`e = ...` at the top of the body (a `break` on it after, or not), `r[1] = e` after the loop:
    under `convert` the loop of a host function is lifted, its call made where it makes a trip."""
    e, bound = g.name("e"), g.pick(["n", "3", "x.shape[0]"])
    body = hot + [Line(f"{e} = {g.pick(_LAST)}")]
    if g.chance(50):
        body.append(Block(f"if {e} < {g.pick(['0.5', '1.0', '2.0'])}:", (Line("break"),)))
    loop = Block(f"for {k} in range({bound}):", tuple(body), (f"{k} = 0",))
    read = Line(f"r[1] = {e} + {k}")
    return [Line(outside), loop, Block("if n > 0:", (read,)) if bound == "n" else read], ()


def round14_tail(g: Gen, fr: Frame, body: tuple, ret):
    made = [n for n in fr.names if n[:1] in "uvtzbcd" and n in fr.ns and isinstance(fr.ns[n], np.ndarray)]
    arrays = g.pick(["(x, y, r)", "y", "(y, r)", "x", "r"])
    if not made or g.chance(40):
        return body, arrays
    v = g.pick(made)
    return body, g.pick([v, f"({v}, {arrays})", f"{v}.sum()", f"({v}, x)"])


# weight 0: they need their own arguments (PARAMS), which only `--family NAME` gives a program
_NAMES = ("where_poles", "rebound_loop", "jax_setup", "two_names", "host_beside")
FAMILIES = {name: (globals()[name], 0) for name in _NAMES}
PARAMS = dict.fromkeys(_NAMES, round14_params)
TAILS = dict.fromkeys(_NAMES, round14_tail)
TAIL_CHANCE = dict.fromkeys(_NAMES, 70)
