"""Families for signed integers that wrap and for flat indexing and linked forests (fuzz11), with
their own arguments and weight 0 in other runs. No family's data reached these: the integers of the
others are small (their products never wrap), and none wrote `x.flat` or a union-find, which whole
scripts met in round 3, session 10 (rt/wrapping.py; `x.flat[k]` and a Python-int parameter rebound
to a read of a written array crashed):

    wrapping_ints  int8/16/32/64 arrays with values whose products, squares, powers, sums, dot
                   products and negations wrap (`50000 * 50000`, `abs(INT_MIN)`, `-INT_MIN`); in
                   place too (`a *= a`, `np.multiply(a, a, out=a)`, `a **= 2`); then what
                   XLA's simplifier would take for non-negative: floor division, `%`, comparisons,
                   shifts, casts and sorts of the wrapped values
    flat_and_links `X.flat[k]` read and written (`k` from data: `idx[0]`, `int(idx[1])`, a loop's
                   `idx[j]`), `X.flat[idx]`, `X.ravel()[k]` (a view of a C-ordered X: its write
                   reaches X; of `X.T` a copy: it does not), `for e in X.flat`, np.put / np.take;
                   union-find over an int32 `parent` forest with path halving
                   (`while parent[i] != i: parent[i] = parent[parent[i]]; i = parent[i]`) or
                   two-pass compression, in `f` and in a `find` helper, unions over `pairs`, roots
                   counted, labels gathered

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from .api_families import _define
from .edge_families import bound_names
from .exprs import Gen
from .program import Block, Line, Param, Stmt
from .reach_families import _have
from .shadow import Frame

# -- wrapping_ints -----------------------------------------------------------------------------
_WRAPS = {"np.int8": [127, -128, 12, -12, 11, 100, -100, 3, -1, 0, 16, 64],
          "np.int16": [32767, -32768, 181, 182, -182, 300, 256, 1000, -3, 0, 255, 200],
          "np.int32": [2**31 - 1, -2**31, 46341, 46340, -46341, 50000, 65536, 65535, 100000, -7, 0, 3],
          "np.int64": [2**63 - 1, -2**63, 3037000500, 3037000499, -3037000500, 2**32, 2**32 + 1, 2**40, -5, 0, 3,
                       2**62]}


def _ints(g: Gen, dtype: str, n: int) -> str:
    return f"np.array([{', '.join(str(g.pick(_WRAPS[dtype])) for _ in range(n))}], dtype={dtype})"


def wrap_params(g: Gen, ns: dict) -> list[Param]:
    dtype = g.pick(list(_WRAPS))
    n = g.pick([4, 6, 9])
    return [Param("ia", _ints(g, dtype, n)), Param("ib", _ints(g, dtype, n)),
            Param("IM", f"{_ints(g, dtype, 9)}.reshape(3, 3)"), Param("q", f"np.zeros({n}, dtype=np.int64)"),
            Param("n", str(g.int(0, 3)))]


_PRODUCTS = ["{a} * {a}", "{a} * {b}", "{a} ** 2", "{a} ** 3", "np.power({a}, 2)", "np.power({a}, 3)", "np.square({a})",
             "np.abs({a})", "abs({a})", "-{a}", "np.negative({a})", "np.multiply({a}, {a})", "{a} * {a} * {a}",
             "{a} * 3", "{a} + {a}", "{a} - {b}", "{a} * -{a}", "np.abs({a} * {a})", "np.einsum('i,i->i', {a}, {a})",
             "np.cumsum({a} * {a})", "np.cumprod({a})", "{a} << 4", "np.abs(np.negative({a}))",
             "{a} * {a} - {b} * {b}", "({a} + 1) * ({a} - 1)", "np.sum({a}, dtype={a}.dtype) + {a}",
             "({a}[:, None] * {b}[None, :])[0]", "(IM @ IM)[0]", "(IM * IM).sum(axis=0)", "np.dot(IM, IM)[1]",
             "(IM.T @ IM)[2]"]
_SCALARS = ["{a} @ {b}", "np.dot({a}, {b})", "np.sum({a} * {a})", "np.sum({a}, dtype={a}.dtype)", "np.prod({a})",
            "{a}.sum()", "np.sum({a} * {b})"]
_IN_PLACE = ["{a} *= {a}", "{a} *= {b}", "np.multiply({a}, {a}, out={a})", "{a} **= 2", "{a}[1:] *= {a}[:-1]",
             "{a} += {a} * {a}", "{a}[...] = -{a}", "np.square({a}, out={a})", "np.negative({a}, out={a})",
             "{a}[...] = np.abs({a})"]
_DECIDE = ["{r} // 8", "{r} // -3", "{r} % 7", "{r} % -5", "{r} < 0", "{r} >= 0", "{r} == {r}.min()", "{r} >> 2",
           "{r} << 1", "np.abs({r}) // 8", "np.abs({r}) >= 0", "np.sign({r})", "np.where({r} < 0, 1, 0)",
           "{r}.astype(np.int8)", "{r}.astype(np.float64)", "np.maximum({r}, 0)", "({r} < 0).sum()", "np.argmax({r})",
           "np.sort({r})", "{r}.max()", "{r} & 255", "np.right_shift({r}, 3)", "{r} // 8 * 8 == {r}",
           "np.abs({r}) % 3", "{r} > {a}", "np.minimum({r}, {a})", "np.count_nonzero({r} > 0)"]


def wrapping_ints(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "ia", "ib", "IM", "q"):
        return None
    r, d = g.name("r"), g.name("d")
    a, b = g.pick(["ia", "ia", "ib", "ia[1:]", "ia[::-1]"]), g.pick(["ib", "ia"])
    if b == "ia" or a not in ("ia", "ib"):
        b = a if g.chance(50) else b
    if fr.ns[a.split("[")[0]].shape != fr.ns[b.split("[")[0]].shape or "[" in a and "[" not in b:
        b = a
    form = g.pick(["value", "value", "value", "scalar", "in_place", "loop"])
    lines: list[Stmt]
    if form == "in_place":
        target = g.pick(["ia", "ib"])
        lines = [Line(g.pick(_IN_PLACE).format(a=target, b="ib" if target == "ia" else "ia")), Line(f"{r} = {target}")]
    elif form == "scalar":
        lines = [Line(f"{r} = {g.pick(_SCALARS).format(a=a, b=b)}")]
    elif form == "loop":  # a product carried by a loop: it wraps on a later trip
        k = g.name("k")
        lines = [Line(f"{r} = {a}.copy()"),
                 Block(f"for {k} in range({g.pick(['2', '3', 'n'])}):",
                       (Line(g.pick([f"{r} = {r} * {r}", f"{r} *= 3", f"{r} = {r} * {b} + 1", f"{r} = -{r} * {r}"])),),
                       (f"{k} = 0",))]
    else:
        lines = [Line(f"{r} = {g.pick(_PRODUCTS).format(a=a, b=b)}")]
    decide = g.pick(_DECIDE).format(r=r, a="ia" if "IM" not in lines[0].text else "ia[:3]")
    lines.append(Line(g.pick([f"{d} = {decide}", f"{d} = {decide}", f"q[...] = {decide}"])))
    return lines, (r, d)


def wrap_tail(g: Gen, fr: Frame, body: tuple, ret):
    made = [n for n in fr.names if n[:1] in "rd" and n[1:].isdigit() and n in fr.ns]
    if not made:
        return body, g.pick(["q", "(ia, ib, q)", ret or "q"])
    return body, g.pick([made[-1], f"({made[-1]}, q)", f"({', '.join(made)}, q, ia)"])


# -- flat_and_links ----------------------------------------------------------------------------
def link_params(g: Gen, ns: dict) -> list[Param]:
    shape = g.pick([(3, 4), (4, 3), (2, 5), (3, 3)])
    size = shape[0] * shape[1]
    values = [g.int(-8, 8) / 4 for _ in range(size)]
    x = f"np.array({values}).reshape{shape}"
    if g.chance(15):
        x = f"np.asfortranarray({x})"
    idx = [g.int(-size, size - 1) for _ in range(g.int(1, 5))]
    p = g.pick([5, 7, 10])
    parent = [0] + [g.int(0, i) if g.chance(70) else i for i in range(1, p)]  # parent[i] <= i: a forest
    pairs = [[g.int(0, p - 1), g.int(0, p - 1)] for _ in range(g.int(1, 5))]
    return [Param("X", x), Param("idx", f"np.array({idx}, dtype={g.pick(['np.int64', 'np.int32', 'np.intp'])})"),
            Param("parent", f"np.array({parent}, dtype=np.int32)"), Param("pairs", f"np.array({pairs}, dtype=np.int64)"),
            Param("labels", f"np.zeros({p}, dtype=np.int32)"), Param("k", g.pick(["3", "-1", "np.int64(2)", "0"]))]


def _index(g: Gen, j: str | None = None) -> str:
    return g.pick(["k", "idx[0]", "int(idx[-1])", "2", "-1"] + ([f"idx[{j}]"] * 3 if j else []))


def _flat(g: Gen, fr: Frame) -> list[Stmt]:
    t, v, e = g.name("t"), g.pick(["2.5", "-1.0", "0.25", "X[0, 0] + 1.0"]), g.name("e")
    i = _index(g)
    reads = [f"{t} = X.flat[{i}]", f"{t} = X.flat[idx]", f"{t} = X.flat[idx].sum()", f"{t} = X.ravel()[{i}]",
             f"{t} = X.T.flat[{i}]", f"{t} = X.flat[-1] * 2", f"{t} = X.ravel()[idx]", f"{t} = np.take(X, idx)",
             f"{t} = X.flat[{i}] + X.flat[0]", f"{t} = X.T.ravel()[idx]", f"{t} = X[::-1].flat[{i}]"]
    # writes through .flat are NPR205 (a flatiter written is not modelled); through ravel/reshape a view's
    writes = [f"X.flat[{i}] = {v}", f"X.flat[{i}] += {v}", f"X.flat[idx] = {v}", f"X.ravel()[{i}] = {v}",
              f"X.reshape(-1)[{i}] = {v}", f"X.T.flat[{i}] = {v}", f"X.T.ravel()[{i}] = {v}", f"X.flat[::2] = {v}",
              f"X.flat[1:4] = {v}", f"np.put(X, idx, {v})", f"X.flat[{i}] = X.flat[{_index(g)}] * 2",
              f"X.ravel()[idx] = {v}", f"X.reshape(-1)[idx] += {v}"]
    forms = reads * 2 + writes
    if g.chance(25):  # in a loop over the data's indices
        j = g.name("j")
        body = g.pick([f"X.flat[idx[{j}]] += 1.0", f"X.ravel()[idx[{j}]] = X.flat[{j}] - 0.5",
                       f"X.ravel()[idx[{j}]] *= 2.0", f"labels[{j} % labels.shape[0]] = int(X.flat[idx[{j}]] * 4)",
                       f"labels[{j} % labels.shape[0]] += X.flat[idx[{j}]] > 0"])
        return [Block(f"for {j} in range(idx.shape[0]):", (Line(body),), (f"{j} = 0",))]
    if g.chance(15):
        acc = g.name("s")
        return [Line(f"{acc} = 0.0"), Block(f"for {e} in X.flat:", (Line(f"{acc} += {e} * 2"),), (f"{e} = 0.0",))]
    return [Line(g.pick(forms))]


def _find(g: Gen, fr: Frame, helpers) -> str:
    """A `find(parent, i)` helper: path halving, or a root walk then a second compressing pass."""
    found = next((h.name for h in helpers if h.params == ("parent", "i")), None)
    if found:
        return found
    if g.chance(75):  # (the two-pass walk `root = i; while parent[root] != root: ...` is NPR011, docs/scripts.md)
        body = (Block("while parent[i] != i:", (Line("parent[i] = parent[parent[i]]"), Line("i = parent[i]"))),)
        name = _define(g, fr, helpers, ("parent", "i"), body, "i")
    else:
        body = (Line("root = i"), Block("while parent[root] != root:", (Line("root = parent[root]"),)),
                Block("while parent[i] != root:", (Line("nxt = parent[i]"), Line("parent[i] = root"), Line("i = nxt"))))
        name = _define(g, fr, helpers, ("parent", "i"), body, "root")
    return name


def _links(g: Gen, fr: Frame, helpers) -> list[Stmt]:
    form = g.pick(["union", "union", "inline", "labels", "compress", "count"])
    if form == "inline":  # path halving in f itself, from an index the data gives
        i, root = g.name("i"), g.name("root")
        start = g.pick(["int(pairs[0, 0])", "pairs[0, 1]", "int(idx[0]) % parent.shape[0]", "parent.shape[0] - 1"])
        walk = Block(f"while parent[{i}] != {i}:", (Line(f"parent[{i}] = parent[parent[{i}]]"), Line(f"{i} = parent[{i}]")))
        return [Line(f"{i} = {start}"), walk, Line(f"{root} = {i}")]
    find = _find(g, fr, helpers)
    if form == "union":
        j, ra, rb = g.name("j"), g.name("ra"), g.name("rb")
        link = g.pick([f"parent[{ra}] = {rb}", f"parent[{rb}] = {ra}", f"parent[max({ra}, {rb})] = min({ra}, {rb})"])
        body = (Line(f"{ra} = {find}(parent, {g.pick([f'pairs[{j}, 0]', f'int(pairs[{j}, 0])'])})"),
                Line(f"{rb} = {find}(parent, pairs[{j}, 1])"), Block(f"if {ra} != {rb}:", (Line(link),)))
        return [Block(f"for {j} in range(pairs.shape[0]):", body, (f"{j} = 0",))]
    if form == "labels":  # each element's root: stored, or a list made an array (Python ints and np.int32)
        i, t = g.name("i"), g.name("t")
        made = f"np.array([{find}(parent, {i}) for {i} in range(parent.shape[0])])"
        return [g.pick([Block(f"for {i} in range(parent.shape[0]):", (Line(f"labels[{i}] = {find}(parent, {i})"),),
                              (f"{i} = 0",)), Line(f"labels[...] = {made}"), Line(f"{t} = {made}")])]
    if form == "compress":
        i = g.name("i")
        return [Block(f"for {i} in range(parent.shape[0]):", (Line(f"parent[{i}] = {find}(parent, {i})"),), (f"{i} = 0",))]
    c = g.name("c")
    counts = ["np.sum(parent == np.arange(parent.shape[0]))", "np.count_nonzero(parent == np.arange(len(parent)))",
              f"len(set(int({find}(parent, i)) for i in range(len(parent))))"]
    return [Line(f"{c} = {g.pick(counts)}")]


def flat_and_links(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "X", "idx", "parent", "pairs", "labels"):
        return None
    lines = _flat(g, fr) if g.chance(50) else _links(g, fr, helpers)
    return lines, bound_names(lines)


def link_tail(g: Gen, fr: Frame, body: tuple, ret):
    made = [n for n in fr.names if n[:1] in "tcs" and n[1:].isdigit() and n in fr.ns] + \
        [n for n in fr.names if n.startswith("root") and n in fr.ns]
    options = ["(X, parent, labels)", "parent", "X", "labels"] + made
    return body, g.pick(options) if g.chance(70) else ret


# weight 0: they need their own arguments (PARAMS), which only `--family NAME` gives a program
FAMILIES = {"wrapping_ints": (wrapping_ints, 0), "flat_and_links": (flat_and_links, 0)}
PARAMS = {"wrapping_ints": wrap_params, "flat_and_links": link_params}
TAILS = {"wrapping_ints": wrap_tail, "flat_and_links": link_tail}
TAIL_CHANCE = {"wrapping_ints": 90, "flat_and_links": 80}
