"""The terminal summary, laid out like coverage.py's `coverage report`."""

from __future__ import annotations

import shutil

from .collect import Report, code_title

HEADERS = ("Name", "Funcs", "Exact", "Host", "Refused", "Ready")


def render(report: Report, most: int = 20) -> str:
    """The per-file table with a TOTAL row, then the refused constructs ranked by how many
    functions each blocks (at most `most`), then the same per code."""
    rows = [(f.path, len(f.functions), f.exact, f.host, f.refused,
             "error" if f.file_error else _percent(f.ready)) for f in report.files]
    total = ("TOTAL", report.functions, report.total("exact"), report.total("host"),
             report.total("refused"), _percent(report.ready))
    out = _table(HEADERS, rows, total)
    partly = [(f.path, fn) for f in report.files for fn in f.functions if fn.status == "host" and fn.compiled]
    if partly:
        out += ["", "Host functions with compiled loops or steps (NPR036; counted half in Ready):"]
        out += [f"  {path}: {fn.name}() compiles {', '.join(fn.compiled)}" for path, fn in partly]
    if report.converted:
        out += ["", f"Not counted: {len(report.converted)} file(s) np2ref wrote (`# np2ref: converted`): "
                + ", ".join(report.converted[:5]) + (", ..." if len(report.converted) > 5 else "")]
    ran = [f for f in report.files if f.run is not None]
    if ran:
        out += ["", "Run (--run): the original and the converted script, as scripts:"]
        out += [f"  {f.path}: {f.run}" for f in ran]
    constructs = report.constructs()
    if constructs:
        out += ["", "Refused constructs, by functions blocked:"]
        shown = [(len(c.blocks), c.diagnostic.code, f"{c.diagnostic.filename}:{c.diagnostic.line}:{c.diagnostic.col}",
                  c.diagnostic.message) for c in constructs[:most]]
        out += _table(("Blocks", "Code", "Where", "What"), shown)
        if len(constructs) > most:
            out.append(f"... and {len(constructs) - most} more (--report html or json lists them all)")
        out += ["", "By code:"]
        out += _table(("Code", "Constructs", "Blocks", "Title"),
                      [(code, n, blocked, code_title(code)) for code, n, blocked in report.by_code()])
        out += ["", "Run `np2ref explain CODE` for what a code means and how to rewrite the construct."]
    return "\n".join(out) + "\n"


def _percent(ready: float | None) -> str:
    return "-" if ready is None else f"{ready:.0f}%"


def _table(headers, rows, total=None) -> list[str]:
    """Left-aligned text columns, right-aligned numbers; the last column is not padded."""
    every = [headers, *rows] + ([total] if total else [])
    widths = [max(len(str(r[i])) for r in every) for i in range(len(headers))]
    numeric = [bool(rows) and all(isinstance(r[i], int) or str(r[i]).endswith("%") or r[i] in ("error", "-")
                                  for r in rows) for i in range(len(headers))]

    def line(cells) -> str:
        parts = [str(c).rjust(w) if num else str(c).ljust(w) for c, w, num in zip(cells, widths, numeric)]
        return "  ".join(parts).rstrip()

    rule = "-" * min(max(len(line(r)) for r in every), max(shutil.get_terminal_size().columns, len(line(headers))))
    out = [line(headers), rule] + [line(r) for r in rows]
    if total:
        out += [rule, line(total)]
    return out
