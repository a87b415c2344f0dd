"""A dict of parameters (`PARAMS = {"n": 17, "dt": 0.002}`, `n = p["n"]` sizing the grid), in a
converted script and as a static argument of np2ref.compile.

A converted script's `run(dict(PARAMS), ...)` raised NPR031 (the dict's int was traced): npr_jit
now retries with a dict of Python numbers static, as it does a Python float
(rt/float_sizes._npr_numbers_dict). And a static dict, list or array was keyed by its identity, so
a caller that changed it in place (`p["dt"] = 2.0`) got the first call's trace again, a silent
wrong answer: it is keyed by what it holds now (rt/arguments._npr_static_key)."""

from __future__ import annotations

import contextlib
import io
import runpy
import textwrap

import numpy as np

import np2ref
from conftest import load_module

SCRIPT = textwrap.dedent("""
    import numpy as np

    PARAMS = {"n": 3, "dt": 0.5, "scheme": "euler"}

    def grid(p, u):
        n = p["n"]
        w = np.zeros((n, n))
        w += p["dt"] * u
        return w

    def table(rows, u):
        return np.array(rows) * u

    if __name__ == "__main__":
        p = dict(PARAMS)
        print(grid(p, 1.0).sum())
        p["dt"] = 2.0
        print(grid(p, 1.0).sum())
        p["n"] = 2
        print(grid(p, 1.0).shape, type(p["n"]).__name__)
""")


def _printed(path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(path), run_name="__main__")
    return out.getvalue()


def test_a_converted_script_sizes_its_grid_from_a_parameter_dict(tmp_path):
    src, dst = tmp_path / "params_script.py", tmp_path / "params_script_ref.py"
    src.write_text(SCRIPT)
    result = np2ref.convert_source(SCRIPT, str(src))
    assert "@npr_jit" in result.code
    dst.write_text(result.code)
    assert _printed(dst) == _printed(src)


def test_a_static_dict_changed_in_place_is_traced_again(tmp_path):
    module = load_module(SCRIPT, tmp_path, "params_static")
    grid = np2ref.compile(module.grid, static_argnames=("p",))
    p = {"n": 2, "dt": 0.5}
    for change in ({}, {"dt": 2.0}, {"n": 3}):
        p.update(change)
        np.testing.assert_array_equal(grid(p, 1.0), module.grid(p, 1.0))


def test_a_static_list_and_array_changed_in_place(tmp_path):
    module = load_module(SCRIPT, tmp_path, "params_static_rows")
    table = np2ref.compile(module.table, static_argnames=("rows",))
    for rows in ([1.0, 2.0], np.array([3.0, 4.0])):
        want = module.table(rows, 2.0)
        np.testing.assert_array_equal(table(rows, 2.0), want)
        rows[0] = -7.0
        np.testing.assert_array_equal(table(rows, 2.0), module.table(rows, 2.0))
