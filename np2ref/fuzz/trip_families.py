"""Families for the constructs made to translate in round 3, session 11, which no family wrote
(fuzz12), with their own arguments (edge data: -0.0, inf, nan among small floats) and weight 0 in
other runs:

    tuple_for      `for c in (0.5, -1.0, 2.0):`, `for v in (x, y):` (read, or written through),
                   `for i in (2, 0, 1):`, and `for v in x:` / `for k, v in enumerate(x):` over a
                   drawn array with a `break` or `continue` on its data (`v < 0`, `np.isnan(v)`,
                   `v == 0`: -0.0 is 0)
    mask_columns   masked stores reading columns through the mask: `M[m, 1] = M[m, 0] * 2`,
                   `y[m] = np.sqrt(M[m, 0] ** 2 + M[m, -1] ** 2)`, `y[m] += M[m, 1]`, `M[m, 1] =
                   M[m, 1] * 2`, in a loop over columns; a fifth store one column from another
                   (`M[m, 1] = M[m, 0] * 2`, `M[m, 0] += M[m, 1]`: NPR107)
    module_setup   module-level arrays written before the first def (`TAB = np.zeros(6);
                   TAB[1::2] = -0.0; for i in range(6): TAB[i] += i * 0.25`), read by `f`
                   (`1.0 / TAB[1]` tells -0.0 from 0.0)
    while_history  a `while` on data appending several values a trip: Newton steps until the
                   residual < tol, each residual (np.float64, or float() of it), the iterate and
                   the step count recorded
    ordered_fold   `for i: for k: C[i, :i+1] += alpha * A[i, k] * A[:i+1, k]` (syrk),
                   `for k: y[:] -= A[:, k] * t - b[k]`, `y += A[:, k] * b[k]` (gemv), on data
                   with -0.0, inf and nan, C maybe all -0.0 (-0.0 + -0.0 is -0.0: a reordered
                   sum starting from 0.0 is not)
    scalar_acc     `s = START; for k ...: s += a[k] * b[k]` (`s -= ...`, `s = s + f(x[k])`,
                   `s = s * x[k]`) from the literal starts 0.0, -0.0, 0 and 1.0: the sum's
                   type (Python float for no trip, NumPy's scalar after one), its zero's sign

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

import dataclasses

from . import edges
from .exprs import Gen
from .program import Block, Function, Line, Param, Stmt, render
from .reach_families import _have
from .shadow import Frame, run

_IGNORE = 'with np.errstate(all="ignore"):'  # inf - inf, 0 * inf: NaN as NumPy makes it, silently


def trip_params(g: Gen, ns: dict) -> list[Param]:
    n, p = g.pick([3, 4, 5]), g.pick([2, 3, 4])
    dtype = g.pick(["np.float64", "np.float64", "np.float64", "np.float32"])
    special = g.pick([0, 15, 25])
    c = g.pick([f"np.zeros(({n}, {n}), dtype={dtype})", f"np.full(({n}, {n}), -0.0, dtype={dtype})",
                edges.literal(g, dtype, (n, n), special)])
    return [Param("x", edges.literal(g, dtype, (n,), special)), Param("y", edges.literal(g, dtype, (n,), special)),
            Param("A", edges.literal(g, dtype, (n, p), special)), Param("b", edges.literal(g, dtype, (p,), special)),
            Param("C", c), Param("M", edges.literal(g, dtype, (n, 3), special)),
            Param("alpha", g.pick(["0.5", "-1.0", "np.float64(1.5)", "2.0"])), Param("n", str(g.int(0, 3))),
            Param("r", f"np.zeros(2, dtype={dtype})")]


def _errstate(g: Gen, stmts: list[Stmt]) -> list[Stmt]:
    """The statements, a third of the time inside `with np.errstate(all="ignore"):` (NumPy's strict
    run drops bare ones that warn, and the family draws again): a `with` around a loop with a data
    `break` is NPR030 at 6a8acb5 (the same loop bare translates), which would hide the loop."""
    return [Block(_IGNORE, tuple(stmts))] if g.chance(35) else list(stmts)


# -- tuple_for ----------------------------------------------------------------------------------
_TESTS = ["{v} < 0", "np.isnan({v})", "{v} == 0", "{v} > 1.0", "np.signbit({v})", "not {v} < 2.0", "{v} != {v}"]


def tuple_for(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "A", "r"):
        return None
    v, s, k = g.name("v"), g.name("s"), g.name("k")
    form = g.pick(["literals", "arrays", "arrays_written", "indices", "data", "data", "enumerate", "rows"])
    if form == "literals":
        cs = ", ".join(g.pick(["0.5", "-1.0", "2.0", "-0.0", "0.25", "3"]) for _ in range(g.int(1, 3)))
        body = g.pick([f"y[...] = y * {v} + x", f"r[0] += {v}", f"y[1:] -= {v} * x[:-1]", f"y *= {v}"])
        return _errstate(g, [Block(f"for {v} in ({cs},):", (Line(body),), (f"{v} = 0.5",))]), ()
    if form in ("arrays", "arrays_written"):
        items = g.pick(["x, y", "y, x", "x, y, x", "y, A[:, 0]", "x[::-1], y"])
        body = Line(g.pick([f"{s} = {s} + {v}.sum()", f"{s} = {s} + {v}[0]", f"{s} = max({s}, {v}.max())"]))
        if form == "arrays_written":
            body = Line(g.pick([f"{v}[0] = -0.0", f"{v} *= 2", f"{v}[1:] += {v}[:-1]", f"{v}[...] = -{v}"]))
        start = Line(f"{s} = {g.pick(['0.0', '-0.0', '0'])}")
        return _errstate(g, [start, Block(f"for {v} in ({items}):", (body,), (f"{v} = x",))]), (s,)
    if form == "indices":
        idx = ", ".join(str(g.int(-3, 2)) for _ in range(g.int(1, 3)))
        body = g.pick([f"y[{v}] += x[{v}]", f"r[0] = r[0] + x[{v}] * y[{v}]", f"x[{v}] = -x[{v}]"])
        return _errstate(g, [Block(f"for {v} in ({idx},):", (Line(body),), (f"{v} = 0",))]), ()
    test = g.pick(_TESTS).format(v=v)
    jump = Block(f"if {test}:", (Line(g.pick(["break", "continue"])),))
    step = Line(g.pick([f"{s} += {v}", f"{s} = {s} + {v} * {v}", f"{s} -= {v}", f"r[0] += {v}"]))
    start = Line(f"{s} = {g.pick(['0.0', '-0.0', '0', '1.0'])}")
    if form == "rows":  # the rows of a 2-d array, a break on a row's data
        test = g.pick(["{v}[0] < 0", "np.isnan({v}).any()", "{v}.sum() > 1.0", "{v}[-1] == 0"]).format(v=v)
        jump = Block(f"if {test}:", (Line(g.pick(["break", "continue"])),))
        step = Line(g.pick([f"{s} = {s} + {v}[0]", f"y[:{v}.shape[0]] += {v}[0]", f"{v}[0] = {s}"]))
        return _errstate(g, [start, Block(f"for {v} in A:", (jump, step), (f"{v} = A[0]",))]), (s,)
    if form == "enumerate":
        step = Line(g.pick([f"y[{k}] = {v} * 2", f"{s} += {v} * y[{k}]", f"x[{k}] = {s}"]))
        order = [jump, step] if g.chance(70) else [step, jump]
        return _errstate(g, [start, Block(f"for {k}, {v} in enumerate(x):", tuple(order), (f"{k} = 0", f"{v} = x[0]"))]), (s,)
    order = [jump, step] if g.chance(70) else [step, jump]
    return _errstate(g, [start, Block(f"for {v} in {g.pick(['x', 'y', 'x[::-1]', 'x * 2'])}:", tuple(order),
                                   (f"{v} = x[0]",))]), (s,)


# -- mask_columns ---------------------------------------------------------------------------------
_MASKS = ["M[:, 0] > 0", "M[:, 1] < M[:, 2]", "~np.isnan(M[:, 0])", "M[:, 2] == 0", "x > 0", "np.signbit(M[:, 1])",
          "M[:, 0] != M[:, 0]"]
# a 1-d array stored under the mask, reading M's columns through it (rules/mask_trail.py's
# like_trail=0: the view M[:, j] whole), or M's column stored from the same column; then the forms
# that store one column from another (`M[m, 1] = M[m, 0] * 2`: NPR107 at 6a8acb5, a refusal)
_COLUMN_STORES = ["y[{m}] = M[{m}, 0] * 2", "y[{m}] = (1.0 - M[{m}, 1]) / M[{m}, 2]", "y[{m}] += M[{m}, 1]",
                  "y[{m}] = np.sqrt(M[{m}, 0] ** 2 + M[{m}, -1] ** 2) * alpha", "x[{m}] -= M[{m}, 0] * M[{m}, 2]",
                  "y[{m}] = M[{m}, 0] + M[{m}, 1]", "x[{m}] = -M[{m}, 1]", "y[{m}] = M[{m}, 2] * x[{m}] - 0.0",
                  "M[{m}, 1] = M[{m}, 1] * 2", "M[{m}, 0] += M[{m}, 0] * x[{m}]", "M[{m}, 2] = -M[{m}, 2]"]
_CROSS_STORES = ["M[{m}, 1] = M[{m}, 0] * 2", "M[{m}, 0] += M[{m}, 1]", "M[{m}, 2] = M[{m}, 0] - M[{m}, 1]",
                 "M[{m}, 1:] = M[{m}, :2] * 0.5", "M[{m}, 1] = y[{m}] * 2"]


def _column_store(g: Gen, m: str) -> Line:
    return Line(g.pick(_CROSS_STORES if g.chance(20) else _COLUMN_STORES).format(m=m))


def mask_columns(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "M", "x", "y"):
        return None
    m = g.name("m")
    mask = g.pick(_MASKS)
    stmts: list[Stmt] = [Line(f"{m} = {mask}")]
    if g.chance(25):  # a loop over columns: the store's column moves
        j = g.name("j")
        body = g.pick(["y[{m}] += M[{m}, {j}]", "y[{m}] = y[{m}] * M[{m}, {j}]", "M[{m}, {j}] *= x[{m}]",
                       "M[{m}, {j} + 1] = M[{m}, {j}] * 2"]).format(m=m, j=j)
        stmts.append(Block(f"for {j} in range({g.pick(['2', '3'])}):", (Line(body),), (f"{j} = 0",)))
    else:
        for _ in range(g.int(1, 2)):
            stmts.append(_column_store(g, m))
    if g.chance(25):  # the mask rebuilt from the columns just written
        stmts += [Line(f"{m} = {g.pick(_MASKS)}"), _column_store(g, m)]
    return _errstate(g, stmts), (m,)


# -- module_setup ---------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class ModuleSetup(Function):
    """Module-level statements before the first def (rendered at column 0, run when the module
    is imported): set-up code writing an array `f` reads. A Function to the program and the
    shrinker (its body's statements can be dropped), named after the array it makes."""

    def source(self) -> str:
        return "\n".join(render(self.body))


_MAKES = ["np.zeros({n})", "np.arange({n}) * 0.5", "np.full({n}, -0.0)", "np.linspace(-1.0, 1.0, {n})",
          "np.ones({n}, dtype=np.float32)", "np.arange({n}, dtype=np.int64)"]
_SETUP_WRITES = ["{t}[1::2] = -0.0", "{t}[0] = np.inf", "{t}[2:4] += 1.5", "{t} *= -1", "{t}[-1] = np.nan",
                 "{t}[:] = {t}[::-1]", "{t}[{t} == 0] = -0.0", "{t} += 0.25"]
_SETUP_READS = ["y[...] += {t}", "r[0] = 1.0 / {t}[1]", "r[1] = {t}.sum()", "y[...] = np.copysign(1.0, {t})",
                "y[...] = x * {t}", "y[...] = np.where({t} > 0, x, y)", "r[0] = np.arctan2({t}[0], -1.0)",
                "y[{t} != {t}] = 0.0", "r[1] = {t}.max() - {t}.min()", "x[...] = x + {t}[::-1] * alpha"]


def module_setup(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "r", "alpha") or fr.in_helper or fr.depth:
        return None
    t = g.name("TAB")
    size = fr.ns["x"].shape[0]
    body: list[Stmt] = [Line(f"{t} = {g.pick(_MAKES).format(n=size)}")]
    kind = "f" if "int" not in body[0].text else "i"
    writes = [w for w in _SETUP_WRITES if kind == "f" or ("-0.0" not in w and "np." not in w and "1.5" not in w
                                                           and "0.25" not in w)]
    for _ in range(g.int(1, 3)):
        body.append(Line(g.pick(writes).format(t=t)))
    if g.chance(15):  # a module-level loop writing it (NPR021 at 6a8acb5: rt/module_globals.py sees a later change)
        i = g.name("i")
        body.append(Block(f"for {i} in range({size}):", (Line(g.pick([f"{t}[{i}] += {i} * 0.25", f"{t}[{i}] = {t}[{i}] * {i}",
                                                                     f"{t}[{i}] -= {t}[{i} - 1]"])),)))
    if kind == "i":
        body = [Line(b.text.replace(" * 0.25", "").replace("+= ", "+= 1 + ")) if isinstance(b, Line) else b for b in body]
    setup = ModuleSetup(t, (), tuple(body))
    try:
        run(setup.body, fr.ns)  # into the live namespace; fresh ones run the helpers (generate.base_namespace)
    except Exception:  # noqa: BLE001 - set-up code NumPy refuses: no proposal
        return None
    helpers.insert(0, setup)  # before the first def
    return _errstate(g, [Line(g.pick(_SETUP_READS).format(t=t)) for _ in range(g.int(1, 2))]), ()


# -- while_history --------------------------------------------------------------------------------
def while_history(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y"):
        return None
    z, c, res, its, it, e = (g.name(p) for p in ("z", "c", "res", "its", "it", "e"))
    tol = g.pick(["1e-9", "1e-6", "0.5", "1e-3"])
    cap = g.pick(["20", "6", "n + 2", "40"])
    c_of = g.pick(["np.abs(x) + 1.0", "y * y + 0.5", "np.abs(x * y) + 2.0", "np.full(x.shape, 2.0)"])
    resid = g.pick(["np.max(np.abs({z} * {z} - {c}))", "np.abs({z} * {z} - {c}).sum()", "np.linalg.norm({z} * {z} - {c})"])
    step = g.pick(["{z} = {z} - ({z} * {z} - {c}) / (2.0 * {z})", "{z} = 0.5 * ({z} + {c} / {z})"])
    fmt = dict(z=z, c=c)
    records = [g.pick([f"{res}.append({e})", f"{res}.append(float({e}))", f"{res}.append({e} * 1.0)"]),
               g.pick([f"{its}.append({z}.copy())", f"{its}.append({it})", f"{its}.append({z}[0])",
                       f"{its}.append(({it}, {e}))"])]
    if g.chance(50):
        records.reverse()
    first = g.pick([f"{z} = {c}.copy()", f"{z} = np.ones_like({c}) * 2.0", f"{z} = {c} + 1.0"])
    head = [Line(f"{c} = {c_of}"), Line(first), Line(f"{res} = []"), Line(f"{its} = []"), Line(f"{it} = 0"),
            Line(f"{e} = {resid.format(**fmt)}")]
    trip = (Line(step.format(**fmt)), Line(f"{e} = {resid.format(**fmt)}"), *map(Line, records), Line(f"{it} += 1"))
    if g.chance(30):  # `while True` with the test at the trip's end
        loop = Block("while True:", trip + (Block(f"if {e} < {tol} or {it} >= {cap}:", (Line("break"),)),))
    else:
        loop = Block(f"while {e} > {tol} and {it} < {cap}:", trip)
    return head + [loop], (z, c, res, its, it, e)


# -- ordered_fold ---------------------------------------------------------------------------------
def ordered_fold(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "A", "b", "C", "y", "alpha"):
        return None
    i, k = g.name("i"), g.name("k")
    form = g.pick(["syrk", "syrk", "gemv_sub", "gemv", "cols", "syrk_beta"])
    if form.startswith("syrk"):
        inner = Block(f"for {k} in range(A.shape[1]):",
                      (Line(g.pick([f"C[{i}, :{i} + 1] += alpha * A[{i}, {k}] * A[:{i} + 1, {k}]",
                                    f"C[{i}, :{i} + 1] += A[:{i} + 1, {k}] * (alpha * A[{i}, {k}])",
                                    f"C[{i}, :{i} + 1] -= alpha * A[{i}, {k}] * A[:{i} + 1, {k}]"])),), (f"{k} = 0",))
        body = (Line(f"C[{i}, :{i} + 1] *= {g.pick(['0.5', '-1.0', 'alpha'])}"), inner) if form == "syrk_beta" else (inner,)
        return _errstate(g, [Block(f"for {i} in range(A.shape[0]):", body, (f"{i} = 0",))]), ()
    if form == "gemv_sub":
        t = g.pick(["alpha", "x[0]", "2.0", "-0.0"])
        line = g.pick([f"y[:] -= A[:, {k}] * {t} - b[{k}]", f"y[:] = y - (A[:, {k}] * {t} - b[{k}])"])
    elif form == "gemv":
        line = g.pick([f"y += A[:, {k}] * b[{k}]", f"y[:] = y + alpha * A[:, {k}] * b[{k}]", f"y -= b[{k}] * A[:, {k}]"])
    else:
        line = g.pick([f"C[:, {k}] -= A[:, {k}] * b[{k}]", f"C[{k}, :] += alpha * A[:, {k}]"])
    return _errstate(g, [Block(f"for {k} in range(A.shape[1]):", (Line(line),), (f"{k} = 0",))]), ()


# -- scalar_acc -----------------------------------------------------------------------------------
_STARTS = ["0.0", "-0.0", "0", "1.0", "0.0", "-0.0"]
_TERMS = ["x[{k}] * y[{k}]", "x[{k}]", "-x[{k}]", "x[{k}] * -1.0", "np.abs(x[{k}])", "y[{k}] * 2", "x[{k}] * 0.0",
          "A[{k}, 0] * b[0]", "x[{k}] * x[{k}]"]
_HELPERS = ["{v} * {v} - 0.5", "-{v}", "np.abs({v})", "{v} * 0.0", "max({v}, 0.0)"]


def scalar_acc(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "x", "y", "A", "b", "r", "n"):
        return None
    s, k = g.name("s"), g.name("k")
    term = g.pick(_TERMS).format(k=k)
    if g.chance(25):  # a helper's value of the element: `s = s + f(x[k])`
        h = g.name("h")
        helpers.append(Function(h, ("v",), (), g.pick(_HELPERS).format(v="v")))
        term = f"{h}({g.pick(['x', 'y'])}[{k}])"
    op = g.pick(["+=", "+=", "-=", "= s +", "= s -", "*="])
    step = f"{s} {op.replace('s', s)} {term}" if op.startswith("=") else f"{s} {op} {term}"
    bound = g.pick(["x.shape[0]", "len(x)", "n", "0", "A.shape[1]", "1"])
    header = g.pick([f"for {k} in range({bound}):", f"for {k} in reversed(range({bound})):",
                     f"for {k} in range(1, {bound}):"])
    stmts: list[Stmt] = [Line(f"{s} = {g.pick(_STARTS)}"), Block(header, (Line(step),), (f"{k} = 0",))]
    if g.chance(25):  # a while form of the same fold
        stmts = [Line(f"{s} = {g.pick(_STARTS)}"), Line(f"{k} = 0"),
                 Block(f"while {k} < {bound}:", (Line(step), Line(f"{k} += 1")), (f"{k} = 0",))]
    if g.chance(30):
        stmts.append(Line(g.pick([f"r[0] = {s}", f"r[1] = 1.0 / {s}", f"y[0] = {s}", f"r[...] = np.copysign(1.0, {s})"])))
    return _errstate(g, stmts), (s,)


def trip_tail(g: Gen, fr: Frame, body: tuple, ret):
    """What the family made, returned: a sum's type and sign, a history, the arrays written."""
    made = [n for n in fr.names if n[:1] in "sz" or n.startswith(("res", "its", "it"))]
    made = [n for n in made if n in fr.ns and not callable(fr.ns[n])]
    arrays = g.pick(["(y, r)", "(C, y)", "M", "(x, y, r)", "r"])
    if not made:
        return body, arrays
    v = g.pick(made)
    return body, g.pick([v, v, f"({v}, {arrays})", f"({', '.join(made[-3:])})", f"type({v}).__name__"])


# weight 0: they need their own arguments (PARAMS), which only `--family NAME` gives a program
_NAMES = ("tuple_for", "mask_columns", "module_setup", "while_history", "ordered_fold", "scalar_acc")
FAMILIES = {name: (globals()[name], 0) for name in _NAMES}
PARAMS = dict.fromkeys(_NAMES, trip_params)
TAILS = dict.fromkeys(_NAMES, trip_tail)
TAIL_CHANCE = dict.fromkeys(_NAMES, 85)
