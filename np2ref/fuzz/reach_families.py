"""Families for the ways a write reaches an array that the last sessions made translatable and no
family wrote (fuzz7), each with its own arguments and weight 0 in other runs (the programs of
existing seeds stay as they were):

    view_helper   writes through a view a helper returns (`def h(x): return x[1:-1]`;
                  `h(U)[:] -= F[1:] - F[:-1]`, `v = h(U); v *= 2`, `np.copyto(h(U), ...)`, `out=h(U)`,
                  `.fill`, `np.add.at`, a helper that writes its argument called on it; now and then
                  a helper that is more than `return x[...]`): frontend/view_helpers.py
    last_append   a list's `[-1]` read right after its append in a loop (printed, added into an
                  array, compared, scaled), then read otherwise (`len`, another append, a store
                  into it): frontend/last_appended.py
    bound_slice   slices bounded by values read through loop-bound names (`order[starts[c]:ends[c]]`,
                  `lo, hi = starts[c], ends[c]`, `for s, e in zip(starts, ends)`), empty and reversed
                  bounds, reads and stores, an inner loop over the bounds
    self_alias    one buffer passed as both the read and the written parameter of a helper that reads
                  it before its first write (`axpy(U, U)`, `h(U[1:], U[:-1])`, `h(U[::-1], U)`):
                  recurrences, reversed and shifted copies, `out=` the written one
    cond_views    names bound from a conditional tuple of views (`l, r = (U[1:], U[:-1]) if c else
                  (U[:-1], U[1:])`), the condition static, a loop index's or data's, then written
                  (`l += r`, overlapping), whole arrays swapped (`a, b = (U, V) if c else (V, U)`)

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from . import edges
from .exprs import Gen
from .host_families import define
from .program import Block, Line, Param
from .shadow import Frame


def _float(g: Gen) -> str:
    return g.pick(["np.float64"] * 3 + ["np.float32"])


def _loop(g: Gen, lines: list, bound: str | None = None) -> list:
    """The lines in a loop (half the time): a static or traced trip count, zero trips included."""
    if not g.chance(50):
        return lines
    k = g.name("k")
    bound = bound or g.pick(["2", "n", "U.shape[0]", "0", "3"])
    return [Block(f"for {k} in range({bound}):", tuple(lines), (f"{k} = 0",))]


def _have(fr: Frame, *names: str) -> bool:
    return all(n in fr.names for n in names)


# -- view_helper -------------------------------------------------------------------------------
def view_params(g: Gen, ns: dict) -> list[Param]:
    m, dtype = g.pick([4, 5, 6]), _float(g)
    shape = (m,) if g.chance(60) else (m, 3)
    return [Param("U", edges.literal(g, dtype, shape, 0)), Param("F", edges.literal(g, dtype, (m - 1,) + shape[1:], 0)),
            Param("n", str(g.int(0, 3)))]


_VIEWS = [("x[1:-1]", 1), ("x[1:]", 1), ("x[:-1]", 1), ("x[::2]", 1), ("x[::-1]", 1), ("x[1:-1, 1:-1]", 2),
          ("x[..., 0]", 1), ("x[-1]", 2), ("x[2:]", 1)]


def view_helper(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "U", "F", "n"):
        return None
    ndim = fr.ns["U"].ndim
    index = g.pick([v for v, d in _VIEWS if d <= ndim])
    if g.chance(12):  # more than `return x[...]`: not inlined (the write is refused or translated otherwise)
        h = define(g, fr, helpers, ("x",), (Line(f"y = {index}"),), "y")
    else:
        h = define(g, fr, helpers, ("x",), (), index)
    call = f"{h}(U)"
    value = g.pick(["F[1:] - F[:-1]", "0.5", f"{call} * 0.5", "F[:-1]", "F[1:]", f"{call}[::-1]", "U.sum()",
                    "F[0]", "F[:-1] * 2.0 - F[1:]"])
    v = g.name("v")
    form = g.pick(["sub", "sub", "set", "name", "copyto", "out", "fill", "add_at", "callee", "read"])
    defined: tuple = ()
    if form in ("sub", "set"):
        lines = [Line(f"{call}[{g.pick([':', '...'])}] {'-=' if form == 'sub' else g.pick(['=', '+=', '*='])} {value}")]
    elif form == "name":
        lines = [Line(f"{v} = {call}"), Line(g.pick([f"{v} *= 2", f"{v}[...] -= {value}", f"{v}[0] = 1.5",
                                                      f"{v} += {value}"]))]
        defined = (v,)
    elif form == "copyto":
        lines = [Line(f"np.copyto({call}, {value})")]
    elif form == "out":
        lines = [Line(f"np.{g.pick(['multiply', 'add', 'subtract'])}({call}, {value}, out={call})")]
    elif form == "fill":
        lines = [Line(f"{call}.fill({g.pick(['0.25', '-1.0', 'F[0]'])})")]
    elif form == "add_at":
        lines = [Line(f"np.add.at({call}, {g.pick(['[0, 0]', '[0, -1]', '[]', 'np.array([1, 0, 1])'])}, 1.0)")]
    elif form == "callee":  # an argument of a module function, which writes it
        w = define(g, fr, helpers, ("y",), (Line(g.pick(["y += 1.0", "y[0] = -1.0", "y[...] = y[::-1] * 2"])),), None)
        lines = [Line(f"{w}({call})")]
    else:
        lines = [Line(f"U[...] += {call}.sum()" if g.chance(50) else f"F[0] = {call}.max() - F[-1]")]
    if g.chance(30):  # read back through the helper afterwards
        lines.append(Line(f"F[-1] += {call}.sum()"))
    return _loop(g, lines), defined


# -- last_append -------------------------------------------------------------------------------
def append_params(g: Gen, ns: dict) -> list[Param]:
    return [Param("U", edges.literal(g, _float(g), (g.pick([2, 3, 4]),), 0)), Param("n", str(g.int(0, 3)))]


_ITEMS = {"scalar": ["float(U.sum())", "U.sum()", "U[0]", "U.max() * {k}", "{k} * 0.5", "float(U[-1])", "U.mean()"],
          "array": ["U.copy()", "U * 2", "U[::-1].copy()", "U[1:] - U[:-1]"]}
_USES = {"scalar": ["print({k}, {h}[-1])", "U[0] += {h}[-1]", "U[...] = U * 0.5 + {h}[-1]", "t = {h}[-1] * 2",
                    "if {h}[-1] > 0:\n    U[...] *= 0.5", "print(f'{{{h}[-1]:.3f}}')", "U[1] = {h}[-1] - U[0]"],
         "array": ["U[...] += {h}[-1]", "U[0] = {h}[-1].sum()", "print({k}, {h}[-1])", "t = {h}[-1].max()",
                   "{h}[-1][0] = 7.0"]}
_AFTER = ["U[0] += len({h})", "{h}.append({item})", "{h}[-1] = {item}", "U[-1] = {h}[0] if {h} else 0.0",
          "print(len({h}), {h}[-1])"]


def _line(text: str):
    if "\n" not in text:
        return Line(text)
    head, body = text.split("\n", 1)
    return Block(head, (Line(body.strip()),))


def last_append(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "U", "n"):
        return None
    h, k = g.name("hist"), g.name("k")
    kind = g.pick(["scalar", "scalar", "array"])
    item = g.pick(_ITEMS[kind]).format(k=k)
    write = Line(g.pick(["U[...] = U * 0.5 + 1.0", f"U[0] += {k}", "U[1:] += U[:-1]", "U *= -1", f"U[-1] = {k} * 0.25"]))
    uses = [_line(g.pick(_USES[kind]).format(k=k, h=h)) for _ in range(g.int(1, 2))]
    body = [write, Line(f"{h}.append({item})"), *uses]
    if g.chance(30):  # then read otherwise: the rewrite stops there
        body.append(_line(g.pick(_AFTER).format(h=h, item=item)))
    if g.chance(15):  # the write after the read
        body.append(write)
    bound = g.pick(["n", "3", "U.shape[0]", "0", "2"])
    start = g.pick(["[]", "[]", "[0.0]" if kind == "scalar" else "[U.copy()]"])
    lines = [Line(f"{h} = {start}"), Block(f"for {k} in range({bound}):", tuple(body), (f"{k} = 0",))]
    if g.chance(40):
        lines.append(Line(g.pick([f"U[0] += len({h})", f"U[1] = {h}[-1] if {h} else -1.0" if kind == "scalar"
                                  else f"U[0] += len({h})", f"print({h})"])))
    return lines, (h,)


# -- bound_slice -------------------------------------------------------------------------------
def bound_params(g: Gen, ns: dict) -> list[Param]:
    m, c = g.pick([4, 6, 7]), g.pick([1, 2, 3, 4])
    order = list(range(m))
    for i in range(m - 1, 0, -1):  # a permutation drawn through hypothesis (shrinks to the identity)
        j = g.int(0, i)
        order[i], order[j] = order[j], order[i]
    starts = sorted(g.int(0, m) for _ in range(c))
    ends = [s + g.int(-1 if g.chance(15) else 0, 3) for s in starts]  # empty, past the end, or reversed
    itype = g.pick(["np.int64", "np.int64", "np.int32"])
    return [Param("X", edges.literal(g, _float(g), (m,), 0)), Param("order", f"np.array({order}, dtype={itype})"),
            Param("starts", f"np.array({starts}, dtype={itype})"), Param("ends", f"np.array({ends}, dtype={itype})"),
            Param("O", f"np.zeros({c})")]


_SEGMENT_USES = [  # {s}, {e}: the bounds; {c}: the loop index
    "O[{c}] = X[order[{s}:{e}]].sum()", "X[{s}:{e}] += 1.0", "X[{s}:{e}] *= O[{c}] + 0.5", "O[{c}] = X[{s}:{e}].sum()",
    "X[{s}:{e}] = X[{s}:{e}][::-1]", "O[{c}] = {e} - {s}", "X[order[{s}:{e}]] += 0.5", "O[{c}] = X[{s}:{e}:2].sum()",
    "order[{s}:{e}] = order[{s}:{e}][::-1]", "O[{c}] = np.sum(X[order[{s}:{e}]] * 2.0)", "X[{s}:{e}] = 0.0",
    "O[{c}] = X[{s}:].sum() - X[:{e}].sum()", "O[{c}] += X[order[{s}:{e}]].max() if {e} > {s} else 0.0"]


def bound_slice(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "X", "order", "starts", "ends", "O"):
        return None
    c = g.name("c")
    form = g.pick(["index", "index", "names", "zip", "inner"])
    s, e = (f"starts[{c}]", f"ends[{c}]")
    head: list = []
    if form == "names":
        lo, hi = g.name("lo"), g.name("hi")
        head = [Line(f"{lo}, {hi} = {s}, {e}" if g.chance(50) else f"{lo} = {s}; {hi} = {e}")]
        s, e = lo, hi
    if form == "zip":
        s, e = g.name("s"), g.name("e")
    uses = [Line(g.pick(_SEGMENT_USES).format(s=s, e=e, c=c)) for _ in range(g.int(1, 2))]
    if form == "inner":
        i = g.name("i")
        uses = [Block(f"for {i} in range({s}, {e}):", (Line(g.pick([f"X[{i}] += order[{i}]", f"O[{c}] += X[{i}]",
                                                                     f"X[{i}] = X[order[{i}]] * 0.5"])),),
                      (f"{i} = 0",))]
    if form == "zip":
        loop = Block(f"for {c}, ({s}, {e}) in enumerate(zip(starts, ends)):", tuple(uses), (f"{c} = 0", f"{s} = 0",
                                                                                          f"{e} = 0"))
    else:
        bound = g.pick(["len(starts)", "starts.shape[0]", "O.shape[0]"])
        loop = Block(f"for {c} in range({bound}):", tuple(head + uses), (f"{c} = 0",))
    return [loop], ()


# -- self_alias --------------------------------------------------------------------------------
def alias_params(g: Gen, ns: dict) -> list[Param]:
    m, dtype = g.pick([3, 4, 6]), _float(g)
    return [Param("U", edges.literal(g, dtype, (m,), 0)), Param("V", edges.literal(g, dtype, (m,), 0)),
            Param("n", str(g.int(0, 3)))]


_READ_THEN_WRITE = [  # helper bodies over (a, x, y): x read before y's first write
    ("y += a * x",), ("y[...] = x[::-1] * a",), ("y[1:] = x[:-1] + y[1:]",), ("t = x.sum()", "y[0] = t", "y[1:] += x[1:]"),
    ("y[:] = x - x.mean()",), ("np.add(x, y, out=y)",), ("np.multiply(x[::-1], a, out=y)",),
    ("y[1:] += x[:-1] * a",), ("y[:-1] = x[1:]",), ("s = x[0]", "y *= a", "y[-1] += s"), ("y[...] = np.cumsum(x) * a",),
    ("y[::-1] = x",)]


def self_alias(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "U", "V", "n"):
        return None
    body = [Line(t) for t in g.pick(_READ_THEN_WRITE)]
    if g.chance(20):  # a recurrence through the alias: x[i - 1] is y's written element when x is y
        i = g.name("i")
        body = [Block(f"for {i} in range(1, y.shape[0]):", (Line(f"y[{i}] = x[{i} - 1] * a + y[{i}]"),), (f"{i} = 1",))]
    h = define(g, fr, helpers, ("a", "x", "y"), tuple(body), g.pick([None, None, "y", "x.sum()"]))
    pair = g.pick(["U, U", "U, U", "U, V", "U[::-1], U", "U[1:], U[:-1]", "U[:-1], U[1:]", "V, U", "U, U[...]"])
    call = f"{h}({g.pick(['0.5', '2.0', '-1.0'])}, {pair})"
    if g.chance(30):
        r = g.name("r")
        return _loop(g, [Line(f"{r} = {call}"), Line(f"V[0] += {r}.sum()" if g.chance(50) else f"print({r})")]), ()
    return _loop(g, [Line(call)]), ()


# -- cond_views --------------------------------------------------------------------------------
def cond_params(g: Gen, ns: dict) -> list[Param]:
    m, dtype = g.pick([3, 4, 5]), _float(g)
    shape = (m,) if g.chance(70) else (m, 2)
    return [Param("U", edges.literal(g, dtype, shape, 0)), Param("V", edges.literal(g, dtype, shape, 0)),
            Param("c", g.pick(["0", "1", "True", "False"])), Param("n", str(g.int(0, 3)))]


_PAIRS = [("U[1:]", "U[:-1]"), ("U[::2]", "U[1::2]"), ("U", "U[::-1]"), ("U[1:]", "V[:-1]"), ("U", "V"),
          ("U[:2]", "U[-2:]"), ("U[0]", "U[-1]")]
_VIEW_WRITES = ["{l} += {r}", "{l}[...] = {r} * 0.5", "{l} -= 1.0", "{r}[0] = 2.0", "{l}[...] = 0", "np.add({l}, {r}, out={l})",
                "{l} *= {r}", "{r} += {l}.sum()"]


def cond_views(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "U", "V", "c", "n"):
        return None
    a, b = g.pick(_PAIRS)
    first, second = (a, b), g.pick([(b, a), (a, b), g.pick(_PAIRS)])
    l, r, k = g.name("l"), g.name("r"), g.name("k")
    cond = g.pick(["c", "c", "not c", "U.sum() > 0", f"{k} % 2 == 0", "n > 1"])
    bind = f"{l}, {r} = ({first[0]}, {first[1]}) if {cond} else ({second[0]}, {second[1]})"
    if g.chance(15):  # a plain tuple of views (no condition)
        bind = f"{l}, {r} = ({first[0]}, {first[1]})"
    writes = [Line(g.pick(_VIEW_WRITES).format(l=l, r=r)) for _ in range(g.int(1, 2))]
    body = [Line(bind), *writes]
    if f"{k} %" in cond or g.chance(30):
        return [Block(f"for {k} in range({g.pick(['n', '2', '3', 'U.shape[0]'])}):", tuple(body), (f"{k} = 0",))], ()
    return body, (l, r)


# weight 0: each needs its own arguments (PARAMS), which only `--family NAME` gives a program
FAMILIES = {"view_helper": (view_helper, 0), "last_append": (last_append, 0), "bound_slice": (bound_slice, 0),
            "self_alias": (self_alias, 0), "cond_views": (cond_views, 0)}
PARAMS = {"view_helper": view_params, "last_append": append_params, "bound_slice": bound_params,
          "self_alias": alias_params, "cond_views": cond_params}
