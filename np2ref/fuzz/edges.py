"""Array literals with edge data for the fuzz families of seq_families.py and script_families.py:
inf, -inf, nan and -0.0 among small floats (float dtypes), the ends of an integer dtype's range,
bools; non-square and empty shapes are the caller's choice. NumPy's strict run (shadow.py) drops
the statements whose arithmetic on such data warns (inf - inf, 0 * inf), so the data that stays
is what NumPy computes with silently: nan propagating, inf compared, -0.0's sign.
"""

from __future__ import annotations

import numpy as np

from .exprs import Gen

SPECIALS = ["np.inf", "-np.inf", "np.nan", "-0.0"]
INT_ENDS = {"np.int8": [127, -128], "np.int16": [32767, -32768], "np.int32": [2**31 - 1, -2**31],
            "np.uint8": [255], "np.uint16": [65535]}


def element(g: Gen, dtype: str, special: int) -> str:
    """One element's source: a special value `special` percent of the time (float dtypes)."""
    if dtype == "np.bool_":
        return g.pick(["True", "False"])
    if dtype.startswith(("np.int", "np.uint")):
        if dtype in INT_ENDS and g.chance(special // 2):
            return str(g.pick(INT_ENDS[dtype]))
        return str(g.int(0, 9) if "uint" in dtype else g.int(-5, 9))
    if g.chance(special):
        return g.pick(SPECIALS)
    return repr(g.int(-8, 8) / 4)


def literal(g: Gen, dtype: str, shape: tuple[int, ...], special: int = 0) -> str:
    """`np.array(<nested list>, dtype=...)` of `shape` (np.zeros for an empty one)."""
    size = int(np.prod(shape))
    if size == 0:
        return f"np.zeros({shape}, dtype={dtype})"
    flat = [element(g, dtype, special) for _ in range(size)]

    def nest(items: list[str], dims: tuple[int, ...]) -> str:
        if not dims:
            return items[0]
        step = len(items) // dims[0] if dims[0] else 0
        return "[" + ", ".join(nest(items[k * step:(k + 1) * step], dims[1:]) for k in range(dims[0])) + "]"

    return f"np.array({nest(flat, shape)}, dtype={dtype})"


def float_dtype(g: Gen, ints: int = 15, bools: int = 0) -> str:
    """Mostly float64, then float32; an integer dtype `ints` percent, bool `bools` percent."""
    if g.chance(bools):
        return "np.bool_"
    if g.chance(ints):
        return g.pick(["np.int64", "np.int32", "np.int16", "np.uint8"])
    return g.pick(["np.float64"] * 3 + ["np.float32"])
