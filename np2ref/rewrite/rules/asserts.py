"""Asserts: `assert test, msg` -> `assert npr_assert(test, lambda: msg)`.

Python's assert when the test is concrete, a run-time check when it is array data; still an
`assert` statement, so `python -O` drops it as it drops the original.
"""

from __future__ import annotations

import libcst as cst

from ...emit import jaxnames as J
from ..registry import emits


@emits(cst.Assert)
def emit_assert(original: cst.Assert, updated: cst.Assert, ctx):
    args = [updated.test]
    if updated.msg is not None:
        args.append(cst.Lambda(cst.Parameters(), updated.msg))
    return updated.with_changes(test=J.call(J.ASSERT, *args), msg=None, comma=cst.MaybeSentinel.DEFAULT)
