"""A conditional expression on array data whose operands read a window that moves with the loop
variable (`w = x[i:i + 1]; s = max(s, w[m].max()) if np.any(m) else s`), under `jax.vmap` of
`.pure`: the window (rt/win_views.py NprWinView) hid its buffer's Ref from the branch's Ref
lifting (rt/refs.py `_npr_reachable`), so the lax.cond kept a state effect and a batched
predicate raised JAX's NotImplementedError "State effect not supported in vmap-of-cond" (found by
`np2ref fuzz --family pallas_nest`, saved as tests/regressions/fuzz_aa72ab9a15.py). Differential:
each batch member against NumPy's run on it, results, written arguments and dtypes."""

from __future__ import annotations

import jax
import numpy as np
import pytest

import np2ref
from conftest import load_module

SOURCE = '''
import numpy as np


def window_max(x, i):
    s = 0.0
    for k in range(len(x)):
        w = x[k:k + 2]
        s = max(s, w[(w > 0) & (w < 3)].max()) if np.any((w > 0) & (w < 3)) else s
    x[i] = x[0] + s
    return s


def window_sum(x, y):
    t = 0.0
    for k in range(x.shape[0] - 1):
        w = x[k:k + 2]
        t = t + w[w > 0].sum() if np.any(w > 0) else t - 1.0
    y[0] = t
    return t
'''


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("window_branches"))


_X = np.array([[-1.25, np.nan, 1.5, 2.0], [0.5, -0.0, 4.0, 1.0], [-1.0, -2.0, -3.0, -4.0]])


@pytest.mark.parametrize("name, second", [("window_max", np.array([-1, 0, 2])), ("window_sum", np.zeros((3, 2)))])
def test_each_batch_member_is_numpys(module, name, second):
    fn = getattr(module, name)
    compiled = np2ref.compile(fn)
    with jax.enable_x64(True):
        results, finals = jax.jit(jax.vmap(compiled.pure))(_X, second)  # jitted: eagerly, 22 compiles
    names = ["x", "i" if name == "window_max" else "y"]
    for k in range(_X.shape[0]):
        args = [_X[k].copy(), second[k].copy()]
        want = fn(*args)
        got = np.asarray(results[k])
        assert got.dtype == np.asarray(want).dtype
        np.testing.assert_array_equal(got, want)
        for pname, arg in zip(names, args):
            if pname in finals:
                final = np.asarray(finals[pname][k])
                assert final.dtype == arg.dtype
                np.testing.assert_array_equal(final, arg)
