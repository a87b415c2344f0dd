"""A compiled call returns once its host effects are over, and host values keep NumPy's kind.

On an accelerator dispatch is asynchronous: on the TPU a compiled function that printed and
returned only Python values came back before its print had run (the text escaped the caller's
capture, 2026-12-06). Calls now wait for the programs' host callbacks (rt/host_words.py
`_npr_settled`) once any program holds one. And a 0-d float64 crossing to the host as a TPU's
float32 pair came back NumPy's scalar, so `print(repr(a))` of a 0-d array made in the function
showed `np.float64(6.0)` for NumPy's `array(6.)`; forced here on the CPU."""

from __future__ import annotations

import jax
import numpy as np
import pytest

import np2ref
from conftest import load_module
from np2ref.rt import host_words

SOURCE = '''
import numpy as np


def made(x):
    a = np.zeros(())
    a += x.sum()
    print(repr(a), repr(x.sum()), repr(x[1:2]))
    return 1


def told(x):
    print("total", x.sum())
    return "done"
'''


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("host_effects"), "host_effects")


@pytest.mark.parametrize("pairs", [False, True] if jax.default_backend() != "tpu" else [True])
def test_a_0d_array_printed_is_numpys_array_whatever_the_words(programs, pairs, monkeypatch, capsys):
    monkeypatch.setitem(host_words._npr_FLOAT_PAIRS, "on", pairs)
    x = np.arange(1.0, 4.0)
    want = programs.made(x)
    printed = capsys.readouterr().out
    assert np2ref.compile(programs.made, host_below=0)(x) == want
    assert capsys.readouterr().out == printed == "array(6.) np.float64(6.0) array([2.])\n"


def test_a_call_waits_for_its_prints(programs, monkeypatch, capsys):
    waited = []
    barrier = jax.effects_barrier
    monkeypatch.setattr(jax, "effects_barrier", lambda: waited.append(1) or barrier())
    x = np.arange(1.0, 4.0)
    compiled = np2ref.compile(programs.told, host_below=0)
    for _ in range(2):  # the traced call and the cached one
        assert compiled(x) == "done"
        assert capsys.readouterr().out == "total 6.0\n"
    assert host_words._npr_HOST_EFFECTS["traced"] and len(waited) >= 2
