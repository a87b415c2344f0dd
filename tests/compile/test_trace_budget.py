"""The trace budget (NPR037, rt/budget.py) and `itertools.repeat(x, n)` as `range(n)`
(frontend/products.py). Differential: NumPy originals against np2ref.compile; the budget's tests
use a tiny budget, so each refusal comes within a few traced equations."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import np2ref
from np2ref.emit.module import RUNTIME_MODULE
from np2ref.config import find
from tests.conftest import assert_same_as_numpy, load_module

SOURCE = '''
import itertools
from itertools import repeat as again
import numpy as np


def dist(X, Y):  # over a range: traced row by row (rules/comprehensions.py maps only an array's rows)
    return np.array([[np.sum((X[i] - y) ** 2) for i in range(len(X))] for y in Y])


W = (0.5, 1.0, 2.0)


def weights(A):  # W[j % 3]: a Python tuple indexed by the loop variable, so Python loops
    B = np.zeros(A.shape)
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            B[i, j] = A[i, j] * W[i % 3] + W[j % 3]
    return B


def epochs(w, x, n):
    for _ in itertools.repeat(None, n):
        w *= 0.5
        w += x
    return w


def epochs_times(w, x, n):
    for k in again(None, times=n):
        w[1:] = w[:-1] * 0.25 + x[1:]
    return w


def item_read(w, n):
    for k in itertools.repeat(3.0, n):
        w *= k
    return w
'''


@pytest.fixture(scope="module")
def ns(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("budget"))


def _refusal(fn, *args, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        with pytest.raises(np2ref.Np2RefError) as info:
            np2ref.compile(fn, **options)(*args)
    assert info.value.diagnostics[0].code == "NPR037"
    return str(info.value)


def test_a_comprehension_past_the_budget_is_named_with_its_line_and_trips(ns):
    X, Y = np.ones((7, 3)), np.zeros((5, 3))
    text = _refusal(ns.dist, X, Y, trace_budget=40)
    line = SOURCE.splitlines().index("    return np.array([[np.sum((X[i] - y) ** 2) for i in range(len(X))] for y in Y])") + 1
    assert f"list comprehension at {ns.__file__}:{line}" in text
    assert "7 iterations" in text and "40 traced equations" in text


def test_a_python_loop_nest_past_the_budget_names_the_inner_loop(ns, monkeypatch):
    monkeypatch.setenv("NP2REF_TRACE_BUDGET", "300")
    text = _refusal(ns.weights, np.ones((4, 40)))
    line = SOURCE.splitlines().index("        for j in range(A.shape[1]):") + 1
    assert f"the loop at {ns.__file__}:{line}" in text and "40 iterations" in text


def test_within_the_budget_the_result_is_numpys(ns, monkeypatch):
    X, Y = np.arange(12.0).reshape(4, 3), np.arange(6.0).reshape(2, 3) / 7
    assert_same_as_numpy(ns.dist, np2ref.compile(ns.dist, trace_budget=None), X, Y)
    monkeypatch.setenv("NP2REF_TRACE_BUDGET", "none")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        assert_same_as_numpy(ns.weights, np2ref.compile(ns.weights), np.arange(12.0).reshape(3, 4))


def test_the_seconds_budget(ns, monkeypatch):
    monkeypatch.setenv("NP2REF_TRACE_SECONDS", "0")
    assert "0 seconds of tracing" in _refusal(ns.weights, np.ones((3, 3)))


def test_a_bad_budget_is_refused(ns):
    with pytest.raises(ValueError, match="trace_budget"):
        np2ref.compile(ns.dist, trace_budget=-1)


@pytest.mark.parametrize("name", ["epochs", "epochs_times"])
def test_repeat_none_is_a_compiled_range_loop(ns, name):
    compiled = np2ref.compile(getattr(ns, name), trace_budget=60)  # 400 trips traced one by one: far more
    assert "npr_for(npr_range(n)" in compiled.source
    for n in (0, 3, 400):
        assert_same_as_numpy(getattr(ns, name), compiled, np.linspace(0.0, 1.0, 5), np.arange(5.0), n)


def test_repeat_whose_item_is_read_stays_as_written(ns):
    result = np2ref.convert_source(SOURCE, "m.py", only={"item_read"})
    assert "npr_range" not in (result.source or "")


def test_the_config_key_reaches_each_npr_jit(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.np2ref]\ntrace_budget = 123\n")
    cfg = find(tmp_path)
    assert cfg.trace_budget == 123
    source = "import numpy as np\n\ndef f(a):\n    a[0] = 1.0\n\ndef g(a):\n    a[1:] += 1.0\n"
    out = np2ref.convert_source(source, "m.py").code_for(RUNTIME_MODULE, cfg.dtype_policy, cfg.entry_options)
    assert out.count("trace_budget=123") == 2 and out.count("@npr_jit(") == 2
    (tmp_path / "pyproject.toml").write_text('[tool.np2ref]\ntrace_budget = "none"\n')
    assert find(tmp_path).trace_budget is None
