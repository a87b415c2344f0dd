"""The fuzzer's made_families.py (fuzz13): a `try` around, inside or between loops and an object of a
module class carried through a loop (both host code to np2ref.compile: checked through `convert`),
lists made in one assignment as histories of a `while` on data, a call through a local bound to one of
several module functions, masked stores casting their masked reads, module number constants, and
`round(v, n)` of the data in a loop, on data with -0.0, inf, nan and integer ends. Each family asked
for is in its programs, which NumPy runs, and a program of each runs end to end without failure (the
long runs are `np2ref fuzz --family NAME`: docs/fuzzing.md)."""

from __future__ import annotations

import numpy as np

from fuzz_runs import family_tests
from np2ref.fuzz import converted
from np2ref.fuzz.program import Function, Line, Param, Program
from np2ref.fuzz.runner import Runner
from np2ref.fuzz.trip_families import ModuleSetup

FORMS = {"try_loop": r"^\s+try:$",
         "class_attrs": r"= (State|Params)\(.*# np2ref-fuzz: convert$",
         "pair_history": r"^\s+[(\[]?hist\d+, hist\d+.* = ",
         "chosen_call": r"(step\d+ = \w+ if |for step\d+ in \(\w+, \w+\):|step\d+ = \w+$)",
         "mask_cast": r"^\s+\w+\[m\d+(, 0)?\] (=|\+=|\*=) ",
         "module_consts": r"^(G|N|EPS|HALF|NEG0|K|BIG|TOL|F_A|INF|I8) = ",
         "round_digits": r"= round\(v\d+|\+= round\(v\d+"}


test_a_family_asked_for_is_in_its_programs_and_valid_numpy, test_short_family_runs_have_no_failures = \
    family_tests(FORMS)

TRY = '''
import numpy as np


def f(x, q):
    v = 0.0  # np2ref-fuzz: convert
    for k in range(3):
        x[1:] += 0.5 * x[:-1]
    try:
        v = x[int(q[0])]
    except IndexError:
        v = -1.0
    return x, v


def make_args():
    return (np.array([1.0, -0.0, 2.0]), np.array([7, 0]))
'''


def test_a_program_holding_a_try_is_checked_through_compile(tmp_path, monkeypatch):
    """np2ref.compile runs a function holding a `try` itself since breaks13 (host code, loops compiled):
    the runner compares it against NumPy without the convert route (which test_fuzz_api.py checks for
    what compile still refuses, a clock), marked for convert or not."""
    calls = []
    real = converted.run_converted

    def spy(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(converted, "run_converted", spy)
    runner = Runner(vmap=False, grad=False, workdir=str(tmp_path))
    assert runner.check(TRY).kind == "exact" and not calls
    assert runner.check(TRY.replace("  # np2ref-fuzz: convert", "")).kind == "exact"


def test_a_module_constant_is_rendered_when_f_returns_a_name_after_it():
    """`q[...] = q + N` then `return M`: the helpers' scan read `...q + NM` and left N out (a NameError:
    an invalid program, 4 of module_consts' first 25)."""
    program = Program((Param("q", "np.zeros(2)"), Param("M", "np.ones(2)")), (ModuleSetup("N", (), (Line("N = 64"),)),),
                      (Line("q[...] = q + N"),), "M")
    assert "\nN = 64\n" in program.source()
    ns: dict = {}
    exec(program.source(), ns)
    q, M = ns["make_args"]()
    assert ns["f"](q, M) is M and np.array_equal(q, [64.0, 64.0])
    assert isinstance(program.helpers[0], Function)
