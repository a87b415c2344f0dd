"""np2ref against NumPy and hand-written JAX, program by program.

    python benchmarks/run.py [--quick] [--size S|M|L] [--programs NAME ...] [--dtype-policy P]
                             [--output PATH | --no-write]

Per program, medians of several repeats after a warm-up, the variants interleaved round by
round: NumPy; np2ref steady state (the jitted `.pure`, inputs already on the device);
np2ref end to end (`compile`'s call: NumPy in, write-back, NumPy out); the same program
with every basic-index store lowered as a dynamic-update-slice (the other lowering, for
comparison); the hand-written JAX port (benchmarks/hand/); first-call (trace + compile +
run) times; XLA memory_analysis() temp and alias bytes; and for stencils the fraction of
this machine's memory bandwidth (measured here with a copy kernel). Then the store-lowering
measurements behind `_npr_LOWERING` and compile's per-call overhead. The tables are written
to docs/benchmarks.md between the generated-section markers. Timing, not a test: no
assertions on numbers anywhere.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import math
import platform
import statistics
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import kernels  # noqa: E402
import programs as P  # noqa: E402
from common import disagreement, run_numpy, split_static  # noqa: E402

import np2ref  # noqa: E402
from np2ref.rt import index as rt_index, lowering as rt_lowering, npr_at  # noqa: E402

POLICY = "preserve"  # np2ref.compile's dtype_policy (--dtype-policy)
BEGIN, END = "<!-- BEGIN GENERATED (benchmarks/run.py) -->", "<!-- END GENERATED -->"


def block(x):
    return jax.block_until_ready(x)


def timed(fn):
    t = time.perf_counter()
    block(fn())
    return time.perf_counter() - t


def interleaved(cases, repeats, setup=None, sample=0.01, rounds=False):
    """{name: median seconds a call}: each round takes one sample of every case, alternating
    the order; a sample is the mean of as many back-to-back calls as fill `sample` seconds (at
    most 100), so a fast case is not timed on caches and threads the case before it left busy.
    `setup[name]()` makes a call's argument (fresh copies for cases that write their inputs),
    outside the timing. With `rounds`, {name: every round's sample} instead."""
    names = list(cases)

    def call(n):
        arg = setup[n]() if setup and n in setup else None
        return timed((lambda f=cases[n], a=arg: f(a)) if arg is not None else cases[n])

    calls = {n: max(1, min(100, int(sample / max(call(n), 1e-7)))) for n in names}  # the warm-up
    times = {n: [] for n in names}
    for k in range(repeats):
        for n in (names if k % 2 == 0 else names[::-1]):
            times[n].append(sum(call(n) for _ in range(calls[n])) / calls[n])
    return times if rounds else {n: statistics.median(v) for n, v in times.items()}


def memory(lowered):
    m = lowered.compile().memory_analysis()
    return (m.temp_size_in_bytes, m.alias_size_in_bytes) if m is not None else (None, None)


def fmt_t(s):
    if s is None:
        return "-"
    return f"{s * 1e6:.0f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms" if s < 1 else f"{s:.2f} s"


def fmt_b(b):
    if b is None:
        return "-"
    for unit, scale in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if b >= scale:
            return f"{b / scale:.1f} {unit}"
    return f"{b} B"


# ---- memory bandwidth (copy kernel) ----------------------------------------------------------

_BW = {}


def bandwidth(nbytes, repeats):
    """Bytes read + written per second by the faster of NumPy's copyto (one thread, CPU only)
    and an XLA elementwise copy-scale with a donated buffer, on arrays of nbytes."""
    if nbytes not in _BW:
        n = max(nbytes // 8, 1)
        src, dst = np.random.default_rng(0).random(n), np.empty(n)
        scale = jax.jit(lambda x: x * 1.0000001, donate_argnums=0)
        state = {"x": jnp.asarray(src)}

        def xla():
            state["x"] = scale(state["x"])
            return state["x"]

        xla()
        cases = {"xla": xla}
        if jax.default_backend() == "cpu":  # on an accelerator only the device's bandwidth counts
            cases["np"] = lambda: np.copyto(dst, src)
        t = interleaved(cases, max(repeats, 5))
        _BW[nbytes] = 2 * n * 8 / min(t.values())
    return _BW[nbytes]


# ---- one program ------------------------------------------------------------------------------

def aot(fn, static, dev):
    """(seconds to trace + compile + run once, the compiled function of the dynamic arguments,
    its memory_analysis (temp, alias) bytes): one XLA compile serves all three."""
    t = time.perf_counter()
    compiled = jax.jit(fn, static_argnames=tuple(static)).lower(**dev, **static).compile()
    out = block(compiled(**dev))
    first = time.perf_counter() - t
    m = compiled.memory_analysis()
    mem = (m.temp_size_in_bytes, m.alias_size_in_bytes) if m is not None else (None, None)
    return first, (lambda: compiled(**dev)), mem, out


def bench_program(prog, size, repeats, x64, quick=False):
    kw = prog.make(size)
    static, dynamic = split_static(kw)
    expected, after = run_numpy(prog.original, kw)
    row = {"name": prog.name, "kind": prog.kind}
    lowering = rt_lowering._npr_LOWERING
    tol = dict(rtol=1e-9, atol=1e-12) if x64 else dict(rtol=2e-3, atol=1e-4)

    compiled = np2ref.compile(prog.original, dtype_policy=POLICY)  # fresh: its first call compiles
    args = copy.deepcopy(kw)
    row["np2ref_first"] = timed(lambda: compiled(**args))
    with jax.enable_x64(x64):
        dev = {k: jnp.asarray(v) for k, v in dynamic.items()}
        _, steady, (row["temp"], row["alias"]), out = aot(compiled.pure, static, dev)
        row["check"] = {"np2ref": disagreement(expected, after, *out, **tol)}
        row["hand_first"], hand, (row["hand_temp"], row["hand_alias"]), out = aot(prog.hand, static, dev)
        row["check"]["hand"] = disagreement(expected, after, *out, **tol)
        saved = dict(lowering)
        lowering["padwhere_min"] = math.inf  # every basic-index store a dynamic-update-slice
        try:
            _, dus, (row["temp_dus"], _), out = aot(np2ref.compile(prog.original, dtype_policy=POLICY).pure,
                                                    static, dev)
        finally:
            lowering.clear()
            lowering.update(saved)
        row["check"]["DUS-only"] = disagreement(expected, after, *out, **tol)
    row["e2e_alias"] = None if quick else memory(compiled.lower(**kw))[1]

    def in_x64(f):
        def g():
            with jax.enable_x64(x64):
                return f()
        return g

    cases = {"numpy": lambda a: prog.original(**a), "e2e": lambda a: compiled(**a),
             "np2ref": in_x64(steady), "dus": in_x64(dus), "hand": in_x64(hand)}
    fresh = {"numpy": lambda: copy.deepcopy(kw), "e2e": lambda: copy.deepcopy(kw)}
    row.update(interleaved(cases, repeats, fresh))
    if prog.traffic:
        row["bw_frac"] = prog.traffic(kw) / row["np2ref"] / bandwidth(prog.bandwidth_size(kw), repeats)
    return row


# ---- store lowering: pad + where against dynamic-update-slice ---------------------------------

def lowering_cases(n):
    full = lambda r: r[...]  # noqa: E731
    return {
        "interior, 4 shifted reads (stencil)": ((slice(1, -1), slice(1, -1)), lambda r: 0.25 * (
            full(r)[2:, 1:-1] + full(r)[:-2, 1:-1] + full(r)[1:-1, 2:] + full(r)[1:-1, :-2])),
        "rows 1:-1, 2 shifted reads": ((slice(1, -1),), lambda r: 0.5 * (full(r)[2:] + full(r)[:-2])),
        "interior, 1 shifted read": ((slice(1, -1), slice(1, -1)), lambda r: full(r)[2:, 1:-1] * 0.5),
        "interior, same elements": ((slice(1, -1), slice(1, -1)), lambda r: full(r)[1:-1, 1:-1] * 0.5 + 1.0),
        "interior, another array": ((slice(1, -1), slice(1, -1)), lambda r: jnp.sin(full(r)[1:-1, 1:-1] * 0)),
        "3/4 of the rows, 1 shifted read": ((slice(1, 3 * n // 4 + 1),), lambda r: full(r)[:3 * n // 4] * 0.5),
        "every other row, shifted": ((slice(0, None, 2),), lambda r: full(r)[1::2] * 0.5),
    }


def bench_lowerings(n, steps, repeats):
    """Each store in a fori_loop of `steps`, on an n x n float64 array, both ways."""
    lowering, padwhere = rt_lowering._npr_LOWERING, rt_index._npr_padwhere
    u0 = jnp.asarray(np.random.default_rng(0).random((n, n)))
    rows = []
    for name, (idx, value) in lowering_cases(n).items():
        fns, chosen = {}, None
        for way in ("padwhere", "dus", "auto"):
            saved = dict(lowering)
            if way == "padwhere":
                lowering.update(padwhere_min=0.0, shifted_reads=0)
            elif way == "dus":
                lowering["padwhere_min"] = math.inf
            calls = []
            rt_index._npr_padwhere = lambda *a: calls.append(1) or padwhere(*a)

            def f(u):
                r = jax.new_ref(u)

                def body(t, c):
                    npr_at(r)[idx] = value(r)
                    return c
                lax.fori_loop(0, steps, body, 0)
                return r[...]
            try:
                fns[way] = jax.jit(f)
                block(fns[way](u0))
            finally:
                rt_index._npr_padwhere = padwhere
                lowering.clear()
                lowering.update(saved)
            if way == "auto":
                chosen = "pad+where" if calls else "DUS"
        same = np.array_equal(np.asarray(fns["padwhere"](u0)), np.asarray(fns["dus"](u0)))
        t = interleaved({k: (lambda g=g: g(u0)) for k, g in fns.items() if k != "auto"}, repeats)
        rows.append((name, t["padwhere"], t["dus"], chosen, same))
    return rows


# ---- compile's per-call overhead ----------------------------------------------------------------

def bench_overhead(repeats):
    rows = []
    for n in (1000, 1_000_000):
        a = np.random.default_rng(0).random(n)
        compiled = np2ref.compile(kernels.bump)
        compiled(a, 1.0)
        with jax.enable_x64(True):
            plain = jax.jit(lambda a, b: a + b)
            block(plain(a, 1.0))

        def plain_call():
            with jax.enable_x64(True):
                np.copyto(a, np.asarray(plain(a, 1.0)))

        calls = 50 if n == 1000 else 5
        t = interleaved({"np2ref": lambda: [compiled(a, 1.0) for _ in range(calls)],
                         "plain": lambda: [plain_call() for _ in range(calls)]}, max(repeats, 15), rounds=True)
        # this VM's speed drifts 2-3x within seconds: the two cases of one round ran at the same
        # speed, so the median of the rounds' ratios is steadier than the ratio of the medians
        paired = statistics.median(c / p for c, p in zip(t["np2ref"], t["plain"]))
        rows.append((n, statistics.median(t["np2ref"]) / calls, statistics.median(t["plain"]) / calls, paired))
    return rows


# ---- tables ------------------------------------------------------------------------------------

def program_table(rows):
    head = ("| program | NumPy | np2ref | end-to-end | DUS-only | hand JAX | np2ref/NumPy | np2ref/hand | "
            "first call np2ref / hand | temp np2ref / DUS-only / hand | alias np2ref / e2e / hand | "
            "bandwidth | check |")
    out = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        bad = [f"{k}: {v}" for k, v in r["check"].items() if v]
        out.append(
            f"| {r['name']} | {fmt_t(r['numpy'])} | {fmt_t(r['np2ref'])} | {fmt_t(r['e2e'])} | {fmt_t(r['dus'])} | "
            f"{fmt_t(r['hand'])} | {r['np2ref'] / r['numpy']:.3f} | {r['np2ref'] / r['hand']:.2f} | "
            f"{fmt_t(r['np2ref_first'])} / {fmt_t(r['hand_first'])} | "
            f"{fmt_b(r['temp'])} / {fmt_b(r['temp_dus'])} / {fmt_b(r['hand_temp'])} | "
            f"{fmt_b(r['alias'])} / {fmt_b(r['e2e_alias'])} / {fmt_b(r['hand_alias'])} | "
            f"{'%.0f %%' % (100 * r['bw_frac']) if 'bw_frac' in r else '-'} | {'; '.join(bad) or 'ok'} |")
    ratios = [r["np2ref"] / r["hand"] for r in rows]
    out.append("")
    out.append(f"Geometric mean np2ref/hand over {len(rows)} programs: "
               f"**{math.exp(statistics.fmean(math.log(x) for x in ratios)):.2f}**; "
               f"np2ref/NumPy: **{math.exp(statistics.fmean(math.log(r['np2ref'] / r['numpy']) for r in rows)):.3f}**.")
    over = [r["name"] for r in rows if r["temp"] and r["hand_temp"] is not None and r["temp"] > r["hand_temp"]]
    out.append(f"Temp bytes above the hand port's: {', '.join(over) if over else 'none'}.")
    return out


def lowering_table(rows, n, steps):
    out = [f"Store lowering, {n}x{n} float64, {steps} stores in a fori_loop (`_npr_LOWERING`; pad+where "
           "is chosen when the region covers ≥ `padwhere_min` of the array and its value reads the "
           "array through ≥ `shifted_reads` other windows):", "",
           "| store | pad+where | dynamic-update-slice | pad+where / DUS | np2ref chooses | identical |",
           "|---|---|---|---|---|---|"]
    for name, pw, dus, chosen, same in rows:
        out.append(f"| {name} | {fmt_t(pw)} | {fmt_t(dus)} | {pw / dus:.2f} | {chosen} | {same} |")
    return out


def overhead_table(rows):
    out = ["compile's per-call overhead (`a += b` on float64 `a`, write-back included), against a plain "
           "`jax.jit` call on the same NumPy array plus the copy back into it:", "",
           "| elements | np2ref.compile call | jax.jit + np.copyto | ratio of medians | median of round ratios |",
           "|---|---|---|---|---|"]
    for n, t_c, t_p, paired in rows:
        out.append(f"| {n} | {fmt_t(t_c)} | {fmt_t(t_p)} | {t_c / t_p:.2f} | {paired:.2f} |")
    return out


def write_doc(path, lines):
    text = path.read_text() if path.exists() else "# Benchmarks\n\n" + BEGIN + "\n" + END + "\n"
    if BEGIN not in text:
        text += "\n" + BEGIN + "\n" + END + "\n"
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1] if END in rest else "\n"
    path.write_text(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="size S, 3 repeats, small lowering table")
    p.add_argument("--size", choices=P.SIZES, default=None, help="T is tiny (tests), M holds the 1024² heat target")
    p.add_argument("--programs", nargs="*", choices=sorted(P.PROGRAMS), default=None)
    p.add_argument("--repeats", type=int, default=None)
    p.add_argument("--dtype-policy", choices=("preserve", "float32"), default="preserve")
    p.add_argument("--output", type=Path, default=HERE.parent / "docs" / "benchmarks.md")
    p.add_argument("--no-write", action="store_true")
    p.add_argument("--skip-extras", action="store_true", help="programs only: no lowering or overhead tables")
    args = p.parse_args(argv)
    size = args.size or "S"
    repeats = args.repeats or (3 if args.quick else 7)
    x64 = args.dtype_policy == "preserve"
    global POLICY
    POLICY = args.dtype_policy
    rows = []
    for prog in P.load(args.programs):
        print(f"{prog.name} ...", file=sys.stderr, flush=True)
        rows.append(bench_program(prog, size, repeats, x64, args.quick))
        print(program_table(rows[-1:])[2], file=sys.stderr, flush=True)  # survives a time-out
    lines = [f"`python benchmarks/run.py {' '.join(argv if argv is not None else sys.argv[1:])}` — "
             f"{datetime.date.today()}, {platform.machine()} {jax.devices()[0].device_kind} "
             f"({jax.default_backend()}), {len(jax.devices())} device(s), {__import__('os').cpu_count()} CPUs; "
             f"jax {jax.__version__}, numpy {np.__version__}; size {size}, {repeats} repeats, "
             f"dtype policy {args.dtype_policy}.", ""]
    lines += program_table(rows)
    if not args.skip_extras:
        n, steps = (256, 20) if args.quick else (1024, 20)
        lines += [""] + lowering_table(bench_lowerings(n, steps, repeats), n, steps)
        lines += [""] + overhead_table(bench_overhead(repeats))
    print("\n".join(lines))
    if not args.no_write:
        write_doc(args.output, lines)
        print(f"\nwritten to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
