"""Families for forms that wrong answers came from in hand probes, which no other family writes:

    index_param    stores through an integer-array parameter `ix` (repeated indices, negative
                   ones, any integer dtype) and a boolean mask parameter `mk` of the first
                   argument's shape: `a[ix] = a[ix] + b` (the last write of a repeated index
                   wins), `a[ix] += b * a[ix]` (buffered: one update per distinct index),
                   `a[mk] += v`, a read kept and written (a copy), the same in a loop
    state_copy     a list or dict of arrays passed in (`st`), copied shallowly (`st.copy()`,
                   `dict(st)`, `list(st)`, `st[:]`, `{**st}`) and written (`x[0] += v`: NumPy
                   writes into the caller's arrays, so np2ref must do the same or refuse NPR207),
                   rebound (`x[0] = x[0] + v`: the caller's array is left alone), or copied deeply
                   (`[y.copy() for y in st]`) and written
    moving_dots    `@`, np.dot, np.einsum, np.tensordot of slices that move with a loop variable
                   (`x[:, i:i + h] @ w[i:i + h]`, `np.einsum('ij,j->i', x[:, i:i + h], k)`), in
                   unrolled and lax loops, stored per trip or accumulated, integer dtypes too
    moving_masks   masked reads of moving slices (`w = a[i:i + k]; s += w[w > 0].sum()`,
                   `np.count_nonzero`, `np.sum(w, where=w > 0)`), a masked write through the
                   window (`w[w < 0] = 0` writes `a`)
    loop_return    `return` inside a loop, under a condition on the data or on the loop index,
                   returning an array, a view, a tuple or a Python int or float: in a helper
                   called from `f` (run on the shadow), or (with `--family loop_return`) a loop
                   at the end of `f`, its fall-through the program's return

The families that need parameters of their own (`ix`, `mk`, `st`) get them from `PARAMS` when
asked for by name (`np2ref fuzz --family index_param`); otherwise they are not drawn.
`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

import numpy as np

from .exprs import Gen, ops_for, scalar, value
from .program import Block, Function, Line, Param, render
from .shadow import Frame, evaluate, run, strict

INT_DTYPES = ["np.int64", "np.int64", "np.int32", "np.int8", "np.uint8", "np.int16"]


def _numeric(fr: Frame, ndim: int = 0, kinds: str = "iuf") -> list[str]:
    return [a for a in fr.arrays() if fr.ns[a].dtype.kind in kinds and fr.ns[a].ndim >= ndim]


def _grid(g: Gen, fr: Frame, shape: tuple[int, ...], kind: str) -> str | None:
    """An array of `shape` made from the program's data, floats or integers (`kind` 'f' or 'i')."""
    sources = [a for a in _numeric(fr) if fr.ns[a].size]
    if not sources:
        return None
    size = int(np.prod(shape))
    src = g.pick(sources)
    if kind == "f":
        return f"(np.arange({size}) % {g.pick([5, 7])} - 2.0).reshape({shape}) * (0.25 + 0.125 * {src}.max())"
    dtype = g.pick(["np.int64", "np.int32", "np.int16"])
    return f"((np.arange({size}) % {g.pick([5, 7])} - 2).reshape({shape}) + int({src}.max())).astype({dtype})"


# -- parameters ---------------------------------------------------------------------------
def index_params(g: Gen, ns: dict) -> list[Param]:
    """`ix`, integers into the first axis of `a` (repeats, negatives, an empty one sometimes),
    and `mk`, a boolean mask of `a`'s shape."""
    a = ns.get("a")
    if not isinstance(a, np.ndarray) or not a.ndim or not a.shape[0]:
        return []
    d = a.shape[0]
    count = g.pick([1, 2, 3, 3, 4, 5, 0])
    items = [g.int(-d, d - 1) for _ in range(count)]
    if count >= 2 and g.chance(60):  # a repeated index: `=` keeps the last write, `+=` one update
        items[g.int(1, count - 1)] = items[0] + (d if items[0] < 0 and g.chance(50) else 0)
    dtype = g.pick(INT_DTYPES)
    if dtype == "np.uint8":
        items = [i % d for i in items]
    ix = f"np.array({items}, dtype={dtype})"
    mask = np.array([g.chance(50) for _ in range(a.size)]).reshape(a.shape).tolist()
    return [Param("ix", ix), Param("mk", f"np.array({mask!r}, dtype=np.bool_)")]


def state_params(g: Gen, ns: dict) -> list[Param]:
    """`st`: a list or a dict of two or three small arrays (floats or integers)."""
    items = []
    for _ in range(g.int(2, 3)):
        shape = g.pick([(3,), (2, 3), (4,), (1,), ()])
        dtype = g.pick(["np.float64", "np.float64", "np.int64", "np.float32", "np.int32"])
        size = int(np.prod(shape))
        flat = [g.int(-6, 6) / (4 if "float" in dtype else 1) for _ in range(size)]
        flat = [int(v) for v in flat] if "int" in dtype else flat
        nested = np.array(flat, dtype=object).reshape(shape).tolist() if shape else flat[0]
        items.append(f"np.array({nested!r}, dtype={dtype})")
    if g.chance(50):
        keys = ["u", "v", "w"][:len(items)]
        return [Param("st", "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(keys, items)) + "}")]
    return [Param("st", "[" + ", ".join(items) + "]")]


# -- index_param --------------------------------------------------------------------------
def index_param(g: Gen, fr: Frame, helpers) -> tuple | None:
    if "ix" not in fr.names or "mk" not in fr.names or not isinstance(fr.ns.get("a"), np.ndarray):
        return None
    a = fr.ns["a"]
    if not a.ndim or a.dtype.kind == "b" and g.chance(50):
        return None
    idx = g.pick(["ix", "ix", "mk", "ix, 0" if a.ndim >= 2 and a.shape[1] else "ix", "~mk", "ix, ..."])
    try:
        sel = fr.eval(f"a[{idx}]")
    except Exception:  # noqa: BLE001
        return None
    others = [b for b in _numeric(fr) if b not in ("a", "ix")]
    rhs = g.pick([scalar(g, a.dtype)] + [f"{b}[{idx}]" for b in others if fr.ns[b].shape == a.shape]
                 + [b for b in others if fr.ns[b].ndim <= 1] + [value(g, fr, sel.shape, a.dtype)])
    if idx in ("ix", "ix, ...") and a.dtype.kind != "b" and g.chance(40):
        # a value per position of ix: a repeated index meets two values (`=`: the last wins)
        rhs = f"np.arange(1, ix.size + 1).reshape({(-1,) + (1,) * (a.ndim - 1)})"
    op = g.pick(["+", "*", "-"] if a.dtype.kind != "b" else ["|", "&"])
    form = g.pick(["self", "self", "aug_self", "aug", "store", "read", "loop", "other"])
    if form == "self":
        stmt = f"a[{idx}] = a[{idx}] {op} {rhs}"
    elif form == "aug_self":
        stmt = f"a[{idx}] {op}= {rhs} {op} a[{idx}]"
    elif form == "aug":
        aop = g.pick(ops_for(a.dtype)[:4])
        stmt = f"a[{idx}] {aop}= {scalar(g, a.dtype, aop) if g.chance(50) else rhs}"
    elif form == "store":
        stmt = f"a[{idx}] = {rhs}"
    elif form == "read":
        r = g.name("r")
        lines = [Line(f"{r} = a[{idx}]"), Line(f"{r} {op}= {scalar(g, a.dtype, op)}")]
        if g.chance(60):
            lines.append(Line(f"a[{idx}] = {r}" if g.chance(50) else f"a[...] = a.sum() + {r}.sum()"
                              if a.dtype.kind != "b" else f"a[{idx}] = {r}"))
        return lines, (r,)
    elif form == "other":  # the index into another array of the same length
        same = [b for b in _numeric(fr, 1) if b not in ("a", "ix") and fr.ns[b].shape[0] == a.shape[0]]
        if not same:
            return None
        b = g.pick(same)
        stmt = g.pick([f"{b}[ix] = {b}[ix] + a[ix]" if fr.ns[b].dtype == a.dtype else f"{b}[ix] += 1",
                       f"{b}[ix] += {b}[ix]", f"a[ix] = {b}[ix]", f"{b}[mk] = a[mk]" if fr.ns[b].shape == a.shape
                       else f"{b}[ix] = 0"])
    elif g.chance(40):  # one element of ix a trip: a repeated index is written twice, in order
        k = g.name("k")
        v = "1" if a.dtype.kind != "f" else g.pick(["0.5", "-1.5"])
        body = g.pick([f"a[ix[{k}]] = a[ix[{k}]] {op} {v}", f"a[ix[{k}]] {op}= {k}" if a.dtype.kind != "b"
                       else f"a[ix[{k}]] = ~a[ix[{k}]]", f"a[ix[{k}]] = {k}"])
        return [Block(f"for {k} in range(ix.shape[0]):", (Line(body),), (f"{k} = 0",))], ()
    else:  # the store repeated in a loop (each trip reads what the last one wrote)
        k = g.name("k")
        bound = g.pick(["2", "3", "n"] if "n" in fr.ints() else ["2", "3"])
        body = g.pick([f"a[{idx}] = a[{idx}] {op} {rhs}", f"a[{idx}] {op}= {rhs}",
                       f"a[{idx}] = a[{idx}] {op} {k}" if a.dtype.kind != "b" else f"a[{idx}] = ~a[{idx}]"])
        return [Block(f"for {k} in range({bound}):", (Line(body),), (f"{k} = 0",))], ()
    return [Line(stmt)], ()


# -- state_copy ---------------------------------------------------------------------------
def state_copy(g: Gen, fr: Frame, helpers) -> tuple | None:
    st = fr.ns.get("st")
    if "st" not in fr.names or not isinstance(st, (list, dict)):
        return None
    keys = list(st) if isinstance(st, dict) else list(range(len(st)))
    key = g.pick(keys)
    kt = repr(key)
    x = g.name("x")
    if isinstance(st, dict):
        copy = g.pick(["st.copy()", "dict(st)", "{**st}", "{k: v for k, v in st.items()}",
                       "{k: v.copy() for k, v in st.items()}", "st"])
    else:
        copy = g.pick(["st.copy()", "list(st)", "st[:]", "[*st]", "[y.copy() for y in st]", "st"])
    arr = st[key]
    lines = [Line(f"{x} = {copy}")]
    kind = arr.dtype.kind
    v = g.pick([scalar(g, arr.dtype, "+")] + [f"{b}.sum()" for b in _numeric(fr, 0, "f") if kind == "f"][:2])
    write = g.pick([f"{x}[{kt}] += {v}", f"{x}[{kt}] *= 2", f"{x}[{kt}][...] = {v}",
                    f"{x}[{kt}] = {x}[{kt}] + {v}", f"{x}[{kt}][:1] -= 1" if arr.ndim else f"{x}[{kt}] -= 1",
                    f"np.add({x}[{kt}], 1, out={x}[{kt}])", f"{x}[{kt}] += {x}[{kt}]"])
    reading = g.chance(30)
    if reading:  # read only: what the copy holds, taken into a new array
        write = f"{g.name('r')} = {x}[{kt}] * 2 + {x}[{g.pick(keys)!r}].sum()"
    lines.append(Line(write))
    if not reading and g.chance(30):  # a second element written too
        other = g.pick(keys)
        lines.append(Line(f"{x}[{other!r}] -= 1"))
    defines = (x,)
    sinks = _numeric(fr, 0, "f")
    if g.chance(50) and sinks and kind in "iuf":
        lines.append(Line(f"{g.pick(sinks)}[...] += {x}[{kt}].sum()"))
    if g.chance(25):  # the copy made anew each trip of a loop
        k = g.name("k")
        lines = [Block(f"for {k} in range({g.pick(['2', '3'])}):", tuple(lines), (f"{k} = 0",))]
    return lines, defines


# -- moving_dots --------------------------------------------------------------------------
def moving_dots(g: Gen, fr: Frame, helpers) -> tuple | None:
    kind = g.pick(["f", "f", "i"])
    p, q, h = g.int(1, 3), g.int(1, 3), g.int(1, 3)
    N = g.int(h, h + 4)
    i, y = g.name("i"), g.name("y")
    x, w, kk = g.name("x"), g.name("w"), g.name("k")
    lines = []
    two = [b for b in _numeric(fr, 2, "fi" if kind == "i" else "f") if fr.ns[b].ndim == 2
           and fr.ns[b].shape[1] >= 1 and fr.ns[b].size]
    if two and g.chance(40):  # an argument as the moving operand
        x = g.pick(two)
        p, N = fr.ns[x].shape
        h = g.int(1, N)
        kind = fr.ns[x].dtype.kind
    else:
        made = _grid(g, fr, (p, N), kind)
        if made is None:
            return None
        lines.append(Line(f"{x} = {made}"))
    made_w, made_k = _grid(g, fr, (N, q), kind), _grid(g, fr, (h, q), kind)
    lines += [Line(f"{w} = {made_w}"), Line(f"{kk} = {made_k}")]
    trips = N - h + 1
    win = f"{x}[:, {i}:{i} + {h}]"
    product = g.pick([f"{win} @ {w}[{i}:{i} + {h}]", f"np.dot({win}, {kk})", f"{win} @ {kk}",
                      f"np.einsum('ij,jk->ik', {win}, {w}[{i}:{i} + {h}])", f"np.einsum('ij,jk->ik', {win}, {kk})",
                      f"np.tensordot({win}, {kk}, axes=1)", f"np.tensordot({win}, {w}[{i}:{i} + {h}], axes=([1], [0]))",
                      f"np.einsum('ij,ij->i', {win}, {win})", f"{win} @ {kk}[:, 0]",
                      f"np.einsum('ij,j->i', {win}, {kk}[:, 0])", f"{x}[0, {i}:{i} + {h}] @ {kk}"])
    ns = fr.fresh()  # a replay: the run must not write the live namespace's arrays
    try:
        run(lines, ns)
        shape = evaluate(product, {**ns, i: 0}).shape
    except Exception:  # noqa: BLE001
        return None
    form = g.pick(["acc", "acc", "store", "rebind"])
    bound = g.pick([str(trips), f"{x}.shape[1] - {h} + 1", str(min(trips, 2))]
                   + ["n"] * ("n" in fr.ints() and trips >= 3))
    dt = "np.int64" if kind in "iu" else "np.float64"
    if form == "store" and len(shape) <= 1:  # one column (or element) per trip
        lines.append(Line(f"{y} = np.zeros(({trips},) + {shape}, dtype={dt})"))
        step = f"{y}[{i}] = {product}"
    elif form == "rebind":
        lines.append(Line(f"{y} = np.zeros({shape}, dtype={dt})"))
        step = f"{y} = {y} + {product}"
    else:
        lines.append(Line(f"{y} = np.zeros({shape}, dtype={dt})"))
        step = f"{y} += {product}"
    body: tuple = (Line(step),)
    if g.chance(20):  # the moving operand written between trips: each product sees the write
        body += (Line(f"{x}[:, {i}] = 0" if g.chance(50) else f"{x}[:, {i}:{i} + {h}] *= 2"),)
    lines.append(Block(f"for {i} in range({bound}):", body, (f"{i} = 0",)))
    sinks = [b for b in _numeric(fr, 0, "f") if fr.ns[b].flags.writeable]
    if sinks and g.chance(60):
        lines.append(Line(f"{g.pick(sinks)}[...] += {y}.sum()"))
    return lines, (y,) + tuple(n for n in (x, w, kk) if any(ln.text.startswith(n + " =") for ln in lines
                                                             if isinstance(ln, Line)))


# -- moving_masks -------------------------------------------------------------------------
def moving_masks(g: Gen, fr: Frame, helpers) -> tuple | None:
    arrays = [b for b in _numeric(fr, 1) if fr.ns[b].shape[-1] >= 1 and fr.ns[b].size]
    if not arrays:
        return None
    a = g.pick(arrays)
    arr = fr.ns[a]
    n = arr.shape[-1]
    k = g.int(1, n)
    i, w, s = g.name("i"), g.name("w"), g.name("s")
    win = f"{a}[{i}:{i} + {k}]" if arr.ndim == 1 else f"{a}[..., {i}:{i} + {k}]"
    t = g.pick(["0", "1", "-1"] if arr.dtype.kind in "iu" else ["0", "0.5", "-0.25"])
    if arr.dtype.kind == "u":
        t = "1"
    cond = g.pick([f"{w} > {t}", f"{w} != 0", f"{w} < {t}", f"({w} > {t}) & ({w} < 3)"])
    use = g.pick([f"{s} += {w}[{cond}].sum()", f"{s} += np.sum({w}[{cond}])", f"{s} += np.count_nonzero({cond})",
                  f"{s} += np.sum({w}, where={cond})", f"{s} += ({w}[{cond}] * {w}[{cond}]).sum()",
                  f"{s} = max({s}, {w}[{cond}].max()) if np.any({cond}) else {s}",
                  f"{s} += {w}[{cond}].size", f"{s} += {win}[{cond.replace(w, win)}].sum()"])
    zero = "0" if arr.dtype.kind in "iu" else "0.0"
    body = [Line(f"{w} = {win}"), Line(use)]
    if g.chance(25):  # a masked write through the window: it reaches the argument
        body.append(Line(f"{w}[{cond}] = {scalar(g, arr.dtype)}"))
    if g.chance(20):
        out = g.name("o")
        body.append(Line(f"{out}[{i}] = {w}[{cond}].sum()"))
        pre = [Line(f"{out} = np.zeros({n - k + 1})")]
    else:
        out, pre = None, []
    bound = g.pick([str(n - k + 1), f"{a}.shape[-1] - {k} + 1", f"len({a}) - {k} + 1" if arr.ndim == 1 else str(n - k + 1)]
                   + ["n"] * ("n" in fr.ints() and n - k + 1 >= 3))
    lines = [Line(f"{s} = {zero}"), *pre, Block(f"for {i} in range({bound}):", tuple(body), (f"{i} = 0",))]
    sinks = [b for b in _numeric(fr, 0, "f") if fr.ns[b].flags.writeable]
    if sinks and g.chance(50):
        lines.append(Line(f"{g.pick(sinks)}[...] += {s}"))
    return lines, (s,) + ((out,) if out else ())


# -- loop_return --------------------------------------------------------------------------
def _return_loop(g: Gen, fr: Frame, x: str, arr, in_f: bool) -> Block:
    """`for i in range(..): <write x>; if <cond>: return <value>` (the loop of a helper or of `f`)."""
    i = g.name("i")
    d = arr.shape[0]
    kind = arr.dtype.kind
    cond = g.pick([f"{x}[{i}] > {g.pick(['0', '1'])}" if arr.ndim == 1 else f"{x}[{i}].sum() > 0",
                   f"{x}.sum() > {g.pick(['2', '0', '5'])}", f"{i} == {g.int(0, max(d - 1, 0))}",
                   f"{i} >= {g.int(1, 3)}", f"{i} > 0 and {x}[{i} - 1].sum() != 0"] if kind != "b" else
                  [f"{x}[{i}].any()", f"{i} == 1", f"{i} >= 2"])
    ret = g.pick([x, f"{x}[:{i}]", f"{x}.copy()", f"({x}, {i})", i, f"{i} + 1", f"float({x}.sum())",
                  f"({x}[{i}], {i})", f"{x}.sum()", f"len({x}) - {i}"])
    write = g.pick([f"{x}[{i}] += 1", f"{x}[{i}] *= 2", f"{x}[{i}:] += 1", f"{x}[...] += 1"]
                   if kind != "b" else [f"{x}[{i}] = ~{x}[{i}]"])
    body = [Line(write), Block(f"if {cond}:", (Line(f"return {ret}"),))]
    if g.chance(40):
        body.reverse()
    if g.chance(15):  # a second exit under another condition
        body.append(Block(f"if {i} == {g.int(0, 3)}:", (Line(f"return {g.pick([i, x, f'({x}, -1)'])}"),)))
    bound = g.pick([f"{x}.shape[0]", f"len({x})", str(d)] + ["n"] * (in_f and "n" in fr.ints()))
    if g.chance(15):
        return Block(f"for {i} in reversed(range({bound})):", tuple(body), (f"{i} = 0",))
    return Block(f"for {i} in range({bound}):", tuple(body), (f"{i} = 0",))


def loop_return(g: Gen, fr: Frame, helpers: list) -> tuple | None:
    """A helper whose loop returns early, called from `f` (its result used or returned)."""
    arrays = [b for b in fr.arrays() if fr.ns[b].ndim and fr.ns[b].shape[0] and fr.ns[b].flags.writeable]
    if not arrays:
        return None
    t = g.pick(arrays)
    fall = g.pick(["x", "-1", "(x, -1)", "0.5", "x.sum()", "None"])
    loop = _return_loop(g, fr, "x", fr.ns[t], False)
    fn = Function(g.name("h"), ("x",), (loop,), fall)
    ns: dict = {"np": np}
    exec(compile(fn.source(), "<np2ref fuzz>", "exec"), ns)
    helpers.append(fn)
    fr.shared[fn.name] = ns[fn.name]
    r = g.name("r")
    return [Line(f"{r} = {fn.name}({t})")], (r,)


def return_tail(g: Gen, fr: Frame, body: tuple, ret: str | None) -> tuple[tuple, str | None]:
    """A last loop in `f` that may return early (not run on the shadow: NumPy's run decides)."""
    arrays = [b for b in fr.arrays() if fr.ns[b].ndim and fr.ns[b].shape[0] and fr.ns[b].flags.writeable]
    if not arrays:
        return body, ret
    t = g.pick(arrays)
    loop = _return_loop(g, fr, t, fr.ns[t], True)
    ns = fr.fresh()
    try:  # run as a function's body on a replay: NumPy must accept it
        exec(compile("\n".join(["def _tail():", *render((loop,), 1)]), "<np2ref fuzz>", "exec"), ns)
        with strict():
            ns["_tail"]()
    except Exception:  # noqa: BLE001
        return body, ret
    return body + (loop,), ret


PARAMS = {"index_param": index_params, "state_copy": state_params}  # family -> its parameters
TAILS = {"loop_return": return_tail}  # family -> a last statement of `f`, not run on the shadow
FAMILIES = {
    "index_param": (index_param, 2),
    "state_copy": (state_copy, 1),
    "moving_dots": (moving_dots, 2),
    "moving_masks": (moving_masks, 2),
    "loop_return": (loop_return, 2),
}
