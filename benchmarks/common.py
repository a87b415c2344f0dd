"""Shared by benchmarks/run.py and tests/examples/test_benchmarks.py: running the NumPy original on
copies, splitting static arguments, and comparing a JAX `(result, finals)` with NumPy; the chip
tables' command line (chip_args) and rows (chip_table)."""

from __future__ import annotations

import argparse
import copy
import time

import jax
import numpy as np


def run_numpy(fn, kwargs):
    """(result, arguments after the call): the original on deep copies of its inputs."""
    args = copy.deepcopy(kwargs)
    return fn(**args), args


def split_static(kwargs):
    """np2ref's default: Python ints and bools are static, everything else traced."""
    static = {k: v for k, v in kwargs.items()
              if isinstance(v, (bool, int)) and not isinstance(v, np.generic)}
    return static, {k: v for k, v in kwargs.items() if k not in static}


def _leaves(tree):
    return [np.asarray(x) for x in jax.tree_util.tree_leaves(tree)]


def disagreement(expected, args_after, got, finals, rtol=1e-9, atol=1e-12):
    """None when `(got, finals)` equals NumPy's result and final arguments (floats to `rtol`,
    integers and booleans exactly), else a description of the first difference."""
    pairs = [("result", e, g) for e, g in zip(_leaves(expected), _leaves(got))]
    if len(_leaves(expected)) != len(_leaves(got)):
        return f"result has {len(_leaves(got))} leaves, NumPy's {len(_leaves(expected))}"
    if not finals and not pairs:
        return "nothing compared"
    pairs += [(name, np.asarray(args_after[name]), np.asarray(v)) for name, v in finals.items()]
    for name, e, g in pairs:
        if e.shape != g.shape:
            return f"{name}: shape {g.shape}, NumPy {e.shape}"
        if e.dtype.kind in "fc":
            if not np.allclose(g, e, rtol=rtol, atol=atol, equal_nan=True):
                return f"{name}: max |diff| {np.nanmax(np.abs(g.astype(e.dtype) - e)):.3g}"
        elif not np.array_equal(g.astype(e.dtype), e):
            return f"{name}: integer values differ"
    return None



def chip_args(argv, doc, *, calls, budget, only="comma-separated kernels (default: all)", extra=()):
    """The command line of the chip tables (tpu_chip7.py, tpu_carry8.py, tpu_fold11.py, tpu_acc12.py): `--calls`
    (the median of that many waited calls), `--budget` (seconds; later rows are skipped), `--only`
    (given back split: `.only`, a tuple of names) and `extra`'s `(flag, keywords)` arguments; `doc`
    the script's docstring, whose first line describes it."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--calls", type=int, default=calls)
    p.add_argument("--budget", type=float, default=budget, help="seconds; later rows are skipped")
    for flag, keywords in extra:
        p.add_argument(flag, **keywords)
    p.add_argument("--only", default="", help=only)
    a = p.parse_args(argv)
    a.only = tuple(filter(None, a.only.split(",")))
    return a


def chip_table(script, columns, jobs, a, rows):
    """Print a chip table (tpu_fold11.py, tpu_acc12.py): its header (`script`, JAX, the device,
    `a.calls`), then for each job `(cells, measured)` of `jobs` the rows of `rows(*measured)`
    (tpu_carry8.variant_rows' `(variant, first-call s, median s, check)`, the hand port first), each
    led by `cells` (its `columns`: the kernel, its size, the policy) and divided by the hand port's
    time; a job met after `a.budget` seconds prints one "skipped: budget" row. Last, the seconds."""
    start = time.perf_counter()
    heads = [*columns, "variant", "first s", "ms", "/ hand port", "check"]
    print(f"`python benchmarks/{script}`: jax {jax.__version__}, {jax.default_backend()} "
          f"({jax.devices()[0].device_kind}), device-resident, medians of {a.calls} calls\n\n"
          f"| {' | '.join(heads)} |\n|{'---|' * len(heads)}", flush=True)
    for cells, measured in jobs:
        lead = " | ".join(map(str, cells))
        if time.perf_counter() - start > a.budget:
            print(f"| {lead} | skipped: budget | | | | |", flush=True)
            continue
        hand = None
        for variant, first, sec, check in rows(*measured):
            hand = sec if hand is None else hand
            print(f"| {lead} | {variant} | {first:.2f} | {sec * 1e3:.3f} | {sec / hand:.2f} | {check or 'ok'} |",
                  flush=True)
    print(f"\n{time.perf_counter() - start:.0f} s")
