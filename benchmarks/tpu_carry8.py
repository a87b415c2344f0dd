"""Recurrences through an array on an accelerator: device-resident np2ref / hand port with the
stored elements carried (rewrite/recurrences.py, rt/recur.py; now) and read back from the array
each trip (as before: the carry switched off when traced), issues 38 item 5 and 39:

    python benchmarks/tpu_carry8.py [--budget 110] [--calls 5] [--size S] [--only iir_filter,prefix]

- run.py's iir_filter (y[n - 1], y[n - 2] read back: 3.0x the hand port on a TPU in float32) and
  thomas_tridiag (the Thomas sweeps: b[i - 1], d[i - 1] forward, x[i + 1] backward), float32 and
  preserve, their hand ports in benchmarks/hand/lines.py (lax.scan with the values carried);
- two recurrences of this file's own: a second-order one (`y[n] = 0.5 y[n-1] - 0.25 y[n-2] + x[n]`)
  and a prefix sum (`s[i] = s[i - 1] + x[i]`), their hand ports lax.scan.

Each time: an ahead-of-time compile on device arrays, then the median of --calls waited calls,
checked against NumPy (float64 to 1e-9, float32 to 2e-3). Rows print as they finish; what is not
reached within --budget seconds is skipped (one chip call of at most 120 s). Timing, not a test.
"""

from __future__ import annotations

import copy
import sys
import time
import warnings
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import programs as P  # noqa: E402
from common import chip_args, disagreement, run_numpy, split_static  # noqa: E402
from device_worst import timed  # noqa: E402 (the median of waited calls)
from run import aot  # noqa: E402

import np2ref  # noqa: E402
from np2ref.rt import recur  # noqa: E402


def second_order(x, y):
    for n in range(2, x.shape[0]):
        y[n] = 0.5 * y[n - 1] - 0.25 * y[n - 2] + x[n]
    return y


def hand_second_order(x, y):
    def step(c, xn):
        y1, y2 = c
        yn = 0.5 * y1 - 0.25 * y2 + xn
        return (yn, y1), yn
    _, ys = lax.scan(step, (y[1], y[0]), x[2:])
    y = y.at[2:].set(ys)
    return y, {"y": y}


def prefix(x, s):
    for i in range(1, x.shape[0]):
        s[i] = s[i - 1] + x[i]
    return s


def hand_prefix(x, s):
    def step(c, xi):
        c = c + xi
        return c, c
    _, cs = lax.scan(step, s[0], x[1:])
    s = s.at[1:].set(cs)
    return s, {"s": s}


def second_order_energy(x, y, energy):
    """second_order with iir_filter's running energy: a scalar carried beside the array."""
    e = 0.0
    for n in range(2, x.shape[0]):
        y[n] = 0.5 * y[n - 1] - 0.25 * y[n - 2] + x[n]
        e += y[n] * y[n]
        energy[n] = e
    return e


def hand_second_order_energy(x, y, energy):
    def step(c, xn):
        y1, y2, e = c
        yn = 0.5 * y1 - 0.25 * y2 + xn
        e = e + yn * yn
        return (yn, y1, e), (yn, e)
    (_, _, e), (ys, es) = lax.scan(step, (y[1], y[0], jnp.zeros((), y.dtype)), x[2:])
    y = y.at[2:].set(ys)
    energy = energy.at[2:].set(es)
    return e, {"y": y, "energy": energy}


def biquad_plain(x, y):
    """iir_filter's recurrence without its energy: y alone, x read at n, n - 1, n - 2."""
    for n in range(2, x.shape[0]):
        y[n] = 0.2 * x[n] + 0.4 * x[n - 1] + 0.2 * x[n - 2] + 0.6 * y[n - 1] - 0.2 * y[n - 2]
    return y


def hand_biquad_plain(x, y):
    def step(c, xs):
        y1, y2 = c
        xn, xn1, xn2 = xs
        yn = 0.2 * xn + 0.4 * xn1 + 0.2 * xn2 + 0.6 * y1 - 0.2 * y2
        return (yn, y1), yn
    _, ys = lax.scan(step, (y[1], y[0]), (x[2:], x[1:-1], x[:-2]))
    y = y.at[2:].set(ys)
    return y, {"y": y}


SIZES = {"S": 20000, "M": 200000, "L": 2000000}
OWN = {"second_order": (second_order, hand_second_order, "y"), "prefix": (prefix, hand_prefix, "s"),
       "second_order_energy": (second_order_energy, hand_second_order_energy, "y"),
       "biquad_plain": (biquad_plain, hand_biquad_plain, "y")}


def _own(name, size):
    fn, hand, out = OWN[name]
    n = SIZES[size]
    x = np.random.default_rng(0).standard_normal(n)
    kw = {"x": x, out: np.zeros(n)}
    kw[out][:2] = x[:2]
    if fn is second_order_energy:
        kw["energy"] = np.zeros(n)
    return fn, hand, kw


def _variants():
    def off():
        saved = recur._npr_bounds
        recur._npr_bounds = lambda *a: None  # every read back from the array, as before
        return lambda: setattr(recur, "_npr_bounds", saved)
    def on():  # (off by default on a TPU since this script's first run: rt/recur.py _npr_RECUR)
        saved = recur._npr_RECUR["on"]
        recur._npr_RECUR["on"] = True
        return lambda: recur._npr_RECUR.__setitem__("on", saved)
    return {"read back (before)": off, "carried (now)": on}


def rows(name, policy, size, calls):
    if name in OWN:
        original, hand_fn, kw = _own(name, size)
    else:
        prog = P.PROGRAMS[name]()
        original, hand_fn, kw = prog.original, prog.hand, prog.make(size)
    for variant, _, seconds, check in variant_rows(original, hand_fn, kw, policy, calls, _variants()):
        yield variant, seconds, check


def variant_rows(original, hand_fn, kw, policy, calls, variants):
    """(variant, first call's seconds, median seconds, check) for the hand port, then np2ref's
    `.pure` under each of `variants` (name: a setting that returns its undo), device-resident,
    checked against NumPy (benchmarks/tpu_fold11.py too)."""
    static, dynamic = split_static(kw)
    expected, after = run_numpy(original, kw)
    x64 = policy == "preserve"
    tol = dict(rtol=1e-9, atol=1e-12) if x64 else dict(rtol=2e-3, atol=1e-4)
    with jax.enable_x64(x64):
        dev = {k: jnp.asarray(v) for k, v in dynamic.items()}
        first, hand, _, out = aot(hand_fn, static, dev)
        yield "hand port", first, timed(hand, calls), disagreement(expected, after, *out, **tol)
        for variant, setting in variants.items():
            undo = setting()
            try:
                compiled = np2ref.compile(original, dtype_policy=policy)
                first, run, _, out = aot(compiled.pure, static, copy.copy(dev))
                yield variant, first, timed(run, calls), disagreement(expected, after, *out, **tol)
            except Exception as exc:  # a variant that does not compile is a finding too
                yield variant, float("nan"), float("nan"), f"{type(exc).__name__}: {str(exc)[:80]}"
            finally:
                undo()


KERNELS = ("iir_filter", "second_order", "prefix", "thomas_tridiag", "second_order_energy", "biquad_plain")


def main(argv=None) -> int:
    a = chip_args(argv, __doc__, calls=5, budget=110.0, extra=[("--size", dict(
        default="S", choices=sorted(SIZES), help="S: 20,000 samples (M, 200,000, is docs/tpu.md's size)"))])
    warnings.simplefilter("ignore")
    only = set(a.only)
    jobs = [(n, pol) for pol in ("float32", "preserve") for n in KERNELS]
    jobs = [j for j in jobs if not only or j[0] in only]
    start = time.perf_counter()
    print(f"`python benchmarks/tpu_carry8.py --size {a.size}`: jax {jax.__version__}, {jax.default_backend()} "
          f"({jax.devices()[0].device_kind}), device-resident, medians of {a.calls} calls")
    print("\n| kernel | policy | variant | ms | / hand port | check |\n|---|---|---|---|---|---|", flush=True)
    for name, policy in jobs:
        if time.perf_counter() - start > a.budget:
            print(f"| {name} | {policy} | skipped: budget | | | |", flush=True)
            continue
        hand = None
        for variant, seconds, check in rows(name, policy, a.size, a.calls):
            hand = seconds if hand is None else hand
            print(f"| {name} | {policy} | {variant} | {seconds * 1e3:.3f} | {seconds / hand:.2f} | {check or 'ok'} |",
                  flush=True)
    print(f"\n{time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
