"""SciPy on constants (issue 37 case 9): `scipy.special.gamma(1.5)` on number literals runs on
the host while tracing, a constant of the compiled program (the same float64 NumPy's program
computes); on traced data it is still refused. The time loop around it, with a branch on
`it == Nt - 1` (a last-step guard), stays a lax loop. Skipped where SciPy is not installed."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import np2ref
from conftest import load_module

pytest.importorskip("scipy")

SOURCE = """
import numpy as np
import scipy.special


def simulate(u, Nt, dt):
    c = scipy.special.gamma(1.5) * scipy.special.erf(-0.5)
    last = np.zeros(2)
    for it in range(Nt):
        u[1:-1] += dt * c * (u[2:] - 2 * u[1:-1] + u[:-2])
        if it == Nt - 1:
            last[0] = u.sum()
            last[1] = c
    return last


def traced(u, a):
    u *= scipy.special.gamma(a)
"""


def test_a_special_function_of_constants_is_a_constant_and_the_loop_a_lax_loop(tmp_path):
    module = load_module(SOURCE, tmp_path, "library_constants")
    compiled = np2ref.compile(module.simulate)
    u = np.linspace(0.0, 1.0, 16) ** 2
    v = u.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no PythonLoopWarning: not 200 traced passes
        got = compiled(u, 200, 0.01)
    expected = module.simulate(v, 200, 0.01)
    assert got.dtype == expected.dtype and np.allclose(got, expected, rtol=1e-12, atol=0)
    assert got[1] == expected[1]  # the constant itself, bit for bit
    assert np.allclose(u, v, rtol=1e-12, atol=0)
    assert "npr_for(npr_range(Nt)" in compiled.source and "npr_if(it == Nt - 1" in compiled.source


def test_a_special_function_of_traced_data_is_still_refused(tmp_path):
    module = load_module(SOURCE, tmp_path, "library_traced")
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(module.traced)
    assert {d.code for d in info.value.diagnostics} & {"NPR003", "NPR021"}
