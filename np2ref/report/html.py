"""The HTML report: a static folder (index.html and one page per file), everything inline.

Each file page shows the original and the converted code side by side, row by row; refused
lines are highlighted and their diagnostics shown inline under them, with a filter by code.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from .. import __version__, codes
from ..diagnostics import Diagnostic
from . import assets
from .collect import FileReport, Report, code_title, ready_percent

STATUS_WORDS = {"exact": "converts exactly", "refused": "refused", "blocked": "blocked",
                "failed": "converts, but the converted script failed when run",
                "host": "stays NumPy (host code)"}


def write(report: Report, out_dir: str | Path) -> Path:
    """Write the site into `out_dir` (created if needed); returns the index's path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pages = page_names(report)
    for f in report.files:
        (out / pages[f.path]).write_text(file_page(f), encoding="utf-8")
    index = out / "index.html"
    index.write_text(index_page(report, pages), encoding="utf-8")
    return index


def page_names(report: Report) -> dict[str, str]:
    names: dict[str, str] = {}
    taken = {"index.html"}
    for f in report.files:
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", f.path.lstrip("./")) or "file"
        name, n = f"{stem}.html", 1
        while name in taken:
            n += 1
            name = f"{stem}-{n}.html"
        taken.add(name)
        names[f.path] = name
    return names


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _page(title: str, header: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_e(title)}</title>\n<style>{assets.CSS}</style>\n</head>\n<body>\n"
            f"<header>{header}</header>\n<main>\n{body}\n</main>\n<script>{assets.JS}</script>\n</body>\n</html>\n")


def _cards(exact: int, host: int, refused: int, extra: list[tuple[str, int]] = (), partly: int = 0) -> str:
    ready = ready_percent(exact, refused, host, partly)
    items = [("ready", "-" if ready is None else f"{ready:.0f}%", "ready (exact / all functions)")]
    items += [(k.lower(), v, k) for k, v in extra]
    items += [("exact", exact, "convert exactly"), ("refused", refused, "refused or blocked"),
              ("host", host, "stay NumPy (host)")]
    return '<div class="totals">' + "".join(
        f'<div class="card {cls}"><div class="n">{_e(n)}</div><div class="l">{_e(label)}</div></div>'
        for cls, n, label in items) + "</div>"


def _filter(counts: dict[str, int]) -> str:
    options = "".join(f'<option value="{_e(c)}">{_e(c)} {_e(code_title(c))} ({n})</option>'
                      for c, n in sorted(counts.items()))
    return (f'<div class="toolbar"><label for="code-filter">Filter by code</label>'
            f'<select id="code-filter"><option value="">all codes</option>{options}</select></div>')


def _bar(percent: float | None) -> str:
    if percent is None:
        return "-"
    return f'<span class="bar"><span style="width:{percent:.0f}%"></span></span>{percent:.0f}%'


def index_page(report: Report, pages: dict[str, str]) -> str:
    exact, host, refused = report.total("exact"), report.total("host"), report.total("refused")
    header = f"<h1>np2ref readiness report</h1><span class='muted'>np2ref {_e(__version__)}</span>"
    body = [_cards(exact, host, refused, [("Files", len(report.files)), ("Functions", report.functions)],
                   report.total("partly")),
            _filter(_code_counts(d for f in report.files for d in f.diagnostics)),
            "<h2>Files</h2>", _files_table(report, pages)]
    constructs = report.constructs()
    if constructs:
        body += ["<h2>Refused constructs, by functions blocked</h2>",
                 '<table class="list"><tr><th class="num">Blocks</th><th>Code</th><th>Where</th>'
                 "<th>What</th><th>Functions kept from converting</th></tr>"]
        for c in constructs:
            d = c.diagnostic
            where = f'<a data-keep href="{_e(pages[d.filename])}#L{d.line}">{_e(d.filename)}:{d.line}:{d.col}</a>'
            body.append(f'<tr data-codes="{_e(d.code)}"><td class="num">{len(c.blocks)}</td>'
                        f'<td><a class="badge error" href="#{_e(d.code)}">{_e(d.code)}</a></td><td>{where}</td>'
                        f'<td>{_e(d.message)}</td><td class="mono">{_e(", ".join(c.blocks))}</td></tr>')
        body.append("</table>")
    body += ["<h2>Codes</h2>", _codes_section(report)]
    return _page("np2ref readiness report", header, "\n".join(body))


def _files_table(report: Report, pages: dict[str, str]) -> str:
    rows = ['<table class="list"><tr><th>Name</th><th class="num">Funcs</th><th class="num">Exact</th>'
            '<th class="num">Host</th><th class="num">Refused</th><th>Ready</th></tr>']
    for f in report.files:
        ready = "unreadable" if f.file_error else _bar(f.ready)
        rows.append(f'<tr data-codes="{_e(" ".join(sorted({d.code for d in f.diagnostics})))}">'
                    f'<td class="mono"><a data-keep href="{_e(pages[f.path])}">{_e(f.path)}</a></td>'
                    f'<td class="num">{len(f.functions)}</td><td class="num">{f.exact}</td>'
                    f'<td class="num">{f.host}</td><td class="num">{f.refused}</td><td>{ready}</td></tr>')
    exact, refused = report.total("exact"), report.total("refused")
    rows.append(f'<tr class="total"><td>TOTAL</td><td class="num">{report.functions}</td>'
                f'<td class="num">{exact}</td><td class="num">{report.total("host")}</td>'
                f'<td class="num">{refused}</td><td>{_bar(report.ready)}</td></tr></table>')
    return "\n".join(rows)


def _codes_section(report: Report) -> str:
    blocking = {code: (n, blocked) for code, n, blocked in report.by_code()}
    parts = []
    for code in report.codes:
        n, blocked = blocking.get(code, (0, 0))
        summary = (f"{n} construct{'s' * (n != 1)}, blocks {blocked} function{'s' * (blocked != 1)}"
                   if code in blocking else "notes only")
        explanation = codes.explain(code) or f"{code}: no explanation recorded"
        parts.append(f'<details class="code" id="{_e(code)}" data-codes="{_e(code)}"><summary>'
                     f'<span class="badge {"error" if code in blocking else "info"}">{_e(code)}</span> '
                     f'{_e(code_title(code))} <span class="muted">· {summary}</span></summary>'
                     f"<pre>{_e(explanation)}</pre><p>In a terminal: <code>np2ref explain {_e(code)}</code></p>"
                     "</details>")
    return "\n".join(parts) or "<p class='muted'>No diagnostics.</p>"


def _code_counts(diagnostics) -> dict[str, int]:
    counts: dict[str, int] = {}
    for d in diagnostics:
        counts[d.code] = counts.get(d.code, 0) + 1
    return counts


def file_page(f: FileReport) -> str:
    header = (f'<a href="index.html">&larr; all files</a><h1 class="path">{_e(f.path)}</h1>')
    if f.file_error:
        boxes = "".join(_diag_box(d) for d in f.diagnostics)
        return _page(f"np2ref: {f.path}", header, f"<p>np2ref could not read this file.</p>{boxes}")
    errors = sum(d.is_error for d in f.diagnostics)
    verdict = ("<p class='verdict'><code>np2ref convert</code> writes this file as a whole.</p>" if f.complete else
               f"<p class='verdict'><code>np2ref convert</code> refuses this file ({errors} refused "
               f"construct{'s' * (errors != 1)}); the right-hand side converts the exact functions and "
               "leaves the refused ones as NumPy.</p>")
    body = [_cards(f.exact, f.host, f.refused, partly=f.partly), verdict, _functions_list(f),
            _filter(_code_counts(f.diagnostics)), LEGEND, _side_by_side(f)]
    return _page(f"np2ref: {f.path}", header, "\n".join(body))


LEGEND = ('<p class="legend muted"><span class="key fn-exact"></span>exact function '
          '<span class="key fn-refused"></span>refused <span class="key fn-blocked"></span>blocked (calls a '
          'refused one) <span class="key fn-host"></span>host code <span class="key changed"></span>line '
          'rewritten <span class="key bad"></span>refused construct</p>')


def _functions_list(f: FileReport) -> str:
    items = []
    for fn in f.functions:
        why = (f"calls {', '.join(fn.blocked_by)}" if fn.blocked_by else fn.host_reason or "")
        why_html = f' <span class="why">{_e(why)}</span>' if why else ""
        items.append(f'<li><a href="#L{fn.line}"><span class="badge {fn.status}" title="{_e(STATUS_WORDS[fn.status])}">'
                     f"{fn.status}</span> {_e(fn.name)}</a>{why_html}</li>")
    return f'<h2>Functions</h2><ul class="fns">{"".join(items)}</ul>' if items else ""


def _side_by_side(f: FileReport) -> str:
    source = f.source.splitlines()
    converted = f.converted.splitlines() if f.converted is not None else []
    rows = f.rows or [(i, None) for i in range(1, len(source) + 1)]
    status = {}
    for fn in f.functions:
        status.update((line, fn.status) for line in range(fn.line, fn.end_line + 1))
    by_end: dict[int, list[Diagnostic]] = {}
    marks: dict[int, list[Diagnostic]] = {}
    for d in f.diagnostics:
        # a short span is highlighted whole; a long one (a whole loop) by its first line
        last = d.end_line if d.line <= d.end_line <= min(d.line + 2, len(source)) else d.line
        by_end.setdefault(last, []).append(d)
        for line in range(d.line, last + 1):
            marks.setdefault(line, []).append(d)
    right_title = ("converted (runtime helpers omitted)" if f.complete else
                   "converted: exact functions only" if f.converted is not None else "not converted")
    out = ['<table class="sbs"><colgroup><col class="ln"><col><col class="ln"><col></colgroup>',
           f'<thead><tr><th colspan="2">original</th><th class="right" colspan="2">{_e(right_title)}</th></tr></thead>']
    for left, right in rows:
        out.append(_row(left, right, source, converted, status, marks))
        for d in by_end.get(left, []) if left else []:
            out.append(f'<tr class="diag" data-codes="{_e(d.code)}"><td colspan="4">{_diag_box(d)}</td></tr>')
    out.append("</table>")
    return "\n".join(out)


def _row(left, right, source, converted, status, marks) -> str:
    ltext = source[left - 1] if left else ""
    rtext = converted[right - 1] if right else ""
    here = marks.get(left, []) if left else []
    classes = [f"fn-{status[left]}"] if left in status else []
    attrs = ""
    if here:
        classes.append("bad" if any(d.is_error for d in here) else "note")
        attrs = f' data-hl="{_e(" ".join(sorted({d.code for d in here})))}"'
    row_id = f' id="L{left}"' if left else ""
    lcls = "src left" + ("" if left else " absent")
    rcls = "src right" + (" absent" if not right else " changed" if ltext.strip() != rtext.strip() else "")
    return (f'<tr{row_id} class="{" ".join(classes)}"{attrs}><td class="ln left">{left or ""}</td>'
            f'<td class="{lcls}">{_marked(ltext, left, here)}</td><td class="ln right">{right or ""}</td>'
            f'<td class="{rcls}">{_e(rtext)}</td></tr>')


def _marked(text: str, line: int | None, diagnostics: list[Diagnostic]) -> str:
    """The line with the span of each diagnostic on it wrapped in <mark> (the caret of the
    terminal rendering); overlapping spans keep the first."""
    spans = []
    for d in diagnostics:
        start = d.col - 1 if d.line == line else 0
        end = d.end_col - 1 if d.end_line == line else len(text)
        if end > start:
            spans.append((start, end, "" if d.is_error else " info"))
    out, pos = [], 0
    for start, end, cls in sorted(spans):
        if start < pos:
            continue
        out += [_e(text[pos:start]), f'<mark class="span{cls}">{_e(text[start:end])}</mark>']
        pos = end
    out.append(_e(text[pos:]))
    return "".join(out)


def _diag_box(d: Diagnostic) -> str:
    notes = "".join(f'<div class="note">{_e(n.message)}'
                    + (f' <span class="where">line {n.span.line}</span>' if n.span else "") + "</div>"
                    for n in d.notes)
    hint = f'<div class="hint">{_e(d.hint)}</div>' if d.hint else ""
    kind = "error" if d.is_error else "info"
    return (f'<div class="diagbox {kind}"><span class="badge {kind}">{_e(d.code)}</span> {_e(d.message)}'
            f'<span class="where">{_e(d.filename)}:{d.line}:{d.col}</span>{notes}{hint}'
            f'<div class="explain">{_e(code_title(d.code))} &middot; run <code>np2ref explain {_e(d.code)}</code> '
            f'or see <a href="index.html#{_e(d.code)}">the explanation</a></div></div>')
