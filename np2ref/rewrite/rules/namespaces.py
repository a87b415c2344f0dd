"""Generators a function makes and array namespaces: NumPy's random state and modules as values.

What: `rng = np.random.default_rng(1234)` in a converted function is made on the host when the
program runs (npr_generator; analysis/generators.py says which generators qualify), and
`xp.zeros_like(x)` with `xp` a parameter names the table's translation of `np.zeros_like` beside
the call (npr_xp: used when `xp` is NumPy). Why: NumPy makes a fresh generator on every call, and
array-API code takes its namespace as an argument. Exact: the generator is NumPy's own, made in
program order; a namespace call is NumPy's function translated as `np.` calls are (in-place, view
and out= functions are left to npr_call, which refuses them when traced).
"""

from __future__ import annotations

import libcst as cst

from ...analysis import effects as fx
from ...analysis.generators import construction
from ...analysis.names import dotted
from ...analysis.nodes import nodes_of
from ...analysis.numpy_table import lookup
from ...emit import jaxnames as J
from ..registry import emits_special, plans
from ..syntax import plain


@plans(cst.Call, order=45)
def plan_made_generator(node: cst.Call, ctx) -> bool:
    """`rng = np.random.default_rng(1234)` in a converted function: made on the host when the
    program runs, in program order (npr_generator), never once while tracing; analysis/generators.py
    says which generators a function may make (any other keeps it host code)."""
    made = construction(node, ctx.imports, ctx.locals)
    if made is None:
        return False
    ctx.m.special_calls[node] = ("generator", None if made[1] is None else "bit")
    ctx.m.skip_numpy.update(c.func for c in made if c is not None)
    return True


@emits_special("generator")
def emit_made_generator(original, updated, detail, ctx):
    """`np.random.default_rng(s)` -> `npr_generator(np.random.default_rng, s)`;
    `np.random.Generator(np.random.PCG64(s))` -> `npr_generator(np.random.Generator, s, bit=np.random.PCG64)`."""
    if detail is None:
        return cst.Call(J.name(J.GENERATOR), [cst.Arg(updated.func), *plain(updated.args)])
    inner = updated.args[0].value
    bit = J.call(J.GENERATOR, bit=inner.func).args[0]
    return cst.Call(J.name(J.GENERATOR), [cst.Arg(updated.func), *plain(inner.args), bit])


def namespace_translation(call: cst.Call) -> tuple[cst.Name, str, str] | None:
    """(P, "linalg.norm", the table's translation of numpy.linalg.norm) for `P.linalg.norm(...)`
    with P a name: a plain function of its arguments only (not one that writes an argument,
    returns a view of one, or takes out=: the analysis does not see those effects through a
    parameter, so npr_call refuses them when traced)."""
    path = dotted(call.func)
    if path is None or "." not in path or any(a.keyword is not None and a.keyword.value == "out" for a in call.args):
        return None
    root, _, rest = path.partition(".")
    qual = f"numpy.{rest}"
    if qual in fx.INPLACE_FUNCTIONS or qual in fx.VIEW_FUNCTIONS or qual in fx.OPAQUE_VIEW_FUNCTIONS:
        return None
    translation = lookup(qual)
    return None if translation is None else (cst.Name(root), rest, translation)


def namespace_method(func: cst.BaseExpression, ctx) -> bool:
    """`xp.sum(x)` with `xp` a parameter that is a namespace: `sum` is an array method too, but a
    parameter the function also calls a function of that no array has (`xp.zeros_like(x)`) is a
    module, and all its calls are the module's functions (npr_xp)."""
    return isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
        and func.value.value in namespace_parameters(ctx.f.node, ctx.f.params)


# Array methods that are NumPy functions of the array: emitted through the table's shim when it
# has one (dtype rules differ from jnp's for small integer inputs; rules/calls.py emit_call).
METHOD_SHIMS = frozenset({"mean", "std", "var", "cumsum", "cumprod", "dot", "round", "sum", "prod",
                          "max", "min", "argmax", "argmin", "any", "all", "clip", "trace", "take",
                          "searchsorted", "argsort", "repeat", "nonzero", "diagonal"})
_CONTAINER_METHODS = frozenset(m for t in (list, dict, set) for m in dir(t) if not m.startswith("_"))


def namespace_parameters(func: cst.FunctionDef, params) -> frozenset[str]:
    """The parameters `P` the function calls `P.<name>(...)` of with a name no array has, nor a
    list, dict or set (`hist.append(v)`, `seen.add(k)`: a container passed in, not a namespace),
    and those it uses only so with names both have (maybe_namespaces)."""
    return frozenset(n.func.value.value for n in _param_calls(func, params)
                     if n.func.attr.value not in fx.ARRAY_METHODS and n.func.attr.value not in _CONTAINER_METHODS
                     and lookup(f"numpy.{n.func.attr.value}") is not None) | maybe_namespaces(func, params)


def _param_calls(func: cst.FunctionDef, params) -> list[cst.Call]:
    return [n for n in nodes_of(func.body, cst.Call) if isinstance(n.func, cst.Attribute)
            and isinstance(n.func.value, cst.Name) and n.func.value.value in params]


def maybe_namespaces(func: cst.FunctionDef, params) -> frozenset[str]:
    """Parameters `P` the function uses only as `P.clip(a, -1, 1.5)`, `P.sum(a)`: names of
    METHOD_SHIMS, which an array and NumPy both have, one call with a positional argument. Read as
    the array's method, `xp.clip(a, -1, 1.5)` with xp NumPy was npr_np_clip(xp, a, -1, 1.5) (fuzz13:
    a crash); npr_xp tells the module from an array when the program runs (`x.sum(0)` of an array
    `x` stays its method), so either reading is NumPy's."""
    uses: dict[str, int] = {}
    for node in nodes_of(func.body, cst.Name):
        uses[node.value] = uses.get(node.value, 0) + 1
    for node in nodes_of(func.body, cst.Attribute):  # `.clip` in `a.clip`: an attribute's name, no use
        uses[node.attr.value] = uses.get(node.attr.value, 0) - 1
    by_param: dict[str, list[cst.Call]] = {}
    for call in _param_calls(func, params):
        by_param.setdefault(call.func.value.value, []).append(call)
    return frozenset(p for p, made in by_param.items() if uses.get(p) == len(made)
                     and all(c.func.attr.value in METHOD_SHIMS and not any(a.star for a in c.args) for c in made)
                     and any(a.keyword is None for c in made for a in c.args))


def method_shim(name: str) -> str | None:
    """The receiver-first shim of array method `name` (`x.clip(lo, hi)` -> npr_np_clip(x, lo, hi)), or None."""
    shim = lookup(f"numpy.{name}") if name in METHOD_SHIMS else None
    return shim if shim and shim.startswith("npr_np_") else None
