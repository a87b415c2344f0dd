"""The `%%np2ref` cell magic for IPython and Jupyter.

    %load_ext np2ref

    %%np2ref
    def step(u, alpha):
        u[1:-1] += alpha * (u[2:] - 2 * u[1:-1] + u[:-2])

The cell runs as ordinary Python, then every function in it that converts exactly is replaced
in the notebook's namespace by its `np2ref.compile` version (NumPy in and out, jitted, mutated
arrays written back). The magic prints the converted source, and the diagnostics of the
functions it refused (those stay plain Python, as do host functions that print or do I/O).

Options: `-q/--quiet` (print nothing but diagnostics), `--verify` (compile(verify=True): the
first call is checked against NumPy), `--float32` (dtype_policy="float32"), `--unchecked` (bounds="unchecked").
"""

from __future__ import annotations

import ast
import linecache
import sys
import types

from IPython.core.magic import Magics, cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from .report.collect import BLOCKED, EXACT, HOST, REFUSED, FileReport, collect_source, top_level_functions
from .compiled.compile import compile as np2ref_compile

NOTEBOOK_NAMES = "# np2ref: names imported in earlier cells"


def load_ipython_extension(ipython) -> None:
    ipython.register_magics(Np2RefMagics)


@magics_class
class Np2RefMagics(Magics):
    @magic_arguments()
    @argument("-q", "--quiet", action="store_true", help="do not print the converted source")
    @argument("--verify", action="store_true", help="check the first call of each function against NumPy")
    @argument("--float32", action="store_true", help='dtype_policy="float32" (narrow 64-bit floats)')
    @argument("--unchecked", action="store_true",
              help='bounds="unchecked" (JAX clamps out-of-range traced indices; not NumPy)')
    @cell_magic
    def np2ref(self, line: str, cell: str) -> None:
        """Run the cell, then bind its exactly convertible functions compiled by np2ref."""
        args = parse_argstring(self.np2ref, line)
        run_cell(self.shell, cell, quiet=args.quiet, verify=args.verify,
                 dtype_policy="float32" if args.float32 else "preserve",
                 bounds="unchecked" if args.unchecked else "checked")


def run_cell(shell, cell: str, *, quiet: bool = False, verify: bool = False,
             dtype_policy: str = "preserve", bounds: str = "checked") -> dict:
    """The magic's work; returns {name: Compiled} for the functions it bound."""
    filename = f"<cell-{shell.execution_count}>"
    text = cell + _notebook_imports(cell, shell.user_ns)  # appended: cell line numbers stay
    report = collect_source(text, filename)
    if report.file_error:
        print("\n".join(d.render(text) for d in report.diagnostics))
        return {}
    module = _run_as_module(text, filename, shell.user_ns)
    compiled = {}
    for f in report.functions:
        if f.status == EXACT and not f.plain:
            compiled[f.name] = np2ref_compile(module.__dict__[f.name], verify=verify, dtype_policy=dtype_policy,
                                              bounds=bounds)
    shell.user_ns.update(compiled)
    summary = _summary(report, compiled, text, quiet)
    if summary:
        print(summary)
    return compiled


def _notebook_imports(cell: str, namespace: dict) -> str:
    """Import lines for the modules (and NumPy functions) that the cell uses but earlier cells
    imported, so that np2ref knows `np.zeros` is NumPy's. Appended after the cell."""
    try:
        used = {n.id for n in ast.walk(ast.parse(cell)) if isinstance(n, ast.Name)}
    except SyntaxError:
        return ""
    lines = []
    for name in sorted(used):
        value = namespace.get(name)
        if isinstance(value, types.ModuleType):
            lines.append(f"import {value.__name__}" + (f" as {name}" if value.__name__ != name else ""))
        elif getattr(value, "__module__", None) and str(value.__module__).startswith("numpy") and \
                getattr(sys.modules["numpy"], getattr(value, "__name__", ""), None) is value:
            lines.append(f"from numpy import {value.__name__}" + (f" as {name}" if value.__name__ != name else ""))
    return f"\n\n{NOTEBOOK_NAMES}\n" + "\n".join(lines) + "\n" if lines else ""


def _run_as_module(text: str, filename: str, user_ns: dict) -> types.ModuleType:
    """Run the cell in a module of its own whose source is the cell (np2ref.compile reads a
    function's module source), seeded with the notebook's names; copy what it binds back."""
    name = f"np2ref_{filename.strip('<>').replace('-', '_')}"
    module = types.ModuleType(name)
    module.__file__ = filename
    module.__dict__.update({k: v for k, v in user_ns.items() if not k.startswith("__")})
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    sys.modules[name] = module
    exec(compile(text, filename, "exec"), module.__dict__)  # noqa: S102 - the user's own cell
    user_ns.update({k: v for k, v in module.__dict__.items()
                    if not k.startswith("__") and user_ns.get(k, module) is not v})
    return module


def _summary(report: FileReport, compiled: dict, text: str, quiet: bool) -> str:
    lines = []
    if compiled:
        lines.append(f"# np2ref: compiled {', '.join(compiled)} (NumPy in and out, jitted)")
    kept = [f for f in report.functions if f.status in (HOST, REFUSED, BLOCKED)]
    for f in kept:
        why = {HOST: f"host code: {f.host_reason}", REFUSED: "refused, see below",
               BLOCKED: f"calls {', '.join(f.blocked_by)}"}[f.status]
        lines.append(f"# np2ref: {f.name} stays Python ({why})")
    if compiled and not quiet:
        lines += ["", _definitions(report.converted, set(compiled))]
    errors = [c.diagnostic for c in report.constructs]
    if errors:
        lines += [""] + [d.render(text) for d in errors]
    return "\n".join(lines)


def _definitions(converted: str, names: set[str]) -> str:
    """The converted definitions of `names`, decorators included, in cell order."""
    source = converted.splitlines()
    return "\n\n".join("\n".join(source[f.line - 1:f.end_line])
                       for f in top_level_functions(converted).values() if f.name in names)
