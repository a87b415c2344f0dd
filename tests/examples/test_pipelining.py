"""A converted layer loop nested in a time loop (examples/pipelined_layers.py): parameters and their
gradients live in refs updated in place, against the NumPy original and a functional JAX version."""

from __future__ import annotations

import functools
import importlib.util
import sys

import jax
import numpy as np
import pytest

import np2ref
from conftest import ROOT


@functools.cache
def example():
    spec = importlib.util.spec_from_file_location("pipelined_layers", ROOT / "examples" / "pipelined_layers.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["pipelined_layers"] = module
    spec.loader.exec_module(module)
    return module


@functools.cache
def train():
    return np2ref.compile(example().train)


def inputs(**kw):
    return example().make_inputs(**{"layers": 3, "d": 8, "batch": 12, "steps": 4, "micro": 3, **kw})


def copy(d):
    return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in d.items()}


def test_matches_numpy_and_writes_parameters_in_place():
    original, converted = copy(inputs()), copy(inputs())
    W_before = converted["W"].copy()
    losses_np = example().train(**original)
    losses = train()(**converted)
    assert train().mutated == ("W", "gW")
    assert np.allclose(losses, losses_np, rtol=1e-13, atol=0)
    for name in ("W", "gW"):
        assert np.allclose(converted[name], original[name], rtol=1e-13, atol=1e-15), name
    assert not np.array_equal(converted["W"], W_before)
    assert losses[-1] < losses[0]


def test_matches_the_functional_jax_version():
    d = inputs()
    expected = example().train(**copy(d))
    with jax.enable_x64(True):
        losses, W = example().functional_train(d["W"], d["x"], d["y"], d["lr"], d["steps"], d["micro"])
    got = copy(d)
    train()(**got)
    assert np.allclose(np.asarray(losses), expected, rtol=1e-13, atol=0)
    assert np.allclose(np.asarray(W), got["W"], rtol=1e-13, atol=1e-15)


def test_loops_stay_nested_scans():
    with jax.enable_x64(True):
        text = train().lower(**inputs()).as_text()
    # time loop > micro-batch loop > (forward layer loop, backward layer loop): four while loops,
    # whatever the trip counts (nothing unrolled)
    assert text.count("stablehlo.while") == 4
    assert "npr_at(gW)[l] +=" in train().source and "def _loop_t" in train().source


def test_memory_does_not_grow_with_steps_and_beats_the_functional_version():
    small = example().memory_report(train(), inputs())
    longer = example().memory_report(train(), inputs(steps=40))
    refs, functional = small["np2ref (refs)"], small["functional (jax.grad + scan)"]
    assert longer["np2ref (refs)"]["temp"] == refs["temp"]
    assert refs["temp"] <= functional["temp"]
    assert refs["argument"] == sum(v.nbytes for v in inputs().values() if isinstance(v, np.ndarray)) + 8


@pytest.mark.parametrize("layers", [1, 5])
def test_other_depths(layers):
    d = example().make_inputs(layers=layers, d=4, batch=4, steps=2, micro=2, seed=layers)
    original, converted = copy(d), copy(d)
    assert np.allclose(train()(**converted), example().train(**original), rtol=1e-13, atol=0)
    assert np.allclose(converted["W"], original["W"], rtol=1e-13, atol=1e-15)
