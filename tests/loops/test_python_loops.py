"""Python containers changed in loops and branches (issue 16, items 2 and 3): a loop that changes
a list outliving its iterations runs as a Python loop on purpose and says so (NPR033, a
PythonLoopWarning with line and trip count); a branch or loop whose count of changes depends on
array data is refused (NPR034); npr_for falls back to a Python loop only on understood errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import np2ref
from np2ref.compiled.compile import runtime_namespace

SOURCE = '''
import numpy as np


def history(u, n):
    hist = []
    snaps = []
    for t in range(n):
        u[1:] += 0.5 * u[:-1]
        hist.append(u.sum())
        snaps.append(u.copy())
    return hist, snaps


def history_twice(u, n):
    hist = []
    for t in range(n):
        u[1:] += 0.5 * u[:-1]
        hist.append(u.sum())
        hist.append(float(u[0]))
    return hist


def record(lst, x):
    lst.append(x)


def via_helper(u, n):
    out = []
    for t in range(n):
        u *= 1.5
        record(out, u[0])
    return out


def scratch_list(u, n):
    for i in range(n):
        parts = []
        parts.append(u[i] * 2.0)
        u[i] = parts[0]


def on_data(u, n):
    hist = []
    for t in range(n):
        u *= 2.0
        if u.sum() > 3.0:
            hist.append(u.sum())
    return hist
'''


@pytest.fixture(scope="module")
def source_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("python_loops") / "hist.py"
    path.write_text(SOURCE)
    ns: dict = {"__name__": "hist"}
    exec(compile(SOURCE, str(path), "exec"), ns)
    return path, ns


def test_appends_in_a_loop_give_numpys_list(source_file):
    """One append a trip to each list: a lax loop that stacks them (tests/loops/test_loop_appends.py)."""
    path, ns = source_file
    u = np.arange(5.0)
    expected = ns["history"](u.copy(), 12)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np2ref.PythonLoopWarning)
        got = np2ref.compile(ns["history"], host_below=0)(u.copy(), 12)
    assert [type(v) for v in got[0]] == [type(v) for v in expected[0]] == [np.float64] * 12
    assert got[0] == expected[0]
    assert all(isinstance(s, np.ndarray) and np.array_equal(s, e) for s, e in zip(got[1], expected[1]))


def test_appends_a_python_loop_makes_say_so(source_file):
    path, ns = source_file
    u = np.arange(5.0)
    expected = ns["history_twice"](u.copy(), 12)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = np2ref.compile(ns["history_twice"], host_below=0)(u.copy(), 12)
    assert [type(v) for v in got] == [type(v) for v in expected] and got == expected
    [warning] = [w for w in caught if issubclass(w.category, np2ref.PythonLoopWarning)]
    line = SOURCE.splitlines().index("def history_twice(u, n):") + 3
    assert (warning.filename, warning.lineno) == (str(path), line)
    assert "12 iterations" in str(warning.message) and "hist.append()" in str(warning.message)


def test_a_helper_that_appends_keeps_the_loop_python(source_file):
    ns = source_file[1]
    u = np.arange(3.0)
    expected = ns["via_helper"](u.copy(), 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        assert np2ref.compile(ns["via_helper"])(u.copy(), 4) == expected


def test_check_notes_python_loops_and_not_iteration_local_lists():
    result = np2ref.convert_source(SOURCE, "m.py")
    notes = sorted((d.line, d.code, d.severity) for d in result.diagnostics)
    lines = SOURCE.splitlines()
    loops = [i + 1 for i, text in enumerate(lines) if text.strip().startswith("for ")]
    # via_helper's loops: notes; history's lists are stacked (appends=), history_twice's too (two
    # appends a trip: the runtime's probe keeps the Python loop for their two types, and warns) and
    # scratch_list's list lives one iteration: lax loops
    assert notes == [(loops[2], "NPR033", "info"), (loops[4], "NPR033", "info")]
    assert "python='the body calls `hist.append()`" in result.code and "appends=(hist,snaps,)" in result.code


def test_append_under_a_branch_on_array_data_is_refused(source_file):
    ns = source_file[1]
    with pytest.raises(np2ref.Np2RefError) as info:  # NumPy appends 3 of 4; a trace cannot know
        np2ref.compile(ns["on_data"])(np.ones(2), 4)
    [diag] = info.value.diagnostics
    assert diag.code == "NPR034" and diag.line == SOURCE.splitlines().index("        if u.sum() > 3.0:") + 1


def test_append_under_a_written_array_test_is_refused_by_check():
    src = ("def f(u):\n    hist = []\n    for t in range(3):\n        u[0] *= 2.0\n"
           "        if u.sum() > 0:\n            hist.append(u.sum())\n    return hist\n")
    result = np2ref.convert_source(src, "m.py")
    assert [(d.code, d.line) for d in result.diagnostics if d.is_error] == [("NPR034", 6)]


def test_npr_for_falls_back_only_on_understood_errors():
    ns = runtime_namespace()
    npr_for, npr_range = ns["npr_for"], ns["npr_range"]
    values = (1.0, 2.0, 3.0)
    with warnings.catch_warnings(record=True) as caught:  # a tuple indexed by i: Python loop
        warnings.simplefilter("always")
        assert npr_for(npr_range(3), lambda i, c: c + values[i], 0.0) == 6.0
    assert "indexes a tuple or list" in str(caught[0].message)

    def body(i, c):
        raise ValueError("not a trace limit")

    with pytest.raises(ValueError, match="not a trace limit"):  # was: silently run as Python
        npr_for(npr_range(3), body, 0.0)


def test_a_discarded_trace_leaves_containers_as_they_were():
    """An append the analysis cannot see (through getattr): the lax trace appends a tracer,
    npr_for puts the list back and runs the Python loop."""
    ns = runtime_namespace()
    hist = []
    add = getattr(hist, "append")

    def body(i, c):
        add(c * 2)
        return c + 1.0

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = ns["npr_for"](ns["npr_range"](3), body, 1.0)
    assert out == 4.0 and hist == [2.0, 4.0, 6.0]
    assert "changes a Python list" in str(caught[0].message)


BOUND_LATER = """
import numpy as np


def first_only(a, n):
    hist = []
    out = np.zeros(n)
    for k in range(n):
        hist.append(k)          # keeps the loop Python
        out[k] = a[k] * 2
        if a[k] > 0 or k == 0:  # data: a branch, lowered
            w0 = a * k
    return w0, hist, out


def with_break(a):
    for k in range(3):
        w0 = np.zeros_like(a)
        break
    return a, w0
"""


def test_a_branch_in_a_python_loop_sees_a_name_an_earlier_iteration_bound(tmp_path):
    from conftest import assert_same_as_numpy, load_module
    m = load_module(BOUND_LATER, tmp_path)
    a = np.array([1.0, -2.0, 3.0, -1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np2ref.PythonLoopWarning)
        expected, got = assert_same_as_numpy(m.first_only, np2ref.compile(m.first_only), a, 4)
        assert got[1] == expected[1]
        assert_same_as_numpy(m.with_break, np2ref.compile(m.with_break), a.astype(np.int32))
