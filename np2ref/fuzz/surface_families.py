"""The family of Python around physics kernels (tests/programs/physics.py's forms):

    phys_surface  one of: `np.linspace` with constant arguments (endpoint, retstep, a count
                  from a shape); `x[range(N), y]` read or `op=` (an MLP's `dscores[range(N), y]
                  -= 1`), `x[range(N - 1, -1, -2)]`, `x[range(k), range(k)]`; a Python float
                  carried through a loop (`t = 0.0; for i in range(n): t += dt * a[i]`, an int
                  `t = 0` rebound to a float by `t += dt`); a print of traced values formatted
                  with `%`, `.format` or an f-string (the runner compares what is printed); a
                  generator the function makes and draws from (`gen = np.random.default_rng(3)`,
                  maybe in a loop: issue 42); a mask with an integer after it (`x[m, 1] *= -1`,
                  `x[np.where(m), 0] = v`: issue 37 case 7)

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from .exprs import FLOATS, Gen
from .program import Block, Line
from .shadow import Frame

LINSPACE_BOUNDS = ["-2.5", "1.5", "0.1", "0.7", "-1.5", "0", "1", "3.0", "-0.3"]


def _numeric(fr: Frame, kinds: str = "iuf") -> list[str]:
    return [a for a in fr.arrays() if fr.ns[a].dtype.kind in kinds]


def linspace(g: Gen, fr: Frame) -> tuple | None:
    """A grid of constants, added into an array (broadcast along its last axis) or reduced."""
    floats = [a for a in _numeric(fr, "f") if fr.ns[a].ndim]
    lo, hi = g.pick(LINSPACE_BOUNDS), g.pick(LINSPACE_BOUNDS)
    t = g.pick(floats) if floats else None
    count = g.pick([f"{t}.shape[-1]"] * 3 * bool(t) + ["7", "1", "0", "161", "10"])
    extra = g.pick(["", "", ", endpoint=False", ", retstep=True", ", dtype=np.float32"])
    x = g.name("x")
    lines = [Line(f"{x} = np.linspace({lo}, {hi}, {count}{extra})")]
    grid = f"{x}[0]" if "retstep" in extra else x
    if "retstep" in extra and g.chance(50):
        lines.append(Line(f"{x}, {g.name('dx')} = {x}"))
        grid = x
    if t is not None and count.startswith(t) and g.chance(60):
        lines.append(Line(f"{t}[...] {g.pick(['+=', '=', '*='])} {grid}"))
    elif t is not None:  # a decision on the grid: one ulp moves an element across the threshold
        lines.append(Line(f"{t}[...] += np.count_nonzero({grid} {g.pick(['<', '>=', '=='])} {g.pick(['0.3', '-2.0', '0.5', '1.5'])})"))
    return lines, (x,)


def range_index(g: Gen, fr: Frame) -> tuple | None:
    """`x[range(N), y]` with y an integer array of column indices; reversed and paired ranges."""
    targets = [a for a in _numeric(fr) if fr.ns[a].ndim == 2 and all(fr.ns[a].shape)]
    if not targets:
        return None
    x = g.pick(targets)
    n, m = fr.ns[x].shape
    y = g.name("y")
    cols = [g.int(0, m - 1) for _ in range(n)]
    lines = [Line(f"{y} = np.array({cols})")]
    N = g.pick([f"{x}.shape[0]", str(n)])
    k = min(n, m)
    idx = g.pick([f"range({N}), {y}", f"range({N}), {y}", f"range({N} - 1, -1, -2)", f"range({k}), range({k})",
                  f"1, range(0)", f"range(1, {N}), {y}[1:]"])
    form = g.pick(["read", "aug", "aug", "store"])
    if form == "read":
        r = g.name("r")
        lines.append(Line(f"{r} = {x}[{idx}]"))
        lines.append(Line(f"{x}[...] {g.pick(['+=', '-='])} {r}.sum()" if fr.ns[x].dtype.kind != "u" else f"{x}[...] = {r}.sum()"))
        return lines, (y, r)
    op = "=" if form == "store" else g.pick(["-=", "+=", "*="])
    lines.append(Line(f"{x}[{idx}] {op} {g.pick(['1', '2', f'{x}[{idx}] * 2'])}"))
    return lines, (y,)


def float_carry(g: Gen, fr: Frame) -> tuple | None:
    """A Python number carried through a loop: `t = 0.0` (or the int 0) plus `dt * a[i]` each trip."""
    arrays = [a for a in _numeric(fr) if fr.ns[a].ndim and fr.ns[a].shape[0]]
    if not arrays:
        return None
    a = g.pick(arrays)
    t, i = g.name("t"), g.name("i")
    dt = g.pick(["s"] * ("s" in fr.floats()) + FLOATS[:4] + ["0.1"])
    init = g.pick(["0.0", "0.0", "0", "1.5"])
    bound = g.pick(["n"] * ("n" in fr.ints()) + [f"{a}.shape[0]", f"len({a})"])
    step = g.pick([f"{t} += {dt} * {a}[{i}]", f"{t} += {dt}", f"{t} = {t} + {dt} * float({a}[{i}].sum())",
                   f"{t} += {a}[{i}].sum() * {dt}", f"{t} *= {g.pick(['0.5', '1.5'])}"])
    body = (Line(step),)
    if g.chance(30):  # the carried number used in the trip
        floats = [b for b in _numeric(fr, "f") if b != a] or ([a] if fr.ns[a].dtype.kind == "f" else [])
        if floats:
            body += (Line(f"{g.pick(floats)}[...] += {t}"),)
    lines = [Line(f"{t} = {init}"), Block(f"for {i} in range({bound}):", body, (f"{i} = 0",))]
    sink = [b for b in _numeric(fr, "f")]
    if sink and g.chance(70):
        lines.append(Line(f"{g.pick(sink)}[...] += {t}"))
    return lines, (t,)


def print_format(g: Gen, fr: Frame) -> tuple | None:
    """A print of traced values formatted with `%`, `.format` or an f-string, maybe in a loop."""
    arrays = [a for a in _numeric(fr) if fr.ns[a].size]
    if not arrays:
        return None
    a = g.pick(arrays)
    e = g.pick([f"{a}.sum()", f"float({a}.sum())", f"{a}.max()", f"np.sum({a} * {a})", f"{a}.argmax()"])
    i = g.name("i")
    text = g.pick([f'"step %3d: energy %.6e" % ({i}, {e})', f'"%s|%r" % ({e}, {a}.ravel()[:2])',
                   f'"max {{:.4f}} at {{}}".format({a}.max(), {a}.argmax())', f'"%d" % {i}, "{{}}".format({e})',
                   f'f"{{{e}:.3f}} {{{i}}}"', f'"%.2f%%" % ({e})', f'"{{0}} {{0!r}}".format({e})'])
    body = (Line(f"print({text})"),)
    if fr.ns[a].dtype.kind == "f" and g.chance(40):  # the printed value changes each trip
        body += (Line(f"{a} *= 0.5"),)
    bound = g.pick(["2", "3", "n"] if "n" in fr.ints() else ["2", "3"])
    return [Block(f"for {i} in range({bound}):", body, (f"{i} = 0",))], ()


def made_generator(g: Gen, fr: Frame) -> tuple | None:
    """A generator made in the function, drawn from into an array (in a loop or not)."""
    floats = [a for a in _numeric(fr, "f") if fr.ns[a].ndim]
    if not floats:
        return None
    t, gen = g.pick(floats), g.name("gen")
    maker = g.pick([f"np.random.default_rng({g.int(0, 9)})", f"np.random.RandomState({g.int(0, 9)})",
                    f"np.random.Generator(np.random.PCG64({g.int(0, 9)}))"])
    draw = g.pick([f"{gen}.normal(0.0, 0.5, size={t}.shape)", f"{gen}.uniform(-1.0, 1.0, {t}.shape)",
                   f"{gen}.standard_normal({t}.shape)" if "RandomState" not in maker else f"{gen}.randn(*{t}.shape)"])
    step = Line(f"{t} {g.pick(['+=', '-=', '*='])} {draw}")
    lines = [Line(f"{gen} = {maker}")]
    if g.chance(50):
        i = g.name("i")
        lines.append(Block(f"for {i} in range({g.pick(['2', '3'])}):", (step,), (f"{i} = 0",)))
    else:
        lines.append(step)
    return lines, ()


def mask_int(g: Gen, fr: Frame) -> tuple | None:
    """A boolean mask over the leading axis with an integer index after it, stored or `op=`."""
    targets = [a for a in _numeric(fr, "if") if fr.ns[a].ndim == 2 and all(fr.ns[a].shape)]
    if not targets:
        return None
    x = g.pick(targets)
    d = g.int(0, fr.ns[x].shape[1] - 1)
    m = f"{x}[:, {d}] {g.pick(['>', '<', '>='])} {g.pick(['0', '1', '-1'])}"
    idx = g.pick([f"{m}, {d}", f"np.where({m}), {d}"])
    form = g.pick([f"{x}[{idx}] *= -1", f"{x}[{idx}] = 2", f"{x}[{idx}] += 1"])
    return [Line(form)], ()


FORMS = {"linspace": linspace, "range_index": range_index, "float_carry": float_carry, "print_format": print_format,
         "made_generator": made_generator, "mask_int": mask_int}


def phys_surface(g: Gen, fr: Frame, helpers) -> tuple | None:
    return FORMS[g.pick(sorted(FORMS))](g, fr)


FAMILIES = {"phys_surface": (phys_surface, 2)}
