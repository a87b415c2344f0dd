"""A loop whose `for` or `while` line calls host code (a progress bar `for step in tqdm(range(n))`,
`trange(n)`, a clock `while time.perf_counter() < end`) stays a host loop, its header run on the
host each pass, and its body's array work is compiled in steps (frontend/host_steps.py), with
NPR036 notes naming the header's call. Before, such a loop stayed NumPy code whole (its only
host call was in the line that starts it). A stand-in `tqdm` module (written here: np2ref never
imports it) counts the passes it yields, so the progress bar's own output is compared too."""

import contextlib
import copy
import io
import sys

import numpy as np
import pytest

import np2ref
from conftest import assert_numpys_bits, assert_same_printed, load_module

TQDM = '''
import sys


def tqdm(it, desc=None):
    n = 0
    for x in it:
        yield x
        n += 1
    print(f"{desc or 'it'}: {n} passes", file=sys.stderr)


def trange(*args, **kw):
    return tqdm(range(*args), **kw)
'''

SOURCE = '''
import time
import numpy as np
from tqdm import tqdm, trange


def heat(u, nsteps):
    for step in tqdm(range(nsteps), desc="heat"):
        u[1:-1] += 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u.sum()


def waves(u, v, nsteps):
    energy = np.zeros(nsteps)
    for step in trange(nsteps, desc="waves"):
        v[1:-1] += 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])  # (powers of two: no product to round,
        u += 0.5 * v                                       # so XLA's fused multiply-add is NumPy's)
        energy[step] = 0.5 * np.sum(v * v)
        if step % 2 == 0:
            print(step, repr(float(u.max())))
    return energy


def for_a_while(u, seconds):
    end = time.perf_counter() + seconds
    passes = 0
    while time.perf_counter() < end and passes < 3:
        u *= 0.5
        u[0] += 1.0
        passes += 1
    return passes


u0 = np.linspace(0.0, 1.0, 9) ** 2
for k in tqdm(range(4), desc="main"):
    u0[1:-1] = 0.5 * (u0[2:] + u0[:-2])
'''


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("progress_loops")
    (tmp / "tqdm.py").write_text(TQDM)
    sys.path.insert(0, str(tmp))
    try:
        result = np2ref.convert_source(SOURCE, "progress.py")
        assert result.ok, [str(d) for d in result.diagnostics]
        with contextlib.redirect_stderr(io.StringIO()) as e0:
            original = load_module(SOURCE, tmp, "progress_numpy")
        with contextlib.redirect_stderr(io.StringIO()) as e1:
            converted = load_module(result.code, tmp, "progress_ref")
        yield result, original, converted, (e0.getvalue(), e1.getvalue())
    finally:
        sys.path.remove(str(tmp))
        sys.modules.pop("tqdm", None)


def _same(f0, f1, *args):
    """f0 and f1 on copies of args: the result, every argument, what they print and the bar's text."""
    a0, a1 = copy.deepcopy(args), copy.deepcopy(args)
    with contextlib.redirect_stdout(io.StringIO()) as o0, contextlib.redirect_stderr(io.StringIO()) as e0:
        r0 = f0(*a0)
    with contextlib.redirect_stdout(io.StringIO()) as o1, contextlib.redirect_stderr(io.StringIO()) as e1:
        r1 = f1(*a1)
    assert_numpys_bits(r1, r0)  # (on a TPU: the float32 pair's 1e-13, docs/tpu.md)
    for x, y in zip(a0, a1):
        if isinstance(x, np.ndarray):
            assert_numpys_bits(y, x)
    assert_same_printed(o1.getvalue(), o0.getvalue())
    assert_same_printed(e1.getvalue(), e0.getvalue())


def test_the_bodies_are_compiled_steps_and_the_notes_name_the_header(modules):
    result, _, _, _ = modules
    for name in ("heat", "waves", "for_a_while"):
        assert f"def _{name}_step_" in result.code
    headers = [d.message for d in result.diagnostics if d.code == "NPR036" and "`for` or `while` line" in d.message]
    assert len(headers) == 4 and any("calls tqdm()" in m for m in headers) and any("calls trange()" in m for m in headers)
    assert any("time.perf_counter()" in m for m in headers)


@pytest.mark.parametrize("nsteps", [0, 5])
def test_progress_loops_as_numpy(modules, nsteps):
    _, original, converted, _ = modules
    u = np.sin(np.linspace(0.0, 3.0, 12))
    _same(original.heat, converted.heat, u, nsteps)
    _same(original.waves, converted.waves, u, np.zeros(12), nsteps)


def test_a_clock_in_the_while_line(modules):
    _, original, converted, _ = modules
    _same(original.for_a_while, converted.for_a_while, np.ones(4), 60.0)


def test_a_module_level_progress_loop(modules):
    _, original, converted, (e0, e1) = modules
    assert np.array_equal(original.u0, converted.u0) and e0 == e1 == "main: 4 passes\n"
