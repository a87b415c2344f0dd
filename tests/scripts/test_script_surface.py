"""What a real script meets on its way through `np2ref convert` (issue 41's small things):
NumPy names imported from submodules or under aliases, the files convert writes (the user's
umask, the source's line endings), and the exit codes the README and docs/cli.md promise."""

from __future__ import annotations

import os
import stat
import textwrap

import numpy as np
import pytest

import np2ref
from conftest import load_module
from np2ref.cli import main

IMPORTED = """
import numpy as np
from numpy.random import rand, randn
from numpy import zeros as z


def f(u):
    v = rand(3)
    w = z(3)
    u[:3] += v + w + randn()
    return u
"""


def test_numpy_names_imported_from_submodules_are_the_module_attributes(tmp_path):
    module = load_module(IMPORTED, tmp_path, "surface_imported")
    compiled = np2ref.compile(module.f)
    np.random.seed(3)
    a = np.zeros(4)
    expected = module.f(a)
    after_numpy = np.random.rand()
    np.random.seed(3)
    b = np.zeros(4)
    got = compiled(b)
    assert np.array_equal(a, b) and np.array_equal(expected, got) and got.dtype == expected.dtype
    assert np.random.rand() == after_numpy  # the global stream advanced as NumPy's did
    assert "jnp.zeros(3)" in compiled.source and "npr_call(rand, 3)" in compiled.source


STEP = "import numpy as np\n\n\ndef step(u):\n    u[1:] += u[:-1]\n"


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_converted_files_and_the_runtime_get_the_users_umask(tmp_path, umask_022):
    src = tmp_path / "s.py"
    src.write_text(STEP)
    out = tmp_path / "s_ref.py"
    assert main(["convert", str(src), "-o", str(out), "--standalone", "-q"]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert stat.S_IMODE((out.parent / "np2ref_rt" / "__init__.py").stat().st_mode) == 0o644
    out.chmod(0o640)  # an overwrite keeps the mode the file has
    assert main(["convert", str(src), "-o", str(out), "-q"]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_a_crlf_source_gives_a_crlf_conversion(tmp_path):
    src = tmp_path / "s.py"
    src.write_bytes(STEP.replace("\n", "\r\n").encode())
    out = tmp_path / "s_ref.py"
    assert main(["convert", str(src), "-o", str(out), "-q"]) == 0
    data = out.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") > 5 and b"\r\r" not in data
    assert main(["convert", str(src), "-o", str(out), "-q"]) == 0  # still np2ref's own, unedited output
    assert main(["convert", str(src), "-o", str(out), "--check", "-q"]) == 0


REFUSED = textwrap.dedent("""
    import numpy as np


    def f(u):
        del u
""")


def test_exit_codes_of_check_and_check_report(tmp_path):
    """README: 1 on findings (a refused construct), `check --report` alone exits 0 (a report is
    data), 1 under --fail-under."""
    src = tmp_path / "r.py"
    src.write_text(REFUSED)
    assert main(["check", str(src), "-q"]) == 1
    assert main(["check", "--report", "json", "-o", str(tmp_path / "r.json"), str(src)]) == 0
    assert main(["check", "--report", "json", "-o", str(tmp_path / "r.json"), "--fail-under", "50", str(src)]) == 1
