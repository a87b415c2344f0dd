"""Host code gets what NumPy gives it (issue 37 case 2): set-up functions that take no array.

A converted function called from host code with no array among its arguments (`make(rng)`,
`init(n)`, `kick(0.3, n)`) ran as written, eagerly, outside np2ref's 64-bit scope: draws came
back as float32 jax.Arrays that host code then wrote into in vain. tests/programs/host_values.py
is a whole script of that shape; it is run as NumPy, converted, converted --standalone, and its
functions one by one (converted file and np2ref.compile), results' types and dtypes compared."""

from __future__ import annotations

import functools
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import ROOT, program, result_types, run_cli

import np2ref
from np2ref.verify.compare import first_difference

SCRIPT = ROOT / "tests" / "programs" / "host_values.py"
WITHOUT_NP2REF = "import runpy, sys; sys.modules['np2ref'] = None; runpy.run_path(sys.argv[1], run_name='__main__')"
SETUP = {  # name -> arguments (made fresh for each run: a generator advances)
    "make_positions": lambda: (np.random.default_rng(1),),
    "make_velocities": lambda: (np.random.default_rng(1), 5),
    "init_field": lambda: (4,),
    "kick": lambda: (0.3, 4),
    "temperature": lambda: (2.0,),
    "jitter": lambda: (np.random.default_rng(1),),
    "first_draw": lambda: (np.random.default_rng(1),),
    "make_state": lambda: (np.random.default_rng(1), 3),
}


def _python(*args, cwd):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@functools.cache
def _numpy_output():
    return _python(SCRIPT, cwd=ROOT)


def _assert_numpy_like(expected, got):
    """Same values, same types by position (Python float stays float, float64 stays float64),
    and every array writable, as host code needs it."""
    diff = first_difference(expected, got, "result")
    assert diff is None, diff
    assert result_types(got) == result_types(expected)
    import jax
    for leaf in jax.tree_util.tree_leaves(got):
        assert not isinstance(leaf, jax.Array), type(leaf)
        if isinstance(leaf, np.ndarray):
            assert leaf.flags.writeable


def test_converted_script_prints_what_numpy_prints(tmp_path):
    expected = _numpy_output()
    assert "energy float64" in expected and "x ndarray float64 True" in expected
    done = run_cli("convert", SCRIPT, "-o", tmp_path / "host_values_ref.py", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "@npr_jit(python_scalars=True)\ndef make_positions" in (tmp_path / "host_values_ref.py").read_text()
    assert _python(tmp_path / "host_values_ref.py", cwd=tmp_path) == expected


def test_standalone_script_prints_what_numpy_prints(tmp_path):
    done = run_cli("convert", SCRIPT, "-o", tmp_path / "host_values_ref.py", "--standalone", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _python("-c", WITHOUT_NP2REF, tmp_path / "host_values_ref.py", cwd=tmp_path) == _numpy_output()


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    """The script converted (`np2ref convert`) and imported."""
    folder = tmp_path_factory.mktemp("host_values")
    done = run_cli("convert", SCRIPT, "-o", folder / "host_values_ref.py", cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr
    spec = importlib.util.spec_from_file_location("_host_values_ref", folder / "host_values_ref.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", SETUP)
def test_converted_set_up_function_returns_numpy_values(converted, name):
    _assert_numpy_like(getattr(program("host_values"), name)(*SETUP[name]()), getattr(converted, name)(*SETUP[name]()))


@pytest.mark.parametrize("name", SETUP)
def test_compiled_set_up_function_returns_numpy_values(name):
    compiled = np2ref.compile(getattr(program("host_values"), name), host_below=0)
    _assert_numpy_like(getattr(program("host_values"), name)(*SETUP[name]()), compiled(*SETUP[name]()))


def test_host_writes_into_set_up_arrays_reach_the_step(converted):
    """The write host code makes into a set-up array is kept, and a step that writes the array
    takes it (a jax.Array raised TypeError there); a time loop of steps agrees with NumPy."""
    module = program("host_values")
    runs = []
    for make, step in ((module.make_positions, module.step), (converted.make_positions, converted.step),
                       (converted.make_positions, np2ref.compile(module.step, host_below=0))):
        x, v = make(np.random.default_rng(3)), make(np.random.default_rng(4))
        x[0] = 0.5
        v += 1.0
        energies = [step(x, v, 0.1) for _ in range(5)]
        runs.append((energies, x, v))
    for energies, x, v in runs[1:]:
        for expected, got, what in zip(runs[0], (energies, x, v), ("energies", "x", "v")):
            diff = first_difference(expected, got, what)
            assert diff is None, diff


def test_a_set_up_function_called_in_a_trace_still_draws_at_run_time(converted):
    """Called from a traced function, the set-up function's draw is part of the program: each
    call of the compiled function draws anew from the caller's generator, as NumPy does (a
    draw made once while tracing would repeat)."""
    module = program("host_values")
    for warmed in (converted.warmed, np2ref.compile(module.warmed, host_below=0)):
        rng0, rng1 = np.random.default_rng(5), np.random.default_rng(5)
        for _ in range(3):
            _assert_numpy_like(module.warmed(rng0, 2), warmed(rng1, 2))


def test_under_the_callers_jit_a_set_up_function_stays_traced(converted):
    """Called inside the user's own jax.jit (a closure over the generator), the set-up function
    is part of that program: its draw is made each time the program runs, and its values are
    the trace's (NumPy conversion there would fail on a tracer)."""
    import jax

    rng, twin = np.random.default_rng(9), np.random.default_rng(9)
    jitted = jax.jit(lambda: converted.make_positions(rng) * 2.0)
    for _ in range(2):
        with jax.enable_x64(True):
            got = np.asarray(jitted())
        np.testing.assert_allclose(got, program("host_values").make_positions(twin) * 2.0, rtol=1e-6)
