"""The translator half (docs/design.md, "The package's layers"): pipeline.py, context.py,
result.py, frontend/, analysis/, rewrite/, emit/ and the ground below them never import JAX nor
the packages above them (compiled/, rt/, verify/, fuzz/, report/, the CLI), so `np2ref check`
and `convert` run at a linter's speed."""

import ast
import subprocess
import sys

from conftest import ROOT

PACKAGE = ROOT / "np2ref"
TRANSLATOR = ["pipeline.py", "context.py", "result.py", "diagnostics.py", "codes.py", "policy.py",
              "frontend", "analysis", "rewrite", "emit"]
ABOVE = {"compiled", "runtime", "rt", "verify", "fuzz", "report", "cli", "batch", "magic", "cache", "compare"}


def _modules():
    for name in TRANSLATOR:
        path = PACKAGE / name
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def _imports(path):
    """(module imported, line) of each import in a file, relative imports made absolute."""
    package = ["np2ref", *path.relative_to(PACKAGE).parent.parts]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from ((a.name, node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            if node.module is None:  # `from . import x`: each name is a module
                yield from ((f"{target}.{a.name}", node.lineno) for a in node.names)
            else:
                yield target, node.lineno


def test_the_translator_imports_neither_jax_nor_the_layers_above_it():
    wrong = [f"{path.relative_to(ROOT)}:{line} imports {name}" for path in _modules() for name, line in _imports(path)
             if name.split(".")[0] == "jax" or (name.startswith("np2ref.") and name.split(".")[1] in ABOVE)]
    assert not wrong, wrong
    assert len(list(_modules())) > 50  # (the walk found the packages)


def test_a_conversion_never_loads_jax():
    script = ("import sys\nfrom np2ref.pipeline import convert_source\n"
              f"result = convert_source(open({str(ROOT / 'corpus' / 'heat2d_explicit.py')!r}).read(), 'h.py')\n"
              "assert result.ok\nprint(sorted(m for m in sys.modules if m == 'jax' or m.startswith('jax.')))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
