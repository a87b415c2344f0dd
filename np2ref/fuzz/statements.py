"""Statement families: each proposes one or a few statements for a scope.

A family is `fn(g, fr) -> (statements, names they define) | None`; the generator runs the
proposal on the scope's NumPy shadow and keeps it only if NumPy accepts it. Loops, branches and
helpers build their bodies in a child scope (see generate.py), the rest live here. Each family
is registered with a weight in FAMILIES.
"""

from __future__ import annotations

import numpy as np

from .exprs import Gen, basic_index, condition, fancy_index, int_list, loop_slice, ops_for, scalar, value
from .program import Block, Line
from .shadow import Frame

Proposal = tuple[list, tuple[str, ...]] | None


def target(g: Gen, fr: Frame) -> str | None:
    """An array to write: the most recent one often (views get written through), else any."""
    arrays = fr.arrays()
    if not arrays:
        return None
    return arrays[-1] if g.chance(35) else g.pick(arrays)


def _selection(fr: Frame, expr: str):
    try:
        return np.asarray(fr.eval(expr))
    except Exception:  # noqa: BLE001 - an index NumPy rejects: the family gives up
        return None


def _store(g: Gen, fr: Frame, index_of) -> Proposal:
    t = target(g, fr)
    if t is None:
        return None
    idx = index_of(g, fr.ns[t].shape)
    sel = None if idx is None else _selection(fr, f"{t}[{idx}]")
    if sel is None:
        return None
    dtype = fr.ns[t].dtype
    op = "=" if g.chance(45) else g.pick(ops_for(dtype))
    return [Line(f"{t}[{idx}] {op if op == '=' else op + '='} {value(g, fr, sel.shape, dtype, op)}")], ()


def slice_store(g: Gen, fr: Frame) -> Proposal:
    return _store(g, fr, lambda g_, shape: basic_index(g_, shape, fr.ints()))


def fancy_store(g: Gen, fr: Frame) -> Proposal:
    return _store(g, fr, fancy_index)


def ufunc_at(g: Gen, fr: Frame) -> Proposal:
    t = target(g, fr)
    if t is None or not fr.ns[t].shape:
        return None
    shape = fr.ns[t].shape
    ufunc = g.pick(["add", "add", "subtract", "multiply", "maximum", "minimum"])
    if len(shape) >= 2 and g.chance(40):
        n = g.int(0, 4)
        idx = f"({int_list(g, shape[0], n)}, {int_list(g, shape[1], n)})"
    else:
        idx = g.pick([str(int_list(g, shape[0])), f"np.array({int_list(g, shape[0])}, dtype=np.int64)", "1:"])
    sel = _selection(fr, f"{t}[{idx}]")
    if sel is None:
        return None
    dtype = fr.ns[t].dtype
    op = {"add": "+", "subtract": "-", "multiply": "*"}.get(ufunc, "+")
    return [Line(f"np.{ufunc}.at({t}, {idx}, {value(g, fr, sel.shape, dtype, op)})")], ()


def mask_store(g: Gen, fr: Frame) -> Proposal:
    t = target(g, fr)
    if t is None:
        return None
    arr = fr.ns[t]
    cond = condition(g, fr, t)
    lines, defines, mask = [], (), f"({cond})"
    if g.chance(60):
        mask = g.name("m")
        lines.append(Line(f"{mask} = {cond}"))
        defines = (mask,)
    same = [n for n in fr.arrays() if fr.ns[n].shape == arr.shape]
    form = g.pick(["const", "aug", "masked", "masked", "count", "selection"])
    floats = [n for n in same if fr.ns[n].dtype.kind == "f"]
    if form == "selection" and floats and arr.dtype.kind == "f":
        return lines + _selection_reduced(g, t, g.pick(floats), mask), defines
    if form == "masked" and same:
        src = g.pick(same)
        src_val = f"{src}[{mask}]" + (f" * {g.pick(['2', '-1'])}" if fr.ns[src].dtype.kind != "b" else "")
        op = "=" if g.chance(60) or fr.ns[src].dtype != arr.dtype else g.pick(ops_for(arr.dtype)[:3])
        lines.append(Line(f"{t}[{mask}] {op if op == '=' else op + '='} {src_val}"))
    elif form == "aug":
        op = g.pick(ops_for(arr.dtype))
        lines.append(Line(f"{t}[{mask}] {op}= {scalar(g, arr.dtype, op)}"))
    elif form == "count":
        lines.append(Line(f"{t}[{mask}] = np.arange(np.count_nonzero({mask}))"))
    else:
        lines.append(Line(f"{t}[{mask}] = {scalar(g, arr.dtype)}"))
    return lines, defines


def _selection_reduced(g: Gen, t: str, src: str, mask: str) -> list:
    """`v = src[m]` kept in a name, an elementwise expression of it (in a name of its own or
    not), reduced into t: np2ref reduces on whole arrays under the mask (npr_select_values,
    npr_masked_reduce), so masked-out elements (the log of a negative) must change nothing."""
    v, w = g.name("v"), g.name("w")
    expr = g.pick([f"{v} * 2.0 - 1.0", f"{v} - {v}.mean()", f"np.abs({v} - 0.5)", f"{v} ** 2",
                   f"np.log(np.abs({v}) + 1.0) * {t}.shape[0]"])
    lines = [Line(f"{v} = {src}[{mask}]")]
    if g.chance(50):
        lines.append(Line(f"{w} = {expr}"))
        operand = w
    else:
        operand = f"({expr})"
    reduction = g.pick([f"{operand}.sum()", f"np.mean({operand})", f"np.sum({operand} * 0.5)",
                        f"np.sqrt(np.sum({operand} ** 2))", f"len({v})"]
                       + ([f"{operand}.size"] if operand == w else []))
    return lines + [Line(f"{t}[...] += {reduction}")]


def out_call(g: Gen, fr: Frame) -> Proposal:
    t = target(g, fr)
    if t is None:
        return None
    arr = fr.ns[t]
    out = t
    if arr.ndim and g.chance(15):
        out = f"{t}[{g.pick(['1:', '::-1', ':-1', '::2'])}]"
    shape = _selection(fr, out)
    if shape is None:
        return None
    shape = shape.shape
    fn = g.pick(["add", "multiply", "subtract", "maximum", "minimum", "clip", "negative"])
    x = t if g.chance(35) and out == t else value(g, fr, shape, arr.dtype, "+")
    if arr.ndim and g.chance(15) and out == t:
        x = f"{t}[::-1]"  # an input overlapping the output in reverse
    if fn == "clip":
        lo, hi = (("0", "2") if arr.dtype.kind in "iu" else ("-0.5", "1.5"))
        return [Line(f"np.clip({x}, {lo}, {hi}, out={out})")], ()
    if fn == "negative":
        return [Line(f"np.negative({x}, out={out})")], ()
    y = value(g, fr, shape, arr.dtype, "+") if g.chance(60) else t
    return [Line(f"np.{fn}({x}, {y}, out={out})")], ()


def method(g: Gen, fr: Frame) -> Proposal:
    t = target(g, fr)
    if t is None:
        return None
    arr = fr.ns[t]
    kind = g.pick(["fill", "sort", "copyto", "copyto_where", "putmask", "fill_diagonal", "put", "place"])
    if kind == "fill":
        return [Line(f"{t}.fill({scalar(g, arr.dtype)})")], ()
    if kind == "sort" and arr.ndim:
        axis = g.pick(["", "", "axis=0", "axis=-1"])
        return [Line(f"{t}.sort({axis})")], ()
    if kind == "fill_diagonal" and arr.ndim >= 2:
        wrap = ", wrap=True" if g.chance(25) else ""
        return [Line(f"np.fill_diagonal({t}, {scalar(g, arr.dtype)}{wrap})")], ()
    if kind == "put" and arr.size:
        idx = int_list(g, arr.size, g.int(1, 4))
        return [Line(f"np.put({t}, {idx}, {value(g, fr, (len(idx),), arr.dtype)})")], ()
    cond = condition(g, fr, t)
    if kind == "copyto_where":
        return [Line(f"np.copyto({t}, {value(g, fr, arr.shape, arr.dtype)}, where={cond})")], ()
    if kind == "putmask":
        vals = value(g, fr, arr.shape, arr.dtype) if g.chance(70) else scalar(g, arr.dtype)
        return [Line(f"np.putmask({t}, {cond}, {vals})")], ()
    if kind == "place":
        return [Line(f"np.place({t}, {cond}, {g.pick(['[1, 2]', '[0]', '[3, 1, 2]'])})")], ()
    return [Line(f"np.copyto({t}, {value(g, fr, arr.shape, arr.dtype)})")], ()


def view(g: Gen, fr: Frame) -> Proposal:
    t = target(g, fr)
    if t is None:
        return None
    arr = fr.ns[t]
    options = ["basic", "reverse", "T", "transpose", "reshape", "ravel", "asarray", "view", "copy"]
    if arr.ndim >= 2:
        options += ["swapaxes", "swapaxes"]
    kind = g.pick(options)
    name = g.name("v")
    expr = {
        "basic": lambda: f"{t}[{basic_index(g, arr.shape, fr.ints())}]",
        "reverse": lambda: f"{t}[::-1]" if arr.ndim else f"{t}[...]",
        "T": lambda: f"{t}.T",
        "transpose": lambda: f"{t}.transpose()" if arr.ndim < 2 else f"np.transpose({t})",
        "reshape": lambda: f"{t}.reshape({_reshape_target(g, arr.shape)})",
        "ravel": lambda: g.pick([f"{t}.ravel()", f"np.ravel({t})", f"{t}.reshape(-1)"]),
        "asarray": lambda: f"np.asarray({t})",
        "view": lambda: f"{t}.view()",
        "copy": lambda: g.pick([f"{t}.copy()", f"{t}.flatten()", f"{t}[[0]]" if arr.ndim and arr.shape[0] else f"{t}.copy()"]),
        "swapaxes": lambda: g.pick([f"{t}.swapaxes(0, 1)", f"np.swapaxes({t}, 0, -1)"]),
    }[kind]()
    return [Line(f"{name} = {expr}")], (name,)


def _reshape_target(g: Gen, shape: tuple[int, ...]) -> str:
    size = int(np.prod(shape))
    options = ["-1", "(1, -1)", "(-1, 1)", f"({size},)"]
    if len(shape) >= 2:
        options += [str(tuple(reversed(shape))), f"({shape[0]}, -1)"]
    if len(shape) == 1 and size % 2 == 0 and size:
        options.append(f"(2, {size // 2})")
    if size == 1:
        options.append("()")
    return g.pick(options)


def local(g: Gen, fr: Frame) -> Proposal:
    t = target(g, fr)
    if t is None:
        return None
    arr = fr.ns[t]
    name = g.name("w")
    dtype = g.pick(["np.float64", "np.float32", "np.int32", "np.int64", "np.bool_"])
    expr = g.pick([f"{t}.copy()", f"np.zeros_like({t})", f"np.ones({arr.shape}, dtype={dtype})",
                   f"{t} * 2" if arr.dtype.kind != "b" else f"~{t}", f"np.full_like({t}, {scalar(g, arr.dtype)})"])
    return [Line(f"{name} = {expr}")], (name,)


def name_aug(g: Gen, fr: Frame) -> Proposal:
    t = target(g, fr)
    if t is None:
        return None
    arr = fr.ns[t]
    op = g.pick(ops_for(arr.dtype))
    return [Line(f"{t} {op}= {value(g, fr, arr.shape, arr.dtype, op)}")], ()


def rebind(g: Gen, fr: Frame) -> Proposal:
    """`a = a * 2`: the name now holds a new array; later writes must not reach the caller."""
    t = target(g, fr)
    if t is None:
        return None
    arr = fr.ns[t]
    expr = g.pick([f"{t}.copy()", f"{t} + {scalar(g, arr.dtype, '+')}" if arr.dtype.kind != "b" else f"~{t}",
                   f"{t}[::-1]" if arr.ndim else f"{t}[...]"])
    return [Line(f"{t} = {expr}")], ()


def draw(g: Gen, fr: Frame) -> Proposal:
    """A random draw stored into an array or bound to a name: from NumPy's global generator, a
    Generator argument `rng`, with parameters read from arrays; or a call of a stateful
    module-level object (`COUNTER.tick()`), which must stay host code."""
    t = target(g, fr)
    if t is None:
        return None
    arr = fr.ns[t]
    shape = g.pick([f"{t}.shape", str(arr.shape)])
    sources = ["np.random"] + ["rng"] * 2 * ("rng" in fr.names)
    src = g.pick(sources)
    expr = g.pick([f"{src}.random({shape})", f"{src}.standard_normal({shape})",
                   f"{src}.uniform(-1.0, 1.0, {shape})", f"{src}.normal({t}, 0.5)" if arr.dtype.kind == "f" else
                   f"{src}.random({shape})"])
    if src == "rng" and g.chance(30):
        expr = f"rng.integers(0, 5, size={shape})"
    if g.chance(12):
        expr = "COUNTER.tick()"
    if g.chance(25):
        name = g.name("d")
        return [Line(f"{name} = {expr}")], (name,)
    op = g.pick(["=", "+", "*"] if arr.dtype.kind == "f" else ["=", "+"])
    return [Line(f"{t}[...] {op if op == '=' else op + '='} {expr}")], ()


def moving_slice(g: Gen, fr: Frame) -> Proposal:
    """A slice that moves with a loop variable (exprs.loop_slice), inside a loop: reduced into
    an array (`t[...] += x[k:k + 3].sum()`), or stored into with a scalar or with the same
    slice of itself (`t[k - 1:k + 2] = t[k - 1:k + 2] * 2`), whatever the clipping makes of it."""
    loops = [n for n in fr.ints() if n.startswith("k")]
    arrays = [a for a in fr.arrays() if fr.ns[a].ndim >= 1 and fr.ns[a].dtype.kind in "fi"]
    if not loops or not arrays:
        return None
    k, t = g.pick(loops), g.pick(arrays)
    arr = fr.ns[t]
    idx = loop_slice(g, k, arr.shape[0])
    op = g.pick(["=", "+="] + ["*="] * (arr.dtype.kind == "f"))
    if g.chance(40):
        src = g.pick(arrays)
        red = g.pick([f"{src}[{loop_slice(g, k, fr.ns[src].shape[0])}].sum()",
                      f"({src}[{idx}] * 2).sum()" if fr.ns[src].shape[:1] == arr.shape[:1] else f"{src}[{idx}].sum()"])
        return [Line(f"{t}[...] {op} {red}")], ()
    rhs = g.pick([scalar(g, arr.dtype), f"{t}[{idx}] * 2", f"-{t}[{idx}]"])
    return [Line(f"{t}[{idx}] {op} {rhs}")], ()


def python_surface(g: Gen, fr: Frame) -> Proposal:
    """Python around NumPy code (issue 19): a lambda or a nested def defined in the function (or
    a loop body) and called there (lifted to a module helper; a def may read outer arrays and
    write a captured one), the builtins max/min on array data and on two scalar names, abs, sum,
    any, all and round on array values, and masked reductions (`x[x > 0].max()`, `.sum()`,
    `.any()`), stored into a float array."""
    arrays = [a for a in fr.arrays() if fr.ns[a].dtype.kind in "fi" and fr.ns[a].size]
    if not arrays:
        return None
    t = g.pick(arrays)
    arr = fr.ns[t]
    form = g.pick(["lambda", "builtin", "builtin", "masked", "masked", "def", "def", "ternary", "ternary",
                   "mask_helper"])
    if form == "ternary":
        return _ternary(g, fr, t, arrays)
    if form == "mask_helper":
        return _mask_helper(g, fr, t, arrays)
    if form == "lambda":
        name = g.name("f")
        body = g.pick(["v * 2 + 1", "np.abs(v) - 1", "v * v"])
        return [Line(f"{name} = lambda v: {body}"), Line(f"{t}[...] = {name}({t})")], (name,)
    if form == "def":
        return _nested_def(g, fr, t, arrays)
    if arr.dtype.kind != "f":
        return None
    src = g.pick(arrays)
    if form == "builtin":
        if g.chance(50):  # abs, sum, any, all, round on array values: Python's own results and types
            red, c = g.pick(["max", "min", "sum"]), g.pick(["0", "0.5", "-1"])
            expr = g.pick([f"abs({src}.{red}())", f"sum({src}.ravel())", f"any({src}.ravel() > {c})",
                           f"all({src}.ravel() >= {c})", f"round({src}.{red}())",
                           f"round({src}.{red}(), {g.int(0, 2)})"])
            return [Line(f"{t}[...] += {expr}")], ()
        fn = g.pick(["max", "min"])
        if g.chance(35):  # both operands plain names holding array data
            a, b = g.name("m"), g.name("m")
            return [Line(f"{a} = {src}.{g.pick(['max', 'min', 'sum'])}()"),
                    Line(f"{b} = {g.pick(arrays)}.{g.pick(['max', 'min'])}()"),
                    Line(f"{t}[...] += {fn}({a}, {b})")], ()
        other = g.pick(["0.5", "-1.0", f"{src}.max()", f"{src}.min()"])
        return [Line(f"{t}[...] += {fn}({other}, {src}.{g.pick(['max', 'min', 'sum'])}())")], ()
    cond = condition(g, fr, src)
    red = g.pick(["max", "min", "sum", "mean", "any", "all"])
    expr = f"{src}[{cond}].{red}()" if g.chance(50) else f"np.{red}({src}[{cond}])"
    return [Line(f"{t}[...] += {expr}")], ()


def _ternary(g: Gen, fr: Frame, t: str, arrays: list[str]) -> Proposal:
    """A conditional expression or `and`/`or` value on array data, added to `t`: Python
    evaluates only the chosen operand (a guarded division, an index guarded by a bound), and
    the operands' types may differ (a refusal, NPR128, when they do)."""
    src = g.pick(arrays)
    a = fr.ns[src]
    n = a.shape[0] if a.ndim else 0
    i = f"{src}[{g.int(0, n - 1)}]" if a.ndim == 1 and n else f"{src}.{g.pick(['max', 'min', 'sum'])}()"
    j = f"{src}[{g.int(0, n - 1)}]" if a.ndim == 1 and n else f"{src}.{g.pick(['max', 'min'])}()"
    c = g.pick(["0", "1", "0.5", "-1"])
    same_kind = ["0.0", "1.5"] if a.dtype.kind == "f" else ["0", "-1"]
    other = g.pick([*same_kind, f"{src}.min()", j] if g.chance(85) else ["0.5", "-1", "True"])
    form = g.pick(["plain", "plain", "division", "and", "or", "guard"])
    if form == "division":
        expr = f"(1.0 / {i} if {i} != 0 else {g.pick(['0.0', '-1.0'])})"
    elif form == "and":
        expr = f"({i} > {c} and {j} < {c})"
    elif form == "or":
        expr = f"({i} or {other})"
    elif form == "guard" and a.ndim == 1 and n:
        k = g.name("k")
        return [Line(f"{k} = np.argmax({src}) + {g.int(0, 2)}"),
                Line(f"{t}[...] += ({src}[{k}] if {k} < {n} and {src}[{k}] > {c} else {other})")], ()
    else:
        expr = f"({i} if {j} > {c} else {other})"
    return [Line(f"{t}[...] += {expr}")], ()


def _mask_helper(g: Gen, fr: Frame, t: str, arrays: list[str]) -> Proposal:
    """A masked store through a lambda or nested def (`t[m] = f(t[m], s[m])`): elementwise
    helpers are computed on whole arrays, so masked-out elements (a zero divisor, the log of a
    negative) must change nothing; one that is not elementwise stays refused (NPR107)."""
    arr = fr.ns[t]
    if arr.dtype.kind != "f":
        return None
    same = [n for n in arrays if fr.ns[n].shape == arr.shape]
    src = g.pick(same) if same else t
    name, cap = g.name("f"), g.name("c")
    body = g.pick(["u / v", "u * 2 - v", "np.sqrt(u) + v", "np.log(v) - u", f"np.maximum(u, v) * {cap}",
                   "u - v.mean()"])
    mask = g.pick([f"{src} != 0", f"{src} > 0", f"{t} > {src}"])
    lines = [Line(f"{cap} = {g.pick(['0.5', '2.0'])}")] if cap in body else []
    if g.chance(50):
        lines.append(Line(f"{name} = lambda u, v: {body}"))
    else:
        lines.append(Block(f"def {name}(u, v):", (Line(f"return {body}"),)))
    lines.append(Line(f"{t}[{mask}] = {name}({t}[{mask}], {src}[{mask}])"))
    return lines, (name, cap) if cap in body else (name,)


def _nested_def(g: Gen, fr: Frame, t: str, arrays: list[str]) -> Proposal:
    """A nested def closing over outer names, then called: one that returns a value computed from
    its argument and a captured array, or one that writes the captured array `t` (at an index it
    is given, or all of it), reading another captured array."""
    name, src = g.name("h"), g.pick(arrays)
    arr = fr.ns[t]
    reads = g.pick([f"{src}.sum()", f"{src}.max()", f"{src}.min()", "1"])
    if g.chance(40):
        body = g.pick([f"v * 2 + {reads}", f"v - {reads}", f"np.abs(v) + {reads}"])
        return [Block(f"def {name}(v):", (Line(f"return {body}"),)), Line(f"{t}[...] = {name}({t})")], (name,)
    op = g.pick(ops_for(arr.dtype))
    if arr.ndim and g.chance(60):
        i = g.int(-arr.shape[0], arr.shape[0] - 1)
        return [Block(f"def {name}(i):", (Line(f"{t}[i] {op}= {reads}"),)), Line(f"{name}({i})")], (name,)
    return [Block(f"def {name}():", (Line(f"{t}[...] {op}= {reads}"),)), Line(f"{name}()")], (name,)


FAMILIES = {  # name -> (family, weight)
    "python_surface": (python_surface, 6),
    "moving_slice": (moving_slice, 6),
    "draw": (draw, 3),
    "slice_store": (slice_store, 14),
    "fancy_store": (fancy_store, 8),
    "ufunc_at": (ufunc_at, 7),
    "mask_store": (mask_store, 8),
    "out_call": (out_call, 7),
    "method": (method, 8),
    "view": (view, 12),
    "local": (local, 4),
    "name_aug": (name_aug, 5),
    "rebind": (rebind, 2),
}
