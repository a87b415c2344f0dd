"""A parameter returned as itself through a helper of the same module (`return laplacian(u, u)`,
the helper returning its `out`): NumPy hands back the caller's own array, and so must both routes
(np2ref.compile and `np2ref convert`'s @npr_jit functions called from host code). Runtime side:
npr_value notes the Ref it loads (rt/views.py, read by rt/jit.py's returned leaves); analysis
side: identity.returned_through, so `v = in_place(v)` in a loop rebinds nothing and the loop
writes the caller's buffer. Each case is differential: results, every argument, and which
argument (if any) each returned item is, against NumPy."""

from __future__ import annotations

import textwrap

import libcst as cst
from libcst.metadata import MetadataWrapper
import numpy as np
import pytest

import np2ref
from conftest import load_module, numpys_values, run_cli
from np2ref.analysis.module import analyse_module
from np2ref.verify.compare import first_difference

SOURCE = '''
import numpy as np


def lap(u, out):
    out[1:-1] = u[2:] - 2.0 * u[1:-1] + u[:-2]
    out[0] = 0.0
    return out


def in_place(u):
    return lap(u, u)


def chain(u):
    return in_place(u)


def written_after(u):
    r = lap(u, u)
    u[0] = 5.0
    return r


def written_through(u):
    r = in_place(u)
    r[0] = 7.0
    return u


def looped(v, n):
    for i in range(n):
        v = in_place(v)
    return v


def into_other(u, w):
    lap(u, w)
    return lap(w, u)


def pair(u, w):
    a = lap(u, w)
    return a, w, 1


GRID = np.linspace(0.0, 1.0, 4)


def the_grid(x):
    return GRID, x.sum()


def a_copy_of_the_grid(x):
    return GRID.copy(), x.sum()
'''

ARGS = {
    "in_place": lambda: (np.arange(6.0) ** 2,),
    "chain": lambda: (np.arange(6.0) ** 2,),
    "written_after": lambda: (np.arange(6.0) ** 2,),
    "written_through": lambda: (np.arange(6.0) ** 2,),
    "looped": lambda: (np.arange(6.0) ** 2, 3),
    "into_other": lambda: (np.arange(6.0) ** 2, np.ones(6)),
    "pair": lambda: (np.arange(6.0) ** 2, np.ones(6)),
}


def _which(result, args):
    """Per returned item, the position of the argument it is (None: another object)."""
    items = result if isinstance(result, tuple) else (result,)
    return [next((i for i, a in enumerate(args) if item is a), None) for item in items]


def _check(fn, translated, name):
    a0, a1 = ARGS[name](), ARGS[name]()
    expected, got = fn(*a0), translated(*a1)
    assert first_difference(expected, got, "result") is None
    for i, (x, y) in enumerate(zip(a0, a1)):
        assert first_difference(x, y, f"argument {i}") is None
    assert _which(got, a1) == _which(expected, a0)


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("identity_through"))


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    """`np2ref convert` of SOURCE, the converted file imported (its @npr_jit functions)."""
    folder = tmp_path_factory.mktemp("identity_conv")
    (folder / "through.py").write_text(SOURCE)
    r = run_cli("convert", "through.py", "-o", "through_ref.py", cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    return load_module((folder / "through_ref.py").read_text(), folder, "through_ref")


@pytest.mark.parametrize("name", list(ARGS))
def test_compiled_returns_the_callers_array(module, name):
    _check(getattr(module, name), np2ref.compile(getattr(module, name), host_below=0), name)


@pytest.mark.parametrize("name", list(ARGS))
def test_converted_returns_the_callers_array(module, converted, name):
    _check(getattr(module, name), getattr(converted, name), name)


def _returned(source: str) -> dict:
    facts = analyse_module(MetadataWrapper(cst.parse_module(textwrap.dedent(source)), unsafe_skip_copy=True))
    return {n: f.returns_param for n, f in facts.functions.items()}


def test_the_fact_follows_helpers_and_no_further():
    """Proved through helpers; not for a recursion, a view passed, a
    local name shadowing the helper, a default, a rebound or `op=`'d parameter."""
    got = _returned(SOURCE + '''
def recurse(u, n):
    return recurse(u, n - 1)


def a_view(u, w):
    return lap(u, w[1:])


def shadowed(u, lap):
    return lap(u, u)


def rebound(u):
    u = u * 2.0
    return lap(u, u)


def augmented(u):
    u += 1.0
    return in_place(u)


def keyword(u):
    return lap(out=u, u=u)
''')
    assert {n: p for n, p in got.items() if p} == {
        "lap": "out", "in_place": "u", "chain": "u", "into_other": "u", "keyword": "u",
        "written_through": "u"}


@pytest.mark.parametrize("route", ["compile", "convert"])
def test_a_module_array_returned_is_that_array_and_its_copy_a_new_one(module, converted, route):
    """`return GRID`: NumPy's very array (a copy before); `return GRID.copy()`: a new array each
    call, never one held from the trace."""
    f, g = (np2ref.compile(getattr(module, n), host_below=0) if route == "compile" else getattr(converted, n)
            for n in ("the_grid", "a_copy_of_the_grid"))
    grid = module.GRID if route == "compile" else converted.GRID
    assert f(np.ones(2))[0] is grid and f(np.ones(3))[0] is grid
    first, second = g(np.ones(2))[0], g(np.ones(2))[0]
    assert first is not second and first is not grid and numpys_values(first, grid)
