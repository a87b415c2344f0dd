"""Set-up code np2ref refuses does not refuse the file (issue 37 case 8): under `convert`, a
function the module calls that has a construct np2ref does not translate (a nested def with a
default computed when it runs, `del`, `try`) and writes no array stays NumPy host code (an NPR021
note), its callers too, and the rest converts (their loops lifted). np2ref.compile, which needs
every function it calls, and a refused function nothing calls keep the refusal."""

from __future__ import annotations

import contextlib
import io
import textwrap

import numpy as np

import np2ref
from conftest import load_module

SETUP = textwrap.dedent("""
    import numpy as np


    def make_params(n):
        shape = (n,)

        def profile(x, width=0.1, center=shape):
            return np.exp(-(x - 0.5) ** 2 / width)
        x = np.linspace(0.0, 1.0, n)
        return profile(x), 0.01


    def step(u, dt):
        u[1:-1] += dt * (u[2:] - 2 * u[1:-1] + u[:-2])


    def main():
        u, dt = make_params(32)
        for t in range(50):
            step(u, dt)
        print(u.sum())
        return u
""")


def _main(text: str, tmp_path, name: str):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = load_module(text, tmp_path, name).main()
    return out.getvalue(), result


def test_a_set_up_function_np2ref_refuses_stays_host_code_and_the_file_converts(tmp_path):
    result = np2ref.convert_source(SETUP, "setup.py")
    assert result.ok, [d.short() for d in result.diagnostics]
    notes = [(d.code, d.line) for d in result.diagnostics]
    assert notes == [("NPR021", 5), ("NPR021", 18)]  # make_params(), then main() that calls it
    assert "NPR014 on line 8" in result.diagnostics[0].message
    assert "@npr_jit(mutated=('u',))\ndef step(u, dt):" in result.code
    assert "    _main_loop_20(dt, u)\n" in result.code  # main()'s loop is compiled
    printed, u = _main(SETUP, tmp_path, "setup_orig")
    printed_ref, u_ref = _main(result.code, tmp_path, "setup_ref")
    assert np.isclose(float(printed), float(printed_ref), rtol=1e-12, atol=0)
    assert u.dtype == u_ref.dtype and np.allclose(u, u_ref, rtol=1e-12, atol=0)


def test_compile_and_an_uncalled_function_keep_the_refusal():
    uncalled = SETUP.replace("u, dt = make_params(32)", "u, dt = np.ones(32), 0.01")
    result = np2ref.convert_source(uncalled, "setup.py")
    assert not result.ok and [d.code for d in result.diagnostics if d.is_error] == ["NPR014"]
    only = np2ref.convert_source(SETUP, "setup.py", only={"make_params"})
    assert [d.code for d in only.diagnostics if d.is_error] == ["NPR014"]
