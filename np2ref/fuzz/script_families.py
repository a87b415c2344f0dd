"""Families for last session's script-facing features, which no other family wrote:

    host_history  a host function's time loop (f reads the clock: convert's route, converted.py)
                  appending to history lists (frontend/lift_appends.py lifts the loop whole,
                  rules/loop_appends.py and rt/appends.py stack the appends): copies, Python
                  floats, reductions, a second list, a print of the array every few steps, a
                  print that reads the list (the loop keeps its steps), zero trips; the lists
                  returned or stacked
    float_sized   a helper sizing its arrays from Python float arguments (`k = int((hi - lo) / dt)`,
                  np.linspace, np.arange of floats, a `while tt < hi` loop growing a list), called
                  from host code with float literals (rt/float_sizes.py: the converted function is
                  retried with its floats static after NPR031 / NPR130): empty sizes, -0.0, the
                  same helper called with two sets of floats
    zero_d_arg    a 0-d NumPy array argument `Z` (any dtype) asked its type or text (`repr(Z)`,
                  `type(Z).__name__`, `isinstance(Z, np.ndarray)`: np2ref.compile runs the
                  original, a converted file refuses NPR041), written (`Z[...] += 1`, `Z[()] = v`,
                  `Z.fill(v)`), read into arrays, returned itself

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from . import edges
from .exprs import Gen
from .host_families import _bound, _floats, define
from .program import Block, Line, Param
from .shadow import Frame

_CLOCK = "time.perf_counter()"


def _clock(g: Gen) -> Line:
    return Line(f"{g.name('t')} = {_CLOCK}")


# -- host_history ---------------------------------------------------------------------------
def host_history(g: Gen, fr: Frame, helpers) -> tuple | None:
    if fr.depth or fr.in_helper:
        return None
    floats = [a for a in _floats(fr, 1) if fr.ns[a].shape[-1] >= 3]
    if not floats:
        return None
    u = g.pick(floats)
    step, hist, en = g.name("step"), g.name("hist"), g.name("en")
    work = g.pick([f"{u}[..., 1:-1] += 0.25 * ({u}[..., 2:] - 2.0 * {u}[..., 1:-1] + {u}[..., :-2])",
                   f"{u}[...] = {u} * 0.5 + 1.0", f"{u}[..., 1:] += {u}[..., :-1] * 0.5", f"{u} *= -1.0"])
    item = g.pick([f"{u}.copy()", f"float(np.sum({u}))", f"np.sum({u})", f"{u}.max()", f"{u}.sum() * 0.5",
                   f"{u}.mean()", f"{u}.ravel()", f"{u} * 2.0"])
    body: list = [Line(work), Line(f"{hist}.append({item})")]
    if g.chance(50):
        body.insert(g.int(0, 2), Line(f"{en}.append(float({u}.sum()))"))
    if g.chance(35):
        shown = g.pick([f'f"step {{{step}}} total {{{u}.sum():.6f}}"', f'f"{{{hist}[-1]}}"' if "copy" not in item else f'{u}.max()'])
        body.append(Block(f"if {step} % 2 == 0:", (Line(f"print({shown})"),)))
    trips = g.pick(["3", "5", "0", "1"] + ["n"] * ("n" in fr.ints()))
    lists = [Line(f"{hist} = []")] + [Line(f"{en} = []")] * any(f"{en}." in ln.text for ln in body if isinstance(ln, Line))
    lines = [_clock(g)] + lists + [Block(f"for {step} in range({trips}):", tuple(body), (f"{step} = 0",))]
    v = g.name("v")
    use = g.pick(["keep", "array", "len", "sum"])
    if use == "array":
        lines.append(Line(f"{v} = np.array({hist})"))
    elif use == "len":
        lines.append(Line(f"{v} = len({hist})"))
    elif use == "sum":
        lines.append(Line(f"{v} = sum({hist})"))
    else:
        return lines, (hist,)
    return lines, (hist, v)


# -- float_sized ----------------------------------------------------------------------------
_SPANS = [("0.0", "0.5", "0.1"), ("0.0", "0.3", "0.1"), ("1.0", "1.0", "0.25"), ("-0.0", "0.75", "0.25"),
          ("0.5", "2.0", "0.5"), ("0.0", "1.0", "0.125"), ("2.0", "0.0", "-0.5")]


def _sized_helper(g: Gen, fr: Frame, helpers, vector: bool) -> str:
    form = g.pick(["linspace", "linspace", "arange", "while", "round"])
    count = "int(round((hi - lo) / dt))" if form == "round" else "int((hi - lo) / dt)"
    if form == "while":  # a list grown while a float is below another (NPR130 when traced)
        body = (Line("tt = lo"), Line("ys = [x.copy()]"),
                Block("while tt < hi:", (Line("x = x + dt * (np.sin(tt) - x)"), Line("tt += dt"), Line("ys.append(x)"))))
        return define(g, fr, helpers, ("x", "lo", "hi", "dt"), body, "np.array(ys), tt")
    grid = "np.arange(lo, hi, dt)" if form == "arange" else f"np.linspace(lo, hi, {count} + 1)"
    width = "(x.shape[0], len(tv))" if vector else "len(tv)"
    col = "w[:, 0] = x" if vector else "w[0] = x.sum()"
    step = "w[:, i + 1] = w[:, i] + dt * (np.sin(tv[i]) - w[:, i])" if vector else \
        "w[i + 1] = w[i] + dt * (np.cos(tv[i]) - w[i])"
    body = (Line(f"tv = {grid}"), Line(f"w = np.zeros({width})"),
            Block("if len(tv):", (Line(col),)),
            Block("for i in range(len(tv) - 1):", (Line(step),)))
    return define(g, fr, helpers, ("x", "lo", "hi", "dt"), body, "tv, w")


def float_sized(g: Gen, fr: Frame, helpers) -> tuple | None:
    if fr.depth or fr.in_helper:
        return None
    floats = [a for a in _floats(fr, 1) if fr.ns[a].ndim == 1]
    if not floats:
        return None
    x = g.pick(floats)
    h = _sized_helper(g, fr, helpers, vector=g.chance(60))
    tv, w = g.name("tv"), g.name("w")
    lines = [_clock(g)]
    for _ in range(g.pick([1, 1, 2])):  # a second call: another set of floats, or the same again
        lo, hi, dt = g.pick(_SPANS)
        if "s" in fr.floats() and g.chance(20):
            hi = "s"
        lines.append(Line(f"{tv}, {w} = {h}({x}, {lo}, {hi}, {dt})"))
    lines.append(Line(g.pick([f"{x}[...] += {w}[..., -1] if {w}.size else 0.0", f"{x}[0] = {w}.sum()",
                              f"print({tv}.shape, {w}.dtype)", f"{x}[...] *= len({tv}) * 0.5"])))
    return lines, (tv, w)


# -- zero_d_arg -----------------------------------------------------------------------------
def zero_d_params(g: Gen, ns: dict) -> list[Param]:
    dtype = edges.float_dtype(g, ints=30, bools=10)
    params = [Param("Z", f"np.array({edges.element(g, dtype, 15)}, dtype={dtype})")]
    if g.chance(30):  # a NumPy scalar beside it: compiled as before
        params.append(Param("Y", f"np.float64({edges.element(g, 'np.float64', 15)})"))
    return params


def zero_d_arg(g: Gen, fr: Frame, helpers) -> tuple | None:
    if "Z" not in fr.names:
        return None
    z = fr.ns["Z"]
    kind = z.dtype.kind
    one = "True" if kind == "b" else "1" if kind in "iu" else g.pick(["1.5", "-0.0", "np.inf"])
    ask = g.pick(["print(repr(Z))", "print(type(Z).__name__)", "print(isinstance(Z, np.ndarray))",
                  "print(Z.shape, Z.ndim, Z.dtype)", "print(str(Z))", 'print(f"{Z!r}")', "print(Z)"])
    sinks = _floats(fr, 0)
    sink = g.pick(sinks) if sinks else None
    forms = [f"Z[...] = {one}", f"Z[()] = {one}", f"Z.fill({one})", f"Z[...] += {one}", f"Z += {one}",
             f"{g.name('v')} = Z * 2", f"{g.name('v')} = Z.item()", "Z[...] = Z * 2"]
    if sink:
        forms += [f"{sink}[...] += Z", f"{sink}[...] *= Z", f"Z[...] = {sink}.sum()", f"{sink}[...] = Z + {sink}"]
    if "Y" in fr.names:
        forms += ["Z[...] = Y", f"{sink or 'Z'}[...] += Y * Z"]
    lines: list = [Line(g.pick(forms)) for _ in range(g.int(1, 2))]
    if g.chance(60):
        lines.insert(g.int(0, len(lines)), Line(ask))
    if g.chance(20):
        lines = [Block(f"for {g.name('i')} in range({_bound(g, fr)}):", tuple(lines))]
    if g.chance(15):  # host code: the converted module, where asking a 0-d argument's type is NPR041
        lines.insert(0, _clock(g))
    return lines, tuple(ln.text.split(" = ")[0] for ln in lines if isinstance(ln, Line) and ln.text.startswith("v"))


def zero_d_tail(g: Gen, fr: Frame, body: tuple, ret):
    """Z itself returned (NumPy's caller gets its own 0-d array back), or its type's name."""
    return body, g.pick(["Z", "(Z, type(Z).__name__)", "Z[()]", "Z.copy()", ret])


FAMILIES = {"host_history": (host_history, 1), "float_sized": (float_sized, 1), "zero_d_arg": (zero_d_arg, 1)}
def vector_params(g: Gen, ns: dict) -> list[Param]:
    """`U`, a float vector (or two rows) with edge data, for the time loops and sized helpers."""
    shape = (g.pick([3, 4, 6, 5]),) if g.chance(75) else (2, g.pick([3, 4]))
    return [Param("U", edges.literal(g, g.pick(["np.float64"] * 3 + ["np.float32"]), shape, g.pick([0, 0, 10])))]


def sized_params(g: Gen, ns: dict) -> list[Param]:
    """`U`, a float vector the sized helpers start from."""
    return [Param("U", edges.literal(g, g.pick(["np.float64"] * 3 + ["np.float32"]), (g.pick([1, 2, 3, 4]),), g.pick([0, 0, 10])))]


PARAMS = {"zero_d_arg": zero_d_params, "host_history": vector_params, "float_sized": sized_params}
TAILS = {"zero_d_arg": zero_d_tail}
