"""A pytest plugin for the TPU lane: each failing test's report is written to $OUT/failures.log
the moment it fails. A lane stage that runs past its time limit is killed before pytest prints
its summary, and a chip run is too dear to repeat just to read why a test failed.

    python -m pytest -p tpu_failures ...        # with benchmarks/ on PYTHONPATH
"""
import os


def pytest_runtest_logreport(report):
    if not report.failed:
        return
    path = os.path.join(os.environ.get("OUT", "."), "failures.log")
    with open(path, "a") as log:
        log.write(f"==== {report.nodeid} ({report.when})\n{report.longreprtext[-4000:]}\n")
