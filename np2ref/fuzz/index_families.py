"""The family of concrete integer index arrays that step by a constant (rt/index.py
`_npr_progression` lowers them as slices):

    step_index   `a[np.arange(0, n, 2)] = v`, `a[[1, 3, 5]] += v`, `b = a[np.arange(k, m)]`,
                 `a[range(4, -1, -2), 1:]`, beside slices and integers on other axes, descending,
                 negative, and near misses: duplicates (`[1, 1, 2]`, NumPy's buffered store:
                 the last occurrence wins), a step that changes (`[0, 2, 3]`), one element

A read is NumPy's copy: `b = a[[0, 1, 2]]` then `b[0] = ...` must leave `a` alone.
`fn(g, fr, helpers) -> (statements, names they define) | None`, as in families.py.
"""

from __future__ import annotations

from .exprs import Gen, ops_for, scalar, slice_text, value
from .program import Line
from .shadow import Frame


def progression(g: Gen, d: int) -> str | None:
    """An integer index into an axis of length d that steps (mostly), in one of its spellings."""
    if d == 0:
        return None
    step = g.pick([1, 2, -1, 3, -2, 1])
    count = g.int(1, max(1, min(4, (d - 1) // abs(step) + 1)))
    start = g.int(0, d - 1) if step > 0 else g.int(min(d - 1, abs(step) * (count - 1)), d - 1)
    items = [start + step * i for i in range(count)]
    items = [i for i in items if 0 <= i < d] or [0]
    near = g.pick(["none"] * 6 + ["dup", "bend", "negative"])
    if near == "dup":  # the same element twice: buffered, the last occurrence wins
        items.insert(g.int(0, len(items)), g.pick(items))
    elif near == "bend" and len(items) >= 2:
        items[-1] += 1 if items[-1] + 1 < d else -1
    elif near == "negative":  # counted from the end: NumPy normalises before stepping
        items = [i - d for i in items]
    spell = g.pick(["list", "list", "array", "arange", "range"])
    if spell in ("arange", "range") and near == "none":  # a negative stop is a number here, not an end
        fn = "np.arange" if spell == "arange" else "range"
        stop = items[-1] + step
        return f"{fn}({items[0]}, {stop}, {step})" if step != 1 or g.chance(50) else f"{fn}({items[0]}, {stop})"
    if spell == "array":  # an index array of any integer type indexes by value
        dtype = g.pick(["", "", ", dtype=np.int8", ", dtype=np.uint64" if min(items) >= 0 else "", ", dtype=np.int32"])
        return f"np.array({items}{dtype})"
    return str(items)


def _stepping_index(g: Gen, shape: tuple[int, ...]) -> str | None:
    """An index for an array of `shape` with one or two progressions among slices and ints."""
    if not shape or not shape[0]:
        return None
    axis = g.int(0, len(shape) - 1)
    parts = []
    for k, d in enumerate(shape[:g.int(axis + 1, len(shape))]):
        if k == axis:
            parts.append(progression(g, d))
        elif d and g.chance(30):
            parts.append(str(g.int(-d, d - 1)))
        elif g.chance(15):
            parts.append(progression(g, d))  # a second array: paired with the first (broadcast)
        else:
            parts.append(g.pick([":", ":", slice_text(g, d)]))
    if None in parts:
        return None
    if len(shape) >= 2 and axis == len(shape) - 1 and g.chance(30):
        parts = ["..."] + parts[-1:]
    return ", ".join(parts)


def step_index(g: Gen, fr: Frame, helpers) -> tuple | None:
    """A store or an `op=` through a stepping index, or a read kept in a name (and written)."""
    targets = [a for a in fr.arrays() if fr.ns[a].ndim and fr.ns[a].shape[0]]
    if not targets:
        return None
    t = g.pick(targets)
    arr = fr.ns[t]
    idx = _stepping_index(g, arr.shape)
    if idx is None:
        return None
    try:
        sel = fr.eval(f"{t}[{idx}]")
    except Exception:  # noqa: BLE001 - NumPy rejects the index (two arrays that do not broadcast)
        return None
    form = g.pick(["store", "store", "aug", "read", "self"])
    if form == "read":
        b = g.name("b")
        lines = [Line(f"{b} = {t}[{idx}]")]
        if sel.size and g.chance(60):  # a copy: the write must not reach t
            lines.append(Line(f"{b}[{g.pick(['0', '-1', '...'])}] = {scalar(g, arr.dtype)}"))
        if arr.dtype.kind in "iuf" and g.chance(60):
            lines.append(Line(f"{t}[...] += {b}.sum()" if arr.dtype.kind != "u" else f"{t}[...] = {b}.max()"
                              if sel.size else f"{t}[...] += 1"))
        return lines, (b,)
    if form == "self":  # read through another stepping index of the same array: overlapping
        other = _stepping_index(g, arr.shape)
        if other is not None:
            return [Line(f"{t}[{idx}] = {t}[{other}]")], ()
    op = "=" if form != "aug" or arr.dtype.kind == "b" else g.pick(ops_for(arr.dtype)[:4])
    return [Line(f"{t}[{idx}] {op if op == '=' else op + '='} {value(g, fr, sel.shape, arr.dtype, op)}")], ()


FAMILIES = {"step_index": (step_index, 3)}
