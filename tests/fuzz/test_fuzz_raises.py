"""Programs NumPy raises on (np2ref/fuzz/raises.py): the runner compares np2ref's exception with
NumPy's (its public type, the message where np2ref promises it, the arguments after it) instead of
discarding the program; only the generator's mistakes (invalid) and the strict run's own errors
(excluded) are no test, and a run made mostly of those fails. The families raise_loop and
minmax_kinds (raise_families.py, pick_families.py) reach both outcomes."""

from __future__ import annotations

import re

import numpy as np
import pytest

import np2ref
from fuzz_runs import numpy_runs, short_run
from np2ref import fuzz
from np2ref.fuzz import raises
from np2ref.fuzz.program import Block, Line, Param, Program
from np2ref.fuzz.runner import Outcome, Runner


@pytest.fixture(scope="module")
def runner(tmp_path_factory):
    return Runner(vmap=False, grad=False, workdir=str(tmp_path_factory.mktemp("raises")))


def _program(body, args: str, ret: str | None = None) -> str:
    params = tuple(Param(n, v) for n, v in (part.split("=", 1) for part in args.split(";")))
    stmts = tuple(Line(t) if isinstance(t, str) else t for t in body)
    return Program(params, (), stmts, ret).source()


CHECKED = _program(["a[0] = 2.0", Block("if a.sum() > 3:", (Line("raise ValueError('too big')"),))],
                   "a=np.arange(4.0)", "a.sum()")


def _stand_in(monkeypatch, call):
    """np2ref.compile replaced by `call(a)` (what the compiled function does with the argument)."""
    monkeypatch.setattr(np2ref, "compile", lambda fn, **options: call)


# -- verdicts ---------------------------------------------------------------------------------
@pytest.mark.parametrize("body, args, raised", [
    (["a[:2] = np.ones(3)"], "a=np.arange(4.0)", "ValueError"),  # a broadcast
    (["a += 0.5"], "a=np.arange(4)", "UFuncTypeError"),  # a casting rule
    (["a[0] = 300"], "a=np.zeros(2, dtype=np.int8)", "OverflowError"),
    (["x = 1 // (a.shape[0] - 4)", "a += x"], "a=np.arange(4.0)", "ZeroDivisionError"),
    (["a += 1.0", "assert a.sum() < 3, 'big'"], "a=np.arange(4.0)", "AssertionError"),
    (["a[0] = 1.0", Block("if a[0] > 0:", (Line("raise FloatingPointError('own')"),))], "a=np.arange(4.0)",
     "FloatingPointError"),  # the program's own: compared, not the strict run's
])
def test_numpy_raising_is_compared(runner, body, args, raised):
    """Before raises.py every one of these was discarded as invalid: nothing was checked."""
    outcome = runner.check(_program(body, args))
    assert outcome.kind == "exact" and outcome.raised == raised, outcome.describe()


def test_the_generators_mistakes_and_the_strict_runs_errors_are_no_test(runner):
    outcome = runner.check(_program(["a[0] = zz"], "a=np.arange(4.0)"))
    assert (outcome.kind, outcome.code) == ("invalid", "NameError") and outcome.discarded
    outcome = runner.check(_program(["a[0] = 1.0 / a[0]"], "a=np.zeros(2)"))
    assert (outcome.kind, outcome.code) == ("excluded", "FloatingPointError") and outcome.discarded


def test_returning_where_numpy_raises_fails(runner, monkeypatch):
    _stand_in(monkeypatch, lambda a: 6.0)
    outcome = runner.check(CHECKED)
    assert outcome.kind == "failed" and outcome.code == "no ValueError" and outcome.differs, outcome.describe()


def test_another_exception_type_fails(runner, monkeypatch):
    def call(a):
        raise TypeError("too big")
    _stand_in(monkeypatch, call)
    outcome = runner.check(CHECKED)
    assert outcome.kind == "failed" and outcome.code == "TypeError" and "NumPy raises ValueError" in outcome.detail


def test_the_programs_own_message_is_compared_numpys_library_text_is_not(runner, monkeypatch):
    def call(a):
        raise ValueError("another text")
    _stand_in(monkeypatch, call)
    outcome = runner.check(CHECKED)
    assert outcome.kind == "failed" and outcome.code == "ValueError message", outcome.describe()
    outcome = runner.check(_program(["a[:2] = np.ones(3)"], "a=np.arange(4.0)"))  # a broadcast's text is NumPy's
    assert outcome.kind == "exact", outcome.describe()


def test_arguments_written_before_the_exception_fail(runner, monkeypatch):
    """As they were (np2ref writes back after the check) or as NumPy left them; not a third state."""
    def call(a):
        a[1] = 9.0
        raise ValueError("too big")
    _stand_in(monkeypatch, call)
    outcome = runner.check(CHECKED)
    assert outcome.kind == "failed" and outcome.code == "after ValueError", outcome.describe()

    def like_numpy(a):
        a[0] = 2.0
        raise ValueError("too big")
    _stand_in(monkeypatch, like_numpy)
    assert runner.check(CHECKED).kind == "exact"


def test_the_second_call_must_raise_too(runner, monkeypatch):
    calls = []

    def call(a):
        calls.append(1)
        if len(calls) == 1:
            raise ValueError("too big")
        return 6.0
    _stand_in(monkeypatch, call)
    outcome = runner.check(CHECKED)
    assert (outcome.kind, outcome.stage, outcome.code) == ("failed", "second call", "no ValueError")


def test_public_types():
    try:
        np.arange(3).__iadd__(0.5)
    except TypeError as exc:
        assert type(exc).__module__.startswith("numpy._") and raises.public_type(type(exc)) is TypeError
    assert raises.public_type(np.linalg.LinAlgError) is np.linalg.LinAlgError
    assert raises.public_type(UnboundLocalError) is UnboundLocalError


def test_host_code_that_raises_is_checked_through_convert(runner):
    source = _program(["t = time.perf_counter()", "a[0] = 2.0",
                       Block("if a.sum() > 3:", (Line("raise ValueError('too big')"),))], "a=np.arange(4.0)")
    outcome = runner.check(source)
    assert outcome.kind == "exact" and outcome.raised == "ValueError", outcome.describe()


def test_a_run_made_mostly_of_no_tests_fails(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(Runner, "check", lambda self, source: Outcome("invalid", "NameError", "numpy"))
    code = fuzz.main(["--count", "3", "--seed", "1", "--save-dir", str(tmp_path), "--no-shrink"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 1 and any(ln.startswith("warning: NumPy's run made no test") for ln in lines), lines


# -- the families ------------------------------------------------------------------------------
def test_raise_loop_programs_raise_and_pass(tmp_path):
    runs = [(p.source(), e) for p, e in numpy_runs("raise_loop", tmp_path, 12)]
    assert all(re.search(r"^ +(raise \w+Error\(|assert )|^ +h\d+\(", s, re.M) for s, _ in runs)
    assert any(re.search(r"^ +(for|while) .*:\n(.*\n)*? +(raise|assert)", s, re.M) for s, _ in runs)
    raised = [type(e).__name__ for _, e in runs if e is not None]
    assert raised and len(raised) < len(runs), raised  # both outcomes
    assert not any(isinstance(e, (NameError, Warning)) and type(e) is not UnboundLocalError for _, e in runs if e)


def test_minmax_kinds_picks_of_mixed_kinds(tmp_path):
    runs = [(p.source(), e) for p, e in numpy_runs("minmax_kinds", tmp_path, 12)]
    picks = [s for s, _ in runs if re.search(r"\b(max|min)\(", s)]
    assert len(picks) >= len(runs) // 2


@pytest.mark.parametrize("family", ["raise_loop", "minmax_kinds"])
@pytest.mark.parametrize("count", [1, pytest.param(3, marks=pytest.mark.long)])
def test_short_family_runs_have_no_failures(family, count, tmp_path, capsys):
    short_run(family, count, 5, tmp_path, capsys)


def test_what_numpy_printed_before_raising_is_printed_first(runner, monkeypatch):
    source = _program(["print('step', a.sum())", "a[0] = 2.0", Block("if a.sum() > 3:", (Line("raise ValueError('too big')"),))],
                      "a=np.arange(4.0)")
    assert runner.check(source).kind == "exact"

    def call(a):  # the print lost (or another text)
        raise ValueError("too big")
    _stand_in(monkeypatch, call)
    outcome = runner.check(source)
    assert outcome.kind == "failed" and outcome.code == "after ValueError" and "printed" in outcome.detail

    def more(a):  # NumPy's lines first, then a line printed after the failing check: no longer allowed
        print("step", 6.0)
        print("step", 7.0)
        raise ValueError("too big")
    _stand_in(monkeypatch, more)
    outcome = runner.check(source)
    assert outcome.kind == "failed" and outcome.code == "after ValueError" and "printed" in outcome.detail


def test_a_generator_after_an_assert_or_a_raise_is_compared(runner, monkeypatch):
    """After any exception, not only an IndexError: a draw after the failing check is not made."""
    source = _program(["a[0] = rng.random()", Block("if a.sum() > 3:", (Line("raise ValueError('too big')"),)),
                       "a[1] = rng.random()"], "a=np.arange(4.0);rng=np.random.default_rng(1)")
    assert runner.check(source).kind == "exact"

    def call(a, rng):  # the draw after the raise made
        rng.random()
        rng.random()
        raise ValueError("too big")
    _stand_in(monkeypatch, call)
    outcome = runner.check(source)
    assert outcome.kind == "failed" and outcome.code == "after ValueError", outcome.describe()
