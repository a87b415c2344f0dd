"""Where the test suite's time goes, test by test: a pytest plugin and its summary.

The plugin writes one tab-separated line per test to $SUITE_COSTS_OUT (appended): the node id,
the CPU seconds of the pytest process during the test (time.process_time: not skewed by other
jobs on the machine, as wall time is; subprocesses not counted), and JAX's backend compiles and
traces with their seconds (jax.monitoring's duration events). Run slices with -n 0:

    SUITE_COSTS_OUT=/tmp/costs.tsv PYTHONPATH=$PWD:$PWD/benchmarks \
        python -m pytest -n 0 -p suite_costs tests/third_party
    python benchmarks/suite_costs.py /tmp/costs.tsv      # totals, modules and tests by CPU

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
    start = time.process_time()
    yield
    _rows.append((item.nodeid, round(time.process_time() - start, 3), _current["compiles"],
                  round(_current["compile_s"], 3), _current["traces"], round(_current["trace_s"], 3)))


def pytest_unconfigure(config):
    out = os.environ.get("SUITE_COSTS_OUT")
    if out:
        with open(out, "a") as f:
            f.writelines("\t".join(map(str, row)) + "\n" for row in _rows)


def summary(paths, top=30):
    rows = [line.rstrip("\n").split("\t") for p in paths for line in open(p)]
    rows = [(r[0], float(r[1]), int(r[2])) for r in rows]
    print(f"{len(rows)} tests, {sum(r[1] for r in rows):.1f} s of CPU, {sum(r[2] for r in rows)} compiles")
    modules = collections.defaultdict(lambda: [0, 0.0, 0])
    for node, cpu, compiles in rows:
        m = modules[node.split("::")[0]]
        m[0], m[1], m[2] = m[0] + 1, m[1] + cpu, m[2] + compiles
    for name, (n, cpu, compiles) in sorted(modules.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"{cpu:8.1f} s {n:5d} tests {compiles:5d} compiles  {name}")
    for node, cpu, compiles in sorted(rows, key=lambda r: -r[1])[:top]:
        print(f"{cpu:7.2f} s {compiles:4d} compiles  {node}")


if __name__ == "__main__":
    summary(sys.argv[1:])
