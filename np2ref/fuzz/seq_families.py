"""Families for last session's sequential and triangular loop features, which no other family wrote
(their arrays come from `seq_params`: a square `S`, a data matrix `D` of `S`'s width, a vector `Q`
of its length and a non-square `B` of as many rows, with edge data: edges.py):

    pallas_nest  a top-level nest of element reads and writes (rewrite/pallas_loops.py, rt/pallas.py),
                 its header marked PALLAS_MARK so the runner compiles with `loops="pallas"`: scans
                 (`Q[i] = Q[i - 1] * c + Q[i]`, wrapping at i = 0), stencils, a triangular solve
                 with a scalar accumulator, Cholesky and LU nests, strided and reversed ranges, an
                 index `% M`, a loop variable used as a value, non-float arrays (the lax loop runs);
                 a last nest out of range (NumPy's IndexError) as the program's tail
    elem_reread  sequential element loops that read an element after a store in the same trip
                 (rt/views.py `_npr_element_read`): `Q[i] = ...; Q[i] += Q[i] * c`, the same element
                 through a negative index (`Q[i - M]`), two elements that meet only when i == j
    tri_fill     covariance-style row and column fills (rewrite/tri_mirrors.py): an inner
                 `for j in range(i + c, M)` ending in `S[j, i] = S[i, j]`, the chained
                 `S[i + c:H, i] = S[i, i + c:H] = v`, a row then its copy, writes after the copy,
                 a non-square `S` (the loop then)
    trmm_loop    `B[i, j] += A[i + 1:, i] @ B[i + 1:, j]` in an i, j nest (rt/lane_dots.py), with
                 np.dot, the operands flipped, a scalar k loop, a scaling store after; nan and inf
                 in B pick the two-sided fill

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

import re

from . import edges
from .exprs import Gen
from .program import Block, Line, Param
from .runner import PALLAS_MARK  # on a loop header: the runner compiles with loops="pallas"
from .shadow import Frame


# -- parameters ---------------------------------------------------------------------------
def seq_params(g: Gen, ns: dict) -> list[Param]:
    m = g.pick([3, 4, 5, 2, 1, 0, 4, 3])
    dtype = edges.float_dtype(g, ints=12, bools=4)
    special = g.pick([0, 0, 8, 15])
    square = (m, m) if not g.chance(10) else (m, m + 1)  # a non-square S: the loops, not the rewrites
    s = edges.literal(g, dtype, square, special)
    if g.chance(10):
        s = f"np.asfortranarray({s})"
    q = edges.literal(g, dtype if g.chance(70) else "np.float64", (m,), special)
    d = edges.literal(g, edges.float_dtype(g, ints=10), (g.pick([2, 3, 1, 4]), m), special)
    b = edges.literal(g, dtype if g.chance(70) else "np.float64", (m, g.pick([2, 3, 1, 5, 0])), special)
    params = [Param("S", s), Param("Q", q), Param("D", d), Param("B", b)]
    if g.chance(40):
        params.append(Param("al", g.pick(["1.5", "-0.5", "2.0", "0.0", "-0.0"])))
    return params


def _have(fr: Frame, *names: str) -> bool:
    return all(n in fr.names and hasattr(fr.ns.get(n), "shape") for n in names)


def _coef(g: Gen, fr: Frame) -> str:
    return g.pick(["0.5", "-1.5", "2.0", "0.25", "1.0"] + ["s"] * ("s" in fr.floats()) + ["al"] * ("al" in fr.names))


def _size(g: Gen, fr: Frame, array: str, axis: int = 0) -> tuple[list, str]:
    """(lines binding it, the expression) of an array's length: a name bound before the loop, the
    shape itself or len()."""
    form = g.pick(["name"] * 5 + (["shape", "len"] if axis == 0 else ["shape"]))  # a name: the kernel's bound
    if form == "name":
        m = g.name("m")
        return [Line(f"{m} = {array}.shape[{axis}]")], m
    return [], f"{array}.shape[{axis}]" if form == "shape" else f"len({array})"


# -- pallas_nest ----------------------------------------------------------------------------
def _nest(g: Gen, fr: Frame) -> tuple[list, Block] | None:
    """(lines before, the nest) of one kernel-shaped loop nest over the seq arrays."""
    c = _coef(g, fr)
    op = g.pick(["=", "+=", "-=", "*="])
    form = g.pick(["scan", "scan_rev", "stencil", "trisolve", "chol", "lu", "rows", "mod", "step", "value"])
    pre, m = _size(g, fr, "Q")
    i, j, k = g.name("i"), g.name("j"), g.name("k")
    if form == "scan":
        lo = g.pick(["0", "1"])
        body = (Line(f"Q[{i}] {op} Q[{i} - 1] * {c} + Q[{i}]"),)
        return pre, Block(f"for {i} in range({lo}, {m}):", body)
    if form == "scan_rev":
        body = (Line(f"Q[{i}] {op} Q[{i} + 1] * {c}"),)
        return pre, Block(f"for {i} in range({m} - 2, -1, -1):", body)
    if form == "step":
        body = (Line(f"Q[{i}] = -Q[{i}] * {c}"), Line(f"S[{i} // 2, {i} % 2] += Q[{i}]"))
        return pre, Block(f"for {i} in range(0, {m}, {g.pick(['2', '3'])}):", body[:g.int(1, 2)])
    if form == "mod":
        body = (Line(f"Q[({i} + 1) % {m}] {op} Q[{i}] * {c}"),)
        return pre, Block(f"for {i} in range({m}):", body)
    if form == "value":  # the loop variable as a value: no kernel (NumPy's Python int), the lax loop
        return pre, Block(f"for {i} in range({m}):", (Line(f"Q[{i}] {op} Q[{i}] * {c} + {i}"),))
    if form == "stencil":
        arr = g.pick(["S", "B"])
        pre, r = _size(g, fr, arr)
        more, w = _size(g, fr, arr, 1)
        val = f"0.25 * ({arr}[{i} - 1, {j}] + {arr}[{i} + 1, {j}] + {arr}[{i}, {j} - 1] + {arr}[{i}, {j} + 1])"
        inner = Block(f"for {j} in range(1, {w} - 1):", (Line(f"{arr}[{i}, {j}] = {val}"),))
        nest = Block(f"for {i} in range(1, {r} - 1):", (inner,))
        if g.chance(30):
            nest = Block(f"for {k} in range({g.pick(['2', 'n'] if 'n' in fr.ints() else ['2', '1'])}):", (nest,))
        return pre + more, nest
    if form == "trisolve":
        t = g.name("t")
        inner = Block(f"for {j} in range({i}):", (Line(f"{t} -= S[{i}, {j}] * Q[{j}]"),))
        last = g.pick([f"Q[{i}] = {t} * {c}", f"Q[{i}] = {t} / S[{i}, {i}]", f"Q[{i}] = {t} + S[{i}, {i}]"])
        return pre, Block(f"for {i} in range({m}):", (Line(f"{t} = Q[{i}]"), inner, Line(last)))
    if form == "chol":
        inner = Block(f"for {k} in range({j}):", (Block(f"for {i} in range({j}, {m}):",
                                                         (Line(f"S[{i}, {j}] -= S[{i}, {k}] * S[{j}, {k}]"),)),))
        diag = Line(g.pick([f"S[{j}, {j}] = np.sqrt(np.abs(S[{j}, {j}]))", f"S[{j}, {j}] = np.abs(S[{j}, {j}]) + 1.0"]))
        below = Block(f"for {i} in range({j} + 1, {m}):", (Line(f"S[{i}, {j}] {g.pick(['/=', '*='])} {g.pick(['2.0', f'S[{j}, {j}]'])}"),))
        return pre, Block(f"for {j} in range({m}):", (inner, diag, below))
    if form == "lu":
        inner = Block(f"for {j} in range({k} + 1, {m}):", (Line(f"S[{i}, {j}] -= S[{i}, {k}] * S[{k}, {j}]"),))
        rows = Block(f"for {i} in range({k} + 1, {m}):", (Line(f"S[{i}, {k}] {g.pick(['*= 0.5', '/= 4.0', f'/= S[{k}, {k}]'])}"), inner))
        return pre, Block(f"for {k} in range({m}):", (rows,))
    more, w = _size(g, fr, "B", 1)  # rows: B's rows are Q's length
    inner = Block(f"for {j} in range({w}):", (Line(f"B[{i}, {j}] {op} B[{i}, {j}] * {c} + Q[{i}]"),))
    return pre + more, Block(f"for {i} in range({m}):", (inner,))


def _marked(block: Block) -> Block:
    return Block(f"{block.header}  {PALLAS_MARK}", block.body, block.unwrap)


def pallas_nest(g: Gen, fr: Frame, helpers) -> tuple | None:
    if fr.depth or fr.in_helper or not _have(fr, "S", "Q", "B"):
        return None
    made = _nest(g, fr)
    if made is None:
        return None
    pre, nest = made
    return pre + [_marked(nest)], ()


def pallas_tail(g: Gen, fr: Frame, body: tuple, ret):
    """A last nest that indexes out of range at its last trip (not run on the shadow): the
    kernel's flag, then the lax loop raising NumPy's IndexError with the arguments as they were."""
    if not _have(fr, "Q") or not fr.ns["Q"].size:
        return body, ret
    i = g.name("i")
    line = g.pick([f"Q[{i} + 1] = Q[{i}] * 0.5", f"Q[{i}] += S[{i}, {i} + 1]", f"Q[{i} - Q.shape[0] - 1] -= 1.0"])
    return body + (_marked(Block(f"for {i} in range(Q.shape[0]):", (Line(line),))),), ret


# -- elem_reread ----------------------------------------------------------------------------
def elem_reread(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "Q", "S"):
        return None
    c = _coef(g, fr)
    pre, m = _size(g, fr, "Q")
    i, j, t = g.name("i"), g.name("j"), g.name("t")
    same = g.pick([f"Q[{i}]", f"Q[{i} - {m}]", f"Q[{i}]"])  # the element just stored, maybe as a negative index
    before = g.pick([f"Q[{i} - 1]", "Q[-1]", "Q[0]", f"Q[{m} - 1 - {i}]"])
    body = [Line(g.pick([f"Q[{i}] = {before} * {c} + Q[{i}]", f"Q[{i}] {g.pick(['+=', '-=', '*='])} {c}",
                         f"Q[{i}] = {c}"]))]
    follow = [f"Q[{i}] += {same} * {c}", f"{t} = {same} + {before}", f"S[{i}, {i}] = {same} - S[{i}, 0]",
              f"Q[{i} - 1] = {same} * 2", f"S[{i}, 0] += {same}", f"Q[0] = {same} + Q[0]"]
    for _ in range(g.int(1, 3)):
        body.append(Line(g.pick(follow)))
    if any(ln.text.startswith(t) for ln in body):
        body.append(Line(g.pick([f"Q[{i}] = {t} * 0.5", f"S[0, {i}] -= {t}"])))
    if g.chance(30):  # two element indices that meet only when i == j
        inner = (Line(f"S[{i}, {j}] = S[{j}, {i}] * {c} + Q[{j}]"), Line(f"Q[{j}] += S[{j}, {j}]"))
        body.append(Block(f"for {j} in range({g.pick([f'{i} + 1', m, f'{i}'])}):", inner[:g.int(1, 2)]))
    if g.chance(20):  # straight-line: element stores and reads at f's level, no loop
        at = str(g.int(-2, 2))
        return [Line(re.sub(rf"\b{i}\b", at, ln.text)) for ln in body if isinstance(ln, Line)], ()
    bound = g.pick([m, m, "3", "n" if "n" in fr.ints() else "2"])
    return pre + [Block(f"for {i} in range({g.pick(['', '1, '])}{bound}):", tuple(body))], ()


# -- tri_fill -------------------------------------------------------------------------------
def tri_fill(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "S", "D", "Q"):
        return None
    pre, m = _size(g, fr, "S")
    i, j = g.name("i"), g.name("j")
    c = g.pick(["0", "1", "0"])
    lo = f"{i} + {c}" if c != "0" else i
    form = g.pick(["inner", "inner", "chain", "chain", "copy", "lower"])
    if form == "inner":
        val = g.pick([f"Q[{i}] * Q[{j}]", f"(D[:, {i}] * D[:, {j}]).sum()", f"D[:, {i}] @ D[:, {j}]",
                      f"S[{i}, {j} - 1] + Q[{j}]", f"S[{i}, {j}] * 0.5 + Q[{i}]", f"np.sum(D[:, {i}] * D[:, {j}]) / D.shape[0]"])
        stop = g.pick([m, m, f"{m} - 1"])
        inner = Block(f"for {j} in range({lo}, {stop}):", (Line(f"S[{i}, {j}] = {val}"), Line(f"S[{j}, {i}] = S[{i}, {j}]")))
        body: list = [inner]
    else:
        hi = g.pick([m, "", "-1", m]) if form != "lower" else ""
        row, col = (f"S[{i}, {lo}:{hi}]", f"S[{lo}:{hi}, {i}]") if form != "lower" else \
            (f"S[{i}, :{i} + 1]", f"S[:{i} + 1, {i}]")
        part = f"{lo}:{hi}" if form != "lower" else f":{i} + 1"
        vec = g.pick([f"D[:, {i}] @ D[:, {part}]", f"Q[{part}] - Q[{i}]", f"Q[{part}] * 2.0",
                      f"{row} * 0.5 + Q[{i}]", f"D[:, {i}] @ D[:, {part}] / (D.shape[0] - 1.0)"])
        if form == "copy":
            body = [Line(f"{row} = {vec}"), Line(f"{col} = {row}")]
        else:
            first, second = (row, col) if g.chance(50) else (col, row)
            body = [Line(f"{first} = {second} = {vec}")]
    if g.chance(20):  # after the copy: a write the mirror proof must see
        body.append(Line(g.pick([f"S[{i}, {i}] += 1.0", f"S[{i}, {m} - 1] = -1.0", f"Q[{i}] = S[{i}, {i}]"])))
    top = g.pick([m, m, f"{m} - 1"])
    return pre + [Block(f"for {i} in range({top}):", tuple(body))], ()


# -- trmm_loop ------------------------------------------------------------------------------
def trmm_loop(g: Gen, fr: Frame, helpers) -> tuple | None:
    if not _have(fr, "S", "B"):
        return None
    pre, m = _size(g, fr, "B")
    more, w = _size(g, fr, "B", 1)
    i, j, k = g.name("i"), g.name("j"), g.name("k")
    dot = g.pick([f"S[{i} + 1:, {i}] @ B[{i} + 1:, {j}]", f"np.dot(S[{i} + 1:, {i}], B[{i} + 1:, {j}])",
                  f"B[{i} + 1:, {j}] @ S[{i} + 1:, {i}]", "scalar"])
    if dot == "scalar":
        inner: tuple = (Block(f"for {k} in range({i} + 1, {m}):", (Line(f"B[{i}, {j}] += S[{k}, {i}] * B[{k}, {j}]"),)),)
    else:
        inner = (Line(f"B[{i}, {j}] += {dot}"),)
    if g.chance(50):
        inner += (Line(f"B[{i}, {j}] = {_coef(g, fr)} * B[{i}, {j}]"),)
    return pre + more + [Block(f"for {i} in range({m}):", (Block(f"for {j} in range({w}):", inner),))], ()


FAMILIES = {"pallas_nest": (pallas_nest, 1), "elem_reread": (elem_reread, 1), "tri_fill": (tri_fill, 1),
            "trmm_loop": (trmm_loop, 1)}
PARAMS = {name: seq_params for name in FAMILIES}
TAILS = {"pallas_nest": pallas_tail}
