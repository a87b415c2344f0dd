"""`python tests/transforms/small_survey.py`: tests/programs/caller_transforms.py under the
caller's transforms of `.pure` (transform_harness.outcomes), one line a program."""

from __future__ import annotations

import contextlib
import io
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import numpy as np  # noqa: E402

from conftest import program  # noqa: E402
from transform_harness import outcomes  # noqa: E402

f = np.array
INPUTS = {
    "where_sqrt": (f([0.5, -0.3, 1.2, -2.0]),),
    "where_log": (f([0.5, -0.3, 1.2, -2.0]),),
    "where_divide": (f([0.5, 0.0, 1.2, -2.0]),),
    "masked_sqrt_store": (f([0.5, -0.3, 1.2, -2.0]),),
    "sqrt_norm": (f([0.5, -0.3, 1.2, -2.0]),),
    "clip_max": (f([0.7, -0.3, 0.1, -2.0]),),
    "argmax_pick": (f([0.7, -0.3, 1.1, -2.0]),),
    "sort_top": (f([0.7, -0.3, 1.1, -2.0]),),
    "view_write": (f([0.7, -0.3, 1.1, -2.0]),),
    "scatter_add": (f([0.7, -0.3, 1.1, -2.0]), f([1, 3, 1, 0])),
    "int_path": (f([0.7, -0.3, 1.1, 2.0]),),
    "bool_path": (f([0.7, -0.3, 1.1, 2.0]), f([True, False, True, False])),
    "while_on_data": (f([0.7, 0.3, 1.1, 2.0]),),
    "while_counted": (f([0.7, 0.3, 1.1, 2.0]),),
    "early_return": (f([0.7, 0.3, 1.1, 2.0]),),
    "printed": (f([0.7, 0.3, 1.1, 2.0]),),
    "history": (f([0.7, 0.3, 1.1, 2.0]),),
    "drawn": (f([0.7, 0.3, 1.1, 2.0]),),
    "recurrence": (f([0.7, 0.3, 1.1, 2.0]), 0.3),
    "stencil": (f([0.7, 0.3, 1.1, 2.0, 0.5]), 3),
    "particles": (f([0.0, 1.0, 2.5]), f([0.1, 0.0, -0.1]), 0.05),
    "fused_abs": (f([0.7, 0.3, 1.5, -2.0]),),
    "hypot_at_zero": (f([0.7, 0.0, 1.5, -2.0]), f([0.0, 0.0, 1.0, 1.0])),
    "power_half": (f([0.7, 0.0, 1.5, 2.0]),),
}

if __name__ == "__main__":
    module = program("caller_transforms")
    for name in sys.argv[1:] or INPUTS:
        t = time.time()
        with contextlib.redirect_stdout(io.StringIO()):
            row = outcomes(getattr(module, name), INPUTS[name])
        print(f"| {name} | " + " | ".join(f"{k}: {v}" for k, v in row.items()) + f" | {time.time() - t:.0f}s |", flush=True)
