"""The differential fuzzer (np2ref/fuzz/): a short seeded run, the generator's validity, the
runner's verdicts, the shrinker and the command's exit codes and saved regressions."""

from __future__ import annotations

import ast
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

import np2ref
from np2ref import fuzz
from np2ref.fuzz import regressions
from np2ref.fuzz.program import Block, Line, Param, Program
from np2ref.fuzz.runner import Outcome, Runner
from np2ref.fuzz.shadow import strict

TALLY = re.compile(r"^fuzz: (\d+) programs, (\d+) exact, (\d+) refused, (\d+) failed$")


def _run_main(argv, capsys):
    code = fuzz.main(argv)
    lines = capsys.readouterr().out.strip().splitlines()
    m = TALLY.match(lines[-1])
    assert m, f"the last line is not the tally: {lines[-1]!r}"
    return code, [int(x) for x in m.groups()], lines


# 6 programs in the default run (3 exact, 3 refused: both tallies met; 3 s of CPU, the family
# runs below generate the rest), 15 under `-m long`
@pytest.mark.parametrize("count, least_exact", [(6, 2), pytest.param(15, 6, marks=pytest.mark.long)])
def test_short_run_has_no_failures(count, least_exact, tmp_path, capsys):
    """`count` programs, a fixed seed: nothing fails, and the tally is sane (the long runs are the
    `np2ref fuzz` command's; this one checks the command end to end)."""
    code, (n, exact, refused, failed), lines = _run_main(
        ["--count", str(count), "--seed", "7", "--save-dir", str(tmp_path), "--no-shrink"], capsys)
    failures = [ln for ln in lines if ln.startswith("FAILURE")]
    assert failed == 0 and code == 0, "\n".join(failures)
    assert n == count and exact + refused + failed == n
    assert exact >= least_exact, "most generated programs should translate exactly"
    assert any(ln.startswith("discarded:") for ln in lines) and any(ln.startswith("refused:") for ln in lines)


# -- the generator --------------------------------------------------------------------------
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(fuzz.programs(6))
def test_generated_programs_are_valid_numpy(program):
    source = program.source()
    ast.parse(source)
    ns: dict = {}
    exec(compile(source, "<fuzz>", "exec"), ns)
    args = ns["make_args"]()
    assert len(args) == len(program.params)
    last = program.body[-1] if program.body else None
    probe = isinstance(last, Line) and "[i]" in last.text
    try:
        with strict():
            ns["f"](*args)  # valid by construction: NumPy runs it without error or warning
    except IndexError:
        assert probe  # only the final index probe may be out of range (runner: NumPy's error expected)


# what each family of np2ref/fuzz/families.py writes, by its form
FAMILY_FORMS = {
    "fresh_loop": r"for k\d+ in range\(.*\):\n(.*\n)*? +(if .*:\n +)?u\d+(, s\d+)? = ",
    "mask_lead": r"\w\[(:, )?[^\[\],]+, \(?(m\d+|\w\[0\] [<>!=]=?)",  # a named mask or one written in place
    "kept": r"b\d+ = \w\[(:, )?m\d+",
    "list_join": r"w \+ |\+ w\b|w \* 2|\(w\)|w\[0\]",
    "step_index": r"\w\[[^\]]*(np\.arange\(|range\(|np\.array\(\[|\[-?\d)",
    "lead_reduce": r"np\.(sum|max|min|mean)\(\w\[[^\]]*\], axis=0|\w\[[^\]]*\]\.(sum|max|min|mean)\((axis=)?0",
    "plane_reads": r"y\d+ = \w\[\d+:\d+\]|np\.max\(\w\[\d+:\d+\]|for i\d+ in range\(.*\):\n +\w\[i\d+",
    "phys_surface": r"np\.linspace\(|\[range\(|t\d+ = |print\(",
    "kernels": r" @ |np\.dot\(|np\.tensordot\(|np\.einsum\(|\[i\d+ \+ 1:\]|\[m\d+\]|u\d+ = t\d+",
    "index_param": r"\w\[~?(ix|mk)\b",
    "state_copy": r"x\d+ = .*st\b",
    "moving_dots": r"\w\[:, i\d+:i\d+ \+ \d+\]|\w\[0, i\d+:i\d+ \+ \d+\]",
    "moving_masks": r"w\d+ = \w\[(\.\.\., )?i\d+:i\d+ \+ \d+\]",
    "loop_return": r"for i\d+ in .*:\n(.*\n)*? +return ",
    # a name rebound to an expression of itself inside a loop (after an in-place write, or a target)
    "loop_rebind": r"(for|while) .*:\n(.*\n)*? +(\w+) = [^\n]*\b\3\b",
    "rebind": r"\b(\w+) = [^\n]*\b\1\b",
    "xp_calls": r"\bxp\.|\bxq\d+\.",
    "shape_set": r"X\d+\.shape = ",
    "seq_args": r"np\.meshgrid\(range|np\.array\(\[|np\.(concatenate|stack|vstack|column_stack|sum)\(\[|asarray\(range",
    "host_step": r"time\.(time|perf_counter)\(\)",
    "helper_returns": r"= h\d+\(",
}


@pytest.mark.parametrize("family", sorted(FAMILY_FORMS))
def test_a_family_asked_for_is_in_every_program(family):
    """`np2ref fuzz --family NAME`: every program holds one (valid NumPy, as every program)."""
    found = []

    @seed(17)
    @settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck), database=None,
              phases=[Phase.generate])
    @given(fuzz.programs(3, family))
    def check(program):
        source = program.source()
        ns: dict = {}
        exec(compile(source, "<fuzz>", "exec"), ns)
        try:
            with strict():
                ns["f"](*ns["make_args"]())
        except IndexError:  # the index probe that may end a program (test_generated_programs_are_valid_numpy)
            assert "[i]" in program.body[-1].text
        found.append(re.search(FAMILY_FORMS[family], source) is not None)

    check()
    # left out where the arguments do not fit (mask_lead and kept need 2-d arrays)
    assert sum(found) >= len(found) // 2, f"{family}: {found}"


@pytest.mark.parametrize("family, seed", [("fresh_loop", 3), ("mask_lead", 4), ("kept", 3), ("list_join", 4),
                                          ("step_index", 2), ("lead_reduce", 2), ("plane_reads", 2),
                                          ("phys_surface", 2), ("kernels", 5), ("index_param", 3),
                                          ("state_copy", 2), ("moving_dots", 2), ("moving_masks", 2),
                                          ("loop_return", 2), ("loop_rebind", 2), ("rebind", 3),
                                          ("xp_calls", 2), ("shape_set", 2), ("seq_args", 2), ("host_step", 3),
                                          ("helper_returns", 2)])
# one program of each family in the default run (44 s of CPU at three, a fuzz campaign in small;
# test_short_run_has_no_failures runs the command on 15), three under `-m long`
@pytest.mark.parametrize("count", [1, pytest.param(3, marks=pytest.mark.long)])
def test_short_family_runs_have_no_failures(family, seed, count, tmp_path, capsys):
    """`count` programs of each family of families.py (the long runs are commands: docs/fuzzing.md)."""
    code, (n, exact, refused, failed), lines = _run_main(
        ["--family", family, "--count", str(count), "--seed", str(seed), "--save-dir", str(tmp_path), "--no-shrink",
         "--no-grad"], capsys)
    assert failed == 0 and code == 0, "\n".join(ln for ln in lines if ln.startswith("FAILURE"))
    assert n == count


def test_program_renders_one_module():
    program = _toy_program()
    source = program.source()
    ns: dict = {}
    exec(compile(source, "<toy>", "exec"), ns)
    a, b = ns["make_args"]()
    assert np.shares_memory(a, b)  # make_args keeps arguments that alias each other
    assert "def h0(x):" not in source  # an unused helper is left out
    assert program.without_param("a") is None  # `a` is used
    assert program.without_param("b") is not None


# -- the runner -----------------------------------------------------------------------------
def _toy_program(body=None, ret="a.sum()"):
    from np2ref.fuzz.program import Function

    body = body or (Line("a[1:] += 1.5"), Line("a[::-1] *= 2.0"))
    return Program((Param("a", "np.arange(4.0)"), Param("b", "a[1:]")),
                   (Function("h0", ("x",), (Line("x[0] = 1"),)),), tuple(body), ret)


@pytest.fixture(scope="module")
def runner(tmp_path_factory):
    return Runner(vmap=True, workdir=str(tmp_path_factory.mktemp("fuzz")))


def _single(body: str, args: str, ret: str | None = None) -> str:
    params = tuple(Param(n, v) for n, v in (part.split("=", 1) for part in args.split(";")))
    return Program(params, (), tuple(Line(t) for t in body.split(";")), ret).source()


def test_runner_exact_with_vmap(runner):
    outcome = runner.check(_single("a[1:] += 1.5;a[[0, 0]] *= 2.0", "a=np.arange(4.0)", "a.sum()"))
    assert outcome.kind == "exact" and outcome.vmapped, outcome.describe()


def test_runner_exact_on_the_python_surface_family(runner):
    """statements.python_surface's forms: a lambda, builtins on array data, masked reductions."""
    body = ("f0 = lambda v: v * 2 + 1;a[...] = f0(a);a[...] += max(0.5, a.max());"
            "a[...] += a[a > 3].max();a[...] += np.mean(a[(a < 9) | (a > 20)])")
    outcome = runner.check(_single(body, "a=np.arange(4.0)", "a.sum()"))
    assert outcome.kind == "exact", outcome.describe()


def test_runner_invalid_when_the_program_is_none(runner):
    """A NameError is the generator's mistake; what NumPy itself raises is compared (test_fuzz_raises.py)."""
    outcome = runner.check(_single("a[:2] = np.ones(zz)", "a=np.arange(4.0)"))
    assert outcome.kind == "invalid" and outcome.code == "NameError"


def test_runner_index_errors_must_be_numpys(runner, monkeypatch):
    """NumPy raises IndexError: np2ref must raise the same (a traced index here), writing nothing."""
    source = _single("a[0] = 2.0;a[i] = 1.0", "a=np.arange(4.0);i=np.int64(7)")
    assert runner.check(source).kind == "exact"
    monkeypatch.setattr(np2ref, "compile", lambda fn, **options: lambda a, i: None)  # returns where NumPy raises
    outcome = runner.check(source)
    assert outcome.kind == "failed" and "NumPy raises IndexError" in outcome.detail, outcome.describe()


def test_runner_refused_records_the_code(runner):
    source = _single("np.hypot.at(a, [0, 1], 2.0)", "a=np.arange(4.0)")
    outcome = runner.check(source)
    assert outcome.kind == "refused" and outcome.code == "NPR101", outcome.describe()


def test_runner_mismatch_and_crash_are_failures(runner, monkeypatch):
    source = _single("a[1:] += 1.5", "a=np.arange(4.0)", "a.sum()")

    def wrong(fn, **options):
        return lambda a: a.sum() + 1.0
    monkeypatch.setattr(np2ref, "compile", wrong)
    outcome = runner.check(source)
    assert outcome.kind == "failed" and outcome.code == "mismatch", outcome.describe()

    def crashing(fn, **options):
        raise KeyError("boom")
    monkeypatch.setattr(np2ref, "compile", crashing)
    outcome = runner.check(source)
    assert outcome.kind == "failed" and outcome.code == "KeyError" and outcome.stage == "compile"


# -- the shrinker ---------------------------------------------------------------------------
def _numpy_check(source: str) -> Outcome:
    """A stand-in for the runner: invalid when NumPy raises, failed when `# BUG` is present."""
    ns: dict = {}
    try:
        exec(compile(source, "<shrink>", "exec"), ns)
        with strict():
            ns["f"](*ns["make_args"]())
    except Exception as exc:  # noqa: BLE001
        return Outcome("invalid", type(exc).__name__, "numpy")
    return Outcome("failed", "mismatch", "call") if "BUG" in source else Outcome("exact")


def test_shrinker_keeps_only_what_the_failure_needs():
    body = (
        Line("w = a.copy()"),
        Line("v = a[1:]"),
        Block("for k in range(2):", (Line("w[k] = 3.0"), Line("v[0] += 1.0  # BUG")), ("k = 0",)),
        Line("a[0] = 9.0"),
    )
    program = Program((Param("a", "np.arange(4.0)"), Param("b", "np.zeros(3)")), (), body, "w.sum()")
    outcome = _numpy_check(program.source())
    small, small_outcome, checks = fuzz.shrink(program, outcome, _numpy_check)
    assert small_outcome.signature == outcome.signature
    assert small.body == (Line("v = a[1:]"), Line("v[0] += 1.0  # BUG"))  # the definition of v stays
    assert small.ret is None and [p.name for p in small.params] == ["a"]
    assert 0 < checks < 60


def test_shrinker_needs_the_same_signature():
    program = Program((Param("a", "np.arange(4.0)"),), (), (Line("a[0] = 1.0  # BUG"),), None)
    crash = Outcome("failed", "TypeError", "call")  # a mismatch is not the same failure
    small, _, _ = fuzz.shrink(program, crash, _numpy_check)
    assert small == program


# -- the command ----------------------------------------------------------------------------
def test_failure_is_shrunk_saved_and_exits_1(tmp_path, capsys, monkeypatch):
    def check(self, source):
        return Outcome("failed", "mismatch", "call", "argument `a`[0]: got 1.0, expected 2.0") \
            if "[" in source.split("def f", 1)[1].split("def make_args")[0] else Outcome("exact")
    monkeypatch.setattr(Runner, "check", check)
    code, (n, exact, refused, failed), lines = _run_main(
        ["--count", "8", "--seed", "3", "--save-dir", str(tmp_path), "--no-vmap", "--saves-per-kind", "1"], capsys)
    assert code == 1 and n == 8 and failed >= 1
    saved = sorted(tmp_path.glob("fuzz_*.py"))
    assert saved and len(saved) <= 3  # mismatches alike are shrunk 3 times per kind saved, at most
    text = saved[0].read_text()
    assert regressions.status(text) == "open" and "# np2ref-fuzz-kind: failed:call:mismatch" in text
    assert "[" in text.split("def f", 1)[1].split("def make_args")[0]  # shrunk, still failing
    ns: dict = {}
    exec(compile(text, str(saved[0]), "exec"), ns)  # a saved case is a runnable module
    assert callable(ns["f"]) and isinstance(ns["make_args"](), tuple)


def test_bad_arguments_exit_2():
    with pytest.raises(SystemExit) as info:
        fuzz.main(["--count", "-1"])
    assert info.value.code == 2


def test_runner_exact_on_traced_ternaries_and_masked_helpers(runner):
    """statements.python_surface's issue-19 forms: conditional expressions and `and`/`or` values
    on array data (a guarded division, a guarded index), a lambda / def in a masked store."""
    body = ("a[...] += (1.0 / a[1] if a[1] != 0 else 0.0);a[...] += (a[0] > 0 and a[2] < 1);"
            "k0 = np.argmax(a) + 2;a[...] += (a[k0] if k0 < 4 and a[k0] > 0 else a.min());"
            "f0 = lambda u, v: u / v;a[a != 0] = f0(a[a != 0], a[a != 0])")
    outcome = runner.check(_single(body, "a=np.arange(4.0)", "a.sum()"))
    assert outcome.kind == "exact", outcome.describe()


def test_runner_compares_what_is_printed(runner, monkeypatch):
    """phys_surface prints traced values formatted with `%` and `.format`: the compiled call must
    print what NumPy's run printed."""
    source = _single('print("step %d: %.3f" % (1, a.sum()), "max {:.2f} at {}".format(a.max(), a.argmax()));a[0] = 1.0',
                     "a=np.arange(4.0)", "a.sum()")
    outcome = runner.check(source)
    assert outcome.kind == "exact", outcome.describe()

    def silent(fn, **options):  # the right values, nothing printed
        return lambda a: (a.__setitem__(0, 1.0), a.sum())[1]
    monkeypatch.setattr(np2ref, "compile", silent)
    outcome = runner.check(source)
    assert outcome.kind == "failed" and outcome.detail.startswith("printed ''"), outcome.describe()


def test_lead_reduce_probe_tells_xlas_order_from_numpys(runner, monkeypatch):
    """lead_reduce's probe counts the elements where a sum over axis 0 is not NumPy's row-by-row
    order: with the chain rewrite of rt/peepholes.py switched off, XLA's reduce of 8 planes adds
    in its own order and the program fails; with it on, the program is exact."""
    from np2ref.fuzz.plane_families import _probe
    from np2ref.rt import peepholes

    probe = _probe("p", "p[1:]", 8, "sum", "r0", False).text
    source = _single(f"r0 = np.sum(p[1:], axis=0);{probe}", "p=((np.arange(11520) % 13 - 6) * -0.1).reshape((9, 32, 40))",
                     "r0")
    assert runner.check(source).kind == "exact"
    monkeypatch.setitem(peepholes._npr_PEEPHOLES, "reductions", False)
    outcome = runner.check(source)
    assert outcome.kind == "failed" and "argument `p`" in outcome.detail, outcome.describe()


def test_printed_numbers_compare_within_float32_tolerance():
    """A float printed in full shows XLA's summation order (docs/semantics.md); a different
    integer, word or count of numbers is a difference."""
    from np2ref.fuzz.differences import _printed_difference

    assert _printed_difference("2.000001907348633 np.float32(2.000002)\n", "1.9999971389770508 np.float32(1.9999971)\n") is None
    assert _printed_difference("step 3: 1.5e+00", "step 4: 1.5e+00")
    assert _printed_difference("max 1.0 at 2", "max 1.0 at 2 3")
    assert _printed_difference("nan", "inf")


def test_a_list_of_arrays_written_through_an_alias_is_refused(runner):
    """state_copy's `x = st; x[0] += 0.5` with `st` a list of arrays: NumPy writes the caller's
    array; np2ref raised a bare TypeError (meant for a list of numbers, which stays one), now
    NPR207 as for a tuple or a dict, with the caller's list and arrays left as they were."""
    outcome = runner.check(_single("x0 = st;x0[0] += 0.5", "st=[np.arange(3.0), np.ones(2)]", "st[1].sum()"))
    assert outcome.kind == "refused" and outcome.code == "NPR207", outcome.describe()
    # a list of numbers stays a TypeError: test_compile.py's test_a_list_for_a_written_parameter_...


def test_runner_compares_the_arrays_a_list_argument_holds(runner, monkeypatch):
    """A write NumPy makes into an array of a list argument must show in the compiled call's."""
    source = _single("st[0][...] += 0.5", "st=[np.arange(3.0), np.ones(2)]", "st[1].sum()")

    def forgetful(fn, **options):  # the right result, the caller's arrays left alone
        return lambda st: st[1].sum()
    monkeypatch.setattr(np2ref, "compile", forgetful)
    outcome = runner.check(source)
    assert outcome.kind == "failed" and "argument `st`[0]" in outcome.detail, outcome.describe()


def test_runner_checks_python_scalar_result_types(runner, monkeypatch):
    """loop_return's `return i`: NumPy's run returns a Python int, so must the compiled call."""
    source = _single("a[0] = 1.0", "a=np.arange(4.0)", "(a.shape[0], float(a[0]))")
    assert runner.check(source).kind == "exact"

    def numpy_scalars(fn, **options):
        return lambda a: (a.__setitem__(0, 1.0), (np.int64(4), 1.0))[1]
    monkeypatch.setattr(np2ref, "compile", numpy_scalars)
    outcome = runner.check(source)
    assert outcome.kind == "failed" and "Python int" in outcome.detail, outcome.describe()


def test_a_helper_that_may_return_none_or_its_argument(runner):
    """loop_return's helper: `for i in ...: x[i] *= 2; if i >= 2: return x`, falling through to
    None, bound by `r = h(a)`: np2ref raised TypeError binding None (npr_own), where NumPy binds
    None and only a write into it raises (test_compile.py's writes_into_none); and `r is None`
    loaded r (`r[...] is None`: TypeError on None, False on a Ref), not Python's identity.
    (`return (x, i)` there is refused, NPR207, its message no longer about `state.copy()`.)"""
    from np2ref.fuzz.program import Function

    loop = Block("for i in range(x.shape[0]):", (Line("x[i] *= 2"), Block("if i >= 2:", (Line("return x"),))))
    helper = Function("h0", ("x",), (loop,))
    for arg in ("np.arange(2.0)", "np.arange(3.0)"):  # falls through; returns early
        program = Program((Param("a", arg),), (helper,), (Line("r = h0(a)"),), "(a.sum(), r is None)")
        outcome = runner.check(program.source())
        assert outcome.kind == "exact", outcome.describe()
    tuples = Function("h0", ("x",), (Block(loop.header, (loop.body[0], Block("if i >= 2:", (Line("return (x, i)"),)))),))
    outcome = runner.check(Program((Param("a", "np.arange(3.0)"),), (tuples,), (Line("r = h0(a)"),), "a.sum()").source())
    assert outcome.kind == "refused" and outcome.code == "NPR207" and "return a copy" in outcome.detail, outcome.describe()


def test_a_new_axis_read_bound_and_reduced(runner):
    # `v = a[None]; v.max()` was planned as a masked selection (None taken for a name that may
    # hold a mask): npr_select(a, None) raised ValueError. Found by moving_dots seed 2.
    outcome = runner.check(_single("v0 = a[None];a[...] += v0.max()", "a=np.arange(3.0)", "a.sum()"))
    assert outcome.kind == "exact", outcome.describe()


def test_a_batch_whose_members_numpy_types_differ_is_compared_by_value(runner):
    """`max(k32[1], 5)`: NumPy's np.int32 or the Python int 5 (int64), as each member's data picks;
    one batch cannot hold both, so the vmap check compares the values (the calls check each member's
    type). It failed as 'dtype float32, expected float64' before, on `max(y32[1], 0.5)`, which is
    now checked when it runs (NPR128 where the data picks the Python float: rt/picks.py)."""
    outcome = runner.check(_single("m = max(k32[1], 5)", "k32=np.array([7, 3, -1], dtype=np.int32)", "m"))
    assert outcome.kind == "exact" and outcome.vmapped, outcome.describe()


def test_runner_compares_zero_signs_and_scalar_types(runner, monkeypatch):
    """fuzz12: -0.0 where NumPy has 0.0, np.float64 where NumPy returns a Python float, and a
    tuple for NumPy's list are failures (compare.first_difference, exact but for the last bits)."""
    source = _single("a[0] = 0.0", "a=np.arange(4.0)", "(float(a[0]), [a[1]])")
    assert runner.check(source).kind == "exact"
    for wrong, said in [(lambda a: (a.__setitem__(0, -0.0), (-0.0, [a[1]]))[1], "got np.float64(-0.0)"),
                        (lambda a: (a.__setitem__(0, 0.0), (np.float64(0.0), [a[1]]))[1], "Python float"),
                        (lambda a: (a.__setitem__(0, 0.0), (0.0, (a[1],)))[1], "expected a list")]:
        monkeypatch.setattr(np2ref, "compile", lambda fn, wrong=wrong, **options: wrong)
        outcome = runner.check(source)
        assert outcome.kind == "failed" and said in outcome.detail, outcome.describe()
