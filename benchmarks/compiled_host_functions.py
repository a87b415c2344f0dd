"""np2ref.compile of functions that hold a `try` or use a module class (compiled/host_function.py):
NumPy against the compiled call (host code, its loops compiled), the first call and the fastest of
the later ones, on benchmarks/graph_break_scripts/ at a larger size.

    python benchmarks/compiled_host_functions.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import importlib.util
import io
import os
import sys
import time

os.environ.setdefault("NP2REF_HOST_BELOW", "0")
import np2ref  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "graph_break_scripts")
CASES = [  # (script, size in words, the inputs' changes)
    ("own_state_class", "20,000 steps", {"nsteps": 20_000}),
    ("own_try_interrupt", "20,000 steps of 40 points", {"nsteps": 20_000}),
    ("own_dataclass_params", "5,000 steps of 64 points", {"nsteps": 5_000}),
    ("own_try_solve", "20,000 sweeps, n = 6", {"nsweeps": 20_000}),
    ("own_class_particles", "20,000 steps", {"nsteps": 20_000}),
    ("own_dataclass_grid", "5,000 steps of 24 points", {"nsteps": 5_000}),
    ("own_try_halving", "2,000 steps of 32 points", {"nsteps": 2_000}),
]


def load(stem):
    spec = importlib.util.spec_from_file_location(f"chf_{stem}", os.path.join(HERE, f"{stem}.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def timed(fn, inputs):
    args = copy.deepcopy(inputs)
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        fn(**args)
    return time.perf_counter() - start


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    opts = ap.parse_args(argv)
    print("| script | size | NumPy ms | compiled, first call s | compiled, later ms |")
    print("|---|---|---|---|---|")
    for stem, size, changes in CASES:
        m = load(stem)
        inputs = {**m.make_inputs("small"), **changes}
        fn = getattr(m, m.ENTRY)
        numpy_ms = min(timed(fn, inputs) for _ in range(opts.repeat)) * 1e3
        compiled = np2ref.compile(fn, host_below=0)
        first = timed(compiled, inputs)
        later = min(timed(compiled, inputs) for _ in range(opts.repeat)) * 1e3
        print(f"| {stem} | {size} | {numpy_ms:,.1f} | {first:.2f} | {later:,.1f} |", flush=True)


if __name__ == "__main__":
    main()
