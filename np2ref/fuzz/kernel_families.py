"""The family of kernel forms the translator rewrites beyond single statements (the fuzzer's
blind spots after rt/dots.py, rules/mask_guard.py and the moving-slice pair loops):

    kernels   one of: window products in a loop XLA unrolls (`for t in range(3): y = y +
              c[:, :, t] @ x[:, t:t + n]`, `np.tensordot(w[:, :, i, j], x[:, i:i + h, j:j +
              wd], axes=1)` in two nested loops: rt/dots.py takes them from one product), with
              near misses (an operand that changes between copies, a window of the loop's
              variable in the contracted axis); a pair loop over `p[i + 1:]` (`d = p[i + 1:] -
              p[i]; r2 = np.sum(d * d, axis=1)`, then a reduction of an expression of r2:
              calls.py's moving slices, rt/masked.py); a masked read in a pole position
              (`out[m] = 1.0 / a[m]`, `np.log(a[m])`, `np.sqrt(a[m])`, `a[m] ** -2`) where the
              elements the mask leaves out are 0 (rules/mask_guard.py: NaN-free gradients); a
              name born a number, `op=`'d and bound to another (`t = 0.0; t += a[0]; u = t;
              t -= 1.0`, `prev = total; total += a[i]`: rt/views.py npr_share)

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py. The arrays a
form needs beyond the arguments' small shapes it makes from one of them (`np.linspace(...) *
a.sum()`), so that its values are the program's data, not constants XLA folds.
"""

from __future__ import annotations

from .exprs import Gen
from .program import Block, Line
from .shadow import Frame


def _floats(fr: Frame, ndim: int = 0) -> list[str]:
    return [a for a in fr.arrays() if fr.ns[a].dtype.kind == "f" and fr.ns[a].dtype.itemsize >= 4
            and fr.ns[a].ndim >= ndim]


def _sink(g: Gen, fr: Frame, value: str) -> Line | None:
    """`t[...] += value` into a float argument, or None (the value is returned or left)."""
    targets = [a for a in _floats(fr) if fr.ns[a].flags.writeable]
    return Line(f"{g.pick(targets)}[...] {g.pick(['+=', '-=', '='])} {value}") if targets else None


def _data(g: Gen, fr: Frame, shape: tuple[int, ...]) -> str | None:
    """An expression of `shape` made from the program's data: a grid scaled by an argument's sum."""
    sources = [a for a in fr.arrays() if fr.ns[a].dtype.kind in "fiu" and fr.ns[a].size]
    if not sources:
        return None
    size = 1
    for d in shape:
        size *= d
    lo, hi = g.pick(["-1.0", "-0.5", "0.25"]), g.pick(["1.0", "2.0", "0.75"])
    return f"np.linspace({lo}, {hi}, {size}).reshape({shape}) * (1.0 + 0.125 * {g.pick(sources)}.sum())"


def window_dots(g: Gen, fr: Frame) -> tuple | None:
    """Products of loop-invariant slices and windows in a short loop, and near misses."""
    k, p, m = g.int(2, 3), g.int(1, 4), g.int(1, 3)
    n = g.int(k, k + 5)
    c, x, y, t = g.name("c"), g.name("x"), g.name("y"), g.name("t")
    made_c, made_x = _data(g, fr, (p, m, k)), _data(g, fr, (m, n))
    if made_c is None:
        return None
    width = n - k + 1
    if g.chance(40):  # a 2-d convolution by shifted windows in two loops
        h = g.int(k, k + 3)
        made_x = _data(g, fr, (m, h, n))
        made_c = _data(g, fr, (p, m, k, k))
        i, j = g.name("i"), g.name("j")
        rows = h - k + 1
        product = g.pick([f"np.tensordot({c}[:, :, {i}, {j}], {x}[:, {i}:{i} + {rows}, {j}:{j} + {width}], axes=1)",
                          f"np.einsum('km,mhw->khw', {c}[:, :, {i}, {j}], {x}[:, {i}:{i} + {rows}, {j}:{j} + {width}])"])
        inner = Block(f"for {j} in range({k}):", (Line(f"{y} += {product}"),), (f"{j} = 0",))
        body: tuple = (inner,)
        if g.chance(20):  # an operand that changes between copies: each copy keeps its product
            body = (inner, Line(f"{x} = {x} * 0.5"))
        lines = [Line(f"{c} = {made_c}"), Line(f"{x} = {made_x}"), Line(f"{y} = np.zeros(({p}, {rows}, {width}))"),
                 Block(f"for {i} in range({k}):", body, (f"{i} = 0",))]
    else:
        window = g.pick([f"{x}[:, {t}:{t} + {width}]"] * 4 + [f"{x}[:, {t}:{t} + {width}] * 2.0",
                                                             f"{x}[:{m}, {t}:{t} + {width}]"])
        product = g.pick([f"{c}[:, :, {t}] @ {window}", f"np.dot({c}[:, :, {t}], {window})",
                          f"np.tensordot({c}[:, :, {t}], {window}, axes=1)"])
        step = g.pick([f"{y} = {y} + {product}", f"{y} += {product}"])
        body = (Line(step),)
        if g.chance(20):
            body += (Line(f"{c} = {c} + 1.0"),)
        lines = [Line(f"{c} = {made_c}"), Line(f"{x} = {made_x}"), Line(f"{y} = np.zeros(({p}, {width}))"),
                 Block(f"for {t} in range({k}):", body, (f"{t} = 0",))]
    sink = _sink(g, fr, g.pick([f"{y}.sum()", f"np.maximum({y}, 0.0).sum()", f"{y}.max()"]))
    return lines + ([sink] if sink is not None and g.chance(70) else []), (y,)


def pair_loop(g: Gen, fr: Frame) -> tuple | None:
    """`for i in range(N - 1): d = p[i + 1:] - p[i]; r2 = np.sum(d * d, axis=1); e += ...`."""
    points = [a for a in _floats(fr, 2) if fr.ns[a].ndim == 2 and fr.ns[a].shape[0] >= 2]
    p = g.pick(points) if points and g.chance(60) else None
    pre = []
    if p is None:
        count, dim = g.int(2, 6), g.int(1, 3)
        made = _data(g, fr, (count, dim))
        if made is None:
            return None
        p = g.name("p")
        pre.append(Line(f"{p} = {made}"))
    e, i, d, r2 = g.name("e"), g.name("i"), g.name("d"), g.name("r2")
    square = g.pick([f"np.sum({d} * {d}, axis=1)", f"({d} ** 2).sum(axis=1)", f"np.einsum('ij,ij->i', {d}, {d})",
                     f"np.sum({d} * {d}, axis=-1)"])
    term = g.pick([f"np.sum(1.0 / (1.0 + {r2}))", f"np.sum(np.exp(-{r2}))", f"{r2}.min()", f"np.sqrt({r2} + 0.5).sum()",
                   f"np.sum(np.where({r2} < 1.0, {r2}, 0.0))", f"np.max({r2})", f"np.mean({r2})"])
    body = [Line(f"{d} = {p}[{i} + 1:] - {p}[{i}]"), Line(f"{r2} = {square}"), Line(f"{e} += {term}")]
    if g.chance(25):  # the force on the pairs written back (a scatter over the moving slice)
        body.append(Line(f"{p}[{i} + 1:] += 0.01 * {d}"))
    bound = g.pick([f"{p}.shape[0] - 1", f"len({p}) - 1", f"{p}.shape[0]"])
    lines = [*pre, Line(f"{e} = 0.0"), Block(f"for {i} in range({bound}):", tuple(body), (f"{i} = 0",))]
    sink = _sink(g, fr, e)
    return lines + ([sink] if sink is not None and g.chance(70) else []), (e,)


def masked_pole(g: Gen, fr: Frame) -> tuple | None:
    """A masked read in a division, log, sqrt or negative power, the masked-out elements 0."""
    sources = _floats(fr, 1)
    if not sources:
        return None
    a = g.pick(sources)
    m, out = g.name("m"), g.name("out")
    cond = g.pick([f"{a} != 0", f"{a} > 0", f"np.abs({a}) > 0.25", f"{a} > 0.5"])
    positive = cond != f"{a} != 0"
    read = f"{a}[{m}]"
    pole = g.pick([f"1.0 / {read}", f"2.0 / ({read} * {read})", f"{read} ** -2"]
                  + [f"np.log({read})", f"np.sqrt({read})", f"{read} ** -0.5"] * positive
                  + [f"np.log(np.abs({read}))"])
    form = g.pick(["store", "store", "reduce", "bound"])
    lines = [Line(f"{m} = {cond}")]
    if form == "store":
        lines += [Line(f"{out} = np.zeros_like({a})"), Line(f"{out}[{m}] = {pole}")]
        value = f"{out}.sum()"
    elif form == "reduce":
        value = g.pick([f"np.sum({pole})", f"({pole}).sum()"])
    else:  # the selection bound to a name, then the pole of the name (a masked binding)
        v = g.name("v")
        lines += [Line(f"{v} = {read}"), Line(f"{out} = np.zeros_like({a})"),
                  Line(f"{out}[{m}] = {pole.replace(read, v)}")]
        value = f"{out}.sum()"
    if form != "reduce" and g.chance(30):  # the zeros the mask leaves out: a pole there without it
        lines.insert(0, Line(f"{a}[0] = 0.0"))
    sink = _sink(g, fr, value)
    return lines + ([sink] if sink is not None else []), (m,) + ((out,) if form != "reduce" else ())


def number_share(g: Gen, fr: Frame) -> tuple | None:
    """A name born a Python number, `op=`'d, and bound to another (`u = t`, `prev = total`):
    NumPy's value is a scalar while 0-d (the other name keeps it) and an array once an `op=` of
    a row made one (the other name shares its later in-place writes)."""
    sources = [a for a in _floats(fr) if fr.ns[a].size]
    if not sources:
        return None
    a = g.pick(sources)
    t, u, i = g.name("t"), g.name("u"), g.name("i")
    first = g.pick([f"{a}[0]", f"{a}.sum()", f"{a}[-1]", f"{a}.max()"]) if fr.ns[a].ndim else f"{a}.sum()"
    if fr.ns[a].ndim and g.chance(50):  # `prev = total; total += a[i]` in a loop
        body = (Line(f"{u} = {t}"), Line(f"{t} {g.pick(['+=', '-=', '*='])} {a}[{i}]"),
                Line(f"{a}[{i}] = {t} - {u}" if fr.ns[a].ndim == 1 else f"{a}[{i}] += ({t} - {u})"))
        lines = [Line(f"{t} = {g.pick(['0.0', '1.0', '0'])}"), Block(f"for {i} in range(len({a})):", body, (f"{i} = 0",))]
    else:
        lines = [Line(f"{t} = {g.pick(['0.0', '2.5', '0'])}"), Line(f"{u} = 0.0"), Line(f"{t} += {first}"),
                 Line(f"{u} = {t}"), Line(f"{t} {g.pick(['-=', '+=', '*='])} {g.pick(['1.0', '0.5', '2'])}")]
    sink = _sink(g, fr, f"np.sum({u})")
    return lines + ([sink] if sink is not None else []), (t, u)


FORMS = {"window_dots": window_dots, "pair_loop": pair_loop, "masked_pole": masked_pole,
         "number_share": number_share}


def kernels(g: Gen, fr: Frame, helpers) -> tuple | None:
    return FORMS[g.pick(sorted(FORMS))](g, fr)


FAMILIES = {"kernels": (kernels, 2)}
