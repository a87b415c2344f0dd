"""`python -m np2ref.tools.verify_corpus [--examples N] [--write]`: np2ref verify on every corpus
program (jit, vmap, grad; the transforms a `# np2ref: verify ...` header names), printed as the
Markdown table of docs/verification.md; `--write` replaces that table in the file.

Takes minutes (tracing and compiling dominate), so it is a command, not a test.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "verification.md"
BEGIN, END = "<!-- corpus-table: begin -->", "<!-- corpus-table: end -->"


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"np2ref_corpus_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _transforms(text: str) -> tuple[str, ...]:
    m = re.search(r"#\s*np2ref:\s*verify\s+([a-z, ]+)", text)
    return ("jit",) + (tuple(t.strip() for t in m.group(1).split(",")) if m else ("vmap", "grad"))


def _cell(result) -> str:
    return f"{result.status} ({result.compared}/{result.tried})"


def _row(path: Path, examples: int, seed: int) -> str:
    from ..diagnostics import Np2RefError
    from ..verify.harness import run

    text = path.read_text()
    module = _load(path)
    fn = getattr(module, module.ENTRY)
    wanted = _transforms(text)
    try:
        report = run(fn, (), module.make_inputs("small"), transforms=wanted, examples=examples, seed=seed)
    except Np2RefError as exc:
        return f"| {path.stem} | refused | | | {str(exc).splitlines()[0]} |"
    cells = [_cell(report[t]) if t in wanted else "not applicable" for t in ("jit", "vmap", "grad")]
    why = "; ".join(f"{r.transform}: {r.reason}" for r in report.failures)
    if not why and len(wanted) < 3:
        why = re.search(r"#\s*np2ref:\s*verify\s+[a-z, ]+\s*\((.*)\)", text)
        why = why.group(1) if why else ""
    return f"| {path.stem} | " + " | ".join(cells) + f" | {why} |"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m np2ref.tools.verify_corpus")
    p.add_argument("--examples", type=int, default=50)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--write", action="store_true", help=f"replace the table in {DOC.relative_to(ROOT)}")
    args = p.parse_args(argv)
    start = time.perf_counter()
    rows = ["| program | jit | vmap | grad | notes |", "|---|---|---|---|---|"]
    for path in sorted((ROOT / "corpus").glob("*.py")):
        rows.append(_row(path, args.examples, args.seed))
        print(rows[-1], flush=True)
    elapsed = time.perf_counter() - start
    passed = sum(1 for r in rows[2:] if "failed" not in r and "refused" not in r)
    table = "\n".join(rows) + (f"\n\n{passed} of {len(rows) - 2} programs pass every transform that "
                               f"applies ({args.examples} inputs each, seed {args.seed}; "
                               f"{elapsed / 60:.1f} minutes on this machine).")
    if args.write:
        doc = DOC.read_text()
        if BEGIN not in doc:
            raise SystemExit(f"{DOC} has no {BEGIN} marker")
        head, rest = doc.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        DOC.write_text(f"{head}{BEGIN}\n{table}\n{END}{tail}")
        print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
