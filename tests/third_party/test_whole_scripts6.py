"""Whole scripts of the sixth scripts round (tests/third_party/scripts6/), each run two ways
against NumPy: `np2ref convert` of the file, run as __main__, prints what the original prints
(numbers to 1e-9 relative: XLA's summation order), and `np2ref.compile` of each function the
script's CHECKS names gives NumPy's results, final arguments, dtypes and scalar types, and
prints the same. The patterns: arrays rebound in loops (`u = u_new`, `a, b = b, a`,
`x = x.copy()`, views rebound), jax.Array and float32/int32 set-up, aliasing per buffer, hot
loops beside print/seed/time, 0-d arrays, dtype drift, in-place methods, ufunc.at, masks.

An entry's expected outcome is "same" or the code of an honest refusal (docs/scripts.md says
why each stays refused)."""

from __future__ import annotations

import contextlib
import copy
import functools
import importlib.util
import inspect
import io
import re
import runpy
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import np2ref
from conftest import on_tpu, result_types, run_cli
from np2ref.verify.compare import first_difference

HERE = Path(__file__).resolve().parent / "scripts6"
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")

# script -> the outcome of `np2ref convert` and a run of the converted file
CONVERT = {
    "binomial_tree_paths": "same",
    "dtype_drift_loop": "same",
    "first_passage_walkers": "same",
    "heat_rebind_unew": "same",
    "histogram_scatter_max": "same",
    "image_uint8_ops": "same",
    "inplace_methods_sort": "same",
    "jax_float32_particles": "same",
    "jacobi_swap_converge": "NPR011",
    "lbm_d2q9_swap": "same",
    "leapfrog_out_args": "same",
    "life_int8_swap": "NPR207",
    "monte_carlo_seeded": "same",
    "rk4_zero_d_state": "same",
    "power_iteration_tol": "same",
    "queue_cumsum_waits": "NPR031",
    "sandpile_while": "NPR004",
    "md_cells_progress": "same",
    "shared_helper_routes": "same",
    "two_names_one_buffer": "NPR206",
    "kmeans_copy_rebind": "NPR030",
    "gauss_seidel_early_exit": "same",
    "wave_three_buffers": "NPR204",
    "cumulative_masks_stats": "same",
    "ising_checkerboard_int8": "same",
    "view_rebind_writes": "same",
}

# "script:check" (a CHECKS key) -> the outcome of np2ref.compile on it
COMPILE = {
    "binomial_tree_paths:binomial": "same", "binomial_tree_paths:binomial#american": "same",
    "binomial_tree_paths:mc_paths": "same", "binomial_tree_paths:greeks": "same",
    "dtype_drift_loop:drift": "same", "dtype_drift_loop:wrap_counters": "same",
    "dtype_drift_loop:half_steps": "same", "dtype_drift_loop:mixed_mean": "same",
    "first_passage_walkers:run": "same", "first_passage_walkers:walk": "same",
    "first_passage_walkers:mean_exit": "same",
    "heat_rebind_unew:heat_aliased": "NPR021", "heat_rebind_unew:heat_swapped": "same",
    "heat_rebind_unew:heat_inplace_arg": "same", "heat_rebind_unew:heat_inplace_arg#even": "same",
    "histogram_scatter_max:run": "same", "histogram_scatter_max:run#narrow": "same",
    "histogram_scatter_max:cdf_and_peak": "same",
    "image_uint8_ops:pipeline": "same", "image_uint8_ops:equalise": "same",
    "image_uint8_ops:threshold": "same", "image_uint8_ops:median3": "same",
    "inplace_methods_sort:ranks": "same", "inplace_methods_sort:refill": "same",
    "inplace_methods_sort:masked_copy": "same", "inplace_methods_sort:sort_rows": "same",
    "jacobi_swap_converge:solve": "NPR030", "jacobi_swap_converge:solve#loose": "NPR030",
    "jacobi_swap_converge:solve_while": "NPR011",
    "jax_float32_particles:run": "same", "jax_float32_particles:run#numpy": "same",
    "jax_float32_particles:run#python_dt": "same", "jax_float32_particles:energy": "same",
    "lbm_d2q9_swap:simulate": "same", "lbm_d2q9_swap:simulate#odd": "same",
    "leapfrog_out_args:run": "same", "leapfrog_out_args:self_out": "same", "leapfrog_out_args:forces": "same",
    "life_int8_swap:run": "NPR207", "life_int8_swap:run#still": "NPR207", "life_int8_swap:neighbours": "same",
    "monte_carlo_seeded:estimate_pi": "NPR021", "monte_carlo_seeded:rejection": "same",
    "monte_carlo_seeded:walk_seeded": "same",
    # `y = np.array(y0)` is a 0-d array on the first trip and a scalar after it, and the loop asks
    # `type(y).__name__`: a Python loop (`kinds.append`), each trip traced with the kinds it has
    "rk4_zero_d_state:rk4_scalar": "same", "rk4_zero_d_state:rk4_escape": "same",
    "rk4_zero_d_state:rk4_escape#never": "same", "rk4_zero_d_state:accumulate_0d": "same",
    "shared_helper_routes:diffuse": "same", "shared_helper_routes:diffuse_self": "same",
    "shared_helper_routes:into_view": "same", "shared_helper_routes:in_place_lap": "same",
    "shared_helper_routes:laplacian": "same",
    "two_names_one_buffer:relax_loop": "same", "two_names_one_buffer:relax_loop#same": "same",
    "two_names_one_buffer:chain": "NPR201", "two_names_one_buffer:names": "same",
    "two_names_one_buffer:overlap": "same",
    "kmeans_copy_rebind:kmeans": "NPR030", "kmeans_copy_rebind:kmeans#short": "NPR030",
    "gauss_seidel_early_exit:gauss_seidel": "same", "gauss_seidel_early_exit:gauss_seidel#sor": "same",
    "gauss_seidel_early_exit:jacobi": "same", "gauss_seidel_early_exit:lu_inplace": "same",
    "wave_three_buffers:simulate": "NPR204", "wave_three_buffers:simulate#short": "NPR204",
    "cumulative_masks_stats:clean": "same", "cumulative_masks_stats:spells": "same",
    "ising_checkerboard_int8:run": "same",
    "power_iteration_tol:power": "same", "power_iteration_tol:power#few": "same",
    "power_iteration_tol:inverse_shift": "same", "power_iteration_tol:deflate": "same",
    "queue_cumsum_waits:stats": "NPR031", "queue_cumsum_waits:lindley": "same",
    "sandpile_while:drive": "NPR004/NPR205", "sandpile_while:relax": "NPR004",
    "md_cells_progress:run": "NPR021",
    "view_rebind_writes:smooth_views": "same", "view_rebind_writes:grid_views": "same",
    "view_rebind_writes:strided_pair": "same",
}


# Wrong answers left (not refusals): strict xfails, so a fix shows. (The jax.Array ones are fixed:
# a plain call given jax.Arrays returns NumPy's types, tests/python/test_jax_array_types.py.)
LEFT = {}


# The default run keeps the convert runs that show a fix or a refusal, and the quicker compile
# checks (under a minute); `-m long` runs every script both ways (about five minutes).
DEFAULT_CONVERT = {"view_rebind_writes", "leapfrog_out_args", "two_names_one_buffer", "jacobi_swap_converge",
                   "life_int8_swap", "sandpile_while", "wave_three_buffers", "queue_cumsum_waits"}
LONG_COMPILE = {"lbm_d2q9_swap:simulate", "lbm_d2q9_swap:simulate#odd", "ising_checkerboard_int8:run",
                "binomial_tree_paths:greeks", "md_cells_progress:run"}


def _left(key):
    marks = [pytest.mark.xfail(reason=LEFT[key], strict=True)] if key in LEFT else []
    stem = key.split(":")[1] if key.startswith("convert:") else None
    if stem is not None and stem not in DEFAULT_CONVERT or key in LONG_COMPILE:
        marks.append(pytest.mark.long)
    return pytest.param(key, marks=marks)


@functools.cache
def script(stem: str):
    """tests/third_party/scripts6/<stem>.py imported once (np2ref.compile reads its source)."""
    name = f"np2ref_scripts6_{stem}"
    spec = importlib.util.spec_from_file_location(name, HERE / f"{stem}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    with contextlib.redirect_stdout(io.StringIO()):
        spec.loader.exec_module(module)
    return module


@functools.cache
def compiled(stem: str, fn: str):
    return np2ref.compile(getattr(script(stem), fn), host_below=0)


def same_text(got: str, want: str) -> bool:
    """The same text, numbers equal to 1e-9 relative (integers and words exactly); a number
    printed as `np.float32(...)` to its own last bits (8 float32 ulps: a float32 sum in XLA's
    order, docs/semantics.md)."""
    if NUMBER.sub("#", got) != NUMBER.sub("#", want):
        return False
    for g, m in zip(NUMBER.findall(got), NUMBER.finditer(want)):
        w = m.group()
        rtol = 8 * float(np.finfo(np.float32).eps) if want[:m.start()].endswith("float32(") else 1e-9
        if g != w and ("." not in w and "e" not in w or not np.isclose(float(g), float(w), rtol=rtol, atol=0)):
            return False
    return True


def _code(exc) -> str:
    return getattr(exc, "code", None) or "/".join(sorted({d.code for d in getattr(exc, "diagnostics", ())}))


def _run(path: Path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runpy.run_path(str(path), run_name="__main__")
    return out.getvalue()


@pytest.mark.parametrize("stem", [_left(f"convert:{s}") for s in sorted(CONVERT)])
def test_a_converted_script_prints_what_the_original_prints(stem, tmp_path):
    stem = stem.split(":")[1]
    r = run_cli("convert", HERE / f"{stem}.py", "-o", tmp_path / f"{stem}_ref.py", cwd=tmp_path)
    expect = CONVERT[stem]
    if r.returncode:
        assert expect in r.stdout + r.stderr and expect != "same", r.stdout + r.stderr
        return
    want = _run(HERE / f"{stem}.py")
    try:
        got = _run(tmp_path / f"{stem}_ref.py")
    except Exception as exc:  # a refusal when the converted script runs: errors are data
        if not _code(exc):
            raise
        assert _code(exc) == expect, exc
        return
    assert expect == "same" and want and same_text(got, want), (got, want)


# float64 results of float32 arithmetic: a TPU's float32 division is not correctly rounded (one
# ulp off NumPy's in half_steps on the chip, 2026-12-06), which a later float64 step keeps
FLOAT32_HISTORY = {"dtype_drift_loop:half_steps"}


def _compare(fn, expected, got, before, after, key=None):
    rtol = 64 * float(np.finfo(np.float32).eps) if key in FLOAT32_HISTORY and on_tpu() else None
    diffs = [first_difference(expected, got, "result", rtol)]
    diffs += [first_difference(v, after[k], f"argument `{k}`", rtol)
              for k, v in before.items() if isinstance(v, np.ndarray)]
    assert not any(diffs), diffs
    assert result_types(got) == result_types(expected)


@pytest.mark.parametrize("key", [_left(k) for k in sorted(COMPILE)])
def test_a_compiled_function_gives_numpys_answer(key):
    stem, check = key.split(":")
    module = script(stem)
    fn = getattr(module, check.split("#")[0])
    inputs = module.CHECKS[check]()
    args, kwargs = (inputs, {}) if isinstance(inputs, tuple) else ((), inputs)
    a0, k0 = copy.deepcopy((args, kwargs))
    a1, k1 = copy.deepcopy((args, kwargs))
    with contextlib.redirect_stdout(io.StringIO()) as shown:
        expected = fn(*a0, **k0)
    try:
        with contextlib.redirect_stdout(io.StringIO()) as printed, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = compiled(stem, fn.__name__)(*a1, **k1)
    except Exception as exc:
        if not _code(exc):
            raise
        assert _code(exc) == COMPILE[key], exc
        return
    assert COMPILE[key] == "same", "translated where a refusal was expected"
    assert result_types(got) == result_types(expected)  # NumPy's types, for jax.Array arguments too
    sig = inspect.signature(fn)
    _compare(fn, _numpy(expected), _numpy(got), sig.bind(*a0, **k0).arguments, sig.bind(*a1, **k1).arguments, key)
    assert same_text(printed.getvalue(), shown.getvalue())


def _numpy(value):
    """jax.Arrays (a jax.Array call's results) as NumPy arrays, containers walked."""
    if isinstance(value, (tuple, list)):
        return type(value)(map(_numpy, value))
    return np.asarray(value) if type(value).__module__.startswith("jax") else value
