"""Codemod: NprUnsupported("np2ref NPR123: text") -> NprUnsupported("NPR123", "text").

The runtime's refusals take their code as a field (rt/core.py, NprError); code written in the
old form (one tagged text, in a branch made before the change) raises a TypeError when it
refuses. Run `python -m np2ref.tools.untag_errors np2ref/rt/*.py` to rewrite it; the calls it
cannot rewrite (a tag in a constant, a hint inside the text) are listed for a hand edit.
"""
import re
import sys

import libcst as cst

NAMES = {"NprError", "NprUnsupported", "NprTraceGap"}
TAG = re.compile(r"^np2ref (NPR\d{3}): ")


def strip(node):
    """(the string expression without its leading `np2ref NPRxxx: `, the code), or None: no tag."""
    if isinstance(node, cst.ConcatenatedString):
        left = strip(node.left)
        if left is None:
            return None
        new, code = left
        return node.with_changes(left=new), code
    if isinstance(node, cst.SimpleString):
        q = node.quote
        pre = node.prefix
        body = node.value[len(pre) + len(q):]
        m = TAG.match(body)
        if not m:
            return None
        return node.with_changes(value=pre + q + body[m.end():]), m.group(1)
    if isinstance(node, cst.FormattedString):
        parts = node.parts
        if not parts or not isinstance(parts[0], cst.FormattedStringText):
            return None
        m = TAG.match(parts[0].value)
        if not m:
            return None
        rest = parts[0].value[m.end():]
        new_parts = ([parts[0].with_changes(value=rest)] if rest else []) + list(parts[1:])
        return node.with_changes(parts=new_parts), m.group(1)
    return None


class Untag(cst.CSTTransformer):
    """Each refusal given one tagged text, given its code as the first argument."""

    def __init__(self):
        super().__init__()
        self.count = 0
        self.left = []

    def leave_Call(self, orig, node):
        if not (isinstance(node.func, cst.Name) and node.func.value in NAMES):
            return node
        if len(node.args) != 1 or node.args[0].keyword or node.args[0].star:
            return node
        got = strip(node.args[0].value)
        if got is None:
            self.left.append(cst.Module([]).code_for_node(node)[:90])
            return node
        value, code = got
        self.count += 1
        arg0 = cst.Arg(cst.SimpleString(f'"{code}"'), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        return node.with_changes(args=[arg0, node.args[0].with_changes(value=value)])


def main(paths: list[str]) -> None:
    total = 0
    for path in paths:
        with open(path) as fh:
            src = fh.read()
        untag = Untag()
        out = cst.parse_module(src).visit(untag)
        if untag.count:
            with open(path, "w") as fh:
                fh.write(out.code)
        total += untag.count
        for call in untag.left:
            print(f"left as it is, {path}: {call!r}")
    print("rewrote", total)


if __name__ == "__main__":
    main(sys.argv[1:])
