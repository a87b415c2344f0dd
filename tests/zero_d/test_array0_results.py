"""A 0-d array np.array makes stays a 0-d array when returned to host code (np2ref/rt/np_creation.
_npr_np_array0), where a reduction's or an operator's 0-d result is NumPy's scalar: set-up code that
returns `np.array(8, dtype=np.int32)` gave host code an np.int32, and its later `c[...] += i`
raised TypeError (the fuzzer's host_step family, through `convert`: tests/regressions/
fuzz_99292f8b6a.py, fuzz_181d3a07d4.py). And np2ref.compile of a function with no parameter
(the host route's generated call read `= args`: SyntaxError). Differential: types, dtypes, values."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import load_module, program, run_cli

P = program("array0_results")


def _same(want, got):
    want, got = (want, got) if isinstance(want, tuple) else ((want,), (got,))
    assert [type(w) for w in want] == [type(g) for g in got]
    for w, g in zip(want, got):
        assert np.asarray(w).dtype == np.asarray(g).dtype and np.array_equal(w, g)


@pytest.mark.parametrize("host_below", [0, None])
@pytest.mark.parametrize("name", ["make_counter", "make_pair"])
def test_set_up_code_returns_np_arrays_0d_arrays(name, host_below):
    fn = getattr(P, name)
    options = {} if host_below is None else {"host_below": host_below}
    _same(fn(), np2ref.compile(fn, **options)())


def test_a_compiled_call_tells_0d_arrays_from_scalars():
    a = np.arange(3.0)
    _same(P.arrays_and_scalars(a), np2ref.compile(P.arrays_and_scalars, host_below=0)(a.copy()))


SCRIPT = """import time
import numpy as np


def make_counter():
    return np.array(8, dtype=np.int32)


def make_pair():
    return np.array(-0.25, dtype=np.float32), np.array(3.0)


def script():  # host code (the clock): its loop writes the 0-d arrays set-up code made
    c = make_counter()
    for i in range(3):
        t0 = time.time()
        c[...] += i
    x, y = make_pair()
    x[...] = 1.5
    return c, x, y
"""


def test_a_converted_script_writes_the_0d_arrays_its_set_up_code_made(tmp_path):
    (tmp_path / "setup0d.py").write_text(SCRIPT)
    r = run_cli("convert", "setup0d.py", "-o", "setup0d_ref.py", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    original = load_module(SCRIPT, tmp_path, "setup0d_original")
    converted = load_module((tmp_path / "setup0d_ref.py").read_text(), tmp_path, "setup0d_converted")
    assert "@npr_jit" in (tmp_path / "setup0d_ref.py").read_text()  # the set-up functions are compiled
    _same(original.script(), converted.script())
