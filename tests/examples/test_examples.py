"""examples/: each converted file is what `np2ref convert` writes today (golden), each converted
program matches its NumPy original, and the jax.grad / jax.vmap drivers compute what NumPy does.

A golden failure after a translator change is expected: regenerate the converted files with
`python examples/regenerate.py` and review the diff.
"""

from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest

from conftest import ROOT, assert_same_as_numpy, run_cli

EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(EXAMPLES))
from regenerate import ORIGINALS, converted_path, expected_text  # noqa: E402


def _import(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("stem", ORIGINALS)
def test_converted_file_is_current(stem):
    committed = converted_path(stem).read_text()
    assert committed == expected_text(stem), (
        f"examples/{stem}_ref.py differs from what `np2ref convert` writes now; "
        "run `python examples/regenerate.py`")


@pytest.mark.parametrize("stem", ORIGINALS)
def test_converted_example_matches_numpy(stem):
    original = _import(EXAMPLES / f"{stem}.py", f"example_{stem}")
    converted = _import(converted_path(stem), f"example_{stem}_ref")
    fn = getattr(original, original.ENTRY)
    assert_same_as_numpy(fn, getattr(converted, original.ENTRY), **original.make_inputs("small"))


def test_gradient_through_compiled_simulation():
    """The driver's loss decreases, and jax.grad of `.pure` equals central finite differences of
    the same loss computed with the NumPy original."""
    import jax

    opt = _import(EXAMPLES / "optimise_initial_condition.py", "example_optimise")
    u_true, u_found, history, value_and_grad = opt.optimise(iterations=5, size="small")
    assert history[-1] < 0.5 * history[0]
    _, kappa, sensors, steps, measured = opt.make_problem("small")

    def numpy_loss(u0):
        u = u0.copy()
        opt.model.simulate(u, kappa, sensors, steps)
        return np.sum((u - measured) ** 2) + opt.SMOOTHING * np.sum(np.diff(u0) ** 2)

    with jax.enable_x64(True):
        value, g = value_and_grad(u_found)
    assert np.isclose(value, numpy_loss(u_found), rtol=1e-12)
    g = np.asarray(g)
    direction = np.random.default_rng(0).standard_normal(u_found.shape)
    h = 1e-6
    fd = (numpy_loss(u_found + h * direction) - numpy_loss(u_found - h * direction)) / (2 * h)
    assert np.isclose(g @ direction, fd, rtol=1e-6, atol=1e-10)


def test_vmap_batch_matches_numpy_loop():
    batch = _import(EXAMPLES / "batch_gray_scott.py", "example_batch")
    kwargs = dict(n=12, steps=20, params=batch.PARAMS[:3])
    got = batch.run_batch(**kwargs)
    want = batch.run_numpy(**kwargs)
    for a, b in zip(got, want):
        assert a.shape == b.shape and np.allclose(a, b, rtol=1e-12, atol=1e-14)



def test_readme_quickstart_convert_over_the_committed_example(tmp_path):
    """The README's first command, `np2ref convert examples/heat_equation.py -o
    examples/heat_equation_ref.py`, on a fresh clone: the committed file is np2ref's own,
    unedited output, so convert may write over it, and writes the same bytes."""
    import shutil
    (tmp_path / "examples").mkdir()
    for name in ("heat_equation.py", "heat_equation_ref.py"):
        shutil.copy(EXAMPLES / name, tmp_path / "examples" / name)
    before = (tmp_path / "examples" / "heat_equation_ref.py").read_bytes()
    done = run_cli("convert", "examples/heat_equation.py", "-o", "examples/heat_equation_ref.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "examples" / "heat_equation_ref.py").read_bytes() == before
