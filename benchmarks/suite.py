"""Third-party-style kernels: NumPy, a hand JAX port and np2ref.compile, side by side.

    python benchmarks/suite.py [--size S|L] [--rounds N] [--kernels NAME ...]

Kernels (benchmarks/suite_kernels.py, NumPy as users write it; hand ports in
benchmarks/hand/suite.py): dense linear algebra, a Jacobi stencil in a time loop, a Python
loop over a diagonal, reductions, a 3x3 convolution layer, and small-array kernels. Columns, medians of interleaved
rounds (a round's sample of a case: the mean of as many back-to-back calls as fill 20 ms):

- NumPy: the original.
- hand e2e: the jitted hand port called with the NumPy arrays, its results converted with
  np.asarray (and copied back into the written array).
- np2ref e2e: np2ref.compile called with the NumPy arrays (NumPy out, write-back), default
  options: a small loop-free program takes the host route (the original NumPy function; the
  "route" column); jitted: the same with host_below=0 (always the translation); aligned: the
  jitted call with the inputs made once with np2ref.aligned (taken without a copy).
  The e2e inputs sit 16 bytes past a 64-byte boundary, where NumPy's allocator puts large
  arrays (XLA:CPU then copies them each call); NumPy's results are writable, so both hand e2e
  and np2ref e2e pay for that input copy, np2ref also one copy of each result.
- copied (`--copied`): np2ref e2e with every result copied out of JAX's buffer, as before
  large results were handed out as writable views of XLA's own output buffer
  (np2ref/rt/buffers.py, `_npr_results_numpy`): the same run's before and after.
- hand dev / np2ref dev: inputs already jax.Arrays: the hand port jitted (its written array
  donated, as a JAX user writes a time loop); np2ref's `.device(...)` on the jax.Arrays
  (jax.Arrays out; a plain call given jax.Arrays returns NumPy's results, a transfer out).
- first call: trace + compile + one run (np2ref: the decorated function's first call, jitted;
  a host-route call's first call is a trace and one NumPy run).
- memory: XLA's memory_analysis() of the compiled program (np2ref's jitted e2e program, the
  hand port's jitted one): peak (arguments + outputs - aliased + temporaries) and temporaries.
- check: np2ref's result and written arrays against NumPy's (floats to 1e-9 relative).
- the ratio columns and their geometric means: the median over rounds of each round's ratio
  (its two samples taken close together), not the ratio of the two medians: on this shared VM
  the machine's speed drifts between rounds, and two identical XLA programs read 1.24 apart as
  ratios of medians.

Timing, not a test: no assertions on numbers.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
import warnings
from pathlib import Path

import jax
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import suite_kernels as K  # noqa: E402
from hand import suite as H  # noqa: E402

import np2ref  # noqa: E402
from np2ref.rt import buffers  # noqa: E402


def cases(size):
    """name -> (kernel name, arguments, index of the written argument or None)."""
    big = size == "L"
    rng = np.random.default_rng(0)
    r = rng.random
    m, n = (4000, 5000) if big else (2000, 2500)
    k = 4000 if big else 2000
    g = 1000 if big else 400
    c_in, px = (32, 128) if big else (16, 64)
    img = 56 if big else 28
    return {
        f"(A @ x) @ A, A {m}x{n}": ("matvec_chain", (r((m, n)), r(n)), None),
        f"r @ A, A @ p, A {k}x{k}": ("cg_products", (r((k, k)), r(k), r(k)), None),
        f"alpha*A@x + beta*B@x, {k // 2}x{k // 2}": ("two_matvecs", (r((k // 2, k // 2)), r((k // 2, k // 2)),
                                                                     r(k // 2), 0.5, 2.0), None),
        f"Jacobi 5-point, {g}x{g}, 50 steps": ("jacobi_", (r((g, g)), 50), 0),
        "trace += tanh(a[i, i]) loop, 1000x1000": ("diagonal_tanh", (r((1000, 1000)),), None),
        "column RMS / max, 2000x500": ("column_stats", (r((2000, 500)) - 0.5,), None),
        f"3x3 conv + ReLU, {c_in}->{2 * c_in} channels, {px}x{px}": ("conv_relu", (r((c_in, px, px)),
                                                                          r((2 * c_in, c_in, 3, 3))), None),
        f"CNN forward, 1x{img}x{img} image, 8 and 16 3x3 filters": ("cnn_forward", cnn_inputs(r, img), None),
        "small poly, 10": ("small_poly", (r(10),), None),
        "small poly, 1000": ("small_poly", (r(1000),), None),
        "small axpy (written), 100": ("small_axpy_", (r(100), 0.5, r(100)), 0),
        "small norm, 1000": ("small_norm", (r(1000), r(1000)), None),
    }


def cnn_inputs(r, img):
    """An image and the weights of cnn_forward: conv 1->8, conv 8->16 (3x3), dense -> 10."""
    side = ((img - 2) // 2 - 2) // 2
    return (r((1, img, img)), r((8, 1, 3, 3)) - 0.5, r(8) - 0.5, 0.3 * (r((16, 8, 3, 3)) - 0.5), r(16) - 0.5,
            0.1 * (r((10, 16 * side * side)) - 0.5), r(10) - 0.5)


def batch(fn, budget=0.02, most=200):
    """Seconds a call: the mean of as many calls as fill `budget` (measured on one call)."""
    t = time.perf_counter()
    fn()
    one = time.perf_counter() - t
    calls = max(1, min(most, int(budget / max(one, 1e-7))))
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t) / calls


def numpy_aligned(x):
    """A copy of `x` 16 bytes past a 64-byte boundary, as NumPy's allocator usually places a
    large array (whether XLA:CPU copies an input depends on it: fix it, not chance)."""
    raw = np.empty(x.nbytes + 80, np.uint8)
    start = (16 - raw.ctypes.data) % 64
    out = raw[start:start + x.nbytes].view(x.dtype).reshape(x.shape)
    out[...] = x
    return out


def copies(args):
    return [numpy_aligned(a) if isinstance(a, np.ndarray) else a for a in args]


def close(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and np.allclose(a, b, rtol=1e-9, atol=1e-12)


def results_copied(fn):
    """fn with np2ref's results all copied out of JAX's buffers (none handed out as a view)."""
    def call(*args):
        least, buffers._NPR_VIEW_BYTES = buffers._NPR_VIEW_BYTES, float("inf")
        try:
            return fn(*args)
        finally:
            buffers._NPR_VIEW_BYTES = least
    return call


def measure(label, name, args, written, rounds, copied=False):
    original, hand = getattr(K, name), getattr(H, name)
    static = [i for i, a in enumerate(args) if isinstance(a, int)]
    row = {"kernel": label}

    # exactness: np2ref's translation against NumPy on copies
    compiled = np2ref.compile(original)
    jitted_np2ref = np2ref.compile(original, host_below=0)
    want_args, got_args = copies(args), copies(args)
    want = original(*want_args)
    t = time.perf_counter()
    got = jitted_np2ref(*got_args)
    row["np2ref first"] = time.perf_counter() - t
    row["np2ref memory"] = memory(jitted_np2ref.lower(*copies(args)))
    ok = (want is None and got is None or close(want, got) if not isinstance(want, tuple)
          else all(close(w, g) for w, g in zip(want, got)))
    ok = ok and all(close(w, g) for w, g in zip(want_args, got_args) if isinstance(w, np.ndarray))
    row["check"] = "ok" if ok else "DIFFERS"

    with jax.enable_x64(True):
        jitted = jax.jit(hand, static_argnums=static)
        donating = jax.jit(hand, static_argnums=static, donate_argnums=() if written is None else (written,))
        t = time.perf_counter()
        jax.block_until_ready(jitted(*copies(args)))
        row["hand first"] = time.perf_counter() - t
        row["hand memory"] = memory(jitted.lower(*copies(args)))
        hand_state = [jax.device_put(a) if isinstance(a, np.ndarray) else a for a in args]
        np2ref_state = [jax.device_put(a) if isinstance(a, np.ndarray) else a for a in args]

    host_numpy, host_hand, host_np2ref, host_jitted = copies(args), copies(args), copies(args), copies(args)
    host_aligned = [np2ref.aligned(a) if isinstance(a, np.ndarray) else a for a in args]

    def hand_e2e():
        with jax.enable_x64(True):
            out = jax.tree_util.tree_map(np.asarray, jitted(*host_hand))
        if written is not None:
            np.copyto(host_hand[written], out)

    def hand_dev():
        with jax.enable_x64(True):
            out = jax.block_until_ready(donating(*hand_state))
        if written is not None:
            hand_state[written] = out

    def np2ref_dev():  # .device: the plain call hands NumPy's results back (a transfer out)
        result, finals = compiled.device(*np2ref_state)
        if written is None:
            jax.block_until_ready(result)
        else:
            np2ref_state[written] = jax.block_until_ready(next(iter(finals.values())))

    variants = {
        "NumPy": lambda: original(*host_numpy),
        "hand e2e": hand_e2e,
        "np2ref e2e": lambda: compiled(*host_np2ref),
        "jitted": lambda: jitted_np2ref(*host_jitted),
        "aligned": lambda: jitted_np2ref(*host_aligned),
        "hand dev": hand_dev,
        "np2ref dev": np2ref_dev,
    }
    if copied:
        host_copied = copies(args)
        variants["copied"] = lambda: results_copied(compiled)(*host_copied)
    for fn in variants.values():
        fn()
    for _ in range(16):  # np2ref e2e: past its route's decision (both routes timed on the first calls,
        # alternating: with few rounds the timed calls would all fall on one of them)
        if all(c.route is not None for c in compiled._choices.values()):
            break
        variants["np2ref e2e"]()
    samples = {v: [] for v in variants}
    order = list(variants)
    for k in range(rounds):
        for v in (order if k % 2 == 0 else order[::-1]):
            samples[v].append(batch(variants[v]))
    row.update({v: statistics.median(s) for v, s in samples.items()})
    # the ratios: medians of each round's ratio (the two samples of a round taken close together
    # on this drifting, shared VM), not ratios of the medians
    for name, (a, b) in RATIOS.items():
        if a in samples:
            row[name] = statistics.median(x / y for x, y in zip(samples[a], samples[b]))
    decided = [c.route for c in compiled._choices.values()]
    row["route"] = decided[0] if len(decided) == 1 else "host" if any(r is not False for r in compiled._hosted.values()) else "jit"
    return row


RATIOS = {"e2e/numpy": ("np2ref e2e", "NumPy"), "e2e/hand": ("np2ref e2e", "hand e2e"),
          "dev/hand": ("np2ref dev", "hand dev"), "jitted/hand": ("jitted", "hand e2e"),
          "aligned/hand": ("aligned", "hand e2e"), "copied/numpy": ("copied", "NumPy")}


def memory(lowered):
    """(peak, temporary) bytes of a lowered program's executable (XLA's memory_analysis)."""
    m = lowered.compile().memory_analysis()
    peak = getattr(m, "peak_memory_in_bytes", 0) or (m.argument_size_in_bytes + m.output_size_in_bytes
                                                     - m.alias_size_in_bytes + m.temp_size_in_bytes)
    return peak, m.temp_size_in_bytes


def fmt(s):
    return f"{s * 1e6:.0f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms" if s < 1 else f"{s:.2f} s"


def geomean(xs):
    return math.exp(statistics.fmean(math.log(x) for x in xs))


def size(n):
    return f"{n / 2**20:.1f} MiB" if n >= 2**20 else f"{n / 2**10:.0f} KiB" if n >= 2**10 else f"{n} B"


def table(rows):
    copied = "copied" in rows[0]
    out = ["| kernel | NumPy | hand e2e | np2ref e2e | " + ("np2ref e2e, results copied | " if copied else "") +
           "route | np2ref e2e, jitted | jitted, aligned | hand dev | "
           "np2ref dev | e2e / NumPy | e2e np2ref / hand | dev np2ref / hand | first call np2ref / hand | "
           "peak np2ref / hand | temp np2ref / hand | check |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|" if copied else "")]
    for r in rows:
        (p1, t1), (p2, t2) = r["np2ref memory"], r["hand memory"]
        out.append(f"| {r['kernel']} | {fmt(r['NumPy'])} | {fmt(r['hand e2e'])} | {fmt(r['np2ref e2e'])} | "
                   + (f"{fmt(r['copied'])} | " if copied else "") +
                   f"{r['route']} | {fmt(r['jitted'])} | {fmt(r['aligned'])} | {fmt(r['hand dev'])} | "
                   f"{fmt(r['np2ref dev'])} | {r['e2e/numpy']:.2f} | {r['e2e/hand']:.2f} | {r['dev/hand']:.2f} | "
                   f"{fmt(r['np2ref first'])} / {fmt(r['hand first'])} | {size(p1)} / {size(p2)} | "
                   f"{size(t1)} / {size(t2)} | {r['check']} |")
    out.append("")
    out.append(f"Geometric means over {len(rows)} kernels: np2ref/hand device-resident "
               f"**{geomean([r['dev/hand'] for r in rows]):.2f}**, end-to-end "
               f"**{geomean([r['e2e/hand'] for r in rows]):.2f}** "
               f"(jitted {geomean([r['jitted/hand'] for r in rows]):.2f}, jitted with aligned inputs "
               f"{geomean([r['aligned/hand'] for r in rows]):.2f}); np2ref e2e/NumPy "
               f"**{geomean([r['e2e/numpy'] for r in rows]):.2f}** (worst "
               f"{max(r['e2e/numpy'] for r in rows):.2f})" +
               (f"; with results copied **{geomean([r['copied/numpy'] for r in rows]):.2f}** (worst "
                f"{max(r['copied/numpy'] for r in rows):.2f})." if copied else "."))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", choices=("S", "L"), default="S")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--kernels", nargs="*", help="kernel function names (default: all)")
    p.add_argument("--copied", action="store_true", help="also np2ref e2e with every result copied")
    a = p.parse_args(argv)
    warnings.simplefilter("ignore", np2ref.PythonLoopWarning)  # conv_relu's 3x3 offsets unroll, as intended
    rows = []
    for label, (name, args, w) in cases(a.size).items():
        if not a.kernels or name in a.kernels:
            rows.append(measure(label, name, args, w, a.rounds, a.copied))
            print(rows[-1], file=sys.stderr, flush=True)  # survives a time-out
    print(f"`python benchmarks/suite.py --size {a.size}`: jax {jax.__version__}, numpy {np.__version__}, "
          f"{jax.default_backend()}, {len(jax.devices())} device(s); medians of {a.rounds} rounds")
    print()
    print("\n".join(table(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
