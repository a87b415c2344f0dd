"""Families for loop and caller rules of the last sessions that no family wrote (fuzz7), each with
its own arguments and weight 0 in other runs:

    f32_rebind   a float32 value (a NumPy scalar or array) that a loop rebinds to float64
                 (`y = y * 0.3 + np.float64(b)`, `y = y + B[k]`: rt/loops peels the first trip), or
                 keeps float32 (`y * np.float32(2)`), zero trips, `continue`, a while loop, the
                 value stored, returned, asked its dtype
    lane_nest    element loop nests with neighbour reads and boundary `if`s on the indices
                 (`if 0 < i < P - 1 and 0 < j < Q - 1: G[i, j] = 0.25 * (H[i - 1, j] + ...)`: the
                 lane-checked vectorised nest, rt/vectorise.py), a read at -1 that wraps as NumPy's
                 does, the nest reading what it writes (G is H); a last nest (one program in three)
                 whose taken branch reads past the edge: NumPy's IndexError, message included
    jax32        f handed float32 jax.Arrays (JAX set-up code) with x64 off, computing float64
                 results (`p = np.array(j); p = p + dt * v`, dt a NumPy float64) and float32 ones:
                 the runner checks that each result comes back as NumPy's array or scalar, the
                 caller's own jax.Array as itself (differences._caller_types), the calls made
                 under `jax.enable_x64(False)`

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

import numpy as np

from . import edges
from .exprs import Gen
from .program import Block, Line, Param
from .shadow import Frame


# -- f32_rebind --------------------------------------------------------------------------------
def f32_params(g: Gen, ns: dict) -> list[Param]:
    m = g.pick([2, 3, 4])
    return [Param("X", edges.literal(g, "np.float32", (m,), 0)), Param("B", edges.literal(g, "np.float64", (m,), 0)),
            Param("b", g.pick(["0.75", "-1.5", "np.float64(0.25)"])), Param("T", str(g.int(0, 3)))]


_STEPS = ["{y} * 0.3 + np.float64(b)", "{y} + B[{k} % B.shape[0]]", "{y} * 0.5 + b", "{y} * np.float32(2) + 1",
          "np.float64({y}) * 0.5", "{y} + B.sum()", "{y} - np.float64({k})", "({y} + b) * 0.25"]
_ARRAY_STEPS = ["{y} * 0.3 + B", "{y} + B * {k}", "{y} * np.float32(0.5)", "{y} * 0.3 + np.float64(b)",
                "np.maximum({y}, B)", "{y} + {y}.sum()"]


def f32_rebind(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not all(n in fr.names for n in ("X", "B", "b", "T")):
        return None
    y, k = g.name("y"), g.name("k")
    scalar = g.chance(60)
    start = g.pick(["X[0]", "np.float32(0.5)", "X.sum()", "X[-1] * np.float32(2)"] if scalar else
                   ["X.copy()", "X * 2", "np.zeros(X.shape, np.float32)"])
    step = g.pick(_STEPS if scalar else _ARRAY_STEPS).format(y=y, k=k)
    body = [Line(f"{y} = {step}")]
    if g.chance(25):
        body.insert(g.int(0, 1), Block(f"if {k} {g.pick(['== 0', '== 1', '% 2'])}:", (Line("continue"),)))
    if g.chance(25):  # a second rebinding, or a use in the trip
        body.append(Line(g.pick([f"{y} = {y} * 2", f"X[0] += {y}" if scalar else f"X[...] += {y}",
                                 f"B[0] = {y}" if scalar else f"B[...] = {y}"])))
    bound = g.pick(["T", "T", "3", "0", "X.shape[0]"])
    if g.chance(15):
        # (the count first: a `continue` in the body must not skip it, nor the shadow's run hang)
        loop = [Line(f"{k} = 0"), Block(f"while {k} < {bound}:", (Line(f"{k} += 1"), *body))]
    else:
        loop = [Block(f"for {k} in range({bound}):", tuple(body), (f"{k} = 0",))]
    after = g.pick([f"X[0] = {y}" if scalar else f"X[...] = {y}", f"B[0] = {y}" if scalar else f"B[...] = {y}",
                    f"B[1] = {y}.dtype == np.float64", f"B[-1] = {y}.dtype.itemsize", f"B[0] += float({y}" +
                    ("" if scalar else ".sum()") + ")", f"print({y})"])
    return [Line(f"{y} = {start}"), *loop, Line(after)], (y,)


# -- lane_nest ---------------------------------------------------------------------------------
def lane_params(g: Gen, ns: dict) -> list[Param]:
    p, q = g.pick([3, 4, 5, 2]), g.pick([3, 4, 5, 1])
    dtype = g.pick(["np.float64"] * 3 + ["np.float32", "np.int64"])
    return [Param("G", edges.literal(g, dtype, (p, q), 0)), Param("H", edges.literal(g, dtype, (p, q), 0)),
            Param("n", str(g.int(0, 3)))]


_INTERIOR = ["0 < i < P - 1 and 0 < j < Q - 1", "i > 0 and i < P - 1 and j > 0 and j < Q - 1",
             "1 <= i <= P - 2 and 1 <= j <= Q - 2", "0 < i < P - 1"]
_STENCILS = ["0.25 * (S[i - 1, j] + S[i + 1, j] + S[i, j - 1] + S[i, j + 1])", "S[i - 1, j] - S[i + 1, j]",
             "S[i, j] * 2 - S[i + 1, j]", "0.5 * (S[i - 1, j] + S[i, j + 1])", "S[i - 1, j - 1] + S[i + 1, j + 1]"]
# (condition, value): an edge's branch, its reads within range where the condition holds
_EDGES = [("i == 0", "S[i + 1, j]"), ("i == P - 1", "S[i - 1, j]"), ("j == 0", "S[i, j + 1] * 0.5"),
          ("j == Q - 1", "S[i, j - 1]"), ("i == 0", "S[i - 1, j]"),  # -1: NumPy's wrap to the last row
          ("i == 0 or i == P - 1", "-1"), ("j == 0 and i > 0", "S[i - 1, j] + S[i, j]"), ("i < 2", "S[i + 1, j] * 2")]
_REST = ["S[i, j]", "0", "S[i, j] + n", "-S[i, j]", "S[P - 1 - i, j]"]
# (condition, value) past the edge where the condition holds: NumPy raises IndexError
_PAST = [("j == Q - 1", "S[i, j + 1]"), ("i == P - 1", "S[i + 1, j]"), ("i == 1 and j == 0", "S[i + P, j]"),
         ("j == 0", "S[i, j - Q - 1]"), ("i == P - 1 and j == Q - 1", "S[i, j + 1] + S[i + 1, j]")]


def _nest(g: Gen, branches: list[tuple[str, str]], rest: str, src: str) -> list:
    """`P, Q = G.shape`, then `for i ..: for j ..: if c0: G[i, j] = v0 elif c1: ... else: ...` (S: src)."""
    def store(value: str) -> Line:
        return Line(f"G[i, j] = {value.replace('S[', src + '[')}")
    inner = [Block(f"{'if' if not k else 'elif'} {c}:", (store(v),)) for k, (c, v) in enumerate(branches)]
    if g.chance(85):
        inner.append(Block("else:", (store(rest),)))
    j = Block(f"for j in range({g.pick(['Q', 'G.shape[1]'])}):", tuple(inner), ("j = 0",))
    bound = g.pick(["P", "G.shape[0]", "P - 1" if g.chance(10) else "P"])
    return [Line("P, Q = G.shape"), Block(f"for i in range({bound}):", (j,), ("i = 0",))]


def lane_nest(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not all(n in fr.names for n in ("G", "H", "n")) or fr.depth:
        return None
    branches = [(g.pick(_INTERIOR), g.pick(_STENCILS))] + [g.pick(_EDGES) for _ in range(g.int(0, 2))]
    if g.chance(30):
        branches = branches[1:] + branches[:1]
    src = g.pick(["H", "H", "H", "G"])  # G: the nest reads what it writes (in loop order in NumPy)
    return _nest(g, branches, g.pick(_REST), src), ("P", "Q")


def lane_tail(g: Gen, fr: Frame, body: tuple, ret):
    """A last nest whose taken branch reads past the edge (not run on the shadow: NumPy raises)."""
    if not all(n in fr.names for n in ("G", "H")):
        return body, ret
    branches = [(g.pick(_INTERIOR), g.pick(_STENCILS)), g.pick(_PAST)]
    if g.chance(50):
        branches.reverse()
    return body + tuple(_nest(g, branches, g.pick(_REST), g.pick(["H", "H", "G"]))), ret


# -- jax32 -------------------------------------------------------------------------------------
def jax32_params(g: Gen, ns: dict) -> list[Param]:
    m = g.pick([2, 3, 5])
    values = [[g.int(-8, 8) / 4 for _ in range(m)] for _ in range(2)]
    params = [Param("j", f"jnp.asarray(np.array({values[0]!r}, dtype=np.float32))"),
              Param("dt", g.pick(["np.float64(0.05)", "0.05", "np.float64(0.25)"])), Param("n", str(g.int(0, 3)))]
    if g.chance(50):
        params.insert(1, Param("v", f"jnp.asarray(np.array({values[1]!r}, dtype=np.float32))"))
    if g.chance(30):
        params.append(Param("W", edges.literal(g, g.pick(["np.float64", "np.float32"]), (m,), 0)))
    return params


_MADE = ["np.array(j)", "np.asarray(j) * 2", "np.zeros(j.shape) + j", "j * dt", "np.array(j, dtype=np.float64)",
         "j.astype(np.float64)", "np.array(j) + 1", "j + 0.5", "np.float32(2) * j"]
_STEP = ["{p} = {p} + dt * {v}", "{p} += dt", "{p} *= 0.5", "{p}[0] = {p}.sum()", "{p} = {p} * dt",
         "{p}[1:] += {p}[:-1] * 0.5"]
_RESULT = ["{p}", "({p}, {p}.sum())", "{p}.sum()", "float({p}.sum())", "({p}, j)", "{p}.max()", "({p}, {p} > 0)",
           "{p}.astype(np.float32)", "({p}, np.asarray(j) * 2)", "{p}.dtype.itemsize"]


def jax32(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not all(n in fr.names for n in ("j", "dt", "n")) or fr.depth:
        return None
    p, k = g.name("p"), g.name("k")
    v = "v" if "v" in fr.names else g.pick(["j", "1.0"])
    lines = [Line(f"{p} = {g.pick(_MADE)}")]
    steps = tuple(Line(g.pick(_STEP).format(p=p, v=v)) for _ in range(g.int(1, 2)))
    if g.chance(60):
        lines.append(Block(f"for {k} in range({g.pick(['n', '3', '0'])}):", steps, (f"{k} = 0",)))
    else:
        lines += steps
    if "W" in fr.names and g.chance(50):
        lines.append(Line(g.pick([f"W[...] += {p}", f"W[0] = {p}.sum()", f"W[...] = np.asarray(j)"])))
    return lines, (p,)


def jax32_tail(g: Gen, fr: Frame, body: tuple, ret):
    """The result: a 64-bit or 32-bit array or scalar of the made value, beside the argument itself."""
    made = [n for n in fr.names if n.startswith("p") and isinstance(fr.ns.get(n), (np.ndarray, np.generic))]
    if not made:
        return body, ret
    return body, g.pick(_RESULT).format(p=g.pick(made))


# weight 0: each needs its own arguments (PARAMS), which only `--family NAME` gives a program
FAMILIES = {"f32_rebind": (f32_rebind, 0), "lane_nest": (lane_nest, 0), "jax32": (jax32, 0)}
PARAMS = {"f32_rebind": f32_params, "lane_nest": lane_params, "jax32": jax32_params}
TAILS = {"lane_nest": lane_tail, "jax32": jax32_tail}
TAIL_CHANCE = {"lane_nest": 35, "jax32": 80}  # percent of the programs asking for the family
