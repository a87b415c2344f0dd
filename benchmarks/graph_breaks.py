"""Graph breaks in whole scripts: every function or loop of corpus/, examples/scripts/ and examples/
that runs on the host (NumPy) or is refused, with its code, and the count by code.

Static (`np2ref check --explain-loops`'s view, pipeline.convert_file):
- `refused`: a file `convert` refuses whole (its error codes);
- `host function`: a function that stays NumPy host code (NPR021), `+loop` when it holds a loop;
- `host loop`: a loop of a host function kept on the host with compiled steps (NPR036);
- `python loop`: a loop traced one trip at a time (NPR033; exact, compile time grows with trips);
- `host calls`: a compiled loop with a host round trip per iteration (NPR039), with the calls;
  `host calls if`: the same, each call under an `if` of the body (a round trip only on its trips).

Run time (`--run`): the entry (or each of `CHECKS`) on make_inputs("small") through
np2ref.compile(fn, host_below=0) (`compile refused`) and through the converted module
(`convert refused`, NP2REF_HOST_BELOW=0), each failing with its NPR code.

    python benchmarks/graph_breaks.py [--run] [--json OUT] [paths...]

prints one line per finding, then the counts by kind and code.
"""

from __future__ import annotations

import argparse
import ast
import collections
import contextlib
import copy
import importlib.util
import io
import json
import os
import re
import sys
import tempfile
import warnings
from pathlib import Path

os.environ["NP2REF_HOST_BELOW"] = "0"
os.environ["NP2REF_NO_CACHE"] = "1"
ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ["corpus", "examples/scripts", "examples"]
SKIP = {"check_scripts.py", "regenerate.py", "plot_results.py"}  # tools, not programs
CALLS = re.compile(r"\(([^;)]*)[;)]")


def files(paths) -> list[Path]:
    found = []
    for p in map(Path, paths):
        p = p if p.is_absolute() else ROOT / p
        found += [p] if p.is_file() else sorted(q for q in p.glob("*.py") if q.name not in SKIP and not q.stem.endswith("_ref"))
    return found


def _rel(path: Path):
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def _loops_in(source: str) -> set[str]:
    """The module functions whose body holds a `for` or `while`."""
    tree = ast.parse(source)
    return {f.name for f in tree.body if isinstance(f, ast.FunctionDef)
            and any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(f))}


def static(path: Path) -> list[tuple[str, str, str]]:
    """(kind, code, where + why) for each static finding of one file."""
    from np2ref.pipeline import convert_file

    result = convert_file(str(path))
    rel = _rel(path)
    found = []
    errors = [d for d in result.diagnostics if d.is_error]
    if errors:
        for d in errors:
            found.append(("refused", d.code, f"{rel}:{d.line}: {d.message[:110]}"))
        return found
    looped = _loops_in(result.source)
    for d in result.diagnostics:
        where = f"{rel}:{d.line}: {d.message[:130]}"
        if d.code == "NPR021":
            name = d.message.split("()")[0]
            found.append(("host function" + ("+loop" if name in looped else ""), "NPR021", where))
        elif d.code == "NPR036" and "stays a host loop" in d.message and d.message.startswith("the "):
            found.append(("host loop", "NPR036", where))
        elif d.code == "NPR033":
            found.append(("python loop", "NPR033", where))
        elif d.code == "NPR039":
            m = CALLS.search(d.message)
            kind = "host calls if" if "under an `if`" in d.message else "host calls"
            found.append((kind, "NPR039:" + (m.group(1) if m else "?"), where))
    return found


def _load(path: Path, name: str, text: str | None = None):
    """The module at `path` (or `text` standing for it), imported under `name`."""
    sys.path.insert(0, str(path.parent))
    try:
        if text is not None:
            tmp = Path(tempfile.mkdtemp()) / f"{name}.py"
            tmp.write_text(text)
            path = tmp
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(path.parent) if text is None else sys.path[0])


def _code(exc: BaseException) -> str:
    code = getattr(exc, "code", None) or "/".join(d.code for d in getattr(exc, "diagnostics", ()))
    return code or f"crash {type(exc).__name__}"


def _call(get, make) -> str | None:
    """None when `get()` called on make()'s inputs runs; else the code it fails with."""
    inputs = make()
    args, kwargs = (inputs, {}) if isinstance(inputs, tuple) else ((), inputs)
    args, kwargs = copy.deepcopy((args, kwargs))
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            get()(*args, **kwargs)
        return None
    except Exception as exc:  # errors are data: the code
        return _code(exc)


def run(path: Path) -> list[tuple[str, str, str]]:
    """Run-time refusals of the entry functions, through np2ref.compile and through convert."""
    import np2ref
    from np2ref.pipeline import convert_file

    text = path.read_text()
    if not re.search(r"^ENTRY = ", text, re.M) or "def make_inputs" not in text:
        return []
    rel = _rel(path)
    original = _load(path, f"gb_{path.stem}")
    checks = getattr(original, "CHECKS", None) or {original.ENTRY: lambda: original.make_inputs("small")}
    found = []
    for name, make in checks.items():
        fn = getattr(original, name.split("#")[0])
        code = _call(lambda: np2ref.compile(fn, host_below=0), make)
        if code:
            found.append(("compile refused", code, f"{rel}::{name}"))
    result = convert_file(str(path))
    if result.ok:
        converted = _load(path, f"gb_{path.stem}_ref", result.code)
        for name, make in checks.items():
            code = _call(lambda: getattr(converted, name.split("#")[0]), make)
            if code:
                found.append(("convert refused", code, f"{rel}::{name}"))
    return found


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--run", action="store_true", help="also call the entries (compile and convert routes)")
    ap.add_argument("--json", help="write the findings here")
    opts = ap.parse_args(argv)
    findings = []
    for path in files(opts.paths or DEFAULT):
        found = static(path) + (run(path) if opts.run else [])
        for kind, code, where in found:
            print(f"{kind:16} {code:22} {where}", flush=True)
        findings += found
    print("\ncounts by kind and code:")
    for (kind, code), n in sorted(collections.Counter((k, c) for k, c, _ in findings).items()):
        print(f"  {kind:16} {code:22} {n}")
    if opts.json:
        Path(opts.json).write_text(json.dumps(findings, indent=1))


if __name__ == "__main__":
    main()
