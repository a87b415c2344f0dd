"""`np2ref check --report`: per-function readiness, the ranking of refused constructs, and the
terminal, JSON and HTML renderings (the HTML in a browser: test_report_browser.py)."""

from __future__ import annotations

import json
import re
import shutil
import textwrap

import pytest

from conftest import ROOT
from np2ref.cli import main
from np2ref.report import collect, html, json_report, terminal
from np2ref.report.align import align

# A helper refused for its `while` loop, called by two functions (one through the other), so it
# blocks three; an exact pair; another refused function; a host function.
MIXED = textwrap.dedent('''\
    import numpy as np


    def drain(u):
        while u[0] > 0:
            u = u[1:]
            u[0] -= 1.0


    def step(u):
        drain(u)
        u[1:] += 1.0


    def run(u, n):
        for _ in range(n):
            step(u)
        return u.sum()


    def smooth(u):
        u[1:-1] = 0.5 * (u[2:] + u[:-2])


    def smooth_twice(u):
        smooth(u)
        smooth(u)


    def partition(a):
        a.partition(2)


    def show(u):
        np.save("u.npy", u)
    ''')
CORPUS_FILES = ("jacobi_tolerance.py", "heat2d_explicit.py", "csr_matvec.py")


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A small code base: three corpus programs and a file with refused functions."""
    root = tmp_path_factory.mktemp("codebase")
    (root / "sims").mkdir()
    for name in CORPUS_FILES:
        shutil.copy(ROOT / "corpus" / name, root / "sims" / name)
    (root / "mixed.py").write_text(MIXED)
    (root / ".hidden").mkdir()
    (root / ".hidden" / "skipped.py").write_text("x = 1\n")
    return root


@pytest.fixture(scope="module")
def report(tree):
    return collect.collect([str(tree)])


def _file(report, name):
    return next(f for f in report.files if f.path.endswith(name))


def test_function_status_and_blocking(report):
    mixed = _file(report, "mixed.py")
    status = {f.name: f.status for f in mixed.functions}
    assert status == {"drain": "refused", "step": "blocked", "run": "blocked", "smooth": "exact",
                      "smooth_twice": "exact", "partition": "refused", "show": "host"}
    assert next(f for f in mixed.functions if f.name == "run").blocked_by == ("drain",)
    assert (mixed.exact, mixed.host, mixed.refused) == (2, 1, 4)
    blocks = {c.diagnostic.code: c.blocks for c in mixed.constructs}
    assert blocks == {"NPR011": ("drain", "step", "run"), "NPR102": ("partition",)}
    assert not mixed.complete
    # the exact functions are converted, the refused ones left as NumPy
    assert "npr_at(u)[1:-1] = 0.5" in mixed.converted
    assert "a.partition(2)" in mixed.converted and "while u[0] > 0:" in mixed.converted


def test_folders_walked_and_corpus_programs_ready(report):
    assert sorted(f.path.rsplit("/", 1)[1] for f in report.files) == sorted(CORPUS_FILES + ("mixed.py",))
    for name in CORPUS_FILES:
        f = _file(report, name)
        # make_inputs draws from a generator it makes: translated (made on the host at run time),
        # or, where the translation refuses it (csr_matvec's np.nonzero), host code as before
        assert f.complete and f.refused == 0 and f.exact >= 2 and f.host == (name == "csr_matvec.py")
        assert "@npr_jit" in f.converted


def test_constructs_ranked_by_functions_blocked(report):
    ranked = report.constructs()
    assert [(c.diagnostic.code, len(c.blocks)) for c in ranked] == [("NPR011", 3), ("NPR102", 1)]
    assert report.by_code() == [("NPR011", 1, 3), ("NPR102", 1, 1)]


def test_rows_align_converted_statements_with_their_source_lines(report):
    f = _file(report, "jacobi_tolerance.py")
    source, converted = f.source.splitlines(), f.converted.splitlines()
    lefts = [a for a, _ in f.rows if a]
    rights = [b for _, b in f.rows if b]
    assert lefts == list(range(1, len(source) + 1))  # every line once, in order, on both sides
    assert rights == list(range(1, len(converted) + 1))
    pairs = {source[a - 1].strip(): converted[b - 1].strip() for a, b in f.rows if a and b}
    assert pairs["u[1:-1, 1:-1] = unew[1:-1, 1:-1]"] == "npr_at(u)[1:-1, 1:-1] = unew[...][1:-1, 1:-1]"
    assert pairs["def relax(u_j, u_gs, f, h, tol, max_iter):"] == "def relax(u_j, u_gs, f, h, tol, max_iter):"


def test_align_without_marks_pairs_by_text():
    rows = align(["a", "b", "c"], ["a", "x", "y", "c"])
    assert rows == [(1, 1), (2, 2), (None, 3), (3, 4)]


def test_terminal_table(report):
    text = terminal.render(report)
    lines = text.splitlines()
    assert lines[0].split() == ["Name", "Funcs", "Exact", "Host", "Refused", "Ready"]
    mixed = next(line for line in lines if line.endswith("%") and "mixed.py" in line)
    assert mixed.split()[1:] == ["7", "2", "1", "4", "29%"]  # 2 exact of 7: host is not migrated
    total = next(line for line in lines if line.startswith("TOTAL"))
    exact, refused = report.total("exact"), report.total("refused")
    assert total.split()[1:] == [str(report.functions), str(exact), str(report.total("host")), str(refused),
                                 f"{100 * exact / report.functions:.0f}%"]
    first = lines[lines.index("Refused constructs, by functions blocked:") + 3]
    assert first.split()[:2] == ["3", "NPR011"] and "mixed.py:5:5" in first
    assert "np2ref explain CODE" in text


def test_json_report(report):
    data = json.loads(json_report.render(report))
    assert data["totals"]["functions"] == report.functions
    assert data["constructs"][0]["code"] == "NPR011"
    assert data["constructs"][0]["blocks"] == ["drain", "step", "run"]
    assert data["constructs"][0]["explain"] == "np2ref explain NPR011"
    mixed = next(f for f in data["files"] if f["path"].endswith("mixed.py"))
    assert {s["name"]: s["status"] for s in mixed["function_status"]}["step"] == "blocked"
    assert mixed["ready_percent"] == pytest.approx(28.6)


def test_html_site(report, tmp_path):
    index = html.write(report, tmp_path / "site")
    pages = html.page_names(report)
    assert sorted(p.name for p in index.parent.iterdir()) == sorted([*pages.values(), "index.html"])
    text = index.read_text()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)  # nothing to fetch
    assert f'href="{pages[_file(report, "mixed.py").path]}#L5"' in text  # construct -> its line
    assert '<option value="NPR011">' in text and 'id="NPR011"' in text
    page = (index.parent / pages[_file(report, "mixed.py").path]).read_text()
    row = re.search(r'<tr id="L5" class="([^"]*)" data-hl="NPR011">(.*?)</tr>', page)
    assert "bad" in row.group(1) and "fn-refused" in row.group(1)
    assert '<mark class="span">while u[0] &gt; 0:</mark>' in row.group(2)
    assert re.search(r'class="diag" data-codes="NPR011">.*np2ref explain NPR011', page)
    assert 'id="L21" class="fn-exact"' in page and "npr_at(u)[1:-1] = 0.5" in page


def test_cli_report_kinds(tree, tmp_path, capsys):
    assert main(["check", "--report", str(tree / "mixed.py")]) == 0  # a SRC after --report
    assert "TOTAL" in capsys.readouterr().out
    assert main(["check", str(tree / "mixed.py"), "--report", "json", "-o", str(tmp_path / "out")]) == 0
    assert json.loads((tmp_path / "out" / "np2ref-report.json").read_text())["totals"]["refused"] == 4
    assert main(["check", str(tree / "mixed.py"), "--report=html", "-o", str(tmp_path / "site")]) == 0
    assert (tmp_path / "site" / "index.html").exists()
    assert main(["check", str(tree / "mixed.py"), "--report", "--fail-under", "50"]) == 1
    assert "under --fail-under 50" in capsys.readouterr().err


def test_cli_check_without_report_unchanged(tree, capsys):
    assert main(["check", str(tree / "mixed.py")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("mixed.py:5:5: NPR011 this `while` loop is not translated: the written array `u` "
                           "is rebound in the loop")
    assert main(["check", str(tree / "mixed.py"), "-o", "x"]) == 2
    assert main(["check"]) == 2


def test_pre_commit_hook_runs_check_on_python_files():
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert re.search(r"^- id: np2ref-check$", hooks, re.M)
    assert re.search(r"^  entry: np2ref check$", hooks, re.M)
    assert re.search(r"^  language: python$", hooks, re.M) and re.search(r"^  types: \[python\]$", hooks, re.M)
