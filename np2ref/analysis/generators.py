"""Random generators a function makes itself: `rng = np.random.default_rng(1234)`.

A generator is host state created when the program runs. NumPy makes a fresh one on every call
of the function, so np2ref cannot make it once while tracing (a second call would go on drawing
from the first call's stream). A generator made in the function is therefore made on the host at
run time, in program order (rt/host.py npr_generator), and its draws are host calls from it
(npr_random), so the values and their order are NumPy's own, call after call.

Recognised: a local name bound exactly once, by `np.random.default_rng(...)`,
`np.random.RandomState(...)` or `np.random.Generator(np.random.<BitGenerator>(...))`, and used only
as the receiver of draws (`rng.normal(...)`) or passed to a function of the same module (which
draws from it). Anything else (the generator returned, stored, its `bit_generator` or `spawn`
read) keeps the function NumPy host code, as before.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from .names import ImportMap
from .nodes import walk
from .numpy_table import RANDOM_DRAWS

# What `np.random.<name>(seed)` makes, by qualified name; Generator takes a bit generator
MAKERS = frozenset({"numpy.random.default_rng", "numpy.random.RandomState"})
WRAPPER = "numpy.random.Generator"
BIT_GENERATORS = frozenset(f"numpy.random.{n}" for n in ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64"))


@dataclasses.dataclass(frozen=True)
class MadeGenerator:
    """`name = <call>`: the maker (`numpy.random.default_rng`), the bit generator's call for
    `Generator(PCG64(seed))` (None otherwise), and the calls that make it (host work no more)."""
    name: str
    call: cst.Call
    bit: cst.Call | None

    @property
    def calls(self) -> frozenset[cst.Call]:
        return frozenset(c for c in (self.call, self.bit) if c is not None)


def construction(call: cst.BaseExpression, imports: ImportMap, shadowed=frozenset()) -> tuple | None:
    """(call, bit generator call or None) when `call` makes a NumPy generator from a seed."""
    if not isinstance(call, cst.Call) or any(a.star for a in call.args):
        return None
    qual = imports.qualify(call.func, shadowed)
    if qual in MAKERS:
        return call, None
    if qual == WRAPPER and len(call.args) == 1 and call.args[0].keyword is None:
        inner = call.args[0].value
        if isinstance(inner, cst.Call) and imports.qualify(inner.func, shadowed) in BIT_GENERATORS \
                and not any(a.star for a in inner.args):
            return call, inner
    return None


def made_generators(func: cst.FunctionDef, bindings, imports: ImportMap, params,
                    module_functions) -> dict[str, MadeGenerator]:
    """The generators `func` makes and uses only to draw from (see the module docstring).
    `bindings`: the (target, value) pairs of the function's one collection pass."""
    counts: dict[str, int] = {}
    for target, _ in bindings:
        if isinstance(target, cst.Name):
            counts[target.value] = counts.get(target.value, 0) + 1
    found = {}
    for target, value in bindings:
        if not isinstance(target, cst.Name) or counts[target.value] != 1 or target.value in params:
            continue
        made = construction(value, imports)
        if made is not None:
            found[target.value] = MadeGenerator(target.value, *made)
    if not found:
        return {}
    allowed = _allowed_uses(func, found, module_functions)
    return {n: g for n, g in found.items() if all(id(use) in allowed for use in _uses(func, n))}


def _uses(func: cst.FunctionDef, name: str):
    return [n for n in walk(func.body) if isinstance(n, cst.Name) and n.value == name]


def _allowed_uses(func: cst.FunctionDef, found, module_functions) -> set[int]:
    """ids of the Name nodes of `found` that are allowed: the binding's target, a draw's
    receiver, an argument of a call of a module function."""
    ok: set[int] = set()
    for node in walk(func.body):
        if isinstance(node, cst.Assign) and len(node.targets) == 1:
            t = node.targets[0].target
            if isinstance(t, cst.Name) and t.value in found and found[t.value].call is node.value:
                ok.add(id(t))
        elif isinstance(node, cst.Call):
            f = node.func
            if isinstance(f, cst.Attribute) and f.attr.value in RANDOM_DRAWS and isinstance(f.value, cst.Name):
                ok.add(id(f.value))
            if isinstance(f, cst.Name) and f.value in module_functions:
                ok.update(id(a.value) for a in node.args if isinstance(a.value, cst.Name) and not a.star)
    return ok
