"""Aliasing per binding and per returned item (issue 37, case 6): helpers that return their
argument (alone or in a tuple), rebind their parameter, or `op=` it; a fresh array rebound each
trip of a `while`. tests/programs/helper_returns.py's programs against NumPy (results, every
argument after the call, scalar types), compiled, converted, and run as a script; then the
analysis facts, and the refusals that stay (a helper returning its argument or a new array
depending on data; a Python number where a helper `op=`s its parameter in a loop)."""

from __future__ import annotations

import contextlib
import io
import re
import runpy
import textwrap

import libcst as cst
import numpy as np
import pytest

import np2ref
from conftest import ROOT, ProgramChecks, assert_same_as_numpy, converted_functions, run_cli
from np2ref.analysis.identity import returned_items

CHECKS = ProgramChecks("helper_returns")
P = CHECKS.module
R = np.random.default_rng(7)
POS, VEL = P.make_state(24, 3)

CASES = {  # each was refused on main: NPR205, NPR203, NPR011, NPR011, NPR205, NPR205
    "simulate_relax": (np.linspace(0.0, 1.0, 12), 6, 0.1),
    "simulate_doubled": (R.random(5), 3),
    "simulate_mass": (R.random(6) + 0.5, 1.5, 40.0),
    "simulate_damped": (np.linspace(1.0, 2.0, 10), np.arange(10) % 3 == 0, 1.0),
    "simulate_walls": (POS, VEL, 0.05, 12),
    "simulate_walls_while": (POS, VEL, 0.05, 0.5),
    # NPR205 on main: a tuple of the helper's arguments bound to other names (stable fluids)
    "simulate_fluid": (np.ones((6, 6)), R.random((6, 6)), 4),
    "simulate_crossed": (R.random((4, 4)), R.random((4, 4)), 3),
    "simulate_unpacked_once": (R.random((4, 4)), R.random((4, 4))),
    # NPR203 when traced on main: vel, only read by the helper, came back loaded, not the Ref
    "simulate_wrap_box": (R.random((5, 2)) * 3.0, R.random((5, 2)), 2.0, 4),
    "heun_split": (R.random(6), 0.1),
}


@pytest.mark.parametrize("name", CASES)
def test_compiled_as_numpy(name):
    CHECKS.same(name, *CASES[name])


def test_float32_and_int_arrays_keep_their_dtypes():
    CHECKS.same("simulate_walls", POS.astype(np.float32), VEL.astype(np.float32), 0.05, 5)
    CHECKS.same("simulate_mass", np.arange(1, 7, dtype=np.int64), 2, 400)


def test_converted_as_numpy(tmp_path):
    converted = converted_functions(P, ["relax", "doubled", "scale_mass", "reflect", "no_slip", "wrap_box", "rhs_filled",
                                        "fill_ends", *CASES], tmp_path,
                                    "helpers")
    for name, args in CASES.items():
        assert_same_as_numpy(getattr(P, name), getattr(converted, name), *args)


def test_the_script_prints_what_numpy_prints(tmp_path):
    path = ROOT / "tests" / "programs" / "helper_returns.py"
    r = run_cli("convert", path, "-o", "helpers_ref.py", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    printed = []
    for script in (path, tmp_path / "helpers_ref.py"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            runpy.run_path(str(script), run_name="__main__")
        printed.append(out.getvalue())
    assert printed[0].count("\n") == 6
    number = re.compile(r"[-+]?\d+\.?\d*(?:[eE][-+]?\d+)?")
    assert number.sub("#", printed[1]) == number.sub("#", printed[0]), printed
    for a, b in zip(number.findall(printed[0]), number.findall(printed[1])):  # (XLA may fuse a * b + c)
        assert abs(float(a) - float(b)) <= 1e-12 + 1e-9 * abs(float(a)), printed


# -- the analysis: per binding and per item ----------------------------------------------------
def _function(source: str) -> cst.FunctionDef:
    return cst.parse_module(textwrap.dedent(source)).body[0]


@pytest.mark.parametrize("source, items", [
    ("def f(A, w):\n    A *= w\n    return A.sum(), A", ((None, "A"), True, True)),
    ("def f(p, v):\n    p[0] = 1\n    return p, v", (("p", "v"), True, False)),
    ("def f(p, v):\n    return v, p.copy()", (("v", None), True, False)),
    ("def f(M, f):\n    M *= f\n    return M", (("M",), False, True)),
])
def test_returned_items(source, items):
    found = returned_items(_function(source))
    assert (found.items, found.unpacked, found.checked) == items


@pytest.mark.parametrize("source", [
    "def f(p, v):\n    p = p * 2\n    return p, v.copy()",   # rebound: no identity
    "def f(p, c):\n    if c:\n        return p, 1\n    return 1, p",  # another item on another path
    "def f(p):\n    return p, p",                            # one parameter twice
    "def f(p, q):\n    return (*p, q)",                       # starred: not the display's length
    "def f(p):\n    return p.copy(), 1",                     # nothing returned as itself
])
def test_not_returned_items(source):
    assert returned_items(_function(source)) is None


def _facts(source: str, name: str):
    return np2ref.convert_source(textwrap.dedent(source)).functions[name]


def test_a_rebound_parameter_is_not_returned():
    facts = _facts("""
        import numpy as np
        def h(v):
            v = v * 2.0
            v[0] = 1.0
            return v
    """, "h")
    assert facts.returns_alias == frozenset() and facts.mutated_params == ()


def test_unpacked_items_share_nothing_with_the_argument():
    facts = _facts("""
        import numpy as np
        def run(A, k):
            A *= 0.5
            return float(A.sum()), A.max(), A
        def main(A, k):
            e, m, A = run(A, k)
            A += 1.0
            return e, m, A
    """, "main")
    assert facts.roots["A"] == frozenset({"param A"})
    assert not facts.roots["e"] & facts.roots["A"] and not facts.roots["m"] & facts.roots["A"]
    assert facts.ref_names == frozenset({"A"})


# -- what stays refused --------------------------------------------------------------------------
def test_a_helper_returning_its_argument_or_a_new_array_is_refused_with_both_paths():
    source = textwrap.dedent("""
        import numpy as np
        def kick(vel, acc, dt):
            if acc.sum() > 0:
                vel = vel + acc * dt
            return vel
        def step(vel, acc, dt):
            vel = kick(vel, acc, dt)
            vel[0] = 0.0
            return vel
    """)
    result = np2ref.convert_source(source)
    (d,) = [d for d in result.diagnostics if d.is_error]
    assert d.code == "NPR203" and d.line == 8
    assert any("a new array on another path" in n.message and n.span.line == 5 for n in d.notes)


def test_an_operand_read_after_a_call_that_writes_it_is_refused():
    """`u + dt * rhs(u)`, rhs writing u in place: NumPy's `+` reads u after the call; main's
    translation loaded u before it (a wrong answer). heun_split, the call on its own line, is
    translated (CASES)."""
    source = textwrap.dedent("""
        import numpy as np
        def fill_ends(u):
            u[0] = u[-2]
            return u
        def rhs(u):
            u = fill_ends(u)
            return 2.0 * u
        def heun(u, dt):
            return u + dt * rhs(u)
    """)
    errors = [d for d in np2ref.convert_source(source).diagnostics if d.is_error]
    assert [(d.code, d.line) for d in errors] == [("NPR201", 10)]


@pytest.mark.parametrize("returned, why", [
    ("u[1:], v", "a view of an argument"),
    ("v, u", "items only read by the helper, written by the caller"),
])
def test_unpacked_views_and_read_only_items_stay_refused(returned, why):
    source = textwrap.dedent(f"""
        import numpy as np
        def pair(u, v):
            return {returned}
        def step(u, v):
            a, b = pair(u, v)
            a += 1.0
            return b
    """)
    result = np2ref.convert_source(source)
    assert [d.code for d in result.diagnostics if d.is_error] == ["NPR205"], why


def test_a_parameter_used_as_no_array_keeps_its_rebinding():
    """`E = accumulate(E, x)` in a loop, E a parameter used as no array: a number NumPy rebinds
    each trip (carried), or an array written in place; both exact."""
    CHECKS.same("total_of_param", np.ones(3), np.zeros(2))
    CHECKS.same("total_of_param", np.ones(3), 1.0)


def test_a_number_passed_where_the_identity_is_assumed_is_refused_when_traced():
    with pytest.raises(np2ref.Np2RefError) as info:
        CHECKS.compiled("simulate_mass")(np.float64(1.0), 1.5, 40.0)
    assert info.value.diagnostics[0].code == "NPR203"


def test_a_number_bound_in_the_caller_keeps_its_rebinding():
    CHECKS.same("total_of_literal", np.ones(3))


# -- a mask first, integers after it (issue 37, case 7) -------------------------------------------
@pytest.mark.parametrize("d", [0, 2, -1])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_mask_then_integer_stores(d, dtype):
    pos = R.random((9, 3)).astype(dtype)
    CHECKS.same("bounce_axis", pos, (pos - 0.5).astype(dtype), d)


def test_two_d_mask_then_integer_stores():
    CHECKS.same("bounce_grid", R.standard_normal((4, 5, 3)), 1)
    CHECKS.same("bounce_grid", R.integers(-3, 3, (4, 5, 3)), 0)


@pytest.mark.parametrize("d", [1, -3])
def test_where_inside_the_index_tuple_is_the_mask(d):
    pos = R.random((9, 3))
    CHECKS.same("bounce_where", pos, pos - 0.5, d)
    CHECKS.same("bounce_where", pos.astype(np.float32), (pos - 0.5).astype(np.float32), d)
    CHECKS.same("where_of_counts", np.arange(12).reshape(6, 2), np.array([0, 2, 0, -1, 3, 0]), 1)


def test_where_of_a_two_d_mask_inside_the_index_tuple_is_refused():
    grid = np.arange(12.0).reshape(6, 2)
    m2 = np.array([[True, False], [False, True], [False, False]])
    expected = P.where_of_grid(grid.copy(), m2)  # rows 0, 1 (the row numbers) and 0, 1 (the columns)
    assert (expected[:2, 0] == 0).all() and (expected[2:, 0] != 0).all()
    with pytest.raises(np2ref.Np2RefError) as info:
        CHECKS.compiled("where_of_grid")(grid, m2)
    assert info.value.diagnostics[0].code == "NPR104"


def test_converted_mask_then_integer(tmp_path):
    converted = converted_functions(P, ["bounce_axis", "bounce_where"], tmp_path, "trail")
    pos = R.random((7, 3))
    for name in ("bounce_axis", "bounce_where"):
        assert_same_as_numpy(getattr(P, name), getattr(converted, name), pos, pos - 0.5, 2)


def test_reads_under_the_same_mask_and_integers():
    pos = R.random((10, 3)) * 1.4 - 0.2
    CHECKS.same("reflect_axes", pos, R.standard_normal((10, 3)), 1.0)
    CHECKS.same("reflect_axes", pos.astype(np.float32), R.standard_normal((10, 3)).astype(np.float32), 1.0)


def test_reads_of_another_number_of_axes_are_refused():
    with pytest.raises(np2ref.Np2RefError) as info:
        CHECKS.compiled("mixed_axes")(R.standard_normal((6, 3, 3)), R.standard_normal((6, 3)), 1)
    assert info.value.diagnostics[0].code == "NPR104"
