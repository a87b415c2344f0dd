"""One large module's `check` and `convert` across processes (np2ref/split.py, split_convert.py,
issue 43): its parts give the diagnostics and the output one run gives, byte for byte, and a
module whose functions read something across it is not cut."""

from __future__ import annotations

import ast

import pytest

from conftest import ROOT
from np2ref import split
from np2ref.cli import main
from np2ref.pipeline import convert_source

# functions that are refused (the codes of tests/diagnostics/refusals.py), translate, call each other
# or stay host code with a loop to lift: every kind of diagnostic at a function's lines
_FUNCTIONS = '''
def step_{k}(u, idx, w):
    u[1:-1] += 0.25 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    np.add.at(u, idx, w)
    return np.sum(u)


def uses_while_{k}(u):
    while u[0] > 0:
        u = u[1:]
        u[0] -= 1.0


def hypot_at_{k}(a, idx):
    np.hypot.at(a, idx, 2.0)


def inner_{k}(a):
    v = a[1:-1]
    return v


def writes_returned_view_{k}(u):
    v = inner_{k}(u)
    v[0] = 1.0


def rows_{k}(a):
    for row, w in zip(a, [1.0, 2.0]):
        row *= w
'''

_HOST = '''
def driver_{k}(u):
    for t in range(10):
        u[1:] += u[:-1]
        time.sleep(0.0)
    return u
'''


def _module(n: int, host: bool = False) -> str:
    head = "import time\nimport numpy as np\n" if host else "import numpy as np\n"
    return head + "".join((_FUNCTIONS + (_HOST if host else "")).format(k=k) for k in range(n))


def _rendered(diagnostics, text):
    return [d.render(text) for d in diagnostics]


@pytest.mark.parametrize("jobs", [2, 3])
def test_parts_give_one_runs_diagnostics(jobs):
    text = _module(4)
    texts = split.parts(text, "m.py", jobs, min_lines=0)
    assert texts is not None and len(texts) == jobs
    assert all(len(p.text.splitlines()) == len(text.splitlines()) for p in texts)  # line for line
    whole = convert_source(text, "m.py").diagnostics
    assert {d.code for d in whole} >= {"NPR011", "NPR101", "NPR203", "NPR204"}
    assert _rendered(split.check_split(texts, "m.py", jobs), text) == _rendered(whole, text)


def test_a_callee_stays_with_its_caller():
    text = _module(3)
    functions = split._functions(ast.parse(text), text, "m.py")
    groups = split._groups(functions, [split._names(f) for f in functions])
    names = [f.name for f in functions]
    for group in groups:
        members = {names[i] for i in group}
        assert ("inner_0" in members) == ("writes_returned_view_0" in members)
    assert len(groups) == len(functions) - 3  # each inner_k with its caller


def test_host_loops_lifted_are_checked_in_one_run():
    """One run lifts every part's host loops into one text (NPR039 names lines of it): a part that
    lifts a loop sends the module to one run."""
    clean = "import time\nimport numpy as np\n" + "".join(_HOST.format(k=k) for k in range(4))
    texts = split.parts(clean, "m.py", 2, min_lines=0)
    whole = convert_source(clean, "m.py").diagnostics
    assert any(d.code == "NPR036" for d in whole)
    assert split.check_split(texts, "m.py", 2) is None
    text = _module(2, host=True)  # refused functions: no loop is lifted anywhere
    got = split.check_split(split.parts(text, "m.py", 2, min_lines=0), "m.py", 2)
    assert got is not None and _rendered(got, text) == _rendered(convert_source(text, "m.py").diagnostics, text)


@pytest.mark.parametrize("source", [
    "import numpy as np\nX = np.zeros(3)\ndef f(a):\n    a[0] = 1\ndef g(a):\n    a[1] = 2\n",  # module state
    "import numpy as np\ndef f(a):\n    print(a)\ndef g(a):\n    a[1] = 2\n",  # introspection: module-wide
    "import numpy as np\ndef f(a):\n    h = lambda x: x\n    a[0] = h(1)\ndef g(a):\n    a[1] = 2\n",  # a lambda
    "import numpy as np\n@jit\ndef f(a):\n    a[0] = 1\ndef g(a):\n    a[1] = 2\n",  # a decorator
    "import numpy as np\ndef f(a):\n    return g(a)\ndef g(a):\n    a[1] = 2\n",  # one group
])
def test_not_cut(source):
    assert split.parts(source, "m.py", 2, min_lines=0) is None


def test_a_small_module_is_not_cut():
    assert split.parts(_module(2), "m.py", 2) is None  # under MIN_LINES
    assert split.parts(_module(2), "m.py", 1, min_lines=0) is None  # one job


def test_cli_check_prints_the_same_with_one_job_or_two(tmp_path, monkeypatch, capsys):
    path = tmp_path / "big.py"
    path.write_text(_module(3))
    monkeypatch.setattr(split, "MIN_LINES", 0)
    outputs = []
    for jobs in ("1", "2"):
        code = main(["check", "--no-cache", "-j", jobs, str(path)])
        outputs.append((code, capsys.readouterr().out))
    assert outputs[0] == outputs[1] and outputs[0][0] == 1 and "NPR203" in outputs[0][1]


def test_program_modules_cut_give_one_runs_diagnostics():
    """The test programs that can be cut (corpus/ and examples/ files are scripts: module-level
    code), in parts: the diagnostics of one run."""
    cut = 0
    for path in sorted((ROOT / "tests" / "programs").glob("*.py"))[:10]:
        text = path.read_text()
        texts = split.parts(text, str(path), 2, min_lines=0)
        if texts is None:
            continue
        cut += 1
        got = split.check_split(texts, str(path), 2)
        assert got is None or _rendered(got, text) == _rendered(convert_source(text, str(path)).diagnostics, text)
    assert cut


_PLAIN = """

# step {k}: written by hand
def step_{k}(u, idx, w, m):
    u[1:-1] += 0.25 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
    np.add.at(u, idx, w)
    u[m] = 0.0
    v = u.copy()
    v[::2] *= {k}.0
    return np.sum(v)
"""


@pytest.mark.parametrize("runtime", ["np2ref.rt", "np2ref_rt"])
def test_convert_in_parts_writes_one_runs_output(runtime):
    from np2ref.policy import DtypePolicy
    from np2ref.split_convert import convert_split

    text = '"""A module."""\nimport numpy as np\n' + "".join(_PLAIN.format(k=k) for k in range(6)) + "\n# the end\n"
    joined = convert_split(text, "m.py", 3, runtime, DtypePolicy(), {}, min_lines=0)
    result = convert_source(text, "m.py")
    assert joined is not None and joined.code == result.code_for(runtime, DtypePolicy(), {})
    assert joined.translated and _rendered(joined.diagnostics, text) == _rendered(result.diagnostics, text)
    refused = "import numpy as np\n" + "".join(  # refused parts: the file is refused with one run's diagnostics
        _FUNCTIONS.format(k=k).replace("while u[0] > 0:", "for t in range(3):") for k in range(2))
    joined = convert_split(refused, "m.py", 2, runtime, DtypePolicy(), {}, min_lines=0)
    assert joined is not None and joined.code is None
    assert _rendered(joined.diagnostics, refused) == _rendered(convert_source(refused, "m.py").diagnostics, refused)


def test_convert_of_a_lowered_branch_is_one_run():
    """A lowered `if` is numbered through the module (`_then_3`): such a module is converted whole."""
    from np2ref.policy import DtypePolicy
    from np2ref.split_convert import convert_split

    text = "import numpy as np\n" + "".join(
        f"\ndef f{k}(u):\n    if u[0] > 0:\n        u[1] = 2.0\n    return u\n" for k in range(4))
    assert split.parts(text, "m.py", 2, min_lines=0) is not None
    assert convert_split(text, "m.py", 2, "np2ref.rt", DtypePolicy(), {}, min_lines=0) is None


def test_cli_convert_writes_the_same_with_one_job_or_two(tmp_path, monkeypatch):
    path = tmp_path / "big.py"
    path.write_text("import numpy as np\n" + "".join(_PLAIN.format(k=k) for k in range(4)))
    monkeypatch.setattr(split, "MIN_LINES", 0)
    for jobs in ("1", "2"):
        assert main(["convert", "--no-cache", "-q", "-j", jobs, str(path), "-o", str(tmp_path / f"out{jobs}.py")]) == 0
    assert (tmp_path / "out1.py").read_bytes() == (tmp_path / "out2.py").read_bytes()
