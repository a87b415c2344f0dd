"""Every program the fuzzer saved (fuzz_*.py beside this file), through NumPy and np2ref.

The expectation is the same for each: np2ref agrees with NumPy on the result and on every
argument (jit, and `.pure` under vmap), or refuses the program with a diagnostic. A file whose
header says `# np2ref-fuzz: open` is a bug not fixed yet: the test is expected to fail, strictly,
so the fix shows up as an XPASS to flip to `# np2ref-fuzz: fixed`.
"""

from __future__ import annotations

import re
from pathlib import Path

import jax
import pytest

from np2ref.fuzz import regressions
from np2ref.fuzz.runner import Runner

CASES = sorted(Path(__file__).parent.glob("fuzz_*.py"))


def _fixed_upstream(text: str) -> bool:
    """`# np2ref-fuzz-fixed-in: jax 0.11`: an open bug of JAX's that the installed JAX has fixed."""
    m = re.search(r"#\s*np2ref-fuzz-fixed-in:\s*jax\s+([\d.]+)", text)
    version = tuple(int(p) for p in re.findall(r"\d+", jax.__version__)[:3])
    return m is not None and version >= tuple(int(p) for p in m.group(1).split("."))


def _param(path: Path):
    marks = []
    text = path.read_text()
    if regressions.status(text) == "open" and not _fixed_upstream(text):
        marks.append(pytest.mark.xfail(strict=True, reason="open fuzz regression (see the file's header)"))
    return pytest.param(path, id=path.stem, marks=marks)


@pytest.fixture(scope="module")
def runner(tmp_path_factory):
    return Runner(vmap=True, workdir=str(tmp_path_factory.mktemp("regressions")))


@pytest.mark.parametrize("path", [_param(p) for p in CASES])
def test_saved_program(path, runner):
    outcome = runner.check(path.read_text())
    assert outcome.kind != "invalid", f"{path.name} is not a valid NumPy program: {outcome.describe()}"
    assert outcome.passed, outcome.describe()
