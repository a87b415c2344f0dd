"""An element stored at a traced index just after a store that covered the whole array
(durbin's `y[:k] += alpha * np.flip(y[:k])` then `y[k] = alpha`) is a one-element scatter
(rt/index.py `_npr_whole_store`): as a dynamic_update_slice XLA:CPU fused it with the whole-width
select into one fusion that made each trip 1.4x the hand port's, whose `.at[k].set` XLA keeps
apart (benchmarks/npbench_style.py durbin: 1.46 -> about 1.0-1.2). Differential, bit for bit, and
the loop body holds the select and the element update as two fusions, as the hand port's does."""

from __future__ import annotations

import re

import numpy as np
import pytest

import np2ref
import np2ref.rt.index
from conftest import assert_numpys_bits, load_module, on_tpu

SOURCE = '''
import numpy as np


def durbin(r):
    y = np.empty_like(r)
    alpha = -r[0]
    beta = 1.0
    y[0] = -r[0]
    for k in range(1, r.shape[0]):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + np.dot(np.flip(r[:k]), y[:k])) / beta
        y[:k] += alpha * np.flip(y[:k])
        y[k] = alpha
    return y


def halve_then_set(x, y):
    for k in range(1, x.shape[0]):
        y[:k] *= 0.5
        y[k] = x[k] - y[k - 1]
    return y
'''


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("whole_then_element"), "whole_then_element")


def _array_fusions(text: str, n: int) -> int:
    """Fusions in the while loop's body that make an f64[n] (main made 2: the flipped products
    and the select fused with the element update; 3 with the update apart)."""
    body = re.search(r"body=%?([\w.\-]+)", text).group(1)
    block = re.search(rf"\n%?{re.escape(body)} .*?\n}}", text, re.S).group(0)
    return len(re.findall(rf" = f64\[{n}\]\S* fusion\(", block))


def test_durbin_keeps_its_bits_and_the_element_store_apart(programs, monkeypatch):
    """np.dot sums in BLAS's order, which no translation matches bit for bit (docs/semantics.md):
    durbin's result is compared with the dynamic_update_slice lowering's, bit for bit, and with
    NumPy's to a dot's rounding."""
    if on_tpu():
        pytest.skip("counts XLA:CPU's fusions (the TPU compiler fuses otherwise)")
    r = np.random.default_rng(0).standard_normal(60) * 0.1
    compiled = np2ref.compile(programs.durbin, host_below=0)
    got = np.asarray(compiled(r.copy()))
    np.testing.assert_allclose(got, programs.durbin(r.copy()), rtol=1e-9)
    assert _array_fusions(compiled.lower(r).compile().as_text(), r.size) == 3
    monkeypatch.setattr(np2ref.rt.index, "_npr_whole_store", lambda prior, shape: False)
    fused = np2ref.compile(programs.durbin, host_below=0)
    assert _array_fusions(fused.lower(r).compile().as_text(), r.size) == 2  # (traced again: main's form)
    assert_numpys_bits(got, np.asarray(fused(r.copy())))


@pytest.mark.parametrize("n", [1, 2, 40])
def test_an_element_after_a_whole_width_store_is_numpys(programs, n):
    x = np.random.default_rng(n).standard_normal(n)
    want_y, got_y = np.ones(n), np.ones(n)
    want = programs.halve_then_set(x, want_y)
    got = np2ref.compile(programs.halve_then_set, host_below=0)(x, got_y)
    assert_numpys_bits(np.asarray(got), want)
    assert_numpys_bits(got_y, want_y)
