"""LineMap.marks: np2ref.compile's `# @L<n>` marks moved onto the user's lines wherever a
statement's line ends: simple lines, block headers, one-line suites, and inside every kind of
compound statement (the walk visits statements only, never expressions)."""

from __future__ import annotations

import re

import libcst as cst

from np2ref.frontend.lines import LineMap

SOURCE = """\
def f(x):  # @L1
    y = x  # @L2
    if y:  # @L3
        y = 1  # @L4
    elif x:  # @L5
        y = 2  # @L6
    else:
        y = 3  # @L7
    for i in x:  # @L8
        pass  # @L9
    else:
        z = 0  # @L10
    while y: y -= 1  # @L11
    try:
        y = 4  # @L12
    except ValueError:
        y = 5  # @L13
    else:
        y = 6  # @L14
    finally:
        y = 7  # @L15
    with x as w:  # @L16
        def g():  # @L17
            return 8  # @L18
    match y:
        case 1:
            y = 9  # @L19
    class C:
        a = 10  # @L20
    return (y,  # @L21 a comment inside an expression is the user's, left alone
            1)  # @L22
"""


def test_every_statement_ends_mark_is_placed_on_the_users_line():
    where = tuple((n + 100, 0) for n in range(40))  # line n of the converted text is the user's n + 100
    out = LineMap((where,)).marks(cst.parse_module(SOURCE)).code
    marks = [int(m) for m in re.findall(r"# @L(\d+)$", out, re.M)]
    assert marks == [n + 100 for n in range(1, 23) if n != 21], out
    assert "# @L21 a comment" in out


def test_a_map_without_steps_leaves_the_tree():
    tree = cst.parse_module(SOURCE)
    assert LineMap().marks(tree) is tree
