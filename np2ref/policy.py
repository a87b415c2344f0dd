"""The dtype policy, defined once: what `np2ref.compile(dtype_policy=...)`, `[tool.np2ref]
dtype_policy` in pyproject.toml and `np2ref convert` mean by it.

    "preserve"  NumPy's types: 64-bit floats and ints stay 64-bit (jax x64), the default
    "float32"   64-bit types narrowed to 32-bit (no x64): faster on accelerators, not NumPy's digits

A value is checked when it is made (`DtypePolicy.of`) and then passed on as it is: np2ref.compile
hands it to the runtime's entry point, `convert` to the emitter, which writes it into each
`@npr_jit(...)` of the converted file (emit/module.py). The runtime (rt/jit.py, npr_jit) checks
the name again at its own boundary only because it ships without np2ref (`--standalone`).
"""

from __future__ import annotations

import dataclasses

NAMES = ("preserve", "float32")
DEFAULT = "preserve"
SUMS = ("exact", "reorder")  # sums=: a loop's `R[P] += value` in NumPy's order, or reordered (rewrite/sum_reorder.py)


@dataclasses.dataclass(frozen=True)
class DtypePolicy:
    name: str = DEFAULT

    def __post_init__(self):
        if self.name not in NAMES:
            raise ValueError(f"dtype_policy must be 'preserve' or 'float32', not {self.name!r}")

    @classmethod
    def of(cls, value: DtypePolicy | str) -> DtypePolicy:
        return value if isinstance(value, cls) else cls(value)

    @property
    def entry_options(self) -> dict[str, str]:
        """The keywords an `@npr_jit` of a converted file is given: none for the runtime's default."""
        return {} if self.name == DEFAULT else {"dtype_policy": self.name}

    @property
    def rtol(self) -> float | None:
        """The relative tolerance of a comparison with NumPy (verify): float32's digits, or None
        (the comparison's own, for NumPy's types)."""
        return 1e-4 if self.name == "float32" else None

    def __str__(self) -> str:
        return self.name
