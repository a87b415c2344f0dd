"""Higher-order helpers of a module np2ref can read (frontend/imported.py): `from bench import
do_while` / `bench.do_while(...)`, bench.py beside the script, translate as the script's own
helpers. Differential: the NumPy script against np2ref.compile and against `np2ref convert`."""

from __future__ import annotations

import importlib
import sys

import numpy as np
import pytest

import np2ref
from tests.conftest import assert_same_as_numpy, run_cli

BENCH = '''
import numpy as np

TOL = 1e-3


def do_while(cond, n, body, state):
    i = 0
    while i < n and cond(state):
        state = body(state)
        i += 1
    return state


def until_small(cond, n, body, state):  # reads TOL, a name of its module: not pulled in
    i = 0
    while i < n and cond(state) > TOL:
        state = body(state)
        i += 1
    return state
'''

SCRIPT = '''
import numpy as np
{imports}


def cond(state):
    return state[1] < 40


def body(state):
    u, k = state
    return 0.5 * (u + np.roll(u, 1)) + np.float32(0.25), k + 1


def run(u, n):
    return {call}(cond, n, body, (u, 0))
'''

FORMS = {"from": ("from bench import do_while", "do_while"),
         "dotted": ("import bench", "bench.do_while"),
         "aliased": ("from bench import do_while as loop", "loop")}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("pkg")
    (path / "bench.py").write_text(BENCH)
    for form, (imports, call) in FORMS.items():
        (path / f"script_{form}.py").write_text(SCRIPT.format(imports=imports, call=call))
    (path / "script_global.py").write_text(SCRIPT.format(imports="from bench import until_small",
                                                         call="until_small"))
    sys.path.insert(0, str(path))
    yield path
    sys.path.remove(str(path))


def _module(folder, stem):
    return importlib.import_module(stem)


@pytest.mark.parametrize("form", FORMS)
def test_an_imported_higher_order_helper_compiles_as_the_scripts_own(folder, form):
    script = _module(folder, f"script_{form}")
    compiled = np2ref.compile(script.run)
    for n in (0, 3, 100):  # stops by the count, by the condition (k reaches 40)
        expected, got = assert_same_as_numpy(script.run, compiled, np.linspace(0.0, 1.0, 7), n)
        assert type(got[1]) is type(expected[1])
    assert "npr_while(" in compiled.source


def test_convert_writes_the_helper_into_the_converted_file(folder):
    r = run_cli("convert", "script_dotted.py", "-o", "script_dotted_ref.py", cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    text = (folder / "script_dotted_ref.py").read_text()
    assert "def bench_do_while(" in text and "@npr_jit\ndef run(" in text
    converted = _module(folder, "script_dotted_ref")
    original = _module(folder, "script_dotted")
    assert_same_as_numpy(original.run, converted.run, np.linspace(0.0, 1.0, 7), 100)


def test_a_helper_reading_its_modules_names_stays_opaque(folder):
    script = _module(folder, "script_global")
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(script.run)
    assert info.value.diagnostics[0].code == "NPR021"
