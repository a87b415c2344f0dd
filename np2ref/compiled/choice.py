"""The route of one call signature of np2ref.compile: the original NumPy function (the host
route) or the jitted translation, decided by timing both on the first calls (docs/guide.md,
"Which route a call takes").

Both routes give NumPy's answer (the host route is NumPy; the translation is exact), so the
choice is about time only. routes.py's cost model estimates both from the traced program, but
it is a model: it sees the translation's program (a vectorised loop, not NumPy's Python loop),
and XLA's code for a loop, a complex solve or a masked update can be 5-330 times its estimate
(docs/benchmarks.md, "Routes measured"). So the model only settles the plain cases (a small
loop-free program: NumPy; a route estimated SKIP times the other's: the other one) and orders
the rest; for those the first calls are real calls, each timed, alternating the routes:

- the jitted route's first call compiles: it is timed (shown by explain()) but not compared;
- each route is then timed SAMPLES times, the cheaper one by the estimate first, and the
  faster (its median call against the other's) is kept for every later call of the signature:
  the median, because a loaded machine makes single calls 2-5 times slower at random, and the
  fastest call would favour XLA's multithreaded code, quick in a quiet moment, slow typically;
- it is decided sooner where one route is DECISIVE times the other after one call each (the
  slower route has then run once: a 30 s NumPy loop is not run three times), later where the
  two are within CLOSE of each other, up to MOST calls each (cheap: the slower route is then
  at most CLOSE times the faster, and a 10-25% difference needs more than three calls to show
  on a loaded machine). A 3-5x difference over two calls each is not enough: on the loaded VM
  one such pair sent a kernel to the route its rounds measured 1.85x slower. Where both are
  QUICK calls, up to MOST calls each are taken while they are within WIDE of each other: a
  short call is the one a busy spell slows 2-3x (gemv_loop, 2026-12-07: decided for NumPy on
  medians of three calls where 15 rounds measured it 1.87x the jitted call), and three more
  calls of a quick route cost little. For the same reason a DECISIVE difference decides after
  one call each only where the slower call is not QUICK: at a load of 17 on the 2 cores single
  quick calls were 10-50x apart (softmax_rows' NumPy call 15 ms where it takes 1.4, gemv_loop's
  2.4 ms where it takes 130: OpenBLAS's threads on busy cores), and each sent its kernel to the
  slower route.

A signature is what hostcall.host_key says (shapes, dtypes, static values): new shapes make a
new Choice, measured afresh. This module holds the decision's logic only (no JAX, no clock):
Compiled feeds it the times it measures, tests feed it made-up ones.
"""

from __future__ import annotations

from statistics import median

HOST, JIT = "host", "jit"
SAMPLES = 3  # timed calls of each route before they are compared (their medians)
DECISIVE = 10.0  # both timed once and one this many times the other (and not QUICK): decided
CLOSE, MOST = 1.25, 6  # medians within CLOSE of each other: timed again, up to MOST calls each
WIDE, QUICK = 2.5, 0.25  # ... and within WIDE where the slower median is under QUICK seconds
SKIP = 50.0  # a route estimated this many times the other's is not tried


class Choice:
    """One signature's route: decided up front (`route` HOST or JIT, `reason`) or measured
    (`route` None until record() decides). `host`: the host route's per-call condition (True,
    or hostcall's (pairs, contiguous) tuple), or False where the host route is not open."""

    def __init__(self, signature: str, route, reason: str, host=False, estimate=None, platform="cpu",
                 first=HOST):
        self.signature, self.route, self.reason = signature, route, reason
        self.host, self.estimate, self.platform = host, estimate, platform
        self.first = first  # the route tried first: the cheaper one by the estimate
        self.samples = {HOST: [], JIT: []}
        self.compile_call = None  # seconds of the jitted route's first call (its compile included)

    def next_route(self) -> str:
        """The route the next call of this signature takes."""
        if self.route is not None:
            return self.route
        if self.compile_call is None and self.first == JIT:
            return JIT
        host, jit = len(self.samples[HOST]), len(self.samples[JIT])
        if host != jit:  # (each turn: the route with fewer timed calls)
            return HOST if host < jit else JIT
        return self.first

    def record(self, route: str, seconds: float) -> bool:
        """A call of `route` took `seconds`; True when that decided the route."""
        if self.route is not None:
            return False
        if route == JIT and self.compile_call is None:
            self.compile_call = seconds  # the compile's call: not a time of the route's own
            return False
        self.samples[route].append(seconds)
        host, jit = self.samples[HOST], self.samples[JIT]
        if not host or not jit:
            return False
        best_host, best_jit = median(host), median(jit)
        ratio, calls = max(best_host, best_jit) / max(min(best_host, best_jit), 1e-12), min(len(host), len(jit))
        if calls < SAMPLES and (ratio < DECISIVE or max(best_host, best_jit) < QUICK):
            return False
        if calls < MOST and (ratio < CLOSE or ratio < WIDE and max(best_host, best_jit) < QUICK):
            return False
        self.route = HOST if best_host <= best_jit else JIT
        self.reason = f"measured: NumPy {_fmt(best_host)}, jitted {_fmt(best_jit)} (medians of {len(host)} and {len(jit)} calls)"
        return True

    def describe(self) -> str:
        """One paragraph: the route, why, the times."""
        taken = {HOST: "NumPy (the host route)", JIT: "the jitted translation", None: "measuring"}[self.route]
        lines = [f"{self.signature}: {taken}: {self.reason}"]
        if self.route is None:
            done = ", ".join(f"{'NumPy' if r == HOST else 'jitted'} {', '.join(_fmt(s) for s in v)}"
                             for r, v in self.samples.items() if v)
            lines.append(f"  timed so far: {done or 'nothing'}; next call: {'NumPy' if self.next_route() == HOST else 'jitted'}")
        if self.estimate is not None:
            lines.append(f"  estimated ({self.platform}): NumPy {_fmt(self.estimate[0] * 1e-6)}, "
                         f"jitted {_fmt(self.estimate[1] * 1e-6)}")
        if self.compile_call is not None:
            lines.append(f"  the jitted route's first call (compile included): {_fmt(self.compile_call)}")
        return "\n".join(lines)


def choose(signature: str, host, small: str | None, estimate, platform: str) -> Choice:
    """The Choice for a new signature. `host`: the host route's per-call condition, or False
    where the host route is not open to this call; `small`: why the program is small (None: it
    is not); `estimate`: routes.py's (NumPy's, the jitted call's) µs, or None (the model does
    not know the program); `platform`: JAX's default backend ("cpu", "tpu", "gpu")."""
    if host is False:
        return Choice(signature, JIT, "the host route is not open to this call", platform=platform)
    if small:
        return Choice(signature, HOST, f"a small program ({small}): the jitted call's fixed cost is more than NumPy's "
                      "whole call", host, estimate, platform)
    if estimate is None:
        return Choice(signature, None, "the cost model does not know this program: both routes are timed",
                      host, None, platform, first=JIT)
    numpy_us, jit_us = estimate
    if numpy_us == float("inf"):
        return Choice(signature, JIT, "a loop whose trip count is data (its NumPy cost is unknown)",
                      host, estimate, platform)
    if numpy_us > SKIP * jit_us:
        return Choice(signature, JIT, f"NumPy is estimated over {SKIP:.0f} times the jitted call", host, estimate, platform)
    if jit_us > SKIP * numpy_us:
        return Choice(signature, HOST, f"the jitted call is estimated over {SKIP:.0f} times NumPy"
                      + (" (the transfers to the device included)" if platform != "cpu" else ""), host, estimate, platform)
    return Choice(signature, None, "both routes are timed on the first calls", host, estimate, platform,
                  first=HOST if numpy_us <= jit_us else JIT)


def closed_because(host_below, positional, static_argnames, dtype_policy, bounds, shardings) -> str:
    """Why no call of a compiled function takes the host route."""
    if host_below == 0:
        return "host_below=0 (or $NP2REF_HOST_BELOW=0)"
    if positional is None or static_argnames is not None:
        return "static_argnames, or parameters the host route cannot key calls by"
    if dtype_policy != "preserve":
        return f"dtype_policy={dtype_policy!r} (NumPy would compute in the arguments' own dtypes)"
    if bounds != "checked":
        return "bounds='unchecked' (NumPy would raise IndexError)"
    return "shardings" if any(v is not None for v in shardings) else "verify"


def _fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    return f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"
