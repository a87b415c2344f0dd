"""The rule registry: each rule family (rewrite/rules/*.py) registers its planners and emitters
here by libcst node type; the two dispatchers (rewrite/marks.py plans, rewrite/function.py
rewrites) only look them up.

  planner  `plan(node, ctx) -> bool | None`: reads the ORIGINAL node and the analysis facts
           through `ctx` (a MarkPass), records into the plan (`ctx.m`) or reports a diagnostic
           through `ctx.sink`. Returning True claims the node: later planners for it do not run.
  emitter  `emit(original, updated, ctx) -> node | None`: reads the plan through the original
           node, builds output from the updated one (`ctx` is the ModuleRewriter). The first
           emitter that returns a node wins; None means "not mine".
  special  `emit(original, updated, detail, ctx) -> node`: the output for a call the planners
           recorded in `plan.special_calls` as `(kind, detail)`, registered by that kind.

`order` fixes the order rules for one node type are tried in (lower first): it is the order of
the branches of the single visitor method each family was cut out of.
"""

from __future__ import annotations

from typing import Callable

_PLANNERS: dict[type, list[tuple[int, Callable]]] = {}
_EMITTERS: dict[type, list[tuple[int, Callable]]] = {}
SPECIALS: dict[str, Callable] = {}


_BY_TYPE: dict[int, dict[type, tuple[Callable, ...]]] = {id(_PLANNERS): {}, id(_EMITTERS): {}}


def _register(table, types, order):
    def decorate(fn):
        for t in types:
            table.setdefault(t, []).append((order, fn))
            table[t].sort(key=lambda entry: entry[0])
            _BY_TYPE[id(table)][t] = tuple(f for _, f in table[t])
        return fn
    return decorate


def plans(*types: type, order: int = 50):
    """Register a planner for libcst node types (see the module docstring)."""
    return _register(_PLANNERS, types, order)


def emits(*types: type, order: int = 50):
    """Register an emitter for libcst node types (see the module docstring)."""
    return _register(_EMITTERS, types, order)


def emits_special(kind: str):
    """Register the emitter of the calls planned as `(kind, detail)` in `plan.special_calls`."""
    def decorate(fn):
        assert kind not in SPECIALS, kind
        SPECIALS[kind] = fn
        return fn
    return decorate


def planners(node_type: type) -> tuple[Callable, ...]:
    return _BY_TYPE[id(_PLANNERS)].get(node_type, ())


def emitters(node_type: type) -> tuple[Callable, ...]:
    return _BY_TYPE[id(_EMITTERS)].get(node_type, ())


def table() -> dict[str, dict[str, list[str]]]:
    """The registered rules by node type, in the order they are tried (for docs and tests)."""
    def names(reg):
        return {t.__name__: [f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}" for _, fn in entries]
                for t, entries in sorted(reg.items(), key=lambda kv: kv[0].__name__)}
    return {"plan": names(_PLANNERS), "emit": names(_EMITTERS),
            "special": {k: [f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"] for k, fn in sorted(SPECIALS.items())}}
