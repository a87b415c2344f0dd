"""SciPy special functions (issue 37 case 9): on values known while tracing (literals, module
constants, arithmetic on them) SciPy's own call runs then, a constant of the compiled program (the
same float64 NumPy's program computes); on traced data an elementwise one (a ufunc) is a host call
when the program runs, its shape the inputs' broadcast and its dtype SciPy's. A non-elementwise
one on traced data stays host code (NPR021). The time loop around them, with a branch on
`it == Nt - 1` (a last-step guard), stays a lax loop. Skipped where SciPy is not installed."""

from __future__ import annotations

import warnings

import jax
import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, load_module

pytest.importorskip("scipy")

SOURCE = """
import numpy as np
import scipy.special
import scipy.special as sp
from scipy.special import gammaln

DIM = 3
N_PAIRS = 6


def simulate(u, Nt, dt):
    c = scipy.special.gamma(1.5) * scipy.special.erf(-0.5)
    last = np.zeros(2)
    for it in range(Nt):
        u[1:-1] += dt * c * (u[2:] - 2 * u[1:-1] + u[:-2])
        if it == Nt - 1:
            last[0] = u.sum()
            last[1] = c
    return last


def unit_ball(r):
    # module constants and arithmetic on them: SciPy runs while tracing
    volume = np.pi ** (DIM / 2) / scipy.special.gamma(DIM / 2 + 1) * scipy.special.comb(N_PAIRS, 2)
    return volume * r ** DIM


def elementwise(u, a):
    # traced data: host calls when the program runs, in place and not
    u *= scipy.special.gamma(a)
    y = scipy.special.erf(u) + sp.jv(1, a)
    s, c = sp.sici(u)
    return y, s - c, gammaln(u.astype(np.float32))


def reduction(x):
    return scipy.special.logsumexp(x)
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("scipy"), "library_constants")


def test_a_special_function_of_constants_is_a_constant_and_the_loop_a_lax_loop(module):
    compiled = np2ref.compile(module.simulate)
    u = np.linspace(0.0, 1.0, 16) ** 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no PythonLoopWarning: not 200 traced passes
        expected, got = assert_same_as_numpy(module.simulate, compiled, u, 200, 0.01)
    assert got[1] == expected[1]  # the constant itself, bit for bit
    assert "npr_for(npr_range(Nt)" in compiled.source and "npr_if(it == Nt - 1" in compiled.source


def test_a_special_function_of_module_constants_runs_while_tracing(module):
    """`gamma(DIM / 2 + 1)`, `comb(N_PAIRS, 2)` (no ufunc): refused NPR021 before, as SciPy ran
    on number literals only."""
    compiled = np2ref.compile(module.unit_ball)
    r = np.array([0.5, 1.0, 2.0])
    expected, got = assert_same_as_numpy(module.unit_ball, compiled, r)
    assert np.array_equal(expected, got)


def test_elementwise_special_functions_of_traced_data_are_host_calls(module):
    """gamma of a float argument, erf and sici (two outputs) of an array written in place, jv of
    an int literal and a traced float, gammaln of float32: SciPy's values and dtypes, bit for bit."""
    compiled = np2ref.compile(module.elementwise)
    u = np.linspace(0.1, 2.0, 7)
    expected, got = assert_same_as_numpy(module.elementwise, compiled, u, 1.5)
    for e, g in zip(expected, got):
        assert e.dtype == g.dtype and np.array_equal(e, g)
    assert "npr_special(scipy.special.gamma, a)" in compiled.source


def test_host_calls_of_special_functions_under_vmap_and_grad(module):
    compiled = np2ref.compile(module.elementwise)
    us = np.stack([np.linspace(0.1, 2.0, 5), np.linspace(1.0, 3.0, 5)])
    with jax.enable_x64(True):
        (ys, _, _), state = jax.jit(jax.vmap(lambda u: compiled.pure(u, 1.5)))(us)
    for k in range(2):
        y, _, _ = module.elementwise(us[k].copy(), 1.5)
        assert np.array_equal(np.asarray(ys[k]), y)
    with pytest.raises(Exception, match="NPR021"):
        jax.grad(lambda a: compiled.pure(us[0], a)[0][0].sum())(1.5)


def test_a_reduction_of_traced_data_stays_host_code(module):
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(module.reduction)
    assert "NPR021" in {d.code for d in info.value.diagnostics}
    assert "logsumexp" in str(info.value)
