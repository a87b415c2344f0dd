"""Expressions for generated statements: indices, literals, and values shaped for a target.

Every builder returns source text; whether NumPy accepts it is decided by running it (see
shadow.py), so these aim for "usually valid and often interesting", not "always valid".

Values avoid the documented gaps of docs/translation.md: Python operators only combine arrays
of one dtype (NumPy functions may mix them), divisors are non-zero literals, and float values
are small multiples of 1/4 so that arithmetic is exact in both libraries and comparisons with
thresholds cannot flip on a rounding difference.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np
from hypothesis import strategies as st

from .shadow import Frame

STEPS = [None, None, 1, 2, 3, -1, -2, -3]
FLOATS = ["0.5", "-1.5", "2.0", "0.25", "-2.0", "3.0", "1.0", "0.0"]
INTS = ["1", "2", "-1", "3", "0", "-3", "5"]


@dataclasses.dataclass
class Gen:
    """Choices, all drawn through hypothesis so a seed replays a program."""
    draw: Callable

    def __post_init__(self):
        self.counter = 0

    def pick(self, options):
        return self.draw(st.sampled_from(list(options)))

    def int(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))

    def chance(self, percent: int) -> bool:
        # hypothesis favours the smallest value (0): let that mean "no", the plain choice
        return self.draw(st.integers(0, 99)) >= 100 - percent

    def name(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter - 1}"


# -- literals -----------------------------------------------------------------------------
def scalar(g: Gen, dtype: np.dtype, op: str = "=") -> str:
    """A Python scalar for a store (`=` may cast) or an in-place op on `dtype`."""
    kind = dtype.kind
    if op in ("//", "%"):
        return g.pick(["2", "3"] if kind in "iu" else ["2.0", "0.5", "-4.0"])
    if op in ("<<", ">>"):
        return g.pick(["1", "2"])
    if op == "/":
        return g.pick(["2.0", "4.0", "-0.5"])
    if kind == "b" or op in ("&", "|", "^"):
        return g.pick(["True", "False"] if kind == "b" else INTS)
    if kind in "iu":
        return g.pick(INTS + (["2.5", "-1.5"] if op == "=" else []))
    return g.pick(FLOATS + (INTS[:3] if g.chance(20) else []))


def ops_for(dtype: np.dtype) -> list[str]:
    if dtype.kind == "b":
        return ["|", "&", "^", "+", "*"]
    if dtype.kind in "iu":
        return ["+", "-", "*", "+", "//", "%", "&", "|", "^", "<<", ">>"]
    return ["+", "-", "*", "+", "/", "-"]


# -- indices ------------------------------------------------------------------------------
def slice_text(g: Gen, d: int) -> str:
    bounds = [None, None] + list(range(-d - 2, d + 3))  # None first: the plain choice
    start, stop, step = g.pick(bounds), g.pick(bounds), g.pick(STEPS)
    text = f"{'' if start is None else start}:{'' if stop is None else stop}"
    return text + (f":{step}" if step is not None else "")


def basic_index(g: Gen, shape: tuple[int, ...], ints: list[str] = ()) -> str:
    """A basic index (ints, slices of any step and bounds, `...`, `None`) for `shape`."""
    if not shape:
        return g.pick(["...", "()", "...", "None"])
    count = g.int(1, len(shape))
    parts = []
    for d in shape[:count]:
        kind = g.pick(["slice", "slice", "int", ":"] + (["var"] if ints else []))
        if kind == "int" and d > 0:
            parts.append(str(g.int(-d, d - 1)))
        elif kind == "var":
            name = g.pick(ints)
            parts.append(loop_slice(g, name, d) if g.chance(50) else
                         g.pick([name, f"{name}:", f"-{name} - 1", f":{name}"]))
        elif kind == ":":
            parts.append(":")
        else:
            parts.append(slice_text(g, d))
    if g.chance(15):
        parts.insert(g.int(0, len(parts)), g.pick(["...", "None"]))
    return ", ".join(parts)


def loop_slice(g: Gen, name: str, d: int) -> str:
    """A slice that moves with the integer `name` (a loop variable, usually): a window of a
    static width (`k:k + 3`, `k - 1:k + 2`, wider than the axis, starting before 0 or past the
    end) or a varying width (`k + 1:`, `:k`, `-k - 1:`); rt/windows.py reads and stores them."""
    a, w = g.pick([0, 0, 1, -1, -2, d, -d - 1]), g.pick([1, 2, 3, d, d + 2, 0])
    start = name if a == 0 else f"{name} + {a}" if a > 0 else f"{name} - {-a}"
    return g.pick([f"{start}:{start} + {w}", f"{start}:", f":{start}", f"{start}:{d}",
                   f"{name} - 1:{name} + 2", f"-{name} - {w + 1}:"])


def int_list(g: Gen, d: int, size: int | None = None) -> list[int]:
    """Indices into an axis of length `d`, duplicates likely (empty when `d` is 0)."""
    size = g.pick([3, 1, 2, 4, 5, 0]) if size is None else size
    if d == 0:
        return []
    return [g.int(-d, d - 1) if g.chance(30) else g.int(0, min(d - 1, 2)) for _ in range(size)]


def fancy_index(g: Gen, shape: tuple[int, ...]) -> str | None:
    """An integer-array index with duplicates: one axis, two paired axes, or mixed with a slice."""
    if not shape:
        return None
    form = g.pick(["list", "array", "pair", "mixed"] if len(shape) >= 2 else ["list", "array"])
    if form == "pair":
        n = g.int(0, 4)
        return f"{int_list(g, shape[0], n)}, {int_list(g, shape[1], n)}"
    if form == "mixed":
        if g.chance(50):
            return f"{int_list(g, shape[0])}, {slice_text(g, shape[1])}"
        return f"{slice_text(g, shape[0])}, {int_list(g, shape[1])}"
    rows = int_list(g, shape[0])
    return f"np.array({rows}, dtype=np.int64)" if form == "array" else str(rows)


# -- values -------------------------------------------------------------------------------
def align(g: Gen, have: tuple[int, ...], want: tuple[int, ...]) -> str | None:
    """An index into an array of shape `have` whose result broadcasts to `want` (None: no luck)."""
    extra = len(have) - len(want)
    parts = []
    for d in have[:max(extra, 0)]:
        if d == 0:
            return None
        parts.append(str(g.int(0, d - 1)))
    for h, w in zip(have[max(extra, 0):], want[max(-extra, 0):]):
        if h == w and h > 0:
            parts.append(g.pick([":", ":", "::-1"]))
        elif w == 0:
            parts.append(":0")
        elif h > w:
            start = g.int(0, h - w)
            parts.append(f"{start}:{start + w}" if w > 1 or g.chance(50) else f"{start}:{start + 1}")
        elif h == 1:
            parts.append(":")
        elif h > 0:
            j = g.int(0, h - 1)
            parts.append(f"{j}:{j + 1}")
        else:
            return None
    return ", ".join(parts)


def operand(g: Gen, fr: Frame, shape: tuple[int, ...], dtype: np.dtype, op: str,
            same_dtype: bool = False) -> str:
    """A value that broadcasts to `shape`: a scalar, a slice of an array in scope, or arange."""
    arrays = [n for n in fr.arrays() if not same_dtype or fr.ns[n].dtype == dtype]
    choice = g.pick(["scalar", "array", "array", "array", "arange"] if arrays else ["scalar", "arange"])
    if choice == "array" and op not in ("<<", ">>"):  # `//`, `%`: divisors with zeros (NumPy: 0)
        name = g.pick(arrays)
        index = align(g, fr.ns[name].shape, shape)
        if index is not None:
            return f"{name}[{index}]" if index.strip(", :") else name
    if choice == "arange" and op in ("=", "+", "-", "*") and dtype.kind != "b":
        size = int(np.prod(shape))
        text = f"np.arange({size})" if len(shape) <= 1 else f"np.arange({size}).reshape({shape})"
        return text + (" * 0.5" if dtype.kind == "f" and g.chance(50) else "")
    if fr.floats() and dtype.kind == "f" and g.chance(30):
        return g.pick(fr.floats())
    return scalar(g, dtype, op)


def value(g: Gen, fr: Frame, shape: tuple[int, ...], dtype: np.dtype, op: str = "=") -> str:
    """A value expression for `target op= value`, sometimes combined with arithmetic."""
    first = operand(g, fr, shape, dtype, op)
    if op not in ("=", "+", "-", "*") or g.chance(55):
        return first
    form = g.pick(["scale", "neg", "fn", "pair", "cast"])
    if form == "cast" and dtype.kind in "iu":
        # floats cast to integers beyond their range: x86 NumPy wraps through int32 (300.7 as
        # uint8 is 44), where XLA's convert saturates
        floats = operand(g, fr, shape, np.dtype(np.float64), op, same_dtype=True)
        return f"({floats} * {g.pick(['100.5', '-3.7', '1e3'])}).astype(np.{dtype.name})"
    if form == "scale" and dtype.kind != "b":
        return f"{first} * {g.pick(['2', '0.5', '-1', '3'] if dtype.kind == 'f' else ['2', '-1', '3'])}"
    if form == "neg" and dtype.kind != "b" and not first.lstrip("-").replace(".", "").isdigit():
        return f"-{first}" if first.isidentifier() else f"-({first})"
    if form == "fn":
        fn = g.pick(["np.abs", "np.negative", "np.square"] + (["np.sign"] if dtype.kind == "f" else [])
                    if dtype.kind != "b" else ["np.logical_not"])
        return f"{fn}({first})"
    second = operand(g, fr, shape, dtype, op, same_dtype=True)
    if form == "pair" and dtype.kind in "iu" and not second.lstrip("-").isdigit() and g.chance(60):
        # integer division by arrays that hold zeros (NumPy: 0, where jax.numpy gives -1)
        d = g.pick([second, f"({second} % 3)"])  # `% 3`: zeros in about a third of the divisor
        return g.pick([f"{first} // {d}", f"{first} % {d}", f"np.floor_divide({first}, {d})",
                       f"divmod({first}, {d})[0]", f"np.remainder({first}, {d})"])
    if form == "pair" and dtype.kind == "f" and g.chance(25):
        # integer true division: float64 in NumPy (jax.numpy: float32 for ints below 64 bits)
        ints = operand(g, fr, shape, np.dtype(np.int32), op, same_dtype=True)
        if not ints.lstrip("-").isdigit():
            return f"{ints} / {g.pick(['255', '7', '-3'])}"
    if form == "pair" and dtype.kind == "f" and g.chance(30):
        # float floor division and remainder by literals: NumPy's signs of a zero result
        return f"{first} {g.pick(['//', '%'])} {g.pick(['2', '-2', '0.5', '3.0'])}"
    if form == "pair":
        ufunc = g.pick(["np.add", "np.multiply", "np.maximum", "np.minimum", "np.subtract"])
        if ufunc == "np.subtract" and dtype.kind == "b":
            ufunc = "np.maximum"
        return f"{ufunc}({first}, {second})"
    return first


def condition(g: Gen, fr: Frame, name: str) -> str:
    """A boolean array shaped like `name`: a comparison with a threshold, maybe combined."""
    arr = fr.ns[name]
    same = [n for n in fr.arrays() if fr.ns[n].shape == arr.shape and n != name]
    subject = g.pick([name, name] + same)
    if fr.ns[subject].dtype.kind == "b":
        cond = g.pick([subject, f"~{subject}"])
    else:
        cond = f"{subject} {g.pick(['>', '<', '>=', '!='])} {g.pick(['0', '1', '-1', '0.5'])}"
    if same and g.chance(20):
        other = g.pick(same)
        extra = other if fr.ns[other].dtype.kind == "b" else f"({other} > 0)"
        cond = f"({cond}) {g.pick(['&', '|'])} {extra}"
    return cond
