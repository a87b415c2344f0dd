"""What np2ref makes of every corpus/, examples/, tests/cases/ (goldens) and test program input, written to a folder, so
that two versions of np2ref can be compared byte for byte (issue 43: a faster translator must not
change a single diagnostic or output line).

    PYTHONHASHSEED=0 PYTHONPATH=/path/to/old python benchmarks/output_snapshot.py /tmp/before
    PYTHONHASHSEED=0 PYTHONPATH=$PWD python benchmarks/output_snapshot.py /tmp/after
    diff -r /tmp/before /tmp/after
    python benchmarks/output_snapshot.py /tmp/after generated/ corpus/   # only the names holding these
    python benchmarks/output_snapshot.py --command /tmp/after   # in the process the check/convert commands run

Per input: the converted module (`code`), the same importing the standalone runtime, the rendered
diagnostics, the loop notes and host calls' lines, and for the goldens (whose input ends at `# output`) the body and the conversion of
the output again.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def inputs() -> list[tuple[str, str]]:
    """(name, source text) of every input, names relative to the repository root."""
    found = []
    for folder in ("corpus", "examples", "tests/programs", "tests/regressions", "tests/python", "tests/masks",
                   "tests/library", "tests/rules", "tests/diagnostics", "tests/corpus"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            found.append((str(path.relative_to(ROOT)), path.read_text()))
    for path in sorted((ROOT / "tests" / "cases").rglob("*.py")):
        found.append((str(path.relative_to(ROOT)), path.read_text().partition("# output\n")[0]))
    return found + generated()


def generated() -> list[tuple[str, str]]:
    """The generated modules of benchmarks/lint_speed.py (600 functions) and of
    tests/pipeline/test_split_check.py (refusals, calls, host loops to lift), whole."""
    sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "tests" / "pipeline"), str(ROOT / "tests")]
    import lint_speed
    import test_split_check

    return [("generated/gen600.py", lint_speed.generated_module()),
            ("generated/split_check_8.py", test_split_check._module(8)),
            ("generated/split_check_host_8.py", test_split_check._module(8, host=True))]


def snapshot(name: str, text: str) -> str:
    from np2ref.pipeline import convert_source

    result = convert_source(text, name)
    parts = ["## diagnostics", *(d.render(text) for d in result.diagnostics), f"## ok {result.ok}",
             "## code", str(result.code), "## standalone", str(result.code_for("np2ref_rt")),
             "## loops", *map(repr, result.loops), "## host lines", repr(sorted(result.host_lines.items()))]
    if name.startswith("tests/cases"):
        parts += ["## body", str(result.body)]
        if result.code is not None:
            again = convert_source(result.code, name)
            parts += ["## again", str(again.code), *(d.render(result.code) for d in again.diagnostics)]
    return "\n".join(parts) + "\n"


def main(argv=None) -> None:
    argv = list(argv or sys.argv[1:])
    if argv[0] == "--command":  # (what np2ref/command_process.py changes in the commands' process)
        from np2ref import command_process

        command_process.command()
        command_process.ready()
        argv = argv[1:]
    out = Path(argv[0])
    for name, text in inputs():
        if len(argv) > 1 and not any(text_ in name for text_ in argv[1:]):  # (only the names holding these)
            continue
        target = out / (name.replace("/", "__") + ".txt")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(snapshot(name, text))
        print(name, flush=True)


if __name__ == "__main__":
    main()
