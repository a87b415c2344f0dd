"""One line map from a text the pipeline made back to the user's lines.

Three front-end passes convert a text made from the user's: the imported higher-order helpers
appended (frontend/imported.py), nested functions lifted to module helpers (frontend/closures.py)
and driver or host loops lifted into functions (frontend/driver.py). Each makes a `where` list:
for each line of its text (1-based, index 0 unused), the line of the text it was made from and
how many columns it moved right. A pass can run on a text another pass made (a lifted driver
loop that holds a closure), so a LineMap is the chain of those lists, the innermost first:

    user's text --imported--> pulled text --closures--> lifted text
    LineMap((closures' where, imported's where))   places a lifted line on the user's

Placing goes through each list in turn, as each pass placed its result on the text it was given,
and sorts diagnostics after each step as each did: the order of two diagnostics on one line
(by column, then code) is the same as before the map was one object.
"""

from __future__ import annotations

import dataclasses
import re

import libcst as cst

from ..diagnostics import Diagnostic, Span

Where = tuple  # line -> (line of the text it was made from, columns moved right)


def _key(d: Diagnostic):
    return d.line, d.col, d.code


@dataclasses.dataclass(frozen=True)
class LineMap:
    steps: tuple[Where, ...] = ()  # the innermost text's list first

    def through(self, where) -> LineMap:
        """The map of a text made from this map's text by a pass whose lines go to `where`."""
        return LineMap((tuple(where),) + self.steps)

    def __bool__(self) -> bool:
        return bool(self.steps)

    def line(self, n: int) -> int:
        """The user's line of line `n`."""
        for where in self.steps:
            n = where[min(n, len(where) - 1)][0]
        return n

    def place(self, line: int, col: int) -> tuple[int, int]:
        """The user's (line, column) of a position (a column moved left is kept at 1 or more)."""
        for where in self.steps:
            line, col = _placed(where, line, col)
        return line, col

    def diagnostics(self, found: list[Diagnostic]) -> list[Diagnostic]:
        """Diagnostics placed on the user's lines, in (line, column, code) order."""
        for where in self.steps:
            found = sorted((_diagnostic(where, d) for d in found), key=_key)
        return found

    def loops(self, loops: tuple) -> tuple:
        """ConversionResult.loops ((line, col, ...) each) on the user's lines."""
        for where in self.steps:
            loops = tuple(sorted((*_placed(where, line, col), *rest) for line, col, *rest in loops))
        return loops

    def host_lines(self, found: dict) -> dict:
        """ConversionResult.host_lines ((first line, last line, why) by function) on the user's lines."""
        if not self.steps:
            return found
        return {name: tuple((self.line(a), self.line(b), why) for a, b, why in spans) for name, spans in found.items()}

    def marks(self, tree: cst.Module) -> cst.Module:
        """A converted tree's `# @L<n>` line marks (np2ref.compile's) moved onto the user's lines.
        The rewrite writes them only where a statement's line ends (rewrite/function.py), so
        statements are walked and expressions never (a libcst transformer over every node of a
        module of many functions was a quarter of np2ref.compile's time on each function)."""
        return _remapped(tree, self) if self.steps else tree


def _placed(where: Where, line: int, col: int) -> tuple[int, int]:
    to, shift = where[min(line, len(where) - 1)]
    return to, max(1, col - shift)


def _span(where: Where, span: Span | None) -> Span | None:
    if span is None:
        return None
    line, col = _placed(where, span.line, span.col)
    end, end_col = _placed(where, span.end_line, span.end_col)
    return dataclasses.replace(span, line=line, col=col, end_line=end, end_col=end_col)


def _diagnostic(where: Where, diagnostic: Diagnostic) -> Diagnostic:
    notes = tuple(dataclasses.replace(n, span=_span(where, n.span)) for n in diagnostic.notes)
    return dataclasses.replace(diagnostic, span=_span(where, diagnostic.span), notes=notes)


_MARK = re.compile(r"# @L(\d+)$")
# the fields of statements, suites and clauses that hold statements, clauses or a line's end
_ENDS = ("trailing_whitespace", "header")
_HOLDERS = ("body", "orelse", "handlers", "finalbody", "cases")


def _remapped(node, lines: LineMap):
    """node with the marks at its lines' ends remapped; the same node where none is."""
    changes = {}
    for name in _ENDS:
        end = getattr(node, name, None)
        if isinstance(end, cst.TrailingWhitespace) and end.comment is not None:
            m = _MARK.match(end.comment.value)
            if m is not None:
                comment = end.comment.with_changes(value=f"# @L{lines.line(int(m.group(1)))}")
                changes[name] = end.with_changes(comment=comment)
    if not isinstance(node, cst.SimpleStatementLine):  # its body is small statements: no line ends
        for name in _HOLDERS:
            held = getattr(node, name, None)
            if isinstance(held, (tuple, list)):
                new = tuple(_remapped(h, lines) for h in held)
                if any(a is not b for a, b in zip(new, held)):
                    changes[name] = new
            elif isinstance(held, cst.CSTNode):
                new = _remapped(held, lines)
                if new is not held:
                    changes[name] = new
    return node.with_changes(**changes) if changes else node
