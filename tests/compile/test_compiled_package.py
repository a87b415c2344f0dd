"""The host side of np2ref.compile (np2ref/compiled/, formerly np2ref/runtime/) against the
runtime (np2ref/rt/) and verify/ (issue 40): compiled/ reads rt only through rt/compile_api.py
(and the package itself, whose public helpers a converted function runs against); neither
compiled/ nor rt/ imports verify/, which compiles with np2ref.compile (the comparison both use
is np2ref/compare.py, below them); np2ref.runtime still imports, as np2ref.compiled's own modules."""

import ast
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "np2ref"


def _imports(folder: str) -> list[tuple[str, str]]:
    """(file:line, absolute np2ref module) of every import in np2ref/<folder>/, function-local too."""
    out = []
    for path in (PACKAGE / folder).rglob("*.py"):
        here = ["np2ref", *path.relative_to(PACKAGE).parent.parts]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = here[:len(here) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                targets = [module] if node.module else [f"{module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            out += [(f"{path.relative_to(ROOT)}:{node.lineno}", t) for t in targets]
    return out


def test_compiled_reads_rt_only_through_compile_api():
    wrong = [f"{where} {module}" for where, module in _imports("compiled")
             if module.startswith("np2ref.rt.") and module != "np2ref.rt.compile_api"]
    assert not wrong, wrong


def test_neither_compiled_nor_rt_imports_verify():
    wrong = [f"{where} {module}" for folder in ("compiled", "rt") for where, module in _imports(folder)
             if module == "np2ref.verify" or module.startswith("np2ref.verify.")]
    assert not wrong, wrong


def test_rt_imports_nothing_of_the_host_side():
    wrong = [f"{where} {module}" for where, module in _imports("rt")
             if module.startswith("np2ref.") and not module.startswith("np2ref.rt")]
    assert not wrong, wrong


def test_the_old_name_is_the_same_modules():
    for name in ("compile", "sharding", "routes", "choice"):
        old = importlib.import_module(f"np2ref.runtime.{name}")
        assert old is importlib.import_module(f"np2ref.compiled.{name}")
    from np2ref.runtime.sharding import device_mesh
    from np2ref.compiled.sharding import device_mesh as same
    assert device_mesh is same


def test_verify_compare_is_np2ref_compare():
    here = importlib.import_module("np2ref.compare")
    there = importlib.import_module("np2ref.verify.compare")  # (np2ref.verify is the function)
    assert there.first_difference is here.first_difference and there.compare_outputs is here.compare_outputs
