"""Families for script idioms no other family wrote (fuzz6), each with its own arguments and
weight 0 in other runs (the programs of existing seeds stay as they were):

    add_at_mask   `np.add.at(C, I[m], V[m])` with a mask of data (`V > 0`, `I % 2 == 0`), the
                  other ufuncs' `.at` too: repeated and negative indices, a selection that may
                  be empty, a number for the values, rows of a 2-d array, the mask named first,
                  in a loop, into an argument or a new array
    comp_range    `np.array([h(k) for k in range(n)])`: a helper of the loop index (a number, an
                  element, a prefix's sum, a row, a branch), zero trips (NumPy's float64 of
                  shape (0,)), a dtype given, the result used after
    none_return   helpers that write an argument and return None early on a condition of data
                  (`if x[i] > t: return`, `return None`), called as statements, in loops too

`tqdm(range(n))` loop headers are not written: tqdm is not installed where the fuzzer runs.

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from . import edges
from .exprs import Gen
from .host_families import define
from .program import Block, Line, Param
from .shadow import Frame


# -- add_at_mask ----------------------------------------------------------------------------
def add_at_params(g: Gen, ns: dict) -> list[Param]:
    m, k = g.pick([4, 5, 7]), g.pick([0, 3, 6, 9])
    dtype = g.pick(["np.float64"] * 3 + ["np.float32"])
    index = ", ".join(str(g.int(-m, m - 1)) for _ in range(k))
    return [Param("C", edges.literal(g, dtype, (m,), 5)), Param("D", edges.literal(g, dtype, (m, 2), 0)),
            Param("I", f"np.array([{index}], dtype={g.pick(['np.int64', 'np.int64', 'np.int32'])})"),
            Param("V", edges.literal(g, dtype, (k,), 5))]


def add_at_mask(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not all(n in fr.names for n in ("C", "D", "I", "V")):
        return None
    mask = g.pick(["V > 0", "I % 2 == 0", "V > V.mean()", "I >= 0", "(V > 0) & (I > 0)", "~(V < 0)",
                   "np.abs(V) <= 1.0", "V != V"])
    ufunc = g.pick(["np.add"] * 4 + ["np.subtract", "np.maximum", "np.minimum", "np.multiply"])
    lines, defined = [], ()
    if g.chance(40):  # the mask named first
        m = g.name("m")
        lines.append(Line(f"{m} = {mask}"))
        mask, defined = m, (m,)
    values = g.pick([f"V[{mask}]", "1.0", f"V[{mask}] * 2", "2", f"-V[{mask}]"])
    form = g.pick(["C", "C", "new", "rows", "loop"])
    if form == "new":
        c = g.name("c")
        lines += [Line(f"{c} = {g.pick(['np.zeros(C.shape[0])', 'np.zeros_like(C)', 'C.copy()'])}"),
                  Line(f"{ufunc}.at({c}, I[{mask}], {values})")]
        defined += (c,)
    elif form == "rows":
        rows = values if values in ("1.0", "2") else f"({values})[:, None]"
        lines.append(Line(f"{ufunc}.at(D, I[{mask}], {rows})"))
    elif form == "loop":
        k = g.name("k")
        lines.append(Block(f"for {k} in range({g.pick(['2', 'C.shape[0]', 'I.shape[0]'])}):",
                           (Line(f"{ufunc}.at(C, I[{mask}], {values})"), Line(f"C[{k} % C.shape[0]] *= 0.5")),
                           (f"{k} = 0",)))
    else:
        lines.append(Line(f"{ufunc}.at(C, I[{mask}], {values})"))
    return lines, defined


# -- comp_range -----------------------------------------------------------------------------
def comp_params(g: Gen, ns: dict) -> list[Param]:
    dtype = g.pick(["np.float64"] * 3 + ["np.float32", "np.int64"])
    return [Param("X", edges.literal(g, dtype, (g.pick([1, 3, 4]),), 5)), Param("n", str(g.int(0, 3)))]


_OF_INDEX = [  # (parameters, body lines, return) of a helper of the loop index k
    (("k",), (), "k * 0.5"), (("k",), (), "k * k"), (("k", "x"), (), "x[k % x.shape[0]] * 2.0"),
    (("k", "x"), (), "x[:k + 1].sum()"), (("k", "x"), (), "x * k"), (("k", "x"), (), "np.float32(k) + x[0]"),
    (("k",), (Block("if k % 2:", (Line("return 1.0"),)),), "-0.5"), (("k", "x"), (), "x.max() - k"),
    (("k", "x"), (Line("y = x.copy()"), Line("y[0] = k")), "y.sum()"), (("k", "x"), (), "(x > k).sum()")]


def comp_range(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not all(n in fr.names for n in ("X", "n")):
        return None
    params, body, ret = g.pick(_OF_INDEX)
    h, k, v = define(g, fr, helpers, params, body, ret), g.name("k"), g.name("v")
    args = ", ".join({"k": k, "x": "X"}[p] for p in params)
    bound = g.pick(["X.shape[0]", "n", "3", "0", "len(X)", "n + 1"])
    dtype = g.pick(["", "", "", ", dtype=np.float32", ", dtype=np.float64"])
    lines = [Line(f"{v} = np.array([{h}({args}) for {k} in range({bound})]{dtype})")]
    if g.chance(50):
        lines.append(Line(g.pick([f"X[:{v}.shape[0]] += {v}[:X.shape[0]].astype(X.dtype)",
                                  f"X[0] = {v}.sum()", f"{v} = {v} * 2 + 1"])))
    return lines, (v,)


# -- none_return ----------------------------------------------------------------------------
def none_params(g: Gen, ns: dict) -> list[Param]:
    dtype = g.pick(["np.float64"] * 3 + ["np.float32", "np.int64"])
    return [Param("X", edges.literal(g, dtype, (g.pick([2, 3, 5]),), 5)), Param("t", g.pick(["0.25", "-1.0", "2.0"]))]


def none_return(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not all(n in fr.names for n in ("X", "t")):
        return None
    exits = [Block(f"if {g.pick(['x[i] > t', 'x.sum() < t', 'i >= x.shape[0] - 1', 't < 0', 'x[i] != x[i]'])}:",
                   (Line(g.pick(["return", "return None"])),))]
    writes = [Line(g.pick(["x[i] += 1", "x[i] = t", "x[...] *= 2", "x[i:] -= 1"]))]
    if g.chance(40):  # a second exit after a write
        writes += [Block(f"if {g.pick(['x[0] > x[-1]', 'x.max() > 3'])}:", (Line("return None"),)),
                   Line(g.pick(["x[-1] = 0", "x[0] += t"]))]
    h = define(g, fr, helpers, ("x", "i", "t"), tuple(exits + writes), None)
    call = f"{h}(X, {{}} % X.shape[0], {g.pick(['t', '0.5', 't * 2'])})"
    form = g.pick(["once", "loop", "loop", "bound"])
    if form == "loop":
        k = g.name("k")
        return [Block(f"for {k} in range({g.pick(['X.shape[0]', '3', '0'])}):", (Line(call.format(k)),),
                      (f"{k} = 0",))], ()
    if form == "bound":
        r = g.name("r")
        return [Line(f"{r} = {call.format(g.int(0, 4))}"), Line(f"X[0] += {r} is None")], ()
    return [Line(call.format(g.int(0, 4)))], ()


# weight 0: each needs its own arguments (PARAMS), which only `--family NAME` gives a program
FAMILIES = {"add_at_mask": (add_at_mask, 0), "comp_range": (comp_range, 0), "none_return": (none_return, 0)}
PARAMS = {"add_at_mask": add_at_params, "comp_range": comp_params, "none_return": none_params}
