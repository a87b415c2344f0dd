"""What the fuzz family tests share (test_fuzz_seq.py, test_fuzz_features.py, test_fuzz_whole.py):
a family's programs hold its form and run under NumPy, and a short `np2ref fuzz --family` run of it
has no failure."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from np2ref import fuzz
from np2ref.fuzz import world
from np2ref.fuzz.shadow import strict

TALLY = re.compile(r"^fuzz: (\d+) programs, (\d+) exact, (\d+) refused, (\d+) failed$")


def numpy_runs(family: str, folder, count: int = 4) -> list[tuple]:
    """(program, the exception NumPy's strict run raised or None) of the first `count` programs the
    family was asked for, the sibling module a program may import written to `folder`."""
    world.write_lib(folder)
    runs = []

    @settings(max_examples=count, deadline=None, suppress_health_check=list(HealthCheck), database=None, derandomize=True,
              phases=[Phase.generate])
    @given(fuzz.programs(3, family))
    def check(program):
        ns: dict = {"__name__": "fuzz_program"}
        # (dont_inherit: this module's `annotations` future would make a program's dataclass fields strings)
        exec(compile(program.source(), "<fuzz>", "exec", dont_inherit=True), ns)
        try:
            with strict():
                ns["f"](*ns["make_args"]())
        except Exception as exc:  # noqa: BLE001 - the caller's to judge
            runs.append((program, exc))
            return
        runs.append((program, None))
    check()
    return runs


def family_forms(family: str, form: str, folder, on_index_error=None) -> list[bool]:
    """Per program of four the family was asked for: whether its source holds `form` (a regex); each
    program runs under NumPy's strict run (an IndexError, the index probe, is `on_index_error`'s)."""
    found = []
    for program, error in numpy_runs(family, folder):
        if error is not None and not isinstance(error, IndexError):
            raise error
        if error is not None and on_index_error is not None:  # the index probe that may end a program
            on_index_error(program)
        found.append(re.search(form, program.source(), re.M) is not None)
    return found


def short_run(family: str, count: int, seed: int, tmp_path, capsys) -> list[str]:
    """`np2ref fuzz --family` of `count` programs: its printed lines, after asserting no failure."""
    code = fuzz.main(["--family", family, "--count", str(count), "--seed", str(seed), "--save-dir", str(tmp_path),
                      "--no-shrink", "--no-grad"])
    lines = capsys.readouterr().out.strip().splitlines()
    n, exact, refused, failed = (int(x) for x in TALLY.match(lines[-1]).groups())
    assert failed == 0 and code == 0, "\n".join(ln for ln in lines if ln.startswith("FAILURE"))
    assert n == count
    return lines


def family_tests(forms: dict):
    """The two tests every family module has, for its {family: regex of the form it asks for}:
    the form is in the family's programs (valid NumPy), and a short run fails nothing (one
    program a family by default, three under -m long). `test_a_..., test_short_... = family_tests(FORMS)`."""
    @pytest.mark.parametrize("family", sorted(forms))
    def test_a_family_asked_for_is_in_its_programs_and_valid_numpy(family, tmp_path):
        found = family_forms(family, forms[family], tmp_path)
        assert any(found), f"{family}: {found}"

    @pytest.mark.parametrize("family", sorted(forms))
    @pytest.mark.parametrize("count", [1, pytest.param(3, marks=pytest.mark.long)])
    def test_short_family_runs_have_no_failures(family, count, tmp_path, capsys):
        short_run(family, count, 5, tmp_path, capsys)

    return test_a_family_asked_for_is_in_its_programs_and_valid_numpy, test_short_family_runs_have_no_failures
