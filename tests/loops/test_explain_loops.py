"""`np2ref check --explain-loops` and `Compiled.explain()` (report/loops.py; issue 39): per loop, whether
it was vectorised (npr_vfor) and, where not, why."""

import json

import numpy as np

import np2ref
from np2ref.cli import main

SOURCE = '''import numpy as np


def kernels(C, A, y, x):
    n = C.shape[0]
    for i in range(n):
        for j in range(i + 1):
            C[i, j] += A[i, :] @ A[j, :]
    for k in range(1, x.shape[0]):
        y[k] = y[k - 1] + x[k]
    total = 0.0
    for k in range(x.shape[0]):
        total += x[k]
    while total > 1.0:
        total = total / 2.0
    return total
'''


def test_compiled_explain_names_each_loop_and_why(tmp_path):
    path = tmp_path / "kernels.py"
    path.write_text(SOURCE)
    namespace = {}
    exec(compile(SOURCE, str(path), "exec"), namespace)
    lines = [line for line in np2ref.compile(namespace["kernels"]).explain().splitlines() if "(): `" in line]
    assert [line.split(": ", 1)[0].rsplit(":", 2)[1:] for line in lines] == [
        ["6", "5"], ["7", "9"], ["9", "5"], ["12", "5"], ["14", "5"]]
    assert "kernels(): `for i`: vectorised: npr_vfor" in lines[0]
    assert "kernels(): `for j`: vectorised: npr_vfor" in lines[1]
    assert "a lax loop carrying y[k - 1] from the trips that stored them" in lines[2]  # (rewrite/recurrences.py)
    assert "an ordered fold: npr_fold_for, every trip's value of total" in lines[3]  # (rewrite/scalar_fold.py)
    assert "`while`: a lax while loop" in lines[4]


def test_check_explain_loops_prints_them_after_the_diagnostics(tmp_path, capsys):
    path = tmp_path / "kernels.py"
    path.write_text(SOURCE)
    assert main(["check", "--explain-loops", "--no-cache", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 5 and out[0].startswith(f"{path}:6:5: kernels(): `for i`: vectorised")
    assert main(["check", "--explain-loops", "--no-cache", "--format", "json", str(path)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["diagnostics"] == []
    assert [(r["line"], r["variable"], r["vectorised"]) for r in found["loops"]] == [
        (6, "i", True), (7, "j", True), (9, "k", False), (12, "k", False), (14, "", False)]
    assert main(["check", "--no-cache", str(path)]) == 0 and capsys.readouterr().out == ""  # not asked: nothing


def test_explained_kernel_still_runs_as_numpy(tmp_path):
    path = tmp_path / "k.py"
    path.write_text(SOURCE)
    namespace = {}
    exec(compile(SOURCE, str(path), "exec"), namespace)
    rng = np.random.default_rng(3)
    args = [rng.standard_normal((4, 4)), rng.standard_normal((4, 2)), np.zeros(5), rng.standard_normal(5)]
    theirs, ours = [a.copy() for a in args], [a.copy() for a in args]
    want, got = namespace["kernels"](*theirs), np2ref.compile(namespace["kernels"])(*ours)
    np.testing.assert_allclose(got, want, rtol=1e-13)
    for w, g in zip(theirs, ours):
        np.testing.assert_allclose(g, w, rtol=1e-13)
