"""np2ref.verify, `np2ref verify` and compile(verify=True): the harness passes correct
translations, catches planted mistranslations under jit, vmap and grad (with a shrunk input),
and fails closed when nothing was compared.

Compiled functions are shared across tests (compiling and tracing dominate the run time).
NP2REF_VERIFY_ALL=1 verifies every corpus program instead of the fast few.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys

import jax
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import np2ref
from np2ref.cli import main
from np2ref.verify import harness, inputs
from conftest import ROOT, load_module

PROGRAMS = """
import numpy as np


def smooth(u, alpha):
    u[1:-1] += alpha * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    return np.sum(u * u)


def smooth_off_by_one_element(u, alpha):
    u[1:-1] += alpha * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    u[2] *= 1.001
    return np.sum(u * u)


def scale(u):
    u *= 2.0


def scale_misses_one(u):
    u *= 2.0
    u[3] = 0.0


def total(u):
    return np.sum(u)


def total_float32(u):
    return np.float32(np.sum(u))


def discards_result(u):
    v = u + 1.0


def deposit(idx, w, hist):
    np.add.at(hist, idx, w)


def square(u):
    v = u.reshape(3, 3)
    v[0, 0] = 1.0
    return v.sum()


def example(rng):
    return rng.random(8), 0.1
"""

U = np.linspace(0.0, 1.0, 8) ** 2
FAST = {"heat2d_explicit", "game_of_life", "lbm_d2q9"}
CORPUS = sorted((ROOT / "corpus").glob("*.py"))


@pytest.fixture(scope="module")
def programs(case_dir):
    return load_module(PROGRAMS, case_dir, "verify_programs")


@functools.cache
def _compiled_cache(module_name: str, name: str, **kw):
    return np2ref.compile(getattr(sys.modules[module_name], name), **kw)


@pytest.fixture(scope="module")
def compiled(programs):
    return lambda name, **kw: _compiled_cache(programs.__name__, name, **kw)


def _corpus_module(path):
    name = f"verify_corpus_{path.stem}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


# -- correct translations pass ----------------------------------------------------------------

@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_program_verifies(path):
    if path.stem not in FAST and not os.environ.get("NP2REF_VERIFY_ALL"):
        pytest.skip("set NP2REF_VERIFY_ALL=1 to verify every corpus program")
    module = _corpus_module(path)
    report = np2ref.verify(getattr(module, module.ENTRY), **module.make_inputs("small"), examples=5, seed=0)
    assert report.ok, str(report)
    for result in report.results.values():
        assert result.status in ("passed", "skipped"), str(report)
        if result.passed:
            assert result.compared >= 1 and result.tried >= result.compared
    if path.stem == "game_of_life":  # all integer: nothing to differentiate
        assert report["grad"].status == "skipped" and "no float argument" in report["grad"].reason
    else:
        assert report["grad"].passed


def test_report_fields_and_table(compiled):
    report = np2ref.verify(compiled("smooth"), U, 0.1, examples=6, seed=3)
    assert report.ok and report.seed == 3
    jit = report["jit"]
    assert (jit.status, jit.compared, jit.tried, jit.discarded) == ("passed", 6, 6, 0)
    assert jit.worst_error < 1e-12 and jit.failing_input is None
    text = str(report)
    assert "transform  result  worst error  compared  tried  discarded" in text
    assert text.rstrip().endswith("verified: jit, vmap, grad")


def test_seed_none_picks_and_reports_one(compiled):
    report = np2ref.verify(compiled("smooth"), U, 0.1, transforms=("jit",), examples=2)
    assert isinstance(report.seed, int) and report.ok


def test_integer_index_arrays_with_duplicates(compiled):
    idx = np.array([0, 2, 2, 4])
    report = np2ref.verify(compiled("deposit"), idx, np.ones(4), np.zeros(5), examples=8, seed=0)
    assert report.ok, str(report)
    assert report["grad"].passed  # d hist / d w through np.add.at


def test_vary_shapes_moves_lengths(compiled, monkeypatch):
    c = compiled("smooth")
    seen = set()
    original = c.original

    @functools.wraps(original)
    def recording(u, alpha):
        seen.add(u.shape)
        return original(u, alpha)

    monkeypatch.setattr(c, "original", recording)
    report = np2ref.verify(c, U, 0.1, transforms=("jit",), examples=12, seed=0, vary_shapes=True)
    assert report.ok, str(report)
    assert seen - {(8,)}, seen


# -- planted mistranslations are caught -------------------------------------------------------

def test_planted_jit_mismatch_is_caught_and_shrunk(compiled, programs, monkeypatch):
    c = compiled("smooth")
    monkeypatch.setattr(c, "original", programs.smooth_off_by_one_element)
    report = np2ref.verify(c, U, 0.1, transforms=("jit",), examples=10, seed=1)
    jit = report["jit"]
    assert not report.ok and jit.status == "failed"
    assert jit.reason.startswith("result: got")
    assert set(jit.failing_input) == {"u", "alpha"} and jit.shrink_steps > 0
    text = str(report)
    assert "FAILED" in text and "failing input (shrunk in" in text and "u = np.array(" in text


def _reversed_batch(x):
    """The identity, except that under vmap it hands each member another member's value: a
    wrong batching rule."""
    @jax.custom_batching.custom_vmap
    def ident(v):
        return v

    @ident.def_vmap
    def rule(axis_size, in_batched, v):
        return (v[::-1] if in_batched[0] else v), in_batched[0]

    return ident(x)


def test_planted_vmap_mistake_is_caught(compiled, monkeypatch):
    c = compiled("smooth")
    good = c.pure

    def pure(*args, **kwargs):
        result, finals = good(*args, **kwargs)
        return result, {n: _reversed_batch(v) for n, v in finals.items()}

    monkeypatch.setattr(c, "pure", pure)
    report = np2ref.verify(c, U, 0.1, transforms=("jit", "vmap"), examples=10, seed=1)
    assert report["jit"].passed  # right values one at a time
    vmap = report["vmap"]
    assert vmap.status == "failed" and "batch member" in vmap.reason and "argument `u`" in vmap.reason
    assert len(vmap.failing_batch) == 3
    assert "failing batch" in str(report)


def test_planted_grad_mistake_is_caught(compiled, monkeypatch):
    c = compiled("smooth")
    good = c.pure

    def pure(*args, **kwargs):  # right values, gradient of the final u scaled by 1.5
        result, finals = good(*args, **kwargs)
        return result, {n: v + 0.5 * (v - jax.lax.stop_gradient(v)) for n, v in finals.items()}

    monkeypatch.setattr(c, "pure", pure)
    report = np2ref.verify(c, U, 0.1, examples=8, seed=1)
    assert report["jit"].passed and report["vmap"].passed
    grad = report["grad"]
    assert grad.status == "failed" and "jax.grad gives" in grad.reason
    assert grad.failing_input is not None and not report.ok


def test_planted_grad_difference_in_the_original(compiled, programs, monkeypatch):
    c = compiled("smooth")
    monkeypatch.setattr(c, "original", programs.smooth_off_by_one_element)
    report = np2ref.verify(c, U, 0.1, transforms=("grad",), examples=8, seed=2)
    assert report["grad"].status == "failed"


# -- fail closed --------------------------------------------------------------------------------

def test_nothing_compared_is_not_verified(compiled):
    report = np2ref.verify(compiled("discards_result"), U, examples=4, seed=0)
    assert not report.ok
    assert report["jit"].status == "not verified" and report["jit"].compared == 0
    assert report["vmap"].status == "not verified"
    assert report["grad"].status == "skipped"
    assert "NOT VERIFIED" in report.table() and "nothing was compared" in report["jit"].reason


def test_every_input_discarded_is_not_verified(compiled):
    report = np2ref.verify(compiled("square"), U, transforms=("jit",), examples=3, seed=0)
    jit = report["jit"]
    assert jit.status == "not verified" and jit.reason == "every input was discarded"
    assert jit.discarded == jit.tried > 0 and not report.ok


def test_only_skipped_is_not_ok(compiled):
    report = harness.run(compiled("discards_result"), (U,), {}, transforms=("grad",), examples=2, seed=0)
    assert report["grad"].status == "skipped" and not report.ok
    assert report.summary() == "NOT verified: no transform was checked"


# -- input generation ---------------------------------------------------------------------------

@settings(max_examples=30, deadline=None, database=None)
@given(st.data())
def test_generated_inputs_follow_the_example(data):
    example = {"idx": np.array([2, 5, 5, 3]), "u": np.array([0.5, 2.0]), "mask": np.array([True, False]),
               "n": 3, "dt": 0.1}
    _, specs = inputs.specs_from_example(_signature(), (), example)
    case = data.draw(inputs.cases(specs))[0]
    assert case["n"] == 3 and 0.05 <= case["dt"] <= 0.15
    assert case["idx"].dtype == np.int64 and case["idx"].min() >= 2 and case["idx"].max() <= 5
    assert case["u"].dtype == np.float64 and np.all((case["u"] >= 0.25) & (case["u"] <= 2.375))
    assert case["mask"].dtype == np.bool_ and case["mask"].shape == (2,)


def _signature():
    import inspect

    def f(idx, u, mask, n, dt):
        pass
    return inspect.signature(f)


def test_index_arrays_often_repeat():
    example = {"idx": np.array([0, 1, 2, 3, 4, 5, 6, 7]), "u": np.array([0.5, 2.0]), "mask": np.array([True]),
               "n": 3, "dt": 0.1}
    _, specs = inputs.specs_from_example(_signature(), (), example)
    repeats = []

    @settings(max_examples=40, deadline=None, database=None)
    @given(inputs.cases(specs))
    def draw(case):
        repeats.append(len(np.unique(case[0]["idx"])) < 8)

    draw()
    assert sum(repeats) >= 10


# -- the command ------------------------------------------------------------------------------

def cli(*argv, capsys):
    code = main(["verify", *map(str, argv)])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return code, out.out, out.err


def test_cli_corpus_table(capsys):
    code, out, _ = cli(ROOT / "corpus" / "heat2d_explicit.py::simulate", "--examples", 3, capsys=capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("np2ref verify ") and "heat2d_explicit.py::simulate" in lines[0]
    assert lines[1].split() == ["transform", "result", "worst", "error", "compared", "tried", "discarded", "notes"]
    assert [line.split()[:2] for line in lines[2:5]] == [["jit", "passed"], ["vmap", "passed"], ["grad", "passed"]]
    assert lines[-1] == "verified: jit, vmap, grad"


def test_cli_example_callable_gets_a_generator(programs, capsys):
    path = programs.__file__
    code, out, _ = cli(f"{path}::smooth", "--example", f"{path}::example", "--examples", 2,
                       "--transforms", "jit", capsys=capsys)
    assert code == 0 and "jit        passed" in out


def test_cli_mismatch_exits_1_with_the_input(programs, monkeypatch, capsys):
    import np2ref.compiled.compile as runtime_compile

    real = runtime_compile.compile

    def planted(fn, **kw):  # the translation of smooth, checked against a different original
        c = real(fn, **kw)
        c.original = programs.smooth_off_by_one_element
        return c

    monkeypatch.setattr(runtime_compile, "compile", planted)
    path = programs.__file__
    code, out, _ = cli(f"{path}::smooth", "--example", "example", "--examples", 4,
                       "--transforms", "jit", capsys=capsys)
    assert code == 1
    assert "jit        FAILED" in out and "failing input" in out and "u = np.array(" in out
    assert out.rstrip().endswith("NOT verified: jit failed")


def test_cli_not_verified_exits_1(programs, tmp_path, capsys):
    src = tmp_path / "quiet.py"
    src.write_text("import numpy as np\n\n\ndef f(u):\n    v = u + 1.0\n\n\n"
                   "def make_inputs(size='small'):\n    return (np.ones(3),)\n")
    code, out, _ = cli(f"{src}::f", "--examples", 2, "--transforms", "jit", capsys=capsys)
    assert code == 1 and "NOT VERIFIED" in out


@pytest.mark.parametrize("argv,message", [
    (["missing.py::f"], "no such file"),
    (["{prog}::nope", "--example", "example"], "has no function"),
    (["{prog}::smooth"], "no make_inputs"),
    (["{prog}::smooth", "--example", "smooth"], "the example raised"),
    (["{prog}::smooth", "--example", "example", "--transforms", "jit,hessian"], "--transforms"),
])
def test_cli_usage_errors_exit_2(programs, capsys, argv, message):
    argv = [a.format(prog=programs.__file__) for a in argv]
    code, _, err = cli(*argv, capsys=capsys)
    assert code == 2 and message in err


def test_cli_refused_function_prints_diagnostics(tmp_path, capsys):
    src = tmp_path / "host.py"
    src.write_text("import sys\n\nimport numpy as np\n\n\ndef f(u):\n    print(u, file=sys.stderr)\n    u += 1.0\n\n\n"
                   "def make_inputs(size='small'):\n    return (np.ones(3),)\n")
    code, _, err = cli(f"{src}::f", capsys=capsys)
    assert code == 1 and "NPR021" in err and "not verified" in err


# -- compile(verify=True) ---------------------------------------------------------------------

def _checked(programs, name, original):
    c = np2ref.compile(getattr(programs, name), verify=True)
    c.original = getattr(programs, original)
    return c


def test_verify_true_passes_and_writes_back(programs):
    c = np2ref.compile(programs.smooth, verify=True)
    u = U.copy()
    expected_u = U.copy()
    expected = programs.smooth(expected_u, 0.1)
    assert np.isclose(c(u, 0.1), expected) and np.allclose(u, expected_u) and c._verified


def test_verify_true_result_mismatch_raises_npr301(programs):
    c = _checked(programs, "smooth", "smooth_off_by_one_element")
    u = U.copy()
    with pytest.raises(np2ref.Np2RefError) as info:
        c(u, 0.1)
    assert info.value.diagnostics[0].code == "NPR301"
    assert "result: got" in str(info.value)
    assert np.array_equal(u, U) and not c._verified  # nothing written back


def test_verify_true_names_the_mutated_argument_element(programs):
    c = _checked(programs, "scale", "scale_misses_one")
    with pytest.raises(np2ref.Np2RefError, match=r"NPR301.*argument `u`\[3\]: got"):
        c(U.copy())


def test_verify_true_compares_dtypes(programs):
    c = _checked(programs, "total", "total_float32")
    with pytest.raises(np2ref.Np2RefError, match=r"result: dtype float64, expected float32"):
        c(U.copy())
