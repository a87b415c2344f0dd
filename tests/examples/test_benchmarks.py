"""benchmarks/: every hand-written JAX port, and np2ref's `.pure` of the same program, equal
NumPy on small inputs (size T). No timing here: run.py's numbers go in notes."""

from __future__ import annotations

import sys

import jax
import jax.numpy as jnp
import pytest

import np2ref
from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import programs as P  # noqa: E402
from common import disagreement, run_numpy, split_static  # noqa: E402

NAMES = sorted(P.PROGRAMS)


def test_at_least_ten_hand_ports():
    assert len(NAMES) >= 10


@pytest.mark.parametrize("name", NAMES)
def test_hand_port_and_translation_equal_numpy(name):
    prog = P.PROGRAMS[name]()
    kw = prog.make("T")
    static, dynamic = split_static(kw)
    expected, after = run_numpy(prog.original, kw)
    compiled = np2ref.compile(prog.original)
    with jax.enable_x64(True):
        dev = {k: jnp.asarray(v) for k, v in dynamic.items()}
        hand = jax.jit(prog.hand, static_argnames=tuple(static))(**dev, **static)
        pure = jax.jit(lambda **d: compiled.pure(**d, **static))(**dev)  # one compile, not one an operation
    assert set(hand[1]) == set(compiled.mutated), "the hand port returns the mutated parameters"
    assert disagreement(expected, after, *hand) is None
    assert disagreement(expected, after, *pure) is None


def test_run_quick_smoke(tmp_path):
    import run

    out = tmp_path / "b.md"
    assert run.main(["--size", "T", "--programs", "heat_k1", "--repeats", "1", "--skip-extras",
                     "--output", str(out)]) == 0
    text = out.read_text()
    assert run.BEGIN in text and "heat_k1" in text
