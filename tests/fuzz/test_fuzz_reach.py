"""The fuzzer's reach_families.py (writes through a helper's view, a list's `[-1]` after its append,
slices bounded by loop-read values, one buffer as a helper's read and written parameter, names bound
from a conditional tuple of views) and lane_families.py (a float32 value a loop rebinds to float64,
element nests with boundary branches and neighbour reads, float32 jax.Arrays from a 32-bit caller),
and the runner's check of a 32-bit caller's result widths; a program of each family end to end (the
long runs are the `np2ref fuzz --family NAME` command's: docs/fuzzing.md)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from hypothesis import HealthCheck, Phase, given, settings

from fuzz_runs import family_tests
from np2ref import fuzz
from np2ref.fuzz.differences import _caller_types
from np2ref.fuzz.runner import Runner

FORMS = {"view_helper": r"\bh\d+\(U\)", "last_append": r"\bhist\d+\[-1\]", "bound_slice": r"(starts\[c\d+\]|\bs\d+\b):",
         "self_alias": r"\bh\d+\([-\d.]+, U(\[[^]]*\])?, ", "cond_views": r"\bl\d+, r\d+ = \(",
         "f32_rebind": r"\by\d+ = .*\by\d+\b", "lane_nest": r"G\[i, j\] = .*\b[GH]\[i [-+] 1, j\]",
         "jax32": r"\bp\d+ = .*\bj\b"}


test_a_family_asked_for_is_in_its_programs_and_valid_numpy, test_short_family_runs_have_no_failures = \
    family_tests(FORMS)


def test_lane_nest_programs_end_in_a_nest_that_reads_past_the_edge():
    """About one program of three asking for lane_nest ends in a nest NumPy raises IndexError on."""
    raised = []

    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None,
              derandomize=True, phases=[Phase.generate])
    @given(fuzz.programs(3, "lane_nest"))
    def check(program):
        ns: dict = {}
        exec(compile(program.source(), "<fuzz>", "exec"), ns)
        try:
            ns["f"](*ns["make_args"]())
        except IndexError as exc:
            raised.append(str(exc))
    check()
    assert any("out of bounds for axis" in e for e in raised), raised


def test_a_jax_array_caller_gets_numpys_types():
    with jax.enable_x64(False):
        j = jnp.asarray(np.ones(3, np.float32))
    with jax.enable_x64(True):
        wide = jnp.asarray(np.ones(3))
    expected = (np.ones(3), np.float64(3.0), np.ones(3, np.float32))
    assert _caller_types(expected, (np.ones(3), np.float64(3.0), np.ones(3, np.float32)), [j]) is None
    assert "result[0]" in _caller_types(expected, (wide, np.float64(3.0), np.ones(3, np.float32)), [j])
    assert "result[2]" in _caller_types(expected, (np.ones(3), np.float64(3.0), j + 1), [j])  # 32 bits too
    assert "result[0]" in _caller_types(expected, (wide, 3.0, j), [j + 1, wide + 1])  # and a 64-bit caller
    assert _caller_types(expected, (wide, 3.0, j), [np.ones(3)]) is None  # NumPy arguments: other checks
    assert _caller_types(expected, (np.ones(3), 3.0, j), [j]) is None  # the caller's own (_identity checks it)


STRIDED_HOST = '''import time
import numpy as np


def f(c):
    t = time.perf_counter()
    hist = []
    for step in range(3):
        c[..., 1:] += c[..., :-1] * 0.5
        hist.append(c.ravel())
    return hist


def make_args():
    return (np.arange(12.0).reshape(2, 6)[..., ::2], )
'''


def test_a_converted_program_runs_on_the_programs_own_arguments(tmp_path):
    """Host code (it reads the clock) runs through convert on make_args' own arrays: the converted
    module's make_args lost the strided layout, so `c.ravel()` was a view there and NumPy's copies
    compared unequal (a checker bug, found by the self_alias run)."""
    outcome = Runner(vmap=False, grad=False, workdir=str(tmp_path)).check(STRIDED_HOST)
    assert outcome.kind == "exact", outcome


FLOAT32_JAX_ARG = '''import numpy as np
import jax.numpy as jnp


def f(a, j):
    p = np.array(j) + 1
    p[:] /= a[0:1]
    return (p, j)


def make_args():
    return (np.array([-1.75, -1.75, 0.0]), jnp.asarray(np.array([1.5, 0.0, 0.5, 0.0, -1.0], dtype=np.float32)))
'''


def test_the_grad_check_allows_for_a_float32_jax_array_argument(tmp_path):
    """`.pure`'s forward and reverse modes round in float32 where a float32 jax.Array argument meets
    the float64 ones (5e-8 relative apart): the tolerance is float32's, as for a float32 NumPy
    argument (a checker failure of the jax32 run)."""
    outcome = Runner(vmap=False, grad=True, workdir=str(tmp_path)).check(FLOAT32_JAX_ARG)
    assert outcome.kind == "exact" and outcome.graded, outcome


HOST_WRITES_JAX = '''import time
import numpy as np
import jax.numpy as jnp


def f(j):
    t = time.perf_counter()
    p = np.zeros(j.shape) + j
    p[0] = p.sum()


def make_args():
    return (jnp.asarray(np.array([-1.5, 1.5], dtype=np.float32)), )
'''


def test_host_code_writing_a_jax_array_it_made_raises_as_the_original_does(tmp_path):
    """`np.zeros(n) + j` in host code is a jax.Array (JAX's operator wins), which the original f
    cannot write either: the converted f's TypeError is the original's behaviour, not a failure."""
    outcome = Runner(vmap=False, grad=False, workdir=str(tmp_path)).check(HOST_WRITES_JAX)
    assert outcome.kind == "exact", outcome
