"""The `np2ref` command: argument parsing and exit codes, nothing else.

One exit-code table for every subcommand:

    0  done: nothing refused, nothing found (a check with notes only is 0)
    1  findings: a refused construct, a file `convert --check` would change, a verification
       mismatch, a report under --fail-under
    2  usage or I/O error: bad arguments, a missing path, a folder with no Python file,
       an output that cannot be written or that np2ref did not write (see --force), a bad
       [tool.np2ref] config
"""

from __future__ import annotations

import argparse
import difflib
import functools
import json
import os
import sys
from pathlib import Path

from . import __version__, batch, cache, codes
from . import config as config_mod
from .diagnostics import Diagnostic, suppressed
from .frontend.files import PathError, ours, python_files, stamped, write_atomic


EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Ends the command with exit 2 and `np2ref: error: <message>`."""


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["fuzz"]:  # the fuzzer parses its own options
        from .fuzz.command import main as fuzz_main

        return fuzz_main(argv[1:])
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (UsageError, PathError, config_mod.ConfigError) as exc:
        return _usage(str(exc))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="np2ref", description="Translate mutating NumPy code into JAX ref programs.",
                                epilog="exit codes: 0 ok, 1 findings (refused constructs, files to convert, "
                                "mismatches), 2 usage or I/O error")
    p.add_argument("--version", action="version", version=f"np2ref {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-q", "--quiet", action="store_true",
                        help="print only errors: no notes, no progress, no summary lines")
    walk = argparse.ArgumentParser(add_help=False)
    walk.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                      help="skip files and folders matching GLOB when walking folders (repeatable; "
                      "added to [tool.np2ref] exclude)")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("convert", parents=[common, walk], help="write converted files")
    c.add_argument("src", help="a .py file or a folder")
    c.add_argument("-o", "--output", help="output file (or folder when SRC is a folder)")
    g = c.add_mutually_exclusive_group()
    g.add_argument("--diff", action="store_true", help="print a unified diff instead of writing")
    g.add_argument("--stdout", action="store_true", help="print the converted code instead of writing")
    c.add_argument("--standalone", action="store_true",
                   help="import the runtime from np2ref_rt, a package copied beside the output, so the "
                        "converted program runs where np2ref is not installed (needs only jax and numpy)")
    g.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 when a conversion would write or change an output file")
    c.add_argument("--sums", choices=("exact", "reorder"), help="reorder: loops that only accumulate `R[P] += value` "
                   "sum as one contraction, NOT NumPy's bits (docs/semantics.md; default [tool.np2ref] sums, exact)")
    c.add_argument("--strict", action="store_true",
                   help="exit 1 when a file has nothing np2ref translates (its output would be the NumPy code)")
    c.add_argument("--force", action="store_true",
                   help="overwrite an output file np2ref did not write or that was edited since")
    c.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="files converted in N processes at once (default: the number of CPUs); "
                   "output in the order of the files")
    c.add_argument("--no-cache", action="store_true",
                   help="convert every file again, not reading or writing np2ref's content cache "
                   "(~/.cache/np2ref; NP2REF_NO_CACHE=1 does the same)")
    c.add_argument("--partial", action="store_true",
                   help="write a refused file anyway: its exact functions converted, the refused ones kept "
                   "as NumPy host code (marked with a comment and listed); exit 1 still says some were refused")
    c.set_defaults(run=cmd_convert)
    k = sub.add_parser("check", parents=[common, walk],
                       help="print diagnostics only, or a readiness report (--report)")
    k.add_argument("src", nargs="*", help="files and folders (default: [tool.np2ref] include)")
    k.add_argument("--format", choices=("text", "json"), default="text")
    k.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="files checked in N processes at once, a large module's parts too (default: the CPUs)")
    k.add_argument("--no-cache", action="store_true",
                   help="analyse every file again, not reading or writing np2ref's content cache "
                   "(~/.cache/np2ref; NP2REF_NO_CACHE=1 does the same)")
    k.add_argument("--report", nargs="?", const="default", action=_ReportKind, metavar="{terminal,html,json}",
                   help="per file and in total: functions that convert exactly, refused ones, and the refused "
                   "constructs ranked by how many functions each blocks (default: terminal; json with "
                   "--format json)")
    k.add_argument("--run", action="store_true", dest="run_scripts",
                   help="with --report: also run each fully converting file and its conversion as scripts; "
                        "a converted script that fails or prints something else makes its functions not ready")
    k.add_argument("-o", "--output", help="with --report html: the folder (default np2ref-report); "
                   "with --report json: a file or folder (default: stdout)")
    k.add_argument("--explain-loops", action="store_true",
                   help="also say, per loop, whether it was vectorised (npr_vfor) or folded (npr_fold_for) and why not")
    k.add_argument("--fail-under", type=float, metavar="PCT",
                   help="with --report: exit 1 when fewer than PCT%% of the functions convert exactly")
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


def _say(args, message: str) -> None:
    """A summary line on stderr (not with --quiet)."""
    if not args.quiet:
        print(message, file=sys.stderr)


def _colour(stream) -> bool:
    """Colour only on a terminal, and never with NO_COLOR set (https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def _print_diagnostics(result) -> None:
    for d in result.diagnostics:
        if d.is_error:
            print(d.render(result.source), file=sys.stderr)


def _walk(args, cfg: config_mod.Config, srcs: list[str]) -> list[Path]:
    """The files to read; a folder given explicitly with no Python file in it is a usage error
    (a check that read nothing must not pass)."""
    walk = python_files(srcs, exclude=[*cfg.exclude, *args.exclude], gitignore_roots=[cfg.root] if cfg.root else [])
    if walk.empty_folders:
        raise UsageError(f"no Python files found under {', '.join(map(str, walk.empty_folders))} "
                         "(hidden, virtual-environment, excluded and git-ignored paths are skipped)")
    return walk.files


class _Writer:
    """Where converted text goes: a file np2ref writes (only over its own unedited output,
    unless --force; never over a source), or with --check a comparison that writes nothing."""

    def __init__(self, args, cfg: config_mod.Config):
        self.args, self.cfg = args, cfg
        self.changed: list[Path] = []   # --check: outputs that would be written or changed
        self.io_errors = 0
        self.runtimes: set[Path] = set()  # --standalone: the np2ref_rt packages written

    def write(self, src: Path, out: Path, code: str) -> None:
        from .frontend.source import encoding_of

        data = stamped(code, encoding_of(code))
        if self.args.check:
            try:
                same = out.read_bytes() == data
            except OSError:
                same = False
            if not same:
                self.changed.append(out)
                _say(self.args, f"would convert {src} -> {out}")
            return
        if _same_file(src, out):
            return self._fail(f"refusing to write over the source {src}; choose another -o")
        if out.exists() and not self.args.force and not ours(out):
            return self._fail(f"not overwriting {out}: np2ref did not write it, or it was edited since "
                              "(--force overwrites it)")
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(out, data)
        except OSError as exc:
            return self._fail(f"cannot write {out}: {exc.strerror or exc}")
        _say(self.args, f"converted {src} -> {out}")

    def write_runtime(self, folder: Path) -> None:
        """--standalone: np2ref's runtime, a package copied beside the converted files (over an
        earlier copy of it only, unless --force; a module of an earlier copy no longer in the
        runtime is removed)."""
        from .emit import standalone

        target = folder / standalone.FOLDER
        if target in self.runtimes:
            return
        self.runtimes.add(target)
        if target.exists() and not self.args.force and not standalone.is_runtime(target):
            return self._fail(f"not overwriting {target}: it is not np2ref's standalone runtime (--force overwrites it)")
        files = standalone.files()
        try:
            target.mkdir(exist_ok=True)
            for stale in set(p.name for p in target.glob("*.py")) - set(files):
                (target / stale).unlink()
            for name, data in files.items():
                write_atomic(target / name, data)
        except OSError as exc:
            return self._fail(f"cannot write {target}: {exc.strerror or exc}")

    def _fail(self, message: str) -> None:
        self.io_errors += 1
        print(f"np2ref: error: {message}", file=sys.stderr)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def cmd_convert(args) -> int:
    src = Path(args.src)
    if not src.exists():
        raise UsageError(f"{src}: no such file or folder")
    cfg = config_mod.find(src)
    writes = not (args.diff or args.stdout)
    folder = src.is_dir()
    if folder:
        out_root = Path(args.output) if args.output else src.resolve().with_name(f"{src.resolve().name}_ref")
        if writes and _same_file(src, out_root):
            raise UsageError(f"refusing to write over the source folder {src}; choose another -o")
        if writes and not args.check and not out_root.parent.exists():
            raise UsageError(f"output folder {out_root.parent} does not exist")
        files = _walk(args, cfg, [str(src)])
        pairs = [(f, out_root / f.relative_to(src)) for f in files]
    else:
        out = Path(args.output) if args.output else src.with_name(f"{src.stem}_ref.py")
        if writes and out.is_dir():
            out = out / src.name
        if writes and _same_file(src, out):
            raise UsageError(f"refusing to write over the source {src}; choose another -o")
        if writes and not args.check and not out.parent.exists():
            raise UsageError(f"output folder {out.parent} does not exist")
        pairs = [(src, out)]
    writer = _Writer(args, cfg)
    refused = partly = 0
    args.jobs = _jobs(args)
    progress = _Progress(len(pairs), live=len(pairs) > 1 and not args.quiet)
    convert = functools.partial(batch.convert_one, runtime_module=_runtime_module(args),
                                policy=cfg.dtype_policy, options=cfg.entry_options,
                                use_cache=not args.no_cache and cache.enabled(), sums=args.sums or cfg.sums,
                                jobs=args.jobs if len(pairs) == 1 else 1)  # (one file: its parts at once)
    results = batch.in_order(convert, [str(path) for path, _ in pairs], args.jobs, on_file=progress.step)
    for (path, out), result in zip(pairs, results):
        code = result.code
        if not result.ok:
            refused += 1
            progress.clear()
            _print_diagnostics(result)
            if args.partial and result.source is not None:
                code = _partial(path, result.source, cfg)
            if code is None:
                continue
            partly += 1
        elif result.source is not None and _nothing_translated(result.translated, result.source, path, progress) \
                and args.strict:
            refused += 1
            continue
        if args.stdout:
            sys.stdout.write(code if len(pairs) == 1 else f"# ---- {path} ----\n{code}")
        elif args.diff:
            sys.stdout.writelines(difflib.unified_diff(
                result.source.splitlines(True), code.splitlines(True), str(path), str(out)))
        else:
            progress.clear()
            writer.write(path, out, code)
            if args.standalone and not args.check:
                writer.write_runtime(out.parent)
    progress.done()
    if folder and writes and not args.check:
        done = len(pairs) - refused + partly - writer.io_errors
        _say(args, f"converted {done} of {len(pairs)} files into {out_root}"
             + (f" ({partly} partly: --partial)" if partly else ""))
    if writer.io_errors:
        return EXIT_USAGE
    return EXIT_FINDINGS if refused or writer.changed else EXIT_OK


def _partial(path: Path, text: str, cfg) -> str | None:
    """The file with its exact functions converted and the rest kept as NumPy (--partial)."""
    from .report import collect, partial

    report = collect.collect_source(text, str(path))
    code = partial.marked(report, cfg.dtype_policy, cfg.entry_options)
    if code is None:
        print(f"np2ref: --partial: nothing of {path} converts on its own; nothing written", file=sys.stderr)
        return None
    kept = partial.kept(report)
    exact = [f.name for f in report.functions if f.status == collect.EXACT]
    print(f"np2ref: --partial {path}: {len(exact)} function(s) converted, {len(kept)} kept as NumPy host code:",
          file=sys.stderr)
    for name, why in kept.items():
        print(f"  {name}: {why}", file=sys.stderr)
    return code


def _runtime_module(args) -> str:
    """The module the output imports its helpers from: np2ref.rt, or with --standalone the copy
    written beside it."""
    from .emit import RUNTIME_MODULE, STANDALONE_MODULE  # (not emit.module: libcst, for a file the cache holds)

    return STANDALONE_MODULE if args.standalone else RUNTIME_MODULE


def _jobs(args) -> int:
    jobs = batch.default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        raise UsageError("--jobs takes a number of processes, 1 or more")
    return jobs


def _nothing_translated(translated: bool, source: str | None, path: Path, progress=None) -> bool:
    """Whether no function of the file was translated (the output would run as NumPy); says so."""
    if translated:
        return False
    if progress is not None:
        progress.clear()
    from .emit import module as emit_module

    if source is not None and emit_module.is_converted(source):
        print(f"np2ref: {path} is np2ref's output: its functions stay as they are", file=sys.stderr)
        return True
    print(f"np2ref: nothing to translate in {path}: no function does array work np2ref compiles "
          f"(module-level code and host functions stay NumPy)", file=sys.stderr)
    return True


class _Progress:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, total: int, live: bool = True):
        self.total, self.n = total, 0
        self.live = live and sys.stderr.isatty()

    def step(self, label: str) -> None:
        self.n += 1
        if self.live:
            width = 30
            filled = width * self.n // max(self.total, 1)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.n}/{self.total} {label[-40:]:<40}")
            sys.stderr.flush()

    def clear(self) -> None:
        if self.live:
            sys.stderr.write("\r" + " " * 80 + "\r")

    def done(self) -> None:
        self.clear()


class _ReportKind(argparse.Action):
    """`--report [KIND]`: a word after it that is not a kind is a SRC (`check --report src/`)."""

    KINDS = ("terminal", "html", "json", "default")  # default: terminal, or json with --format json

    def __call__(self, parser, namespace, value, option_string=None):
        if value not in self.KINDS:
            namespace.report_src = [*getattr(namespace, "report_src", []), value]
            value = "default"
        setattr(namespace, self.dest, value)


def cmd_check(args) -> int:
    srcs = [*args.src, *getattr(args, "report_src", [])]
    cfg = config_mod.find(srcs[0] if srcs else None)
    if not srcs:
        srcs = cfg.include_paths()
        if not srcs:
            raise UsageError("check needs at least one SRC (a file or a folder), or `include` in [tool.np2ref]")
    files = _walk(args, cfg, srcs)
    args.jobs = _jobs(args)
    if args.report:
        return _check_report(args, files)
    if args.output or args.fail_under is not None or args.run_scripts:
        raise UsageError("-o, --fail-under and --run go with --report")
    shown: list[Diagnostic] = []
    progress = _Progress(len(files), live=len(files) > 20 and not args.quiet)
    for diagnostics, source in batch.check_files([str(f) for f in files], args.jobs, not args.no_cache,
                                                 on_file=progress.step):
        lines = source.splitlines() if source else []
        shown += [d for d in diagnostics if cfg.reports(d.code) and not suppressed(d, lines)
                  and (d.is_error or not args.quiet)]
    progress.done()
    loops = _explained_loops(files) if args.explain_loops else None
    if args.format == "json":
        found = [d.to_json() for d in shown]
        print(json.dumps(found if loops is None else {"diagnostics": found, "loops": loops[1]}, indent=2))
    else:
        colour = _colour(sys.stdout)
        for d in shown:
            print(_line(d, colour))
        for line in (loops or ((), ()))[0]:
            print(line)
    return EXIT_FINDINGS if any(d.is_error for d in shown) else EXIT_OK


def _explained_loops(files) -> tuple[list[str], list[dict]]:
    """`--explain-loops`: each file converted again (the cache keeps diagnostics only), its loops'
    lines and JSON records (report/loops.py)."""
    from .pipeline import convert_file
    from .report.loops import loop_json, loop_lines

    lines, records = [], []
    for f in files:
        result = convert_file(str(f))
        lines += loop_lines(result)
        records += loop_json(result)
    return lines, records


def _line(d: Diagnostic, colour: bool) -> str:
    """`path:line:col: NPR012 message` for an error; a note reads `... NPR021 note: message`
    (flake8-style either way)."""
    note = "" if d.is_error else "note: "
    if not colour:
        return f"{d.filename}:{d.line}:{d.col}: {d.code} {note}{d.message}"
    code = f"\033[1;31m{d.code}\033[0m" if d.is_error else f"\033[36m{d.code}\033[0m"
    return f"\033[1m{d.filename}:{d.line}:{d.col}:\033[0m {code} {note}{d.message}"


def _check_report(args, files: list[Path]) -> int:
    from .report import collect, html, json_report, terminal

    kind = args.report
    if kind == "default":
        kind = "json" if args.format == "json" else "terminal"
    elif args.format == "json" and kind != "json":
        raise UsageError(f"--format json goes with --report json, not --report {kind}")
    if args.output and kind == "terminal":
        raise UsageError("-o goes with --report html or json")
    progress = _Progress(len(files), live=not args.quiet)
    report = collect.collect([str(f) for f in files], on_file=progress.step)
    if args.run_scripts:
        collect.run_scripts(report)
    progress.done()
    try:
        if kind == "html":
            where = html.write(report, args.output or "np2ref-report")
            _say(args, f"wrote the HTML report to {where}")
        elif kind == "json" and args.output:
            out = Path(args.output)
            out = out / "np2ref-report.json" if out.is_dir() or not out.suffix else out
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json_report.render(report), encoding="utf-8")
        else:
            sys.stdout.write((json_report if kind == "json" else terminal).render(report))
    except OSError as exc:
        print(f"np2ref: error: cannot write the report: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.fail_under is not None:
        ready = report.ready
        if ready is None or ready < args.fail_under:
            said = "no function was found" if ready is None else f"{ready:.1f}% of the functions convert exactly"
            print(f"np2ref: {said}, under --fail-under {args.fail_under:g}", file=sys.stderr)
            return EXIT_FINDINGS
    return EXIT_OK


def cmd_explain(args) -> int:
    text = codes.explain(args.code)
    if text is None:
        raise UsageError(f"unknown code {args.code}; known codes: {', '.join(sorted(codes.CODES))}")
    print(text)
    return EXIT_OK


def cmd_verify(args) -> int:
    from .verify.command import run_verify

    return run_verify(args)


if __name__ == "__main__":
    from np2ref.__main__ import run  # (the command: main, then a quick exit)

    run()
