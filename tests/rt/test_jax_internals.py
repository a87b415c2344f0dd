"""JAX internals only in compat (issue 40): no module of np2ref's JAX side (np2ref/rt/,
np2ref/compiled/) but rt/compat*.py reads a jaxpr's or an equation's fields (`eqn.primitive`,
`eqn.params`, `jaxpr.eqns`, `invars`, `outvars`, a var's `aval`, ...) or imports `jax._src`;
no module of np2ref at all imports `jax._src` outside compat. Those go through the named
functions of rt/compat_jaxpr.py (`_npr_eqns`, `_npr_eqn_name`, `_npr_params`, `_npr_invars`,
...; the host side through rt/compile_api.py), so a JAX release that moves one is met in one
place."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "np2ref"
JAX_SIDE = ("rt", "compiled")
# the fields of JAX's JaxprEqn, Jaxpr, Var/Literal and a trace's records that np2ref reads
FIELDS = frozenset({"primitive", "eqns", "params", "invars", "outvars", "constvars", "effects", "aval",
                    "inner_aval", "in_tracers", "tracing_eqns"})


def _compat(path: Path) -> bool:
    return path.parent.name == "rt" and path.stem.startswith("compat")


def _jax_side():
    for folder in JAX_SIDE:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            if not _compat(path):
                yield path


def _field_reads(tree: ast.AST):
    """(line, field) of each read of a FIELDS attribute (`x.params`, `getattr(x, "aval")`,
    `hasattr(x, "eqns")`); an object's own attributes (`self.params`) are its own."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in FIELDS and \
                not (isinstance(node.value, ast.Name) and node.value.id == "self"):
            yield node.lineno, node.attr
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("getattr", "hasattr") and len(node.args) >= 2 and \
                isinstance(node.args[1], ast.Constant) and node.args[1].value in FIELDS:
            yield node.lineno, node.args[1].value


def _jax_src_imports(tree: ast.AST):
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        yield from ((node.lineno, n) for n in names if n == "jax._src" or n.startswith("jax._src."))


def test_no_module_but_compat_reads_a_jaxprs_fields():
    found = [f"{path.relative_to(ROOT)}:{line} .{field}" for path in _jax_side()
             for line, field in _field_reads(ast.parse(path.read_text()))]
    assert not found, f"read these through rt/compat_jaxpr.py's named functions: {found}"


def test_no_module_but_compat_imports_jax_src():
    found = [f"{path.relative_to(ROOT)}:{line} {name}" for path in sorted(PACKAGE.rglob("*.py")) if not _compat(path)
             for line, name in _jax_src_imports(ast.parse(path.read_text()))]
    assert not found, found


def test_the_check_sees_what_it_forbids():
    """The walk finds each kind of read it forbids (a check that found nothing could pass by
    looking at nothing)."""
    source = ("for e in jaxpr.eqns:\n    n = e.primitive.name\n    s = getattr(e.outvars[0], 'aval', None)\n"
              "    self.params = 1\nfrom jax._src import core\nimport jax._src.state\n")
    tree = ast.parse(source)
    assert sorted(f for _, f in _field_reads(tree)) == ["aval", "eqns", "outvars", "primitive"]
    assert [n for _, n in _jax_src_imports(tree)] == ["jax._src", "jax._src.state"]
    assert any(True for _ in _jax_side()) and all(not _compat(p) for p in _jax_side())
