"""Families for the two newest loop translations (fuzz9), each with its own arguments and weight 0
in other runs (the programs of existing seeds stay as they were):

    out_window  ufunc calls with `out=` a slice whose bounds move with the loop variable
                (`np.add(A[i:i + w], B[i:i + w], out=C[i:i + w])`, `np.multiply(A[lo:hi], 2,
                out=A[lo:hi])`; rt/inplace._npr_out_window), the input and output windows
                overlapping or shifted, clipped at the array's end, reversed (a negative step),
                growing (`A[:i + 1]`), the call's result written; views of moving windows written
                (`v = A[i:]; v[0] += ...`, `v[v > 0] = ...`: rt/win_views.NprWinView) and an alias
                read after the write; int32, int64, float32, float64; `for` and `while` loops
    recur_loop  recurrences through an array (rewrite/recurrences.py, rt/recur.py: the reads of
                what earlier trips stored carried as loop values): first to third order, a store at
                an offset (`Y[i + 1] = Y[i] ...`), `op=` stores, the element read back after its
                store, writes of the array elsewhere in the body (`Y[i - 1] = ...` after the
                carried read, a slice `Y[:i] *= 0.5`, through an alias bound before the loop, under
                an `if`), two arrays feeding each other, a reversed loop, a start read from a
                parameter, a `break` on data, the loop nested or a `while`; casts into an integer
                array (the carried value is the element as the array holds it)

Values are multiples of 1/4 and coefficients 0.5, 0.25, 2: every product is exact, so a fused
multiply-add rounds as NumPy's two operations do and the float64 comparison is bit for bit in
effect (docs/semantics.md: default mode may contract FMA).

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from . import edges
from .exprs import Gen
from .program import Block, Line, Param
from .reach_families import _have
from .shadow import Frame

_DTYPES = ["np.float64", "np.float64", "np.float32", "np.int64", "np.int32"]


def _loop(g: Gen, var: str, bound: str, body: list, start: str = "0", while_ok: bool = True) -> list:
    """`for var in range(start, bound)` or (one in five) the same as a `while`."""
    if while_ok and g.chance(20):
        return [Line(f"{var} = {start}"), Block(f"while {var} < {bound}:", tuple(body) + (Line(f"{var} += 1"),),
                                                (f"{var} = {start}",))]
    head = f"range({bound})" if start == "0" else f"range({start}, {bound})"
    return [Block(f"for {var} in {head}:", tuple(body), (f"{var} = {start}",))]


def _scalar(g: Gen, fr: Frame, name: str) -> str:
    """A Python number NumPy keeps the array's dtype with (an int for an integer array)."""
    ints = fr.ns[name].dtype.kind in "iu"
    return g.pick(["2", "1", "-1", "3"] if ints else ["2.0", "0.5", "-1.5", "0.25", "1.0"])


# -- out_window --------------------------------------------------------------------------------
def window_params(g: Gen, ns: dict) -> list[Param]:
    m, dtype = g.int(5, 9), g.pick(_DTYPES)
    return [Param("A", edges.literal(g, dtype, (m,), 0)), Param("B", edges.literal(g, dtype, (m,), 0)),
            Param("C", edges.literal(g, dtype, (m,), 0)), Param("w", str(g.int(1, 3))),
            Param("n", str(g.int(0, 4)))]


# (a window of A written, its bounds: {i} the loop variable; lengths match the other windows')
_WINDOWS = [("{i}:{i} + w", "{i}:{i} + w"), ("{i}:{i} + w", "{i} + 1:{i} + w + 1"), ("{i} + 1:{i} + w + 1", "{i}:{i} + w"),
            (":{i} + 1", ":{i} + 1"), ("{i}:", "{i}:"), (":{m} - {i}", "{i}:"), ("{i}:", ":{m} - {i}"),
            ("{i}:{i} + 2", "{i}:{i} + 2"), ("{i} + w - 1::-1", "{i} + w - 1::-1"), ("{m} - 1 - {i}::-1", ":{i} + 1"),
            ("2 * {i}:2 * {i} + w", "2 * {i}:2 * {i} + w"), (":{i}", ":{i}"), ("{i}:{i} + w:2", "{i}:{i} + w:2")]
_UFUNCS2 = ["np.add", "np.subtract", "np.multiply", "np.maximum", "np.minimum"]
_UFUNCS1 = ["np.negative", "np.absolute", "np.square", "np.positive"]


def _out_call(g: Gen, fr: Frame, i: str, m: int) -> list[str]:
    out_at, in_at = (s.format(i=i, m=m) for s in g.pick(_WINDOWS))
    dst = g.pick(["A", "A", "C"])
    src = g.pick(["A", "B"]) if dst == "A" else g.pick(["A", "B", "C"])
    first = f"{src}[{in_at}]"
    if g.chance(25):  # a unary ufunc
        call = f"{g.pick(_UFUNCS1)}({first}, out={dst}[{out_at}])"
    else:
        other = g.pick([_scalar(g, fr, "A"), f"{dst}[{out_at}]", f"B[{in_at}]", f"A[{i}]", f"{g.pick('AB')}[0]"])
        args = (first, other) if g.chance(70) else (other, first)
        call = f"{g.pick(_UFUNCS2)}({args[0]}, {args[1]}, out={dst}[{out_at}])"
    if g.chance(20):  # the call's result: the out window itself, written on
        r = g.name("r")
        return [f"{r} = {call}", g.pick([f"{r} *= {_scalar(g, fr, 'A')}", f"{r}[...] = {r} + 1",
                                         f"{r}[{r} > 0] = 0", f"C[{i}] = {r}.sum()"])]
    return [call]


def _view_write(g: Gen, fr: Frame, i: str, m: int) -> list[str]:
    v = g.name("v")
    win = g.pick(["{i}:", "{i}:{i} + w", "{i}:{i} + 2", ":{i} + 1", "{i} + 1:", "{m} - 1 - {i}::-1"]).format(i=i, m=m)
    c = _scalar(g, fr, "A")
    write = g.pick([f"{v}[0] += {c}", f"{v}[...] = {v} * {c}", f"{v} += {c}", f"{v}[{v} > 0] = {c}",
                    f"{v}[0] = B[{i}]", f"{v}[-1] -= {c}", f"{v} *= {c}", f"{v}[:] = B[{i}]"])
    lines = [f"{v} = A[{win}]", write]
    if g.chance(50):  # an alias of the window read after the write
        lines.append(g.pick([f"C[{i}] = A[{i}]", f"C[{i}] = {v}.sum()", f"B[{i}] = {v}[0]", f"C[...] += A",
                             f"C[{i}] = A[{win}].max()"]))
    return lines


def out_window(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "A", "B", "C", "w", "n") or fr.depth:
        return None
    i, m = g.name("i"), fr.ns["A"].shape[0]
    body = []
    for _ in range(g.int(1, 2)):
        body += _out_call(g, fr, i, m) if g.chance(65) else _view_write(g, fr, i, m)
    bound = g.pick(["n", f"{m} - w", "A.shape[0] - 1", "len(A)", "3", f"{m}"])
    return _loop(g, i, bound, [Line(t) for t in body]), ()


def window_tail(g: Gen, fr: Frame, body: tuple, ret):
    return body, g.pick(["A", "(A, C)", "C.sum()", "A[-1]", ret])


# -- recur_loop --------------------------------------------------------------------------------
def recur_params(g: Gen, ns: dict) -> list[Param]:
    m, dtype = g.int(6, 10), g.pick(_DTYPES)
    params = [Param("Y", edges.literal(g, dtype, (m,), 0)), Param("X", edges.literal(g, dtype, (m,), 0)),
              Param("Z", edges.literal(g, dtype, (m,), 0)), Param("k0", str(g.int(0, 3)))]
    if g.chance(20):  # a float target fed integers (the carried value is the stored one)
        params.append(Param("F", edges.literal(g, "np.float64" if "int" in dtype else "np.int64", (m,), 0)))
    return params


# The store's value: {y} the array, {i} the loop variable, {c} a coefficient; `{y}[{i} - d]` reads
# what d trips before stored (offset 0); the offset forms store at {i} + 1 or {i} + 2.
_FIRST = ["{y}[{i} - 1] * {c} + X[{i}]", "{y}[{i} - 1] + X[{i}]", "X[{i}] - {y}[{i} - 1]", "{y}[{i} - 1] * {c}",
          "max({y}[{i} - 1], X[{i}])", "{y}[{i} - 1] if X[{i}] > 0 else X[{i}]", "abs({y}[{i} - 1]) - 1"]
_SECOND = ["{y}[{i} - 1] + {y}[{i} - 2] * {c} + X[{i}]", "{y}[{i} - 1] * {c} - {y}[{i} - 2]",
           "{y}[{i} - 2] - X[{i}]", "{y}[{i} - 1] - {y}[{i} - 2] + X[{i} - 1]"]
_THIRD = ["{y}[{i} - 3] + {y}[{i} - 1] * {c}", "{y}[{i} - 1] - {y}[{i} - 3] + X[{i}]",
          "{y}[{i} - 2] + {y}[{i} - 3] * {c} - {y}[{i} - 1]"]
_OFFSET = [("{i} + 1", "{y}[{i}] * {c} + X[{i}]", 0), ("{i} + 2", "{y}[{i}] + {y}[{i} + 1] * {c}", 0),
           ("{i} + 1", "{y}[{i}] - {y}[{i} - 1]", 1)]
# writes of the array elsewhere in the body, after the store (`{y}[{i} - 1]` is carried!)
_ELSEWHERE = ["{y}[{i} - 1] = {c}", "{y}[{i} - 1] += X[{i}]", "{y}[:{i}] *= {c}", "{y}[{i} - 2:{i}] = X[{i}]",
              "{y}[{i}] = {y}[{i}] * {c}", "{y}[{i} - 1] = {y}[{i}] - 1", "{alias}[{i} - 1] = X[{i}]",
              "{alias}[{i} - 1] *= {c}"]
_ALIASES = ["{y}", "{y}[:]", "{y}.reshape(-1)", "{y}[::1]", "{y}.view()", "np.asarray({y})", "{y}[1:]",
            "{y}.ravel()", "np.reshape({y}, (-1,))"]
_AFTER = ["Z[{i}] = {y}[{i}] * {c}", "Z[{i}] = {y}[{i}] + {y}[{i} - 1]", "X[{i} - 1] = {y}[{i}]",
          "Z[{i}] = {y}[{i} - 1] - {y}[{i}]"]


def recur_loop(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "Y", "X", "Z", "k0") or fr.depth:
        return None
    i, y, m = g.name("i"), g.pick(["Y", "Y", "Y", "F" if "F" in fr.names else "Y"]), fr.ns["Y"].shape[0]
    c = g.pick(["2", "-1", "3"] if fr.ns[y].dtype.kind in "iu" else ["0.5", "0.25", "-0.5", "2.0"])
    order = g.pick([1, 1, 2, 2, 3, "offset"])
    at, back, deepest = f"{i}", 0, 0
    if order == "offset":
        at, value, back = g.pick(_OFFSET)
        at, value = at.format(i=i), value.format(y=y, i=i, c=c)
        deepest = int(at.split("+")[1]) if "+" in at else 0
    else:
        value = g.pick({1: _FIRST, 2: _SECOND, 3: _THIRD}[order]).format(y=y, i=i, c=c)
    reach = back if order == "offset" else order
    form = g.pick(["static", "static", "param", "len", "reversed", "nested"])
    if form == "reversed" and order != "offset":  # the mirror recurrence: reads {i} + d, stored later trips
        value = value.replace(f"{i} - ", f"{i} + ")
    op = g.pick(["=", "=", "=", "+=", "-="])
    pre, body = [], [f"{y}[{at}] {op} {value}"]
    if g.chance(30):
        body.append(g.pick(_AFTER).format(y=y, i=i, c=c))
    if g.chance(35):  # the array written elsewhere in the body too
        alias = g.name("al")
        extra = g.pick(_ELSEWHERE).format(y=y, i=i, c=c, alias=alias)
        if alias in extra:
            pre.append(Line(f"{alias} = {g.pick(_ALIASES).format(y=y)}"))
        if g.chance(30):  # under an `if` on data
            body.append(Block(f"if X[{i}] > 0:", (Line(extra),)))
        else:  # before the store, or after it
            body.insert(g.pick([0, len(body)]), extra)
    if order != "offset" and g.chance(20):  # the recurrence through a second array
        body.append(f"Z[{i}] = {y}[{i} - 1] * {c} + Z[{i} - 1]")
    if g.chance(10):
        body.append(Block(f"if {y}[{i}] > 4:", (Line("break"),)))
    body = [Line(s) if isinstance(s, str) else s for s in body]
    low = max(reach, 1 if any("- 1]" in getattr(s, "text", "") for s in body) else 0)
    if form == "reversed" and order != "offset":
        loop = [Block(f"for {i} in range({m - 1 - reach}, {low - 1}, -1):", tuple(body), (f"{i} = {low}",))]
    else:
        stop = f"{y}.shape[0] - {deepest}" if deepest else g.pick([f"{y}.shape[0]", str(m), f"len({y})"])
        start = {"param": f"k0 + {low}" if low else "k0"}.get(form, str(low))
        loop = _loop(g, i, stop, body, start, while_ok=form != "nested")
        if form == "nested":
            t = g.name("t")
            loop = [Block(f"for {t} in range(2):", tuple(loop), (f"{t} = 0",))]
    return pre + loop, ()


def recur_tail(g: Gen, fr: Frame, body: tuple, ret):
    return body, g.pick(["Y", "(Y, Z)", "Y.sum()", "Y[-1]", "(Y[-2], X)", ret])


# weight 0: each needs its own arguments (PARAMS), which only `--family NAME` gives a program
FAMILIES = {"out_window": (out_window, 0), "recur_loop": (recur_loop, 0)}
PARAMS = {"out_window": window_params, "recur_loop": recur_params}
TAILS = {"out_window": window_tail, "recur_loop": recur_tail}
TAIL_CHANCE = {"out_window": 50, "recur_loop": 60}
