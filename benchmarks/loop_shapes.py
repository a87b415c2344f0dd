"""np2ref's loop kernels against hand ports, per loop shape (issue 39), with what the program does.

    python benchmarks/loop_shapes.py [--only NAME,...] [--rounds N]

For each kernel of benchmarks/loop_shapes_kernels.py: NumPy's time, np2ref's steady time
(`jax.jit` of `np2ref.compile(fn).pure` on device arrays) before (`NPR_VECTORISE = False`: every
loop a lax loop, as before issue 39) and after, the hand port's (jax.numpy, jitted), the ratios
(medians of the ratios of interleaved rounds, the three timed side by side), and what np2ref's program does: equations in its
jaxpr (all levels), XLA while loops, HLO instructions in the loop bodies (a fusion counts once)
and the bytes those instructions write per iteration (the sum of their result sizes), against
the hand port's whole program. Timing, not a test: the numbers go in docs/loops.md.
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import sys
import time
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import loop_shapes_kernels as K  # noqa: E402
from loop_perf import batch  # noqa: E402

import np2ref  # noqa: E402
import np2ref.rt.vectorise as V  # noqa: E402

_DT = dict(f64=8, s64=8, u64=8, f32=4, s32=4, u32=4, pred=1, s8=1, u8=1, f16=2, bf16=2, s16=2, c128=16, c64=8)


def jaxpr_size(jaxpr):
    """Equations of a (closed) jaxpr, counting those of nested jaxprs (loop bodies, branches)."""
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    n = 0
    for eqn in jaxpr.eqns:
        n += 1
        for v in eqn.params.values():
            for sub in (v if isinstance(v, (tuple, list)) else (v,)):
                if hasattr(sub, "eqns") or hasattr(getattr(sub, "jaxpr", None), "eqns"):
                    n += jaxpr_size(sub)
    return n


def _bytes(shape_text):
    total = 0
    for dt, dims in re.findall(r"\b([a-z]+\d*)\[([\d,]*)\]", shape_text):
        if dt in _DT:
            total += _DT[dt] * math.prod(int(d) for d in dims.split(",") if d)
    return total


def hlo_loops(text):
    """(while loops, instructions in their bodies, bytes those write per iteration) of HLO text."""
    comps, name = {}, None
    for line in text.splitlines():
        head = re.match(r"^(?:ENTRY )?%?([\w.\-]+) .*\{$", line)
        if head:
            name, comps[head.group(1)] = head.group(1), []
        elif line.startswith("}"):
            name = None
        elif name and " = " in line:
            comps[name].append(line)
    bodies = set(re.findall(r"body=%?([\w.\-]+)", text))
    skip = ("parameter(", "get-tuple-element(", "tuple(", "constant(", "bitcast(")
    ops = [ln for b in bodies for ln in comps.get(b, ()) if not any(s in ln for s in skip)]
    written = sum(_written(ln, comps) for ln in ops)
    return len(bodies), len(ops), written


def _written(line, comps):
    """Bytes an instruction writes: its result, or for an in-place dynamic-update-slice (alone or
    the root of a fusion) the update's."""
    shape = line.split(" = ", 1)[1].split("(", 1)[0]
    called = re.search(r"calls=%?([\w.\-]+)", line)
    lines = comps.get(called.group(1), ()) if called else [line]
    root = next((ln for ln in lines if "ROOT" in ln or ln is line), "")
    dus = re.search(r"dynamic-update-slice\(%?[\w.\-]+, %?([\w.\-]+)", root)
    if not dus:
        return _bytes(shape)
    update = next((ln for ln in lines if re.match(rf"\s*(ROOT )?%?{re.escape(dus.group(1))} = ", ln)), None)
    return _bytes(update.split(" = ", 1)[1].split("(", 1)[0]) if update else _bytes(shape)


def program_bytes(text):
    """Bytes the entry computation's instructions write (the hand port's whole program)."""
    entry = text[text.index("ENTRY"):]
    entry = entry[:entry.index("\n}")]
    skip = ("parameter(", "get-tuple-element(", "tuple(", "constant(", "bitcast(")
    lines = [ln for ln in entry.splitlines()[1:] if " = " in ln and not any(s in ln for s in skip)]
    return len(lines), sum(_bytes(ln.split(" = ", 1)[1].split("(", 1)[0]) for ln in lines)


def interleaved(fns, rounds):
    """Per function: the median seconds a call, and the median of the rounds' ratios to the last
    (the hand port); the functions timed next to each other each round, in rotating order."""
    times = [[] for _ in fns]
    for k in range(rounds):
        for i in range(len(fns)):
            j = (i + k) % len(fns)
            times[j].append(batch(fns[j], budget=0.02))
    return [(statistics.median(t), statistics.median(a / b for a, b in zip(t, times[-1]))) for t in times]


def numpy_time(fn, args, repeats=5):
    times = []
    for _ in range(repeats):
        fresh = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        t = time.perf_counter()
        fn(*fresh)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def row(name, rounds):
    """The table's line for kernel `name`: before (npr_vfor off: the lax loops) and after."""
    args = K.inputs(name, np.random.default_rng(0))
    fn = getattr(K, name)
    static = tuple(k for k, a in enumerate(args) if isinstance(a, int))
    dev = [jax.device_put(a) if not isinstance(a, int) else a for a in args]
    progs, firsts = [], []
    for on in (False, True):
        V.NPR_VECTORISE = on
        comp = np2ref.compile(fn)
        t0 = time.perf_counter()
        comp(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        firsts.append(time.perf_counter() - t0)
        ref = jax.jit(comp.pure, static_argnums=static)
        jax.block_until_ready(ref(*dev))
        eqns = jaxpr_size(jax.make_jaxpr(comp.pure, static_argnums=static)(*dev))
        progs.append((ref, eqns, hlo_loops(ref.lower(*dev).compile().as_text())))
    V.NPR_VECTORISE = True
    hand = K.hand(name)
    jax.block_until_ready(hand(*dev))
    (t_before, before), (t_after, after), (t_hand, _) = interleaved(
        [lambda: progs[0][0](*dev), lambda: progs[1][0](*dev), lambda: hand(*dev)], rounds)
    hand_ops, hand_bytes = program_bytes(hand.lower(*dev).compile().as_text())
    cells = lambda p: f"{p[1]} / {p[2][0]} / {p[2][1]} / {p[2][2]}"  # noqa: E731
    return (f"| {name} | {numpy_time(fn, args) * 1e3:.3f} | {t_before * 1e3:.3f} | {t_after * 1e3:.3f} | "
            f"{t_hand * 1e3:.3f} | {before:.2f} | **{after:.2f}** | {firsts[0]:.2f} / {firsts[1]:.2f} | "
            f"{cells(progs[0])} | {cells(progs[1])} | {hand_ops} / {hand_bytes} |"), before, after


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--only", default="")
    p.add_argument("--rounds", type=int, default=9)
    a = p.parse_args(argv)
    jax.config.update("jax_enable_x64", True)
    names = [n for n in K.NAMES if not a.only or n in a.only.split(",")]
    print("| kernel | NumPy ms | np2ref before ms | after ms | hand ms | before / hand | after / hand | "
          "first call s (before / after) | before: jaxpr eqns / while loops / HLO ops in loop bodies / "
          "bytes written per step | after: the same | hand: HLO ops / bytes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    ratios = []
    for name in names:
        line, before, after = row(name, a.rounds)
        ratios.append((before, after))
        print(line, flush=True)
    geo = [math.exp(sum(math.log(r[k]) for r in ratios) / len(ratios)) for k in (0, 1)]
    print(f"\ngeomean np2ref/hand: before {geo[0]:.2f}, after {geo[1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
