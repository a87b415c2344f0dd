"""The fuzzer's host_families.py and flow_families.py (last session's features: opaque object
calls, SciPy special functions, prints in loops, jax.Array arguments, imported higher-order
helpers, itertools.repeat, set-up code called from the host, comprehensions over rows, appends,
draws in loops, tuple unpacks of helper returns, helpers that write an argument called inside
expressions) and what world.py renders around them; two programs of each family end to end (the
long runs are the `np2ref fuzz --family NAME` command's: docs/fuzzing.md)."""

from __future__ import annotations


import pytest

import np2ref
from fuzz_runs import family_forms, short_run
from np2ref.fuzz import world
from np2ref.fuzz.program import Block, Function, Line, Param, Program
from np2ref.fuzz.runner import Runner

FORMS = {"opaque_obj": r"obj\.(noise|level|scale|count)\(|\(obj, ", "special": r"\bspecial\.", "print_loop": r"print\(",
         "jax_args": r"\bj\b", "imported": r"\b(apply_n|do_while|each_row)\(", "repeat_loop": r"itertools\.repeat\(",
         "setup_host": r"time\.perf_counter\(\)", "comp_rows": r"\[.* for r\d+ in ", "append_loop": r"hist\d+\.append\(",
         "draw_loop": r"(rng|np\.random)\.\w+\(", "tuple_unpack": r"^\s*\w+, \(?\w+.* = h\d+\(",
         "call_in_expr": r"h\d+\(\w+\)"}


@pytest.fixture(scope="module")
def runner(tmp_path_factory):
    return Runner(vmap=True, grad=False, workdir=str(tmp_path_factory.mktemp("fuzz_features")))


@pytest.mark.parametrize("family", sorted(FORMS))
def test_a_family_asked_for_is_in_every_program_and_valid_numpy(family, tmp_path):
    def probed(program):  # the index probe that may end a program
        assert "[i]" in program.body[-1].text
    found = family_forms(family, FORMS[family], tmp_path, probed)
    assert any(found), f"{family}: {found}"  # left out where no argument fits (most need a float array)


@pytest.mark.parametrize("family, seed", [(f, 2) for f in sorted(FORMS)])
@pytest.mark.parametrize("count", [1, pytest.param(2, marks=pytest.mark.long)])  # one a family by default
def test_short_family_runs_have_no_failures(family, seed, count, tmp_path, capsys):
    short_run(family, count, seed, tmp_path, capsys)


def test_the_module_holds_the_probe_class_the_imports_and_helpers_passed_as_values():
    step = Function("h0", ("x",), (Line("x[0] += 1.0"),), "x")
    program = Program((Param("a", "np.arange(3.0)"), Param("obj", "Probe(1)"), Param("j", "jnp.asarray(np.ones(3))")),
                      (step,), (Line("a = apply_n(h0, 2, a)"), Line("a[...] += obj.level() + scipy.special.erf(0.5)"),
                                Block("for _ in itertools.repeat(None, 2):", (Line("a[...] += np.asarray(j)"),))),
                      "a.sum()")
    source = program.source()
    for needed in ("class Probe:", "import itertools", "import jax.numpy as jnp", "import scipy.special",
                   f"from {world.LIB_NAME} import apply_n", "def h0(x):"):
        assert needed in source, needed


def test_a_probe_called_once_more_than_numpy_calls_it_is_a_failure(runner, monkeypatch):
    program = Program((Param("a", "np.arange(3.0)"), Param("obj", "Probe(1)")), (),
                      (Line("v = a * obj.level()"),), "v")
    real = np2ref.compile

    def extra_call(fn, **kw):
        compiled = real(fn, **kw)
        return lambda a, obj: (compiled(a, obj), obj.count())[0]
    assert runner.check(program.source()).kind == "exact"
    monkeypatch.setattr(np2ref, "compile", extra_call)
    outcome = runner.check(program.source())
    assert outcome.kind == "failed" and "calls of its methods" in outcome.detail, outcome.describe()


def test_numpys_run_gets_the_numpy_array_of_a_jax_argument(runner):
    """`a * j`, j a float32 jax.Array: np2ref takes j for the NumPy array of its values (float64
    result); NumPy code handed j itself would run JAX's operator (float32 under its 32-bit mode)."""
    program = Program((Param("a", "np.array([1.0, 2.5])"), Param("j", "jnp.asarray(np.array([0.5, 2.0], dtype=np.float32))")),
                      (), (Line("v = a * j"), Line("a[...] += v")), "v")
    outcome = runner.check(program.source())
    assert outcome.kind == "exact", outcome.describe()
