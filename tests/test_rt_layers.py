"""The import graph of np2ref/rt/: the call layer (jit on top of fast paths and arguments) is in
no import cycle. (The rest of rt/ is still one cycle, issue 40: this test grows as it is cut.)"""

import ast
import graphlib
from pathlib import Path

import pytest

RT = Path(__file__).resolve().parent.parent / "np2ref" / "rt"
CALL_LAYER = ("arguments", "fastpath", "numpycall", "jit")


def _imports() -> dict[str, set[str]]:
    """Each rt module's rt imports (`from .x import ...`, wherever in the module it is)."""
    graph = {}
    for path in RT.glob("*.py"):
        tree = ast.parse(path.read_text())
        graph[path.stem] = {node.module.split(".")[0] for node in ast.walk(tree)
                            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module}
    return graph


def _reaches(graph, start, goal) -> bool:
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        for n in graph.get(m, ()):
            if n == goal:
                return True
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return False


@pytest.mark.parametrize("module", CALL_LAYER)
def test_a_call_layer_module_is_in_no_import_cycle(module):
    assert not _reaches(_imports(), module, module)


def test_the_call_layer_orders_below_jit():
    graph = _imports()
    layer = {m: graph[m] & set(CALL_LAYER) for m in CALL_LAYER}
    assert list(graphlib.TopologicalSorter(layer).static_order())[-1] == "jit"
