"""Rows of a side-by-side view: each row a source line, a converted line, or both.

Anchors come from the `# @L<n>` marks of the converted text (a converted statement ends on a
line marked with the source line it starts on). The longest run of anchors that goes down
both sides together is kept (a loop's header is emitted after its body, so not every mark
fits); between two anchors the lines are paired by their text, as a diff would.
"""

from __future__ import annotations

import ast
import bisect
import difflib

from ..emit.module import LINE_MARK

Row = tuple[int | None, int | None]   # (source line, converted line), 1-based


def align(source: list[str], converted: list[str]) -> list[Row]:
    anchors = _monotone(_anchors(source, converted))
    rows: list[Row] = []
    prev = (0, 0)
    for a in anchors + [(len(source) + 1, len(converted) + 1)]:
        rows += _fill(source, converted, prev, a)
        if a[0] <= len(source):
            rows.append(a)
        prev = a
    return rows


def _anchors(source: list[str], converted: list[str]) -> list[Row]:
    """(source line, converted line) for every marked statement: its first lines on both sides."""
    starts = _statement_starts("\n".join(converted))
    out = []
    for i, text in enumerate(converted, 1):
        m = LINE_MARK.search(text)
        if m and 1 <= int(m.group(1)) <= len(source):
            out.append((int(m.group(1)), starts.get(i, i)))
    return out


def _statement_starts(text: str) -> dict[int, int]:
    """Last line -> first line of every simple statement that spans several lines."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    return {n.end_lineno: n.lineno for n in ast.walk(tree)
            if isinstance(n, ast.stmt) and not hasattr(n, "body") and n.end_lineno != n.lineno}


def _monotone(anchors: list[Row]) -> list[Row]:
    """The longest subsequence increasing on both sides (patience sorting, O(n log n))."""
    anchors = sorted(set(anchors), key=lambda a: (a[1], -a[0]))
    tails: list[int] = []          # smallest source line ending a run of each length
    tail_index: list[int] = []
    back: list[int] = []
    for i, (src, _) in enumerate(anchors):
        k = bisect.bisect_left(tails, src)
        if k == len(tails):
            tails.append(src)
            tail_index.append(i)
        else:
            tails[k], tail_index[k] = src, i
        back.append(tail_index[k - 1] if k else -1)
    run, i = [], tail_index[-1] if tail_index else -1
    while i >= 0:
        run.append(anchors[i])
        i = back[i]
    return run[::-1]


def _fill(source: list[str], converted: list[str], start: Row, end: Row) -> list[Row]:
    """Pair the lines strictly between two anchors by their text (marks and indentation aside)."""
    left = list(range(start[0] + 1, end[0]))
    right = list(range(start[1] + 1, min(end[1], len(converted) + 1)))
    a = [source[i - 1].strip() for i in left]
    b = [LINE_MARK.sub("", converted[j - 1]).strip() for j in right]
    rows: list[Row] = []
    for _, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        for k in range(max(i2 - i1, j2 - j1)):
            rows.append((left[i1 + k] if i1 + k < i2 else None, right[j1 + k] if j1 + k < j2 else None))
    return rows
