"""Generated inputs: hypothesis strategies shaped like the example's arguments.

Each parameter gets an `ArgSpec` from its example value:
- float (and complex) arrays and Python floats are varied within the example's range, widened a
  little and never across zero when the example keeps one sign (masses, step sizes and
  densities stay positive);
- integer arrays stay within [min, max] of the example's values (the simplest honest rule for
  index arrays: every index the example uses is valid) and often hold duplicates, which is where
  buffered and unbuffered updates differ;
- boolean arrays (masks) are varied freely;
- Python ints, bools, strings, None and tuples are kept: they are static, and often size arrays.

An array is drawn either by hypothesis element by element (structured values that shrink to
simple ones) or densely from a seeded NumPy generator (hypothesis cannot draw thousands of
independent elements); a case is one dict of argument values per batch member.
"""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np

try:
    from hypothesis import strategies as st
    from hypothesis.extra import numpy as hnp
except ImportError:  # pragma: no cover - hypothesis is a test/verify dependency
    st = hnp = None

FLOAT, COMPLEX, INT, BOOL, SCALAR, KEPT = "float", "complex", "int", "bool", "scalar", "kept"


@dataclasses.dataclass(frozen=True)
class ArgSpec:
    """How one parameter is generated: `kind`, the example's shape and dtype, a value range."""
    name: str
    kind: str
    example: object
    shape: tuple = ()
    dtype: np.dtype | None = None
    low: float = 0.0
    high: float = 0.0

    @property
    def is_array(self) -> bool:
        return self.kind in (FLOAT, COMPLEX, INT, BOOL)

    @property
    def is_float_array(self) -> bool:
        return self.kind == FLOAT

    @property
    def differentiable(self) -> bool:
        return self.kind in (FLOAT, SCALAR)


def specs_from_example(signature: inspect.Signature, args: tuple, kwargs: dict):
    """(the example's arguments by name in parameter order, one ArgSpec per argument)."""
    bound = signature.bind(*args, **kwargs)
    arguments = dict(bound.arguments)
    specs = []
    for name, value in arguments.items():
        kind = signature.parameters[name].kind
        if kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            specs.append(ArgSpec(name, KEPT, value))
        else:
            specs.append(spec_of(name, value))
    return arguments, specs


def spec_of(name: str, value) -> ArgSpec:
    if isinstance(value, np.ndarray):
        dtype = value.dtype
        if dtype.kind == "f":
            return ArgSpec(name, FLOAT, value, value.shape, dtype, *_float_range(value))
        if dtype.kind == "c":
            both = np.concatenate([value.real.ravel(), value.imag.ravel()])
            return ArgSpec(name, COMPLEX, value, value.shape, dtype, *_float_range(both))
        if dtype.kind in "iu":
            low, high = (int(value.min()), int(value.max())) if value.size else (0, 0)
            return ArgSpec(name, INT, value, value.shape, dtype, low, high)
        if dtype.kind == "b":
            return ArgSpec(name, BOOL, value, value.shape, dtype)
        return ArgSpec(name, KEPT, value)
    if isinstance(value, float) and np.isfinite(value):  # np.float64 is a float too
        return ArgSpec(name, SCALAR, value, (), None, *_float_range(np.array([value])))
    return ArgSpec(name, KEPT, value)


def _float_range(values: np.ndarray) -> tuple[float, float]:
    """The example's finite range widened by a quarter of its span (a quarter of the value for a
    constant, [-1, 1] for zeros), without crossing zero when the example keeps one sign."""
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return -1.0, 1.0
    lo, hi = float(finite.min()), float(finite.max())
    pad = 0.25 * (hi - lo) if hi > lo else 0.25 * max(abs(lo), abs(hi))
    if pad == 0.0:
        return -1.0, 1.0
    new_lo, new_hi = lo - pad, hi + pad
    if lo >= 0.0:
        new_lo = max(new_lo, lo / 2 if lo > 0.0 else 0.0)
    if hi <= 0.0:
        new_hi = min(new_hi, hi / 2 if hi < 0.0 else 0.0)
    return new_lo, new_hi


# -- strategies -------------------------------------------------------------------------------

def cases(specs: list[ArgSpec], members: int = 1, batched: tuple[str, ...] = (),
          vary_shapes: bool = False):
    """A strategy of cases: a list of `members` argument dicts sharing shapes; members after the
    first differ from it only in the `batched` arguments."""

    @st.composite
    def draw_case(draw):
        lengths = draw(_length_map(specs)) if vary_shapes else {}
        first = {s.name: draw(value_strategy(s, lengths)) for s in specs}
        out = [first]
        by_name = {s.name: s for s in specs}
        for _ in range(members - 1):
            member = dict(first)
            member.update({n: draw(value_strategy(by_name[n], lengths)) for n in batched})
            out.append(member)
        return out

    return draw_case()


def _length_map(specs: list[ArgSpec]):
    """Each distinct dimension length of the example moved by -1, 0 or +1: either all by the
    same step (keeps `n` and `n + 1` related) or each length on its own."""
    lengths = sorted({n for s in specs if s.is_array for n in s.shape})
    if not lengths:
        return st.just({})
    step = st.sampled_from([0, -1, 1])
    same = step.map(lambda d: {n: max(1, n + d) for n in lengths})
    each = st.tuples(*[step for _ in lengths]).map(
        lambda ds: {n: max(1, n + d) for n, d in zip(lengths, ds)})
    return st.one_of(same, each)


def value_strategy(spec: ArgSpec, lengths: dict):
    if spec.kind == KEPT:
        return st.just(spec.example)
    if spec.kind == SCALAR:
        cast = type(spec.example)
        return st.floats(spec.low, spec.high, allow_nan=False, allow_infinity=False,
                         allow_subnormal=False).map(cast)
    shape = tuple(lengths.get(n, n) for n in spec.shape)
    structured = _structured_array(spec, shape)
    dense = st.integers(0, 2**32 - 1).map(lambda seed: _dense_array(spec, shape, seed))
    strategy = st.one_of(structured, dense)
    if spec.kind == INT and int(np.prod(shape)) >= 2:
        return _with_duplicate(strategy, int(np.prod(shape)))
    return strategy


def _elements(spec: ArgSpec):
    if spec.kind == BOOL:
        return st.booleans()
    if spec.kind == INT:
        return st.integers(int(spec.low), int(spec.high))
    width = min(64, spec.dtype.itemsize * 8 // (2 if spec.kind == COMPLEX else 1))
    lo, hi = _representable(spec.low, spec.high, width)
    # no subnormals: XLA flushes them to zero on CPU and GPU, NumPy keeps them
    real = st.floats(lo, hi, allow_nan=False, allow_infinity=False, allow_subnormal=False, width=width)
    if spec.kind == COMPLEX:
        return st.builds(complex, real, real)
    return real


def _representable(lo: float, hi: float, width: int) -> tuple[float, float]:
    """The range narrowed to values the float width can hold exactly (hypothesis insists)."""
    t = {16: np.float16, 32: np.float32, 64: np.float64}[width]
    a, b = t(lo), t(hi)
    if float(a) < lo:
        a = np.nextafter(a, t(np.inf))
    if float(b) > hi:
        b = np.nextafter(b, t(-np.inf))
    return float(a), float(b)


def _structured_array(spec: ArgSpec, shape: tuple):
    return hnp.arrays(spec.dtype, shape, elements=_elements(spec))


def _dense_array(spec: ArgSpec, shape: tuple, seed: int) -> np.ndarray:
    """Every element independent, from a NumPy generator seeded by hypothesis."""
    rng = np.random.default_rng(seed)
    if spec.kind == BOOL:
        return rng.random(shape) < rng.uniform(0.05, 0.95)
    if spec.kind == INT:
        # (uint64 values past int64's range, a hash or a generator's state: drawn as uint64)
        wide = np.uint64 if int(spec.high) > np.iinfo(np.int64).max else np.int64
        return rng.integers(int(spec.low), int(spec.high), size=shape, endpoint=True, dtype=wide).astype(spec.dtype)
    values = rng.uniform(spec.low, spec.high, size=shape)
    if spec.kind == COMPLEX:
        values = values + 1j * rng.uniform(spec.low, spec.high, size=shape)
    return values.astype(spec.dtype)


def _with_duplicate(strategy, size: int):
    """Often copy one element onto another, so index arrays repeat an index."""

    @st.composite
    def draw(draw_):
        array = draw_(strategy)
        if draw_(st.booleans()):
            i = draw_(st.integers(0, size - 1))
            j = draw_(st.integers(0, size - 2))
            j += j >= i
            array = array.copy()
            array.flat[j] = array.flat[i]
        return array

    return draw()


# -- printing ---------------------------------------------------------------------------------

def format_case(case: dict, indent: str = "    ") -> str:
    """The arguments as Python assignments (arrays printed whole up to 200 elements)."""
    lines = []
    with np.printoptions(threshold=200, edgeitems=4, linewidth=96):
        for name, value in case.items():
            text = repr(value)
            if isinstance(value, np.ndarray):
                text = "np." + text
            text = text.replace("\n", "\n" + indent + " " * (len(name) + 3))
            lines.append(f"{indent}{name} = {text}")
    return "\n".join(lines)
