"""Families for the jitted program's rewrites (rt/peepholes.py), which fire on arrays of planes
(an LBM population: 9 planes of 420x180) that the other families' small arguments never reach:

    lead_reduce  `np.sum(a[1:-1], axis=0)`, max, min (a mean, keepdims) over axis 0 of a slice,
                 after stores into `a`: the chain of slices must be NumPy's sum bit for bit
                 (a probe counts the elements where it differs from NumPy's row-by-row order
                 written out, so a last-bit difference is a difference of whole numbers; the
                 promise is the compiled call's, so a program with a probe is not vmapped), and
                 max/min NumPy's, the sign of a zero included
    plane_reads  stores into planes or rows, then reads of a range of them in the same
                 function (`a[2] = x; y = a[1:3].sum(axis=0)`), the range holding the stored
                 planes, meeting them in part or not at all, through views (`v = a[1:]`), and
                 Latt's bounce-back (`for i in range(K): a[i, m] = b[K - 1 - i, m]`)

Programs of these families get an argument `p` of up to 9 planes of 1,024 or more float
elements (the rewrites' sizes), valued k/10 (sums round, and -0.0 beside 0.0).
`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

import numpy as np

from .exprs import Gen, ops_for, scalar, value
from .program import Block, Line
from .runner import COMPILED_CALL_ONLY
from .shadow import Frame

WANT_PLANES = frozenset({"lead_reduce", "plane_reads"})


def planes_param(g: Gen) -> str:
    """The argument `p`: K planes, big enough for the rewrites (or not, sometimes)."""
    k = g.pick([9, 9, 8, 7, 5, 3, 2])  # 7 rows or more: where XLA's reduce leaves NumPy's order
    shape = g.pick([(k, 32, 40), (k, 1024), (k, 33, 32), (k, 3, 4), (k, 5)])
    size = int(np.prod(shape))
    dtype = g.pick(["", "", "", ".astype(np.float32)"])
    return f"((np.arange({size}) % 13 - 6) * -0.1).reshape({shape}){dtype}"


def _planes(g: Gen, fr: Frame) -> str | None:
    """An array of planes to work on: `p` mostly, or another array of 2 dims or more."""
    others = [a for a in fr.arrays() if fr.ns[a].ndim >= 2 and fr.ns[a].shape[0] >= 2 and all(fr.ns[a].shape)
              and fr.ns[a].dtype.kind in "iuf"]
    if "p" in others and g.chance(75):
        return "p"
    return g.pick(others) if others else None


def _plane_store(g: Gen, fr: Frame, x: str) -> Line:
    """A store into one plane, a range of planes, part of a plane or a column of every plane."""
    arr = fr.ns[x]
    k = arr.shape[0]
    i = g.int(-k, k - 1)
    j = g.int(0, k - 1)
    idx = g.pick([str(i), str(i), f"{j}:{min(k, j + g.int(1, 3))}", f"{i}, 1:", f"..., 0", f"{j}, :{arr.shape[1] // 2 + 1}"])
    sel = fr.eval(f"{x}[{idx}]")
    op = "=" if g.chance(60) else g.pick(ops_for(arr.dtype)[:3])
    val = value(g, fr, np.shape(sel), arr.dtype, op)
    if g.chance(30):  # the value read from another plane: a slice of the array being stored into
        val = g.pick([f"{x}[{g.int(0, k - 1)}]", f"{x}[{g.int(0, k - 1)}] * 2"]) if idx.lstrip("-").isdigit() else val
    return Line(f"{x}[{idx}] {op if op == '=' else op + '='} {val}")


# -- lead_reduce --------------------------------------------------------------------------
LEAD_SLICES = ["1:-1", "1:-1", ":3", "2:", "::2", "::-1", ":", "-3:", "1:", ":-1"]


def lead_reduce(g: Gen, fr: Frame, helpers) -> tuple | None:
    x = _planes(g, fr)
    if x is None:
        return None
    arr = fr.ns[x]
    lines = [_plane_store(g, fr, x) for _ in range(g.pick([0, 1, 1, 2]))]
    sl = g.pick(LEAD_SLICES)
    part = f"{x}[{sl}]" if g.chance(80) else f"{x}[{sl}, 1:]"
    red = g.pick(["sum", "sum", "sum", "max", "min", "mean"])
    keep = g.chance(15)
    r = g.name("r")
    spelled = g.pick([f"np.{red}({part}, axis=0{', keepdims=True' if keep else ''})",
                      f"{part}.{red}(axis=0{', keepdims=True' if keep else ''})", f"{part}.{red}(0)"])
    lines.append(Line(f"{r} = {spelled}"))
    shape = np.shape(fr.eval(part))
    rows = shape[0]
    # the promise (docs/semantics.md): up to 32 slices of 1,024 elements or more
    if arr.dtype.kind == "f" and red != "mean" and 1 <= rows <= 9 and np.prod(shape[1:]) >= 1024 and g.chance(70):
        lines.append(_probe(x, part, rows, red, r, keep))
    use = g.pick(["plane", "plane", "sum", "none"])
    plane = f"{r}[0]" if keep and "keepdims" in spelled else r
    if use == "plane" and not part.endswith("1:]"):
        lines.append(Line(f"{x}[{g.int(-arr.shape[0], arr.shape[0] - 1)}] {g.pick(['=', '+=', '-='])} {plane}"))
    elif use == "sum":
        lines.append(Line(f"{x}[...] += {r}.{g.pick(['sum', 'max', 'min'])}()"))
    return lines, (r,)


def _probe(x: str, part: str, rows: int, red: str, r: str, keep: bool) -> Line:
    """`x += the count of elements where r is not NumPy's row-by-row order`: 0 under NumPy."""
    chain = f"{part}[0]"
    for k in range(1, rows):
        chain = f"({chain} + {part}[{k}])" if red == "sum" else f"np.{'maximum' if red == 'max' else 'minimum'}({chain}, {part}[{k}])"
    got = f"{r}[0]" if keep else r
    differs = f"{got} != {chain}" if red == "sum" else f"({got} != {chain}) | (np.signbit({got}) != np.signbit({chain}))"
    return Line(f"{x}[...] += np.count_nonzero({differs})  {COMPILED_CALL_ONLY}")


# -- plane_reads --------------------------------------------------------------------------
def plane_reads(g: Gen, fr: Frame, helpers) -> tuple | None:
    x = _planes(g, fr)
    if x is None:
        return None
    if g.chance(25):
        return _bounce_back(g, fr, x)
    arr = fr.ns[x]
    k = arr.shape[0]
    lines, defines = [], []
    target, base = x, 0
    if g.chance(30):  # stores through a view of the planes from plane 1 on
        v = g.name("v")
        lines.append(Line(f"{v} = {x}[1:]"))
        defines.append(v)
        target, base = v, 1
    stored = []
    for _ in range(g.int(1, 2)):
        i = g.int(0, k - 1 - base)
        stored.append(i + base)
        op = "=" if g.chance(65) else g.pick(ops_for(arr.dtype)[:3])
        val = g.pick([scalar(g, arr.dtype, op), f"{x}[{g.int(0, k - 1)}]", f"{x}[{g.int(0, k - 1)}] * 2",
                      value(g, fr, arr.shape[1:], arr.dtype, op)])
        lines.append(Line(f"{target}[{i}] {op if op == '=' else op + '='} {val}"))
    s = g.pick(stored)
    lo, hi = g.pick([(s, s + 1), (s, s + 2), (s - 1, s + 1), (s - 1, s + 2), (s + 1, s + 3), (0, k), (s - 2, s)])
    lo, hi = max(lo, 0), min(max(hi, 1), k)
    src = f"{x}[{lo}:{hi}]" if g.chance(75) or lo < 1 else f"{target}[{lo - base}:{hi - base}]"
    y = g.name("y")
    form = g.pick(["sum", "sum", "copy", "scaled", "max", "view"])
    read = {"sum": f"{src}.sum(axis=0)", "copy": f"{src}.copy()", "scaled": f"{src} * 2",
            "max": f"np.max({src}, axis=0)", "view": src}[form]
    lines.append(Line(f"{y} = {read}"))
    defines.append(y)
    if form == "view" and hi > lo and g.chance(60):  # a view read after another store: it sees that store
        # (an empty range, lo == hi, has no plane to store into)
        lines.append(Line(f"{x}[{g.int(lo, hi - 1)}] = {scalar(g, arr.dtype)}"))
    after = g.int(0, k - 1)
    if form in ("sum", "max"):
        lines.append(Line(f"{x}[{after}] {g.pick(['=', '+=', '-='])} {y}"))
    elif g.chance(70):
        width = hi - lo
        start = g.int(0, k - width)
        lines.append(Line(f"{x}[{start}:{start + width}] {g.pick(['=', '+='])} {y}"))
    if g.chance(40):  # read once more after the last store
        lines.append(Line(f"{x}[...] += {y}.sum()" if arr.dtype.kind != "u" else f"{x}[...] = {y}.max()"))
    return lines, tuple(defines)


def _bounce_back(g: Gen, fr: Frame, x: str) -> tuple | None:
    """Latt's bounce-back: each plane stored from the opposite plane under a mask of one plane."""
    arr = fr.ns[x]
    k = arr.shape[0]
    m, i = g.name("m"), g.name("i")
    same = [a for a in fr.arrays() if fr.ns[a].shape == arr.shape and fr.ns[a].dtype == arr.dtype]
    src = g.pick(same)  # x itself among them: planes the loop already stored
    lines = [Line(f"{m} = {x}[{g.int(0, k - 1)}] {g.pick(['>', '<', '!='])} {g.pick(['0', '0.5', '-0.25'])}")]
    opp = g.pick([f"{k - 1} - {i}", f"-1 - {i}", f"({i} + 1) % {k}"])
    body = g.pick([f"{x}[{i}, {m}] = {src}[{opp}, {m}]",
                   f"{x}[{i}] = np.where({m}, {src}[{opp}], {x}[{i}])",
                   f"{x}[{i}][{m}] = {src}[{opp}][{m}]"])
    lines.append(Block(f"for {i} in range({g.pick([f'{x}.shape[0]', str(k)])}):", (Line(body),), (f"{i} = 0",)))
    if g.chance(50):
        lines.append(Line(f"{x}[...] += np.sum({x}[1:-1], axis=0)" if k > 2 else f"{x}[0] = {x}[1]"))
    return lines, (m,)


FAMILIES = {"lead_reduce": (lead_reduce, 2), "plane_reads": (plane_reads, 2)}
