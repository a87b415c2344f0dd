"""The report as JSON, for tools: the same data as the terminal and HTML reports."""

from __future__ import annotations

import json

from .collect import Construct, FileReport, Report, code_title

SCHEMA_VERSION = 1


def to_dict(report: Report) -> dict:
    exact, refused = report.total("exact"), report.total("refused")
    return {
        "version": SCHEMA_VERSION,
        "totals": {"files": len(report.files), "functions": report.functions, "exact": exact,
                   "host": report.total("host"), "refused": refused,
                   "ready_percent": _round(report.ready)},
        "converted_files_skipped": report.converted,
        "files": [_file(f) for f in report.files],
        "constructs": [_construct(c) for c in report.constructs()],
        "codes": [{"code": code, "title": code_title(code), "constructs": n, "blocks": blocked,
                   "explain": f"np2ref explain {code}"} for code, n, blocked in report.by_code()],
    }


def _round(ready: float | None) -> float | None:
    return None if ready is None else round(ready, 1)


def render(report: Report) -> str:
    return json.dumps(to_dict(report), indent=2) + "\n"


def _file(f: FileReport) -> dict:
    return {
        "path": f.path,
        "functions": len(f.functions), "exact": f.exact, "host": f.host, "refused": f.refused,
        "ready_percent": _round(f.ready),
        "converts_whole_file": f.complete,
        "run": f.run,
        "function_status": [{"name": fn.name, "line": fn.line, "end_line": fn.end_line, "status": fn.status,
                             "blocked_by": list(fn.blocked_by), "host_reason": fn.host_reason,
                             "compiled": list(fn.compiled)}
                            for fn in f.functions],
        "diagnostics": [d.to_json() for d in f.diagnostics],
    }


def _construct(c: Construct) -> dict:
    d = c.diagnostic
    return {"code": d.code, "title": c.title, "message": d.message, "filename": d.filename,
            "line": d.line, "col": d.col, "function": c.function, "blocks": list(c.blocks),
            "explain": f"np2ref explain {d.code}"}
