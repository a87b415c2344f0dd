"""A generator made inside a compiled function (`rng = np.random.default_rng(1234)`): made on the
host every run, in program order, so the draws are NumPy's stream call after call (issue 42)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, converted_functions, program


def programs():
    return program("made_generators")


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(programs(), name))


CASES = {
    "noisy_relax": lambda: (np.zeros(6), 5),
    "pcg_seeded": lambda: (np.ones(3), 11),
    "legacy_state": lambda: (np.zeros(5),),
    "seed_from_data": lambda: (np.array([4, 0, 0, 0]),),
    "drives_helper": lambda: (np.linspace(1.0, 2.0, 5), 3),
    "seeded_per_step": lambda: (np.zeros(4),),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_stream_as_numpy_on_every_call(name):
    """Three calls in a row: each makes a fresh generator, as NumPy does (a generator made once
    while tracing would go on with the first call's stream)."""
    fn, c = getattr(programs(), name), compiled(name)
    for _ in range(3):
        theirs, ours = CASES[name](), CASES[name]()
        expected, got = fn(*theirs), c(*ours)
        assert_numpys_bits(got, expected)
        assert_numpys_bits(ours[0], theirs[0])  # the caller's array, written the same


def test_without_a_seed_each_call_draws_anew():
    c = compiled("fresh_entropy")
    first, second = c(np.zeros(8)), c(np.zeros(8))
    assert first.shape == (8,) and not np.array_equal(first, second)
    assert np.all((first >= 0) & (first < 1))


@pytest.mark.parametrize("name", ["returns_generator", "reads_bit_generator"])
def test_a_generator_that_escapes_keeps_the_function_numpy_code(name):
    with pytest.raises(np2ref.Np2RefError) as info:
        compiled(name)(np.zeros(3))
    assert info.value.diagnostics[0].code == "NPR021"


def test_converted_file_makes_the_generator_at_run_time(tmp_path):
    names = ["noisy_relax", "pcg_seeded", "kick", "drives_helper"]
    converted = converted_functions(programs(), names, tmp_path, "made_generators")
    source = (tmp_path / "made_generators_ref.py").read_text()
    assert "npr_generator(np.random.default_rng, 1234)" in source
    assert "npr_generator(np.random.Generator, seed, bit=np.random.PCG64)" in source
    for name in ("noisy_relax", "pcg_seeded", "drives_helper"):
        for _ in range(2):
            theirs, ours = CASES[name](), CASES[name]()
            assert_numpys_bits(getattr(converted, name)(*ours), getattr(programs(), name)(*theirs))
            assert_numpys_bits(ours[0], theirs[0])


SETUP = '''import numpy as np


def make_inputs(n):
    rng = np.random.default_rng(0)
    a = rng.random((n, n))
    r, c = np.nonzero(a > 0.5)
    return a, r, c


def step(a):
    a[1:] += a[:-1]
    return a
'''


def test_set_up_code_the_translation_refuses_stays_host_code():
    """make_inputs makes a generator and then does what np2ref refuses (np.nonzero's data-dependent
    shape): it stays NumPy host code for its generator (as before generators were translated),
    and the file converts."""
    result = np2ref.convert_source(SETUP, "setup.py")
    assert result.ok, [d.short() for d in result.diagnostics]
    assert "make_inputs" in result.host and "step" in result.functions
    assert any(d.code == "NPR021" and "default_rng" in d.message for d in result.diagnostics)
