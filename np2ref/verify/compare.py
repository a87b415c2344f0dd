"""Comparing NumPy results: values, dtypes and shapes, with tolerances by dtype."""

from __future__ import annotations

import numpy as np

RTOL = {np.dtype(np.float64): 1e-9, np.dtype(np.float32): 1e-4, np.dtype(np.float16): 1e-2,
        np.dtype(np.complex128): 1e-9, np.dtype(np.complex64): 1e-4}


def first_difference(expected, got, where: str = "result") -> str | None:
    """A description of the first difference between two results, or None when they agree.

    Arrays must agree in shape and dtype; integers and booleans exactly; floats to a tolerance
    set by their dtype (NaN equals NaN)."""
    if isinstance(expected, (tuple, list)):
        if not isinstance(got, (tuple, list)) or len(got) != len(expected):
            return f"{where}: expected a sequence of {len(expected)}, got {type(got).__name__}"
        for i, (e, g) in enumerate(zip(expected, got)):
            d = first_difference(e, g, f"{where}[{i}]")
            if d:
                return d
        return None
    if isinstance(expected, dict):
        for k in expected:
            d = first_difference(expected[k], got.get(k) if isinstance(got, dict) else None, f"{where}[{k!r}]")
            if d:
                return d
        return None
    if expected is None or isinstance(expected, (str, bool)) and not isinstance(expected, np.generic):
        return None if expected == got else f"{where}: expected {expected!r}, got {got!r}"
    e = np.asarray(expected)
    g = np.asarray(got)
    if e.shape != g.shape:
        return f"{where}: shape {g.shape}, expected {e.shape}"
    if isinstance(expected, (np.ndarray, np.generic)) and e.dtype != g.dtype:
        return f"{where}: dtype {g.dtype}, expected {e.dtype}"
    if e.dtype.kind in "fc":
        rtol = RTOL.get(e.dtype, 1e-9)
        close = np.isclose(g, e, rtol=rtol, atol=rtol * max(1.0, float(np.nanmax(np.abs(e))) if e.size else 1.0),
                           equal_nan=True)
    else:
        close = g == e
    if not np.all(close):
        bad = np.argwhere(~np.asarray(close))
        idx = tuple(int(i) for i in bad[0]) if bad.size else ()
        return f"{where}{list(idx) if idx else ''}: got {g[idx]!r}, expected {e[idx]!r}"
    return None
