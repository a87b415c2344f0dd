"""benchmarks/regress.py, the performance regression check: its stored table covers every program
it times, and the check fails on a ratio worse than stored by more than the factor, on a program
with no stored ratio and on a wrong answer, and --update stores what it measured. No timing of
np2ref here: the programs are stand-ins that sleep."""

from __future__ import annotations

import json
import sys
import time

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import regress  # noqa: E402


def test_stored_table_covers_every_program():
    stored = json.loads(regress.TABLE.read_text())["ratios"]
    assert set(stored) == set(regress.all_names())
    assert all(r > 0 for r in stored.values())


@pytest.mark.parametrize("got, stored, want", [(1.0, 1.0, "ok"), (2.5, 1.0, "worse"), (1.9, 1.0, "ok"),
                                               (0.4, 1.0, "better"), (1.0, None, "new")])
def test_verdict(got, stored, want):
    assert regress.verdict("p", got, stored, 2.0) == want


def _fake(slow, wrong=None):
    return lambda name: regress.Case(name, lambda: time.sleep(slow), lambda: time.sleep(0.001), wrong)


def _run(monkeypatch, tmp_path, case, *extra):
    monkeypatch.setattr(regress, "make_case", case)
    return regress.main(["--only", "heat_k1", "--rounds", "2", "--table", str(tmp_path / "t.json"), *extra])


def test_check_fails_on_a_new_a_worse_and_a_wrong_program(monkeypatch, tmp_path):
    assert _run(monkeypatch, tmp_path, _fake(0.001)) == 1  # no stored ratio
    assert _run(monkeypatch, tmp_path, _fake(0.001), "--update") == 0
    stored = json.loads((tmp_path / "t.json").read_text())["ratios"]["heat_k1"]
    assert 0.5 < stored < 2.0
    assert _run(monkeypatch, tmp_path, _fake(0.001)) == 0
    assert _run(monkeypatch, tmp_path, _fake(0.006)) == 1  # ~6x the stored ratio
    assert _run(monkeypatch, tmp_path, _fake(0.001, wrong="result: max |diff| 1")) == 1
    assert _run(monkeypatch, tmp_path, _fake(0.001, wrong="result: max |diff| 1"), "--update") == 1
