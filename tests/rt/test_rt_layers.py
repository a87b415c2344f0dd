"""The import graph of np2ref/rt/: floors, each module importing only from its own floor and the
ones below, no import cycle, every import at the top of its module (issue 40).

A lower floor that must reach a higher one when a converted function runs does it through an
object, not an import: a lazy value's `_npr_load` (core._NprLazy), a function passed in by the
caller (npr_if to unbound._npr_if_boxed), or core._npr_above, which the higher module fills."""

import ast
import functools
import graphlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RT = ROOT / "np2ref" / "rt"

# bottom to top (docs/internals.md draws them)
FLOORS = (
    ("ground", "compat_messages compat_lapack compat compat_jaxpr compat_transforms core forward budget buffers module_globals host_words"),
    ("index", "bounds casts lowering scatter store_order conversions index peepholes dots float64_math accurate64 fission "
              "fence_kinds divisions pure_fences lane_reads wrapping"),
    ("refs", "views stores"),
    ("numpy", "promotion ops pyscalars truth picks carried_kinds pymath np_dtypes np_ufuncs np_reductions np_shape np_creation "
              "np_linalg np_counting inplace"),
    ("control", "unbound refs python_loops rebinds early_exit raises branches appends histories loops lane_dots vectorise comprehensions pallas recur where_guard"),
    ("windows", "masked masked_products windows_more windows mask_checks masks mask_selections mask_reductions win_views sum_reorder fold"),
    ("call", "host draws opaque introspect arguments result_shape float_sizes fastpath numpycall calls jit compile_api"),
)
FLOOR = {module: i for i, (_, modules) in enumerate(FLOORS) for module in modules.split()}


@functools.cache
def _trees() -> dict[str, ast.Module]:
    """Each rt module's syntax tree, parsed once for the whole file (read only: parsing all of rt/
    costs 0.4 s of CPU, which each of the 70 per-module tests used to pay again)."""
    return {path.stem: ast.parse(path.read_text()) for path in RT.glob("*.py") if path.stem != "__init__"}


def _imports() -> dict[str, set[str]]:
    """Each rt module's rt imports (`from .x import ...`, `from . import x`, wherever in the module)."""
    return {name: {module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 1
                   for module in ([node.module.split(".")[0]] if node.module else [a.name for a in node.names])}
            for name, tree in _trees().items()}


def test_every_module_is_on_one_floor():
    placed = [m for _, modules in FLOORS for m in modules.split()]
    assert len(placed) == len(set(placed))
    assert sorted(placed) == sorted(_trees()), "a new rt module: put it on its floor in FLOORS"


def test_no_module_imports_from_a_floor_above_its_own():
    up = sorted(f"{m} ({FLOORS[FLOOR[m]][0]}) imports {d} ({FLOORS[FLOOR[d]][0]})"
                for m, deps in _imports().items() for d in deps if FLOOR[d] > FLOOR[m])
    assert not up, up


def test_the_imports_have_no_cycle():
    graph = {m: deps - {m} for m, deps in _imports().items()}
    try:
        list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"import cycle: {' -> '.join(exc.args[1])}")


@pytest.mark.parametrize("module", sorted(FLOOR))
def test_imports_are_at_the_top_of_the_module(module):
    """No import after the first definition: what gluing rt/ into one file once forced."""
    body = _trees()[module].body
    first = next((i for i, node in enumerate(body) if not isinstance(node, (ast.Import, ast.ImportFrom))
                  and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))), len(body))
    late = [node.lineno for node in body[first:] if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert not late, f"{module}.py: imports on lines {late}"


def test_no_noqa_e402_in_np2ref():
    found = [f"{path.relative_to(ROOT)}:{i}" for path in (ROOT / "np2ref").rglob("*.py")
             for i, line in enumerate(path.read_text().splitlines(), 1) if "noqa: E402" in line]
    assert not found, found


def test_the_floors_above_filled_in_what_lower_floors_reach_through_core():
    import np2ref.rt  # noqa: F401  (every module imported: each has set its part)
    from np2ref.rt.core import _npr_above

    unset = [slot for slot in type(_npr_above).__slots__ if not hasattr(_npr_above, slot)]
    assert not unset, unset


def test_the_host_side_imports_no_private_name_of_the_runtime():
    """np2ref outside rt/ (np2ref.compile, the fuzzer, ...) reads the runtime through public names
    (rt/compile_api.py), never a `_npr_` one: rt may rename its privates freely."""
    found = []
    for path in (ROOT / "np2ref").rglob("*.py"):
        if RT in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and "rt" in (node.module or "").split("."):
                found += [f"{path.relative_to(ROOT)}:{node.lineno} {a.name}" for a in node.names if a.name.startswith("_")]
            elif isinstance(node, ast.Attribute) and node.attr.startswith(("_npr_", "_Npr", "_NPR_")):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    assert not found, found
