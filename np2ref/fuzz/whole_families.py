"""Families for whole-program patterns no other family wrote (each with its own arguments):

    fission_loop  a rolled loop whose trips do carry-free work (a tanh, a product, a quotient of
                  the loop variable's element) beside carried sums, order-sensitive reductions
                  (`M[i].sum()`, `np.dot(M[i], X)`: they must stay in the loop) and stores; its
                  header marked FISSION_MARK, so the runner compiles it with loop fission forced
                  on (rt/fission.py: on by default only on a TPU) and compares it bit for bit with
                  fission off, and with NumPy
    swap_loop     arrays rebound inside loops: `u, v = v, u` after a stencil into v, `x = x.copy()`
                  then written, a rebinding in one branch only, the old buffer read after the loop
    alias_buf     one buffer under two names (`b = a`, `b = a[::-1]`, `a.T`), a view passed to a
                  helper that writes it, `out=` into an input, written then read through the other
    promote_mix   float32 and integer arrays with float64 constants and arrays: NumPy 2's
                  promotion (`F * 0.1` stays float32, `F * np.float64(0.1)` and `I * 0.5` are
                  float64, `I + np.int8(3)` keeps I's dtype), results of each dtype returned
    int_wrap      int8, uint8, int32 arrays wrapping around in loops (`A[...] = A * 3 + 1`,
                  `A[1:] += A[:-1]`, `np.multiply(A, 5, out=A)`, `A -= 200` of uint8), sums that
                  NumPy makes int64
    made_0d       0-d arrays made in the function (`np.zeros(())`, `np.asarray(X.sum())`,
                  `X[0, ...]`, `np.squeeze(X[0:1])`, `X[0:1].reshape(())`) written in place (in a
                  loop too), asked (type, isinstance, repr) and returned

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from . import edges
from .exprs import Gen
from .program import Block, Function, Line, Param
from .shadow import Frame

FISSION_MARK = "# np2ref-fuzz: fission"  # on a loop header: the runner forces loop fission on


def _float(g: Gen) -> str:
    return g.pick(["np.float64"] * 3 + ["np.float32"])


# -- fission_loop ---------------------------------------------------------------------------
def fission_params(g: Gen, ns: dict) -> list[Param]:
    # (a loop of 16 trips or fewer is unrolled: nothing to move)
    m, k, dtype = g.pick([17, 20, 24, 33, 17, 3]), g.pick([1, 3, 4]), _float(g)
    special = g.pick([0, 0, 0, 8])
    return [Param("X", edges.literal(g, dtype, (m,), special)), Param("M", edges.literal(g, dtype, (m, k), special)),
            Param("O", f"np.zeros({m}, dtype={dtype})")]


def fission_loop(g: Gen, fr: Frame, helpers) -> tuple | None:
    if fr.depth or not all(n in fr.names for n in ("X", "M", "O")):
        return None
    i, acc = g.name("i"), g.name("acc")
    c = g.pick(["0.5", "2.0", "-1.25", "3.0"])
    free = [f"np.tanh(X[{i}]) * {c}", f"np.sin(X[{i}]) + {i}", f"np.exp(-np.abs(X[{i}])) * ({i} + 1.0)",
            f"np.sqrt(np.abs(X[{i}])) / (1.0 + {i})", f"X[{i}] * X[{i}]", f"np.cos(M[{i}, 0]) * {c}",
            f"np.floor(X[{i}] / 0.1)", f"np.log1p(np.abs(X[{i}]))"]
    ordered = [f"M[{i}].sum()", f"np.dot(M[{i}], M[{i}])", f"np.cumsum(M[{i}])[-1]", f"M[{i}].prod()",
               f"(M[{i}] * {c}).sum()"]
    body = []
    for _ in range(g.int(1, 4)):
        form = g.pick(["acc", "acc", "store", "row", "carried", "ordered"])
        if form == "acc":
            body.append(Line(f"{acc} = {acc} {g.pick(['+', '-'])} {g.pick(free)}"))
        elif form == "ordered":
            body.append(Line(f"{acc} += {g.pick(ordered)}"))
        elif form == "store":
            body.append(Line(f"O[{i}] {g.pick(['=', '+='])} {g.pick(free + ordered)}"))
        elif form == "row":
            body.append(Line(f"M[{i}, :] = np.tanh(M[{i}, :]) * {c}"))
        else:
            body.append(Line(f"O[{i}] = {acc}"))
    if not any(acc in ln.text.split(" = ")[0] or ln.text.startswith(f"{acc} +=") for ln in body):
        body.append(Line(f"{acc} = {acc} * 0.5 + {g.pick(free)}"))
    bound = g.pick(["X.shape[0]", "len(X)", "M.shape[0]"])
    loop = Block(f"for {i} in range({bound}):  {FISSION_MARK}", tuple(body), (f"{i} = 0",))
    return [Line(f"{acc} = {g.pick(['0.0', 'X[0] * 0.0', 'np.float64(0.0)'])}"), loop, Line(f"O[0] += {acc}")], (acc,)


# -- swap_loop ------------------------------------------------------------------------------
def pair_params(g: Gen, ns: dict) -> list[Param]:
    m, dtype = g.pick([3, 4, 6, 1]), g.pick(["np.float64"] * 3 + ["np.float32", "np.int64"])
    return [Param("U", edges.literal(g, dtype, (m,), g.pick([0, 0, 10]))),
            Param("V", edges.literal(g, dtype, (m,), 0) if g.chance(60) else "U.copy()")]


def swap_loop(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not all(n in fr.names for n in ("U", "V")) or fr.ns["U"].shape != fr.ns["V"].shape:
        return None
    u, v, k = g.name("u"), g.name("v"), g.name("k")
    integer = fr.ns["U"].dtype.kind in "iu"
    half = "// 2" if integer else "* 0.5"
    form = g.pick(["swap", "swap", "copy", "branch"])
    pre = [Line(f"{u} = {g.pick(['U', 'U.copy()', 'U[::-1]'])}"), Line(f"{v} = {g.pick(['V', 'np.zeros_like(U)', 'V.copy()'])}")]
    if form == "swap":
        body = [Line(g.pick([f"{v}[1:-1] = ({u}[:-2] + {u}[2:]) {half}", f"{v}[...] = {u} * 2 + {k}",
                             f"{v}[...] = {u}[::-1]", f"{v}[:] = {u} + 1"])),
                Line(f"{v}[0] = {u}[0]") if g.chance(50) else Line(f"{v}[-1] += 1"),
                Line(g.pick([f"{u}, {v} = {v}, {u}", f"{v}, {u} = {u}, {v}"]))]
    elif form == "copy":
        body = [Line(f"{u} = {u}.copy()"), Line(g.pick([f"{u}[{k} % {u}.shape[0]] += 1", f"{u}[...] = {u} * 2",
                                                         f"{u}[::-1] += {v}"]))]
        if g.chance(50):
            body.append(Line(f"{v}[0] = {u}.sum()"))
    else:
        body = [Block(f"if {k} % 2 == {g.int(0, 1)}:", (Line(f"{u} = {u} + {v}"),)),
                Line(g.pick([f"{u}[0] = {k}", f"{v}[...] += {u}", f"{u}[...] += 1"]))]
    trips = g.pick(["3", "U.shape[0]", "0", "1"] + ["n"] * ("n" in fr.ints()))
    after = Line(g.pick([f"U[...] += {u}", f"V[0] = {v}.sum() {half}" if integer else f"V[0] = {v}.sum()",
                         f"{u}[...] = 7", f"V[...] = {u} - {v}"]))
    return [*pre, Block(f"for {k} in range({trips}):", tuple(body), (f"{k} = 0",)), after], (u, v)


# -- alias_buf ------------------------------------------------------------------------------
def alias_params(g: Gen, ns: dict) -> list[Param]:
    dtype = g.pick(["np.float64"] * 3 + ["np.int32", "np.float32"])
    shape = g.pick([(4,), (3,), (2, 3), (3, 3)])
    return [Param("A", edges.literal(g, dtype, shape, 0)), Param("C", edges.literal(g, dtype, shape, 0))]


def alias_buf(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not all(n in fr.names for n in ("A", "C")):
        return None
    b = g.name("b")
    two_d = fr.ns["A"].ndim == 2
    view = g.pick(["A", "A[::-1]", "A[1:]", "A[...]"] + ["A.T", "A[:, 0]", "A.reshape(-1)"] * two_d)
    lines = [Line(f"{b} = {view}")]
    form = g.pick(["write_b", "write_a", "helper", "out", "chain"])
    if form == "write_b":
        lines.append(Line(g.pick([f"{b}[0] = 9", f"{b} += 1", f"{b}[...] = {b} * 2", f"{b}[::2] = -1"])))
    elif form == "write_a":
        lines.append(Line(g.pick(["A[0] = 5", "A += C", "A[...] = A[::-1]" if not two_d else "A[...] = A.T", "A *= 2"])))
    elif form == "helper":
        h = g.name("h")
        body, ret = g.pick([((Line("x[...] = x * 2"),), None), ((Line("x[0] += 1"),), "x"),
                            ((Line("x += y"),), "x.sum()"), ((Line("y[...] = x"),), None)])
        helpers.append(Function(h, ("x", "y"), body, ret))
        lines.append(Line(g.pick([f"{h}({b}, C)", f"{h}(A[1:], A[:-1])", f"{h}(C, {b})", f"{h}({b}, {b})"])))
    elif form == "out":
        lines.append(Line(g.pick(["np.add(A, C, out=A)", f"np.multiply({b}, 2, out={b})", "np.negative(A, out=C)",
                                  "np.add(A, A[::-1], out=A)", f"np.subtract(C, {b}, out=C)"])))
    else:
        c = g.name("c")
        lines += [Line(f"{c} = {b}"), Line(f"{c}[...] = {c} + 1"), Line(f"C[...] += {b}" if not two_d or view != "A[:, 0]" else "C[0] += 1")]
    lines.append(Line(g.pick(["C[...] += A", f"C[0] = {b}.sum()", f"A[0] = {b}.max()", "C[...] = A"])))
    return lines, (b,)


# -- promote_mix ----------------------------------------------------------------------------
def promote_params(g: Gen, ns: dict) -> list[Param]:
    m = g.pick([3, 4, 2])
    idt = g.pick(["np.int8", "np.uint8", "np.int32", "np.int64", "np.int16"])
    return [Param("F", edges.literal(g, "np.float32", (m,), g.pick([0, 10]))), Param("I", edges.literal(g, idt, (m,), 20)),
            Param("D", edges.literal(g, "np.float64", (m,), 0))]


def promote_mix(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not all(n in fr.names for n in ("F", "I", "D")):
        return None
    r = g.name("r")
    expr = g.pick(["F * 0.1", "F * np.float64(0.1)", "I * 0.5", "I + np.int8(3)", "np.float32(2) * I", "F * D",
                   "I / 3", "I // 2", "np.sqrt(I)", "F + I", "F.sum() * 2.0", "I.sum() * 0.5", "(F * 1e-8 + 1.0)",
                   "np.mean(I)", "I * 3", "I - 1.5", "F / np.float32(3)", "F * np.array(0.1)", "I * np.int64(2)",
                   "np.maximum(F, 0.1)", "np.where(F > 0, F, 0.1)", "I.astype(np.float32) * 0.1", "F ** 2",
                   "I ** 2", "np.abs(I) + 1e-3"])
    lines = [Line(f"{r} = {expr}")]
    store = g.pick(["F[...] = {r}", "D[...] = {r}", "F += {r}", "D += {r}", "I[...] = {r}", "D[0] = np.sum({r})"]).format(r=r)
    if g.chance(60):
        lines.append(Line(store))
    if g.chance(30):
        k = g.name("k")
        lines = [Block(f"for {k} in range({g.pick(['2', 'F.shape[0]'])}):",
                       (Line(g.pick(["F[...] = F * 0.5 + 0.1", "F += np.float64(0.25)", "D[...] += F * 0.1",
                                     f"F[{k}] = F[{k}] * 1.5"])),) + tuple(lines))]
    return lines, (r,) if not isinstance(lines[0], Block) else ()


# -- int_wrap -------------------------------------------------------------------------------
def int_params(g: Gen, ns: dict) -> list[Param]:
    dtype, m = g.pick(["np.int8", "np.uint8", "np.int32", "np.int8", "np.uint8"]), g.pick([3, 4, 5])
    return [Param("A", edges.literal(g, dtype, (m,), 60)), Param("B", edges.literal(g, dtype, (m,), 30))]


def int_wrap(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not all(n in fr.names for n in ("A", "B")):
        return None
    k = g.name("k")
    step = g.pick(["A[...] = A * 3 + 1", "A[1:] += A[:-1]", "np.multiply(A, 5, out=A)", "A -= 200", "A += B",
                   "A *= 7", "A[...] = A + 100", f"A[{k} % A.shape[0]:][:1] *= 3", "A <<= 1", "A[::-1] += B",
                   "B[...] = A * A", "A[...] = A - B * 2", "A[...] = np.cumsum(A, dtype=A.dtype)"])
    body = [Line(step)] + ([Line(g.pick(["B += A", "B[0] = A[-1]", "B ^= A", "B[...] = B // 3"]))] if g.chance(40) else [])
    trips = g.pick(["3", "A.shape[0]", "9", "0"] + ["n"] * ("n" in fr.ints()))
    after = Line(g.pick(["B[0] = A.sum() % 100", "B[...] = A.max()", "A[0] = B.min()", "B[...] = A + B"]))
    return [Block(f"for {k} in range({trips}):", tuple(body), (f"{k} = 0",)), after], ()


# -- made_0d --------------------------------------------------------------------------------
def zero_d_made_params(g: Gen, ns: dict) -> list[Param]:
    dtype = g.pick(["np.float64"] * 3 + ["np.float32", "np.int32", "np.int64"])
    return [Param("X", edges.literal(g, dtype, (g.pick([1, 2, 3, 4]),), 10)),
            Param("Y", edges.literal(g, dtype, (g.pick([1, 2]), 2), 0))]


def made_0d(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not all(n in fr.names for n in ("X", "Y")):
        return None
    z = g.name("z")
    make = g.pick(["np.zeros(())", "np.asarray(X.sum())", "X[0, ...]", "np.squeeze(X[0:1])", "X[0:1].reshape(())",
                   "np.full((), 2.0)", "np.array(X[0])", "np.ones((), dtype=X.dtype)",
                   "Y[0, 0, ...]", "np.zeros_like(X[0])", "np.copy(X[-1])", "Y[0:1, 0:1].squeeze()"])
    lines = [Line(f"{z} = {make}")]
    for _ in range(g.int(0, 2)):
        lines.append(Line(g.pick([f"{z}[...] = X.sum()", f"{z} += 1", f"{z}[()] = X[0]", f"{z}[...] += X[-1]",
                                  f"{z}.fill(3)", f"{z} *= 2", f"X[0] = {z}", f"X[...] += {z}"])))
    if g.chance(25):
        k = g.name("k")
        lines.append(Block(f"for {k} in range({g.pick(['X.shape[0]', '2', '0'])}):", (Line(f"{z}[...] += X[{k} % X.shape[0]]"),),
                           (f"{k} = 0",)))
    if g.chance(50):
        lines.append(Line(g.pick([f"print(type({z}).__name__)", f"print(isinstance({z}, np.ndarray))",
                                  f"print(repr({z}))", f"print({z}.shape, {z}.ndim)", f"print({z})"])))
    return lines, (z,)


def zero_d_tail(g: Gen, fr: Frame, body: tuple, ret):
    """A made 0-d array returned: itself, beside a scalar of it, its copy."""
    zs = [n for n in fr.names if n.startswith("z") and hasattr(fr.ns.get(n), "ndim")]
    if not zs:
        return body, ret
    z = g.pick(zs)
    return body, g.pick([z, f"({z}, {z}[()])", f"{z}.copy()", f"({z}, {z} + 1)", f"({z}, X.sum())"])


# weight 0: each needs its own arguments (PARAMS), which only `--family NAME` gives a program; other
# runs draw as before
FAMILIES = {"fission_loop": (fission_loop, 0), "swap_loop": (swap_loop, 0), "alias_buf": (alias_buf, 0),
            "promote_mix": (promote_mix, 0), "int_wrap": (int_wrap, 0), "made_0d": (made_0d, 0)}
PARAMS = {"fission_loop": fission_params, "swap_loop": pair_params, "alias_buf": alias_params,
          "promote_mix": promote_params, "int_wrap": int_params, "made_0d": zero_d_made_params}
TAILS = {"made_0d": zero_d_tail}
