"""Families for identities and windows the last session made translatable and no family wrote
(fuzz8), each with its own arguments and weight 0 in other runs:

    helper_identity  a helper returning its parameter as itself (`def step(v): v[1:] += ...;
                     return v`, or `v *= 0.5; return v`), chains of `return helper(p)` two deep,
                     a helper returning a view of its parameter; called as `U = step(U)` in a loop,
                     `r = step(U); r[0] = 7.0`, `w = view(U); w *= 2`, on views, returned
                     (analysis/identity.py returned_through)
    py_passthrough   a Python float / int passed and returned (as itself, computed on, beside an
                     array), and a Python float read back out of a list (`hist[-1] * 2`)
    pool_window      vectorised element loops over windows and strided elements (`Y[i] =
                     X[2*i:2*i+2].max()`, `X[3*i+1]`, 2-d pooling): indices provably never
                     negative, ones that go negative (NumPy wraps), and in one program in three a
                     last loop that reads past the end (NumPy's IndexError, message included)

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from . import edges
from .exprs import Gen
from .host_families import define
from .program import Block, Line, Param
from .reach_families import _float, _have
from .shadow import Frame


def _for(k: str, bound: str, body: list) -> Block:
    return Block(f"for {k} in range({bound}):", tuple(body), (f"{k} = 0",))


# -- helper_identity ---------------------------------------------------------------------------
def identity_params(g: Gen, ns: dict) -> list[Param]:
    m, dtype = g.pick([3, 4, 5]), _float(g)
    return [Param("U", edges.literal(g, dtype, (m,), 0)), Param("V", edges.literal(g, dtype, (m,), 0)),
            Param("n", str(g.int(0, 3)))]


_IN_PLACE = [("v[1:] += v[:-1] * 0.5",), ("v *= 0.5",), ("v[0] = -v[-1]",), ("v[...] = v[::-1] * 2",),
             ("v += 1.0", "v[-1] = 0.25"), ("np.multiply(v, 0.5, out=v)",), ("v[::2] -= 0.75",)]
_VIEWS = ["v[1:]", "v[::-1]", "v[:-1]", "v[::2]", "v[1:-1]", "v"]


def _step(g: Gen, fr: Frame, helpers) -> str:
    """A helper returning its parameter as itself, maybe through one or two more (`return h(p)`)."""
    name = define(g, fr, helpers, ("v",), tuple(Line(t) for t in g.pick(_IN_PLACE)), "v")
    for _ in range(g.pick([0, 0, 1, 2])):
        name = define(g, fr, helpers, ("p",), (), f"{name}(p)")
    return name


def helper_identity(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "U", "V", "n"):
        return None
    step, r, k = _step(g, fr, helpers), g.name("r"), g.name("k")
    arg = g.pick(["U", "U", "U", "V", "U[1:]", "U[::-1]"])
    form = g.pick(["rebind_loop", "rebind_loop", "write_result", "write_result", "view", "view_of_step", "sum"])
    if form == "rebind_loop":
        who = g.pick(["U", "V"])
        body = [Line(f"{who} = {step}({who})")]
        if g.chance(50):
            body.append(Line(g.pick([f"{who}[0] += 1.0", f"V[...] += {who} * 0.25" if who == "U" else "U[0] = V.sum()"])))
        return [_for(k, g.pick(["n", "2", "U.shape[0]", "0"]), body)], ()
    if form in ("write_result", "sum"):
        lines = [Line(f"{r} = {step}({arg})")]
        lines.append(Line(g.pick([f"{r}[0] = 7.0", f"{r} += 1.0", f"{r}[1:] *= -1", f"{r}[...] = 0.5"]) if form ==
                          "write_result" else f"V[0] = {r}.sum() + {step}({arg}).sum()"))
        return lines, (r,)
    view = define(g, fr, helpers, ("v",), (), g.pick(_VIEWS))
    inner = f"{step}({arg})" if form == "view_of_step" else arg
    return [Line(f"{r} = {view}({inner})"), Line(g.pick([f"{r} *= 2", f"{r}[0] = 1.5", f"{r} -= V[0]",
                                                           f"np.add({r}, 1.0, out={r})"]))], (r,)


def identity_tail(g: Gen, fr: Frame, body: tuple, ret):
    """What the helpers returned, which NumPy's caller gets as its own array (or a view of it)."""
    made = [n for n in fr.names if n.startswith("r") and n[1:].isdigit()]
    if not made:
        return body, g.pick(["U", "(U, V)", ret])
    r = g.pick(made)
    return body, g.pick([r, f"({r}, U)", f"({r}, U.sum())", f"{r}.copy()"])


# -- py_passthrough ----------------------------------------------------------------------------
def pass_params(g: Gen, ns: dict) -> list[Param]:
    return [Param("U", edges.literal(g, _float(g), (g.pick([2, 3]),), 0)),
            Param("dt", g.pick(["0.5", "0.25", "-1.5", "2.0", "0.1"])), Param("nc", str(g.int(0, 3)))]


_PASS_LINES = ["U *= dt", "U[0] += nc", "U[...] = U * dt + nc", "{x} = dt * 2", "{x} = dt + nc", "{x} = nc * 2",
               "{x} = dt", "{x} = float(U.sum()) * dt", "{x} = dt / 2"]


def py_passthrough(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "U", "dt", "nc") or fr.depth:
        return None
    x, h, k = g.name("x"), g.name("hist"), g.name("k")
    form = g.pick(["line", "line", "hist", "hist", "loop"])
    if form == "line":
        return [Line(g.pick(_PASS_LINES).format(x=x))], (x,)
    if form == "hist":
        first = g.pick(["dt", "float(U.sum())", "float(U[0])", "nc * 0.5"])
        lines = [Line(f"{h} = []"), Line(f"{h}.append({first})"), Line(f"{h}.append({h}[-1] * 2)")]
        lines.append(Line(g.pick([f"U[0] = {h}[-1]", f"U *= {h}[-1]", f"{x} = {h}[-1] + dt", f"{x} = {h}[0] * {h}[-1]"])))
        return lines, (h, x)
    body = [Line(g.pick([f"{x} = {x} * 0.5 + dt", f"{x} += dt", f"{x} = {x} + nc", f"U[0] += {x}"]))]
    return [Line(f"{x} = {g.pick(['dt', '0.0', 'nc'])}"), _for(k, g.pick(["nc", "3", "U.shape[0]"]), body)], (x,)


def pass_tail(g: Gen, fr: Frame, body: tuple, ret):
    """Python numbers returned: a parameter as it came, one computed on, a list's item."""
    options = ["dt", "(U, dt)", "nc", "(dt, nc)", "dt * 2", "(nc + 1, U.sum())"]
    options += [f"{n}" for n in fr.names if n.startswith("x") and n[1:].isdigit() and n in fr.ns]
    options += [f"({n}, {n}[-1] * 2)" for n in fr.names if n.startswith("hist") and n in fr.ns]
    return body, g.pick(options)


# -- pool_window -------------------------------------------------------------------------------
def pool_params(g: Gen, ns: dict) -> list[Param]:
    m, s = g.pick([2, 3, 4]), g.pick([1, 2, 2, 3])
    length = s * m + g.int(0, 2)
    dtype = g.pick(["np.float64", "np.float64", "np.float32", "np.int64"])
    params = [Param("X", edges.literal(g, dtype, (length,), 0)), Param("Y", f"np.zeros({m}, dtype={dtype})")]
    if g.chance(30):
        p, q = g.pick([1, 2]), g.pick([1, 2, 3])
        params += [Param("X2", edges.literal(g, dtype, (2 * p + g.int(0, 1), 2 * q), 0)),
                   Param("Z", f"np.zeros(({p}, {q}), dtype={dtype})")]
    return params


_REDUCE = ["max", "max", "sum", "min", "mean"]
# {a}: a window's start (s*i + o), {e}: its end; {x}: an element's index
_POOL_VALUES = ["X[{a}:{e}].{r}()", "X[{a}:{e}].{r}() * 0.5", "X[{a}:{e}].max() - X[{a}:{e}].min()", "X[{x}]",
                "X[{x}] - X[{a}]", "X[{x}] + Y[i]", "np.sum(X[{a}:{e}] * 2)"]


def _index(g: Gen, s: int, negative: bool) -> str:
    """s*i + o: never negative, or (negative) going below 0 at the first trips (NumPy's wrap)."""
    o = g.pick([-2, -1]) if negative else g.pick([0, 0, 1, 2])
    head = "i" if s == 1 else f"{s} * i"
    return head if o == 0 else f"{head} {'+' if o > 0 else '-'} {abs(o)}"


def pool_window(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "X", "Y") or fr.depth:
        return None
    if "Z" in fr.names and g.chance(40):
        r = g.pick(_REDUCE)
        inner = _for("j", "Z.shape[1]", [Line(f"Z[i, j] = X2[2 * i:2 * i + 2, 2 * j:2 * j + 2].{r}()")])
        return [_for("i", "Z.shape[0]", [inner])], ()
    s, w = g.pick([1, 2, 2, 3]), g.pick([1, 2, 2, 3])
    a = _index(g, s, False)
    x = _index(g, s, g.chance(20))
    value = g.pick(_POOL_VALUES).format(a=a, e=f"{a} + {w}", x=x, r=g.pick(_REDUCE))
    store = g.pick(["Y[i] = {v}", "Y[i] = {v}", "Y[i] += {v}", "Y[Y.shape[0] - 1 - i] = {v}"]).format(v=value)
    return [_for("i", g.pick(["Y.shape[0]", "Y.shape[0]", "len(Y)", "Y.shape[0] - 1"]), [Line(store)])], ()


def pool_tail(g: Gen, fr: Frame, body: tuple, ret):
    """A last loop reading past the end of X (not run on the shadow: NumPy raises IndexError)."""
    if not _have(fr, "X", "Y"):
        return body, ret
    size, m = fr.ns["X"].shape[0], fr.ns["Y"].shape[0]
    s = g.pick([2, 3])
    o = size - s * (m - 1) + g.int(0, 1)  # the last trip's index s*(m-1) + o is past the end
    value = g.pick([f"X[{s} * i + {o}]", f"X[{s} * i + {o}] + X[i]", f"X[i] * 0.5 + X[{s} * i + {o}]"])
    return body + (_for("i", "Y.shape[0]", [Line(f"Y[i] = {value}")]),), ret


# weight 0: each needs its own arguments (PARAMS), which only `--family NAME` gives a program
FAMILIES = {"helper_identity": (helper_identity, 0), "py_passthrough": (py_passthrough, 0),
            "pool_window": (pool_window, 0)}
PARAMS = {"helper_identity": identity_params, "py_passthrough": pass_params, "pool_window": pool_params}
TAILS = {"helper_identity": identity_tail, "py_passthrough": pass_tail, "pool_window": pool_tail}
TAIL_CHANCE = {"helper_identity": 60, "py_passthrough": 85, "pool_window": 35}
