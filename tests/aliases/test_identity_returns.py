"""analysis/identity.py: the parameter a function returns as itself on every path, and the
`x = f(x)` statements that therefore rebind nothing. Cases that must not count come first."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

import np2ref
from np2ref.analysis.identity import returned_param

NOT_IDENTITY = {
    "copy": "def f(u):\n    return u.copy()",
    "view": "def f(u):\n    return u[1:]",
    "rebound": "def f(u):\n    u = u * 2.0\n    return u",
    "aug": "def f(u):\n    u += 1.0\n    return u",
    "ann": "def f(u):\n    u: float = 1.0\n    return u",
    "tuple_target": "def f(u, v):\n    u, v = v, u\n    return u",
    "other_path": "def f(u, c):\n    if c:\n        return u[::-1]\n    return u",
    "bare_return": "def f(u, c):\n    if c:\n        return\n    return u",
    "other_param": "def f(u, v, c):\n    if c:\n        return v\n    return u",
    "falls_off": "def f(u, c):\n    if c:\n        return u",
    "ends_with_if": "def f(u, c):\n    if c:\n        return u\n    else:\n        return u",
    "for_target": "def f(u):\n    for u in range(3):\n        pass\n    return u",
    "walrus": "def f(u, w):\n    [(u := x) for x in w]\n    return u",
    "with": "def f(u, p):\n    with open(p) as u:\n        pass\n    return u",
    "except": "def f(u):\n    try:\n        pass\n    except ValueError as u:\n        pass\n    return u",
    "import": "def f(u):\n    import u\n    return u",
    "import_from": "def f(u):\n    from m import u\n    return u",
    "global": "def f(u):\n    global u\n    return u",
    "nonlocal": "def f(u):\n    def g():\n        nonlocal u\n        u = 1\n    g()\n    return u",
    "nested_def": "def f(u):\n    def u():\n        pass\n    return u",
    "del": "def f(u):\n    del u\n    return u",
    "match": "def f(u, x):\n    match x:\n        case [*u]:\n            pass\n    return u",
    "yield": "def f(u):\n    yield 1\n    return u",
    "async": "async def f(u):\n    return u",
    "decorated": "@deco\ndef f(u):\n    return u",
    "kwonly": "def f(*, u):\n    return u",
    "posonly": "def f(u, /):\n    return u",
    "star": "def f(*u):\n    return u",
}
IDENTITY = {
    "plain": "def f(u):\n    u[0] = 0.0\n    return u",
    "one_line": "def f(u): return u",
    "two_returns": "def f(u, c):\n    if c:\n        u[0] = 1.0\n        return u\n    u[1:] *= c\n    return (u)",
    "nested_return": "def f(u, w):\n    def g():\n        return w\n    u.fill(g())\n    return u",
    "second": "def f(a, b, c=2):\n    b[0] = c\n    u = a\n    return b",
}


def _function(source: str) -> cst.FunctionDef:
    return cst.parse_module(source + "\n").body[0]


@pytest.mark.parametrize("source", NOT_IDENTITY.values(), ids=NOT_IDENTITY.keys())
def test_not_identity(source):
    assert returned_param(_function(source)) is None


@pytest.mark.parametrize("source", IDENTITY.values(), ids=IDENTITY.keys())
def test_identity(source):
    assert returned_param(_function(source)) == ("b" if "def f(a, b" in source else "u")


HELPERS = """
import numpy as np


def clamp(u, w=1.0):
    u[0] = w
    return u


def first(a, b):
    b[0] = 0.0
    return a

"""


def _line_of(call_source: str) -> str:
    """The converted line of `call_source` inside a two-parameter function."""
    result = np2ref.convert_source(HELPERS + textwrap.dedent(f"""
        def g(x, y):
            {call_source}
            return x.sum() + y.sum()
        """), "m.py")
    assert result.ok, [d.message for d in result.diagnostics]
    body = result.body[result.body.index("def g(x, y):"):]
    return body.splitlines()[1].strip()


@pytest.mark.parametrize("call", [
    "y = clamp(x)",            # another name
    "x = y = clamp(x)",        # two targets
    "x = clamp(x.copy())",     # not the Name x
])
def test_other_assignments_stay_bindings(call):
    assert _line_of(call).startswith(call.rsplit(" = ", 1)[0] + " = ")


@pytest.mark.parametrize("call", ["x = clamp(*(x,))", "x = clamp(x, **{'w': 2.0})", "clamp(*(y,))"])
def test_unpacked_arguments_to_a_writer_are_refused(call):
    result = np2ref.convert_source(HELPERS + f"def g(x, y):\n    {call}\n    return x.sum()\n", "m.py")
    assert [d.code for d in result.diagnostics if d.is_error] == ["NPR208"]


@pytest.mark.parametrize("call, expected", [
    ("x = clamp(x)", "npr_value(clamp(x))"),
    ("x = clamp(x, 2.0)", "npr_value(clamp(x, 2.0))"),
    ("x = clamp(w=2.0, u=x)", "npr_value(clamp(w=2.0, u=x))"),
    ("x = first(x, y)", "npr_value(first(x, y))"),  # first() returns a, which x is passed as
    ("x = clamp(x); y = clamp(y)", "npr_value(clamp(x)); npr_value(clamp(y))"),
])
def test_identity_assignment_is_the_call(call, expected):
    assert _line_of(call) == expected
