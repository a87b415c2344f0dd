"""A converted script's helper whose `while tt < hi` loop on Python float arguments appends to a
list (found by fuzz4's float_sized family: 23 of 150 programs refused): traced, the floats made
the loop's trip count data (NPR034 when the call ran); npr_jit now retries such a call with its
Python floats static (rt/float_sizes.py), as for NPR031 and NPR130, and the loop is Python's, as
in NumPy's run. Differential: the converted module's result against NumPy's, values and types."""

from __future__ import annotations

import textwrap

import numpy as np

import np2ref
from conftest import load_module

SCRIPT = textwrap.dedent('''
    import time
    import numpy as np


    def h(x, lo, hi, dt):
        tt = lo
        ys = [x.copy()]
        while tt < hi:
            x = x + dt * (np.sin(tt) - x)
            tt += dt
            ys.append(x)
        return np.array(ys), tt


    def f(u, lo, hi, dt):
        t0 = time.perf_counter()
        return h(u, lo, hi, dt)
''')


def test_a_while_on_float_arguments_that_appends_is_numpys(tmp_path):
    result = np2ref.convert_source(SCRIPT, str(tmp_path / "script.py"))
    assert result.ok and "@npr_jit" in result.code  # h is translated, not left as NumPy
    original = load_module(SCRIPT, tmp_path, "float_appends_np")
    converted = load_module(result.code, tmp_path, "float_appends_ref")
    for lo, hi, dt in ((0.0, 0.5, 0.1), (1.0, 1.0, 0.25), (-0.0, 0.3, 0.1)):
        want_y, want_t = original.f(np.array([1.0, -2.0]), lo, hi, dt)
        got_y, got_t = converted.f(np.array([1.0, -2.0]), lo, hi, dt)
        assert type(got_t) is type(want_t) and got_t == want_t
        assert got_y.dtype == want_y.dtype and got_y.shape == want_y.shape
        np.testing.assert_allclose(got_y, want_y, rtol=1e-14, atol=0)
