"""Families for last session's host-facing features, which no other family wrote (world.py holds
what their programs find around `f`):

    opaque_obj  methods of an object handed to f (`obj = Probe(3)`, rt/opaque.py, rules/opaque.py):
                `t[...] += obj.noise(t.shape)`, `t[0] = obj.level()`, `t[...] = obj.scale(t)` (the
                object sees the data), `c = obj.count()`, at the top level or in a loop; the
                runner compares the object's call count and generator state with NumPy's run's
    special     SciPy special functions (npr_special): `scipy.special.erf(t)`, `special.expit`,
                `gammaln` of data, `scipy.special.gamma(2.5)` of constants, in loops or not
    print_loop  `print(repr(x))`, `print(str(x))`, f-string `!r` holes in loops (rt/host.py's host
                text of a computed value), beside array work
    jax_args    f handed a float32 jax.Array (`j = jnp.asarray(...)` in make_args), read by NumPy
                code: `np.asarray(j)`, `t[...] += np.asarray(j) * 2`, `np.sum(j)`, `j.sum()`, `t * j`,
                `float(j[0])`; NumPy's run gets the NumPy array of j's values (runner.py _numpy_args)
    setup_host  set-up code (a helper of sizes and numbers only: `make(4)` returning `np.linspace(...)`
                or draws) called from host code (f reads the clock: convert's route), its result
                written by the host and by a compiled step, its dtype printed
    imported    higher-order helpers of a sibling module (frontend/imported.py): `apply_n(step,
                n, t)`, `npr_fuzzlib.do_while(cond, n, step, t)`, `each_row(h, t)` with `step`,
                `cond`, `h` the program's own helpers (writing their argument or returning a new
                array)
    repeat_loop `for _ in itertools.repeat(None, n):` (a range loop, rules/loop_forms.py) writing
                arrays, with a counter, nested in a range loop

`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

import numpy as np

from . import world
from .exprs import Gen
from .program import Block, Function, Line, Param
from .shadow import Frame


def _floats(fr: Frame, ndim: int = 1) -> list[str]:
    return [a for a in fr.arrays() if fr.ns[a].dtype.kind == "f" and fr.ns[a].ndim >= ndim and fr.ns[a].size]


def _numeric(fr: Frame, ndim: int = 1) -> list[str]:
    return [a for a in fr.arrays() if fr.ns[a].dtype.kind in "iuf" and fr.ns[a].ndim >= ndim and fr.ns[a].size]


def _bound(g: Gen, fr: Frame) -> str:
    return g.pick(["n"] * 2 * ("n" in fr.ints()) + ["2", "3", "1", "0"])


def _maybe_loop(g: Gen, fr: Frame, lines: list, percent: int = 50) -> list:
    if g.chance(percent):
        return [Block(f"for {g.name('i')} in range({_bound(g, fr)}):", tuple(lines), ())]
    return lines


def define(g: Gen, fr: Frame, helpers: list[Function], params: tuple[str, ...], body: tuple, ret) -> str:
    """A module-level helper of the program, bound in the shadow (it may call earlier ones)."""
    fn = Function(g.name("h"), params, body, ret)
    helpers.append(fn)
    ns: dict = {"np": np, **world.namespace(), **fr.shared}
    exec(compile(fn.source(), "<np2ref fuzz>", "exec"), ns)
    fr.shared[fn.name] = ns[fn.name]
    return fn.name


# -- opaque_obj -----------------------------------------------------------------------------
def opaque_obj(g: Gen, fr: Frame, helpers) -> tuple | None:
    if "obj" not in fr.names:
        return None
    floats = _floats(fr)
    if not floats:
        return None
    t = g.pick(floats)
    y = g.name("y")
    form = g.pick(["noise", "noise_shape", "level", "scale", "count", "level_expr"])
    if form == "noise":
        lines = [Line(f"{t}[...] += obj.noise({t}.shape[-1])")]
    elif form == "noise_shape":
        lines = [Line(f"{y} = obj.noise({t}.shape)"), Line(f"{t}[...] = {t} * 0.5 + {y}")]
    elif form == "level":
        lines = [Line(f"{t}[0] = obj.level()")]
    elif form == "scale":
        lines = [Line(f"{t}[...] = obj.scale({g.pick([t, f'{t} * 2.0', f'{t}.copy()'])})")]
    elif form == "count":
        lines = [Line(f"{y} = obj.count()"), Line(f"{t}[...] += {y}")]
    else:
        lines = [Line(f"{t}[...] {g.pick(['+=', '*=', '-='])} obj.level() + {t}.sum() * 0.25")]
    if g.chance(20):  # the object handed on to a helper that calls it
        name = define(g, fr, helpers, ("o", "x"), (Line("x[...] += o.level()"),), g.pick([None, "x.sum()"]))
        lines.append(Line(f"{name}(obj, {t})"))
    return _maybe_loop(g, fr, lines, 55), ()


def opaque_params(g: Gen, ns: dict) -> list[Param]:
    return [Param("obj", f"Probe({g.int(0, 9)})")]


# -- special --------------------------------------------------------------------------------
SPECIAL_ON_DATA = ["erf({t})", "erfc({t})", "expit({t})", "gammaln(np.abs({t}) + 1.0)", "xlogy({t} * {t}, np.abs({t}) + 1.0)",
                   "log1p(np.abs({t}))", "ndtr({t})", "sinc({t})" ]
SPECIAL_ON_CONSTANTS = ["gamma(2.5)", "erf(0.5)", "gammaln(3.0)", "beta(2.0, 3.0)", "binom(5, 2)", "comb(6, 2)",
                        "factorial(4)", "zeta(2.0)"]


def special(g: Gen, fr: Frame, helpers) -> tuple | None:
    floats = _floats(fr, 0)
    if not floats:
        return None
    t = g.pick(floats)
    mod = g.pick(["scipy.special", "special"])
    y = g.name("y")
    if g.chance(30):
        const = f"{mod}.{g.pick(SPECIAL_ON_CONSTANTS)}"
        lines = [Line(f"{t}[...] {g.pick(['+=', '*=', '='])} {const}")]
        if g.chance(40):
            lines = [Line(f"{y} = {const} * 0.5"), Line(f"{t}[...] -= {y}")]
    else:
        call = f"{mod}.{g.pick(SPECIAL_ON_DATA).format(t=t)}"
        lines = [Line(g.pick([f"{t}[...] = {call}", f"{y} = {call}", f"{t}[...] += {call} * 0.5"]))]
        if lines[0].text.startswith(y):
            lines.append(Line(g.pick([f"{t}[...] = {y} - {t}", f"{t}[...] += {y}.sum()"])))
    return _maybe_loop(g, fr, lines, 40), ()


# -- print_loop -----------------------------------------------------------------------------
def print_loop(g: Gen, fr: Frame, helpers) -> tuple | None:
    arrays = _numeric(fr, 0)
    if not arrays:
        return None
    t = g.pick(arrays)
    i = g.name("i")
    shown = g.pick([f"repr({t})", f"str({t})", f"repr({t}.sum())", f"str({t}.max())", f"repr(float({t}.sum()))",
                    f"str(int({t}.sum()))" if fr.ns[t].dtype.kind in "iu" else f"repr({t}[..., :2])",
                    f"repr({i})", f"str({t}.shape)"])
    line = Line(g.pick([f"print({shown})", f"print({i}, {shown})", f'print(f"{{{i}}}: {{{t}!r}}")',
                        f'print("s", {shown}, sep="=")']))
    kind = fr.ns[t].dtype.kind
    work = Line(g.pick([f"{t}[...] += 1", f"{t}[0] *= 2", f"{t}[...] = {t}[::-1].copy()"] if kind in "iu" else
                       [f"{t}[...] += 0.5", f"{t}[...] *= -1.0", f"{t}[...] = {t}[::-1].copy()"]))
    body = (work, line) if g.chance(50) else (line, work)
    if g.chance(30):
        body = (line,)
    return [Block(f"for {i} in range({_bound(g, fr)}):", body, (f"{i} = 0",))], ()


# -- jax_args -------------------------------------------------------------------------------
def jax_args(g: Gen, fr: Frame, helpers) -> tuple | None:
    if "j" not in fr.names:
        return None
    sinks = [a for a in _floats(fr, 1)]
    j = fr.ns["j"]
    v = g.name("v")
    forms = ["asarray", "sum", "float", "method"] + ["store", "add", "mixed", "mixed"] * bool(sinks)
    form = g.pick(forms)
    if form == "asarray":
        lines = [Line(f"{v} = np.asarray(j) * {g.pick(['2', '0.5', 'np.float32(3.0)'])}")]
    elif form == "sum":
        lines = [Line(f"{v} = np.{g.pick(['sum', 'max', 'mean'])}(j)")]
    elif form == "float":
        lines = [Line(f"{v} = float(j{'[0]' if j.ndim else ''}) + 1.0")]
    elif form == "method":
        lines = [Line(f"{v} = j.{g.pick(['sum', 'max', 'min'])}() * 2")]
    elif form == "mixed":  # j meets a NumPy array or scalar under an operator
        t = g.pick(sinks)
        lines = [Line(f"{v} = {g.pick([f'{t} * j', f'j - {t}', f'{t}.sum() + j.sum()', f'(j * 2 + {t}).max()'])}")]
    else:
        t = g.pick(sinks)
        src = g.pick(["np.asarray(j)", "np.array(j)", "j"])
        lines = [Line(f"{t}[...] {'=' if form == 'store' else g.pick(['+=', '-=', '*='])} {src}")]
        return _maybe_loop(g, fr, lines, 30), ()
    if sinks and g.chance(70):
        lines.append(Line(f"{g.pick(sinks)}[...] += {v}"))
    return lines, (v,)


def jax_params(g: Gen, ns: dict) -> list[Param]:
    """A float32 jax.Array (what jax set-up code makes), shaped like `a` or 1-d."""
    a = ns.get("a")
    shape = a.shape if isinstance(a, np.ndarray) and g.chance(60) else (g.int(1, 4),)
    values = np.array([g.int(-8, 8) / 4 for _ in range(int(np.prod(shape)))]).reshape(shape).tolist()
    return [Param("j", f"jnp.asarray(np.array({values!r}, dtype=np.float32))")]


# -- setup_host -----------------------------------------------------------------------------
SETUP_RESULTS = ["np.linspace(0.0, 1.0, m) * 2.0", "np.zeros(m) + 0.5", "np.arange(m, dtype=np.float32) * 0.25",
                 "np.ones((m, 2)) * 1.5", "np.round(np.random.default_rng(3).standard_normal(m) * 4.0) / 4.0",
                 "np.full(m, 0.75, dtype=np.float32)", "(np.arange(m) % 3).astype(np.float64)"]


def setup_host(g: Gen, fr: Frame, helpers) -> tuple | None:
    """Only at f's top level: f reads the clock, so it is host code and the runner checks convert's
    module, where `make(m)` is set-up code called from the host with no array."""
    if fr.depth or fr.in_helper:
        return None
    made = g.pick(SETUP_RESULTS)
    body = (Line(f"w = {made}"), Line("w[0] += 1.0")) if g.chance(40) else ()
    make = define(g, fr, helpers, ("m",), body, "w" if body else made)
    step = define(g, fr, helpers, ("x",), (Line(g.pick(["x[1:] += x[:-1] * 0.5", "x *= 0.5", "x[0] = x.sum()"])),),
                  g.pick([None, "x"]))
    u = g.name("u")
    lines = [Line(f"{g.name('t')} = time.perf_counter()"), Line(f"{u} = {make}({g.int(2, 5)})")]
    if g.chance(60):
        lines.append(Line(f"{u}[0] = {g.pick(['1.0', '-0.5', f'{u}.sum()'])}"))
    lines.append(Line(f"{step}({u})"))
    if g.chance(50):
        lines.append(Line(g.pick([f"print({u}.dtype, {u}.shape)", f"print(type({u}).__name__)", f"print(repr({u}))"])))
    sinks = _floats(fr, 1)
    if sinks and g.chance(50):
        lines.append(Line(f"{g.pick(sinks)}[...] += {u}.sum()"))
    return lines, (u,)


# -- imported -------------------------------------------------------------------------------
def imported(g: Gen, fr: Frame, helpers) -> tuple | None:
    floats = _floats(fr, 1)
    if not floats:
        return None
    t = g.pick(floats)
    dotted = g.chance(35)
    lib = f"{world.LIB_NAME}." if dotted else ""
    form = g.pick(["apply_n", "apply_n", "do_while", "each_row"])
    bound = _bound(g, fr)
    if form == "each_row":
        body = g.pick([(Line("r[...] *= 0.5"),), (Line("r[0] += 1.0"),), (Line("r[...] = r[::-1].copy()"),)])
        h = define(g, fr, helpers, ("r",), body, None)
        return [Line(f"{g.pick([t + ' = ', ''])}{lib}each_row({h}, {t})")], ()
    step_body, ret = g.pick([((Line("x = x * 0.5 + 1.0"),), "x"), ((Line("x[...] = x * 0.5"),), "x"),
                             ((Line("x[0] += 1.0"),), "x"), ((), "np.roll(x, 1, axis=0) * 0.5"),
                             ((Line("x += 0.25"),), "x - x.mean()")])
    tupled = g.chance(30)
    if tupled:  # the state a tuple: (array, counter)
        step = define(g, fr, helpers, ("st",), (Line("x, k = st"),) + step_body, f"{ret}, k + 1")
        state, out = f"({t}, 0)", f"{t}, {g.name('k')}"
    else:
        step = define(g, fr, helpers, ("x",), step_body, ret)
        state, out = t, t
    if form == "apply_n":
        call = f"{lib}apply_n({step}, {bound}, {state})"
    else:
        first = "st[0]" if tupled else "x"
        cond = define(g, fr, helpers, ("st" if tupled else "x",), (), f"{first}.sum() < {g.pick(['4.0', '10.0', '0.0'])}")
        call = f"{lib}do_while({cond}, {bound}, {step}, {state})"
    lines = [Line(f"{out} = {call}")]
    if g.chance(40):
        lines.append(Line(f"{t}[...] += 1.0"))
    return lines, ()


# -- repeat_loop ----------------------------------------------------------------------------
def repeat_loop(g: Gen, fr: Frame, helpers) -> tuple | None:
    arrays = _numeric(fr, 0)
    if not arrays:
        return None
    t = g.pick(arrays)
    kind = fr.ns[t].dtype.kind
    work = g.pick([f"{t}[...] += 1", f"{t}[...] = {t} * 2", f"{t}[..., :1] -= 1"] if kind in "iu" else
                  [f"{t}[...] += 0.5", f"{t}[...] = {t} * 0.5 + 1.0", f"{t}[..., 1:] += {t}[..., :-1] * 0.5"])
    bound = _bound(g, fr)
    item = g.pick(["None", "None", "0", "1.5"])
    body: tuple = (Line(work),)
    lines: list = []
    if g.chance(35):  # a counter beside the loop: its variable is never read
        c = g.name("c")
        lines.append(Line(f"{c} = 0"))
        body += (Line(f"{c} += 1"),)
        after = Line(f"{t}[...] += {c}")
    else:
        after = None
    loop = Block(f"for _ in itertools.repeat({item}, {bound}):", body, ())
    if g.chance(25):
        loop = Block(f"for {g.name('k')} in range(2):", (loop,), ())
    lines.append(loop)
    if after is not None:
        lines.append(after)
    return lines, ()


FAMILIES = {"opaque_obj": (opaque_obj, 1), "special": (special, 1), "print_loop": (print_loop, 1),
            "jax_args": (jax_args, 1), "imported": (imported, 1), "repeat_loop": (repeat_loop, 1),
            "setup_host": (setup_host, 1)}
PARAMS = {"opaque_obj": opaque_params, "jax_args": jax_params}  # family -> parameters of its own
