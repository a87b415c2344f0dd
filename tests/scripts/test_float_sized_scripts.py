"""A converted script whose function sizes its arrays from Python float arguments
(`n = int((b - a) / h)`, a public RK4 script's): npr_jit retries the call with its Python floats
static (rt/float_sizes.py), so the converted script prints what NumPy prints; it raised NPR031
when it ran. np2ref.compile keeps its refusal naming the float (test_python_surface)."""

from __future__ import annotations

import contextlib
import io
import runpy
import textwrap

import numpy as np
import pytest

import np2ref

RK4 = textwrap.dedent("""
    import numpy as np

    def rk4(f, a, b, h, y_0):
        n = int((b - a) / h)
        t = np.linspace(a, b, n + 1)
        w = np.zeros((len(y_0), n + 1))
        w[:, 0] = y_0
        for i in range(n):
            s_1 = f(t[i], w[:, i])
            s_2 = f(t[i] + h / 2, w[:, i] + s_1 * h / 2)
            w[:, i + 1] = w[:, i] + s_2 * h
        return t, w

    def decay(t, y):
        return -0.5 * y + np.sin(t)

    for a, b in ((0.0, 0.5), (0.0, 0.3), (0.0, 0.5)):
        t, w = rk4(decay, a, b, 0.01, (5.0, 1.0))
        print(t.shape, w.dtype, *w[:, -1].tolist())
""")


def _printed(path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(path), run_name="__main__")
    return out.getvalue()


def test_a_converted_script_sizing_arrays_from_float_arguments_prints_as_numpy(tmp_path):
    src, dst = tmp_path / "rk4_script.py", tmp_path / "rk4_script_ref.py"
    src.write_text(RK4)
    result = np2ref.convert_source(RK4, str(src))
    assert "@npr_jit" in result.code  # rk4 is translated, not left as NumPy
    dst.write_text(result.code)
    want, got = _printed(src).splitlines(), _printed(dst).splitlines()
    assert len(want) == len(got) == 3
    for w, g in zip(want, got):
        assert w.split()[:2] == g.split()[:2]  # shapes and dtypes exactly
        np.testing.assert_allclose([float(v) for v in g.split()[2:]], [float(v) for v in w.split()[2:]], rtol=1e-12)


def test_compile_still_refuses_a_size_from_a_float_argument(tmp_path):
    path = tmp_path / "rk4_mod.py"
    path.write_text(RK4.split("for a, b")[0])
    mod = runpy.run_path(str(path))
    with pytest.raises(np2ref.Np2RefError, match="NPR031"):
        np2ref.compile(mod["rk4"])(mod["decay"], 0.0, 0.5, 0.01, (5.0, 1.0))


GRID = textwrap.dedent("""
    import numpy as np

    def grid_search(y, alphas, gammas):
        results = {}
        for a in alphas:
            for g in gammas:
                level = y[0]
                sse = 0.0
                for t in range(1, y.shape[0]):
                    err = y[t] - level
                    sse += err * err
                    level = level + a * g * err
                results[(a, g)] = sse
        return results

    Y = np.sin(np.arange(12) * 0.9) + np.arange(12) * 0.1
    for alphas in ((0.2, 0.5), (0.3, 0.9, 0.5)):
        results = grid_search(Y, alphas, (1.0, 0.5))
        best = min(results, key=results.get)
        print(best, repr(results[best]), len(results))
""")


def test_a_converted_script_keying_a_dict_by_a_tuple_of_floats_prints_as_numpy(tmp_path):
    """`for a in alphas: results[(a, g)] = sse` with `alphas` a tuple of Python floats (a
    Holt-Winters grid search, tests/third_party/scripts12/holt_winters_forecast.py): the traced
    floats made the dict key data (NPR031 when the converted script ran); the retry makes a tuple
    of Python numbers static as it makes a float static."""
    src, dst = tmp_path / "grid_script.py", tmp_path / "grid_script_ref.py"
    src.write_text(GRID)
    result = np2ref.convert_source(GRID, str(src))
    assert "@npr_jit" in result.code
    dst.write_text(result.code)
    want, got = _printed(src).splitlines(), _printed(dst).splitlines()
    assert len(want) == len(got) == 2
    for w, g in zip(want, got):
        assert w.split(")")[0] == g.split(")")[0] and w.split()[-1] == g.split()[-1]  # the key, the count
        np.testing.assert_allclose(float(g.split("(")[-1].split(")")[0]), float(w.split("(")[-1].split(")")[0]), rtol=1e-12)


BLACK_SCHOLES = textwrap.dedent("""
    import math

    import numpy as np

    def bs_call(s, k, t, r, sigma):
        if t <= 0.0:
            return max(s - k, 0.0)
        d1 = (math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * math.sqrt(t))
        d2 = d1 - sigma * math.sqrt(t)
        cdf = lambda x: 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))
        return s * cdf(d1) - k * math.exp(-r * t) * cdf(d2)

    def payoff(st, k):
        out = np.empty_like(st)
        np.maximum(st - k, 0.0, out=out)
        return out.mean()

    for sigma in (0.2, 0.3):
        print(repr(bs_call(100.0, 95.0, 1.0, 0.03, sigma)), repr(payoff(np.linspace(80.0, 120.0, 5), 95.0)))
""")


def test_a_converted_script_calling_math_erf_of_float_arguments_prints_as_numpy(tmp_path):
    """A Black-Scholes price of Python floats through `math.erf` in a local lambda
    (tests/third_party/scripts13b/heston_float32_mc.py): the lifted lambda refused math.erf of a
    traced float with NPR031 as an NprError, which npr_jit's retry with the floats static did not
    take for a size from a float (an NprUnsupported), so the converted script raised; the refusal
    is now NprUnsupported, a gap met when traced, and the retry makes the floats Python's again."""
    src, dst = tmp_path / "bs_script.py", tmp_path / "bs_script_ref.py"
    src.write_text(BLACK_SCHOLES)
    result = np2ref.convert_source(BLACK_SCHOLES, str(src))
    assert "def bs_call" in result.code and "@npr_jit" in result.code.split("def bs_call")[0].splitlines()[-1]
    dst.write_text(result.code)
    want = _printed(src)
    assert _printed(dst) == want and len(want.splitlines()) == 2


NIGHT = textwrap.dedent("""
    import numpy as np

    def column(mu0, tau):
        if mu0 <= 0.0:
            return None, 0.0
        flux = mu0 * np.exp(-np.cumsum(tau) / mu0)
        flux[-1] *= 0.5
        return flux, float(flux.sum())

    for mu0 in (0.5, -0.1, 0.8):
        rates, total = column(mu0, np.array([0.1, 0.2, 0.3]))
        print("night" if rates is None else repr(rates), repr(total))
""")


def test_a_converted_script_returning_none_by_a_float_argument_prints_as_numpy(tmp_path):
    """`if mu0 <= 0.0: return None, 0.0` (the sun below the horizon, scripts14a's two_stream_rt):
    whether the result holds None depends on a Python float argument, traced, so the converted
    script stopped with NPR128; the retry with the floats static (rt/float_sizes.py) takes NPR128
    too, and the `if` is Python's again."""
    src, dst = tmp_path / "night_script.py", tmp_path / "night_script_ref.py"
    src.write_text(NIGHT)
    result = np2ref.convert_source(NIGHT, str(src))
    assert "@npr_jit" in result.code.split("def column")[0].splitlines()[-1]
    dst.write_text(result.code)
    want = _printed(src)
    assert _printed(dst) == want and "night" in want
