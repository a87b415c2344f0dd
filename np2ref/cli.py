"""The `np2ref` command: argument parsing and exit codes, nothing else.

Exit codes: 0 done, 1 a diagnostic error (or a verification mismatch), 2 a usage error.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
import tempfile
from pathlib import Path

from . import codes
from .emit import module as emit_module, standalone
from .diagnostics import Diagnostic, to_json
from .frontend.source import encoding_of
from .pipeline import ConversionResult, convert_file

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["fuzz"]:  # the fuzzer parses its own options
        from .fuzz.command import main as fuzz_main

        return fuzz_main(argv[1:])
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="np2ref", description="Translate mutating NumPy code into JAX ref programs.")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("convert", help="write converted files")
    c.add_argument("src", help="a .py file or a folder")
    c.add_argument("-o", "--output", help="output file (or folder when SRC is a folder)")
    g = c.add_mutually_exclusive_group()
    g.add_argument("--diff", action="store_true", help="print a unified diff instead of writing")
    g.add_argument("--stdout", action="store_true", help="print the converted code instead of writing")
    c.add_argument("--standalone", action="store_true",
                   help=f"import the runtime from {standalone.FILENAME}, written beside the output, so the "
                        "converted program runs where np2ref is not installed (needs only jax and numpy)")
    c.add_argument("--strict", action="store_true",
                   help="exit 1 when a file has nothing np2ref translates (its output would be the NumPy code)")
    c.set_defaults(run=cmd_convert)
    k = sub.add_parser("check", help="print diagnostics only, or a readiness report (--report)")
    k.add_argument("src", nargs="*", help="files and folders")
    k.add_argument("--format", choices=("text", "json"), default="text")
    k.add_argument("--report", nargs="?", const="terminal", action=_ReportKind, metavar="{terminal,html,json}",
                   help="per file and in total: functions that convert exactly, refused ones, and the refused "
                   "constructs ranked by how many functions each blocks (default: terminal)")
    k.add_argument("-o", "--output", help="with --report html: the folder (default np2ref-report); "
                   "with --report json: a file or folder (default: stdout)")
    k.add_argument("--fail-under", type=float, metavar="PCT",
                   help="with --report: exit 1 when fewer than PCT%% of the functions to translate are exact")
    k.set_defaults(run=cmd_check)
    e = sub.add_parser("explain", help="explain a diagnostic code")
    e.add_argument("code")
    e.set_defaults(run=cmd_explain)
    v = sub.add_parser("verify", help="check a translation against NumPy under jit, vmap and grad")
    v.add_argument("target", help="FILE.py::FUNC")
    v.add_argument("--example", help="FILE.py::CALLABLE returning a tuple of arguments or a dict of "
                   "keyword arguments; given a numpy.random.Generator when it takes one parameter "
                   "(default: the module's make_inputs(\"small\"))")
    v.add_argument("--examples", type=int, default=50, help="generated inputs per transform (default 50)")
    v.add_argument("--transforms", default="jit,vmap,grad", help="comma-separated (default jit,vmap,grad)")
    v.add_argument("--seed", type=int, default=0, help="seed of the input generation (default 0)")
    v.add_argument("--vary-shapes", action="store_true", help="also move array lengths by one")
    v.set_defaults(run=cmd_verify)
    sub.add_parser("fuzz", help="differential fuzzing: np2ref fuzz --count N --seed S [--max-statements K]")
    return p


def _usage(message: str) -> int:
    print(f"np2ref: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def _print_diagnostics(result: ConversionResult) -> None:
    for d in result.diagnostics:
        if d.is_error:
            print(d.render(result.source), file=sys.stderr)


def _python_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if not any(part.startswith(".") for part in p.parts))


def _write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file in the same folder, so a failure leaves nothing half-written."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding=encoding_of(text)) as fh:  # as Python will read it back
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def cmd_convert(args) -> int:
    src = Path(args.src)
    if not src.exists():
        return _usage(f"{src}: no such file or folder")
    if src.is_dir():
        return _convert_folder(src, args)
    out = Path(args.output) if args.output else src.with_name(f"{src.stem}_ref.py")
    if not (args.diff or args.stdout):
        if _same_file(src, out):
            return _usage(f"refusing to write over the source {src}; choose another -o")
        if out.is_dir():
            out = out / src.name
        if not out.parent.exists():
            return _usage(f"output folder {out.parent} does not exist")
    result = convert_file(str(src))
    _print_diagnostics(result)
    if not result.ok:
        return EXIT_ERROR
    if _nothing_translated(result, src) and args.strict:
        return EXIT_ERROR
    code = _code(result, args)
    if args.stdout:
        sys.stdout.write(code)
    elif args.diff:
        sys.stdout.writelines(difflib.unified_diff(
            result.source.splitlines(True), code.splitlines(True), str(src), str(out)))
    else:
        try:
            _write_atomic(out, code)
            _write_standalone_runtime(out.parent, args)
        except OSError as exc:
            print(f"np2ref: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_ERROR
        print(f"converted {src} -> {out}", file=sys.stderr)
    return EXIT_OK


def _code(result, args) -> str:
    return result.code_for(standalone.STANDALONE_MODULE if args.standalone else emit_module.RUNTIME_MODULE)


def _write_standalone_runtime(folder: Path, args) -> None:
    """With --standalone: np2ref's runtime as one module beside the converted files."""
    if args.standalone:
        _write_atomic(folder / standalone.FILENAME, standalone.bundle())


def _nothing_translated(result, path: Path, progress=None) -> bool:
    """Whether no function of the file was translated (the output would run as NumPy); says so."""
    if set(result.functions) - set(result.plain):
        return False
    if progress is not None:
        progress.clear()
    print(f"np2ref: nothing to translate in {path}: no function does array work np2ref compiles "
          f"(module-level code and host functions stay NumPy)", file=sys.stderr)
    return True


def _convert_folder(src: Path, args) -> int:
    out_root = Path(args.output) if args.output else src.with_name(f"{src.name}_ref")
    if not (args.diff or args.stdout):
        if _same_file(src, out_root):
            return _usage(f"refusing to write over the source folder {src}; choose another -o")
        if not out_root.parent.exists():
            return _usage(f"output folder {out_root.parent} does not exist")
    files = _python_files(src)
    failed = 0
    progress = _Progress(len(files))
    for path in files:
        progress.step(str(path.relative_to(src)))
        result = convert_file(str(path))
        if not result.ok:
            failed += 1
            progress.clear()
            _print_diagnostics(result)
            continue
        if result.source is not None and _nothing_translated(result, path, progress) and args.strict:
            failed += 1
            continue
        code = _code(result, args)
        if args.stdout:
            sys.stdout.write(f"# ---- {path} ----\n{code}")
            continue
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(
                result.source.splitlines(True), code.splitlines(True), str(path),
                str(out_root / path.relative_to(src))))
            continue
        target = out_root / path.relative_to(src)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_atomic(target, code)
            _write_standalone_runtime(target.parent, args)
        except OSError as exc:
            failed += 1
            progress.clear()
            print(f"np2ref: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
    progress.done()
    print(f"converted {len(files) - failed} of {len(files)} files"
          + ("" if args.diff or args.stdout else f" into {out_root}"), file=sys.stderr)
    return EXIT_ERROR if failed else EXIT_OK


class _Progress:
    """A one-line progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, total: int):
        self.total, self.n = total, 0
        self.live = sys.stderr.isatty()

    def step(self, label: str) -> None:
        self.n += 1
        if self.live:
            width = 30
            filled = width * self.n // max(self.total, 1)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.n}/{self.total} {label[:40]:<40}")
            sys.stderr.flush()

    def clear(self) -> None:
        if self.live:
            sys.stderr.write("\r" + " " * 80 + "\r")

    def done(self) -> None:
        self.clear()


class _ReportKind(argparse.Action):
    """`--report [KIND]`: a word after it that is not a kind is a SRC (`check --report src/`)."""

    KINDS = ("terminal", "html", "json")

    def __call__(self, parser, namespace, value, option_string=None):
        if value not in self.KINDS:
            namespace.report_src = [*getattr(namespace, "report_src", []), value]
            value = "terminal"
        setattr(namespace, self.dest, value)


def cmd_check(args) -> int:
    args.src = [*args.src, *getattr(args, "report_src", [])]
    if not args.src:
        return _usage("check needs at least one SRC (a file or a folder)")
    if args.report:
        return _check_report(args)
    if args.output or args.fail_under is not None:
        return _usage("-o and --fail-under go with --report")
    diagnostics: list[Diagnostic] = []
    for src in args.src:
        path = Path(src)
        files = _python_files(path) if path.is_dir() else [path]
        for f in files:
            diagnostics += convert_file(str(f)).diagnostics
    if args.format == "json":
        print(to_json(diagnostics))
    else:
        for d in diagnostics:
            print(d.short())
    return EXIT_ERROR if any(d.is_error for d in diagnostics) else EXIT_OK


def _check_report(args) -> int:
    from .report import collect, html, json_report, terminal

    if args.output and args.report == "terminal":
        return _usage("-o goes with --report html or json")
    files = collect.python_files(args.src)
    progress = _Progress(len(files))
    report = collect.collect([str(f) for f in files], on_file=progress.step)
    progress.done()
    try:
        if args.report == "html":
            print(f"wrote the HTML report to {html.write(report, args.output or 'np2ref-report')}", file=sys.stderr)
        elif args.report == "json" and args.output:
            out = Path(args.output)
            out = out / "np2ref-report.json" if out.is_dir() or not out.suffix else out
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json_report.render(report), encoding="utf-8")
        else:
            sys.stdout.write((json_report if args.report == "json" else terminal).render(report))
    except OSError as exc:
        print(f"np2ref: cannot write the report: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR
    ready = collect.ready_percent(report.total("exact"), report.total("refused"))
    if args.fail_under is not None and ready < args.fail_under:
        print(f"np2ref: {ready:.1f}% of the functions convert exactly, under --fail-under {args.fail_under:g}",
              file=sys.stderr)
        return EXIT_ERROR
    return EXIT_OK


def cmd_explain(args) -> int:
    text = codes.explain(args.code)
    if text is None:
        return _usage(f"unknown code {args.code}; known codes: {', '.join(sorted(codes.CODES))}")
    print(text)
    return EXIT_OK


def cmd_verify(args) -> int:
    from .verify.command import run_verify

    return run_verify(args)


if __name__ == "__main__":
    sys.exit(main())
