"""Where the test suite's time goes, test by test: a pytest plugin and its summary.

The plugin writes one tab-separated line per test to $SUITE_COSTS_OUT (appended): the node id,
the CPU seconds of the pytest process during the test (time.process_time: not skewed by other
jobs on the machine, as wall time is; subprocesses not counted), and JAX's backend compiles and
traces with their seconds (jax.monitoring's duration events). Run slices with -n 0:

    SUITE_COSTS_OUT=/tmp/costs.tsv PYTHONPATH=$PWD:$PWD/benchmarks \
        python -m pytest -n 0 -p suite_costs tests/third_party
    python benchmarks/suite_costs.py /tmp/costs.tsv      # totals, modules and tests by CPU

Each line also holds the CPU seconds of the subprocesses the test waited for (os.times: the
NumPy table's workers, `np2ref` run as a command), the xdist worker and the test's wall start and
end, so a run of the whole suite as CI runs it (`-n 2`; pass `-p suite_costs`, the workers load
it too) shows each worker's busy time and how long one waited for the other at the end:

    SUITE_COSTS_OUT=/tmp/full.tsv PYTHONPATH=$PWD:$PWD/benchmarks python -m pytest -p suite_costs
    python benchmarks/suite_costs.py /tmp/full.tsv      # adds folders, workers and the idle tail

Measured on 6 December 2026 with it: compile counts do not predict the cost (jitting a program
that ran eagerly turned 271 small compiles into 51 large ones at the same CPU time).
"""

from __future__ import annotations

import collections
import os
import sys
import time

import pytest

_current: collections.Counter = collections.Counter()
_rows: list = []


def _listener(event, duration, **_):
    if event.endswith("backend_compile_duration"):
        _current["compiles"] += 1
        _current["compile_s"] += duration
    elif event.endswith("jaxpr_trace_duration"):
        _current["traces"] += 1
        _current["trace_s"] += duration


def pytest_configure(config):
    from jax._src import monitoring

    monitoring.register_event_duration_secs_listener(_listener)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _current.clear()
    start, wall, children = time.process_time(), time.time(), _children_cpu()
    yield
    _rows.append((item.nodeid, round(time.process_time() - start, 3), _current["compiles"],
                  round(_current["compile_s"], 3), _current["traces"], round(_current["trace_s"], 3),
                  round(_children_cpu() - children, 3), os.environ.get("PYTEST_XDIST_WORKER", "main"),
                  round(wall, 3), round(time.time(), 3)))


def _children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system


def pytest_unconfigure(config):
    out = os.environ.get("SUITE_COSTS_OUT")
    if out:
        with open(out, "a") as f:
            f.writelines("\t".join(map(str, row)) + "\n" for row in _rows)


def summary(paths, top=30):
    rows = [line.rstrip("\n").split("\t") for p in paths for line in open(p)]
    # CPU counts the subprocesses a test waited for (column 7; absent in files of older runs)
    rows = [(r[0], float(r[1]) + (float(r[6]) if len(r) > 6 else 0.0), int(r[2]), r[7:]) for r in rows]
    print(f"{len(rows)} tests, {sum(r[1] for r in rows):.1f} s of CPU, {sum(r[2] for r in rows)} compiles")
    for depth in (2, 1):  # folders, then modules
        groups = collections.defaultdict(lambda: [0, 0.0, 0])
        for node, cpu, compiles, _ in rows:
            path = node.split("::")[0]
            g = groups["/".join(path.split("/")[:2]) if depth == 2 and path.count("/") > 1 else path]
            g[0], g[1], g[2] = g[0] + 1, g[1] + cpu, g[2] + compiles
        if depth == 2 and len(groups) == len({r[0].split("::")[0] for r in rows}):
            continue  # no folder holds two modules: the module table says it all
        for name, (n, cpu, compiles) in sorted(groups.items(), key=lambda kv: -kv[1][1])[:top]:
            print(f"{cpu:8.1f} s {n:5d} tests {compiles:5d} compiles  {name}")
    for node, cpu, compiles, _ in sorted(rows, key=lambda r: -r[1])[:top]:
        print(f"{cpu:7.2f} s {compiles:4d} compiles  {node}")
    _workers([r for r in rows if len(r[3]) == 3])


def _workers(rows):
    """Per xdist worker: tests, CPU, the wall span from its first test's start to its last test's
    end; and the idle tail, how long the first worker to finish waited for the last."""
    spans = collections.defaultdict(lambda: [0, 0.0, float("inf"), 0.0])
    for _, cpu, _, (worker, start, end) in rows:
        s = spans[worker]
        s[0], s[1], s[2], s[3] = s[0] + 1, s[1] + cpu, min(s[2], float(start)), max(s[3], float(end))
    if len(spans) < 2:
        return
    first = min(s[2] for s in spans.values())
    for worker, (n, cpu, start, end) in sorted(spans.items()):
        print(f"worker {worker}: {n} tests, {cpu:.1f} s of CPU, wall {start - first:.1f}-{end - first:.1f} s")
    ends = [s[3] for s in spans.values()]
    print(f"idle tail: {max(ends) - min(ends):.1f} s (the first worker done waits for the last)")


if __name__ == "__main__":
    summary(sys.argv[1:])
