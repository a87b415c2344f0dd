"""`[tool.np2ref]` in pyproject.toml, found by walking up from the path a command is given.

    [tool.np2ref]
    include = ["src", "tools/solver.py"]   # what `np2ref check` / `convert` read when given no path
    exclude = ["legacy", "*_ref.py"]       # globs skipped when walking folders (as --exclude)
    dtype_policy = "preserve"              # or "float32": @npr_jit in converted files, verify
    trace_budget = 50000                   # or "none": equations a first call may trace (NPR037)
    sums = "exact"                         # or "reorder": `convert` sums accumulation loops reordered
    select = ["NPR0", "NPR1", "NPR2"]      # codes (or prefixes) `check` reports
    ignore = ["NPR021"]                    # codes (or prefixes) `check` does not report

The first pyproject.toml upwards that has a `[tool.np2ref]` table is used (as ruff does); a
pyproject.toml without the table is passed over. Paths in `include` are relative to it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from . import policy as _policy
from .policy import DtypePolicy

KEYS = ("include", "exclude", "dtype_policy", "select", "ignore", "trace_budget", "sums")


class ConfigError(Exception):
    """A pyproject.toml that cannot be read or has a bad `[tool.np2ref]` entry (exit 2)."""


@dataclasses.dataclass(frozen=True)
class Config:
    path: Path | None = None            # the pyproject.toml, None when none was found
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    dtype_policy: DtypePolicy = DtypePolicy()  # the emitter writes it into each @npr_jit
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    trace_budget: int | None | str = "default"  # "default": the runtime's (rt/budget.py)
    sums: str = "exact"  # "reorder": accumulation loops summed reordered (docs/semantics.md, "Reordered sums")

    @property
    def root(self) -> Path | None:
        return self.path.parent if self.path else None

    def reports(self, code: str) -> bool:
        """Whether `check` shows a diagnostic of this code (select/ignore by code or prefix)."""
        if self.select and not any(code.startswith(p) for p in self.select):
            return False
        return not any(code.startswith(p) for p in self.ignore)

    @property
    def entry_options(self) -> dict:
        """The keywords each `@npr_jit` of a converted file is given beyond the dtype policy's:
        the configured `trace_budget=` (rt/budget.py), none for the runtime's default."""
        return {} if self.trace_budget == "default" else {"trace_budget": self.trace_budget}

    def include_paths(self) -> list[str]:
        return [str(self.root / p) for p in self.include] if self.root else []


def find(start: str | Path | None = None) -> Config:
    """The config for a path (a file or a folder; the working folder when None)."""
    here = Path(start or ".").resolve()
    if not here.is_dir():
        here = here.parent
    for folder in [here, *here.parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            table = _table(candidate)
            if table is not None:
                return _config(candidate, table)
    return Config()


def _table(path: Path) -> dict | None:
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    table = data.get("tool", {}).get("np2ref")
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.np2ref] must be a table")
    return table


def _config(path: Path, table: dict) -> Config:
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise ConfigError(f"{path}: unknown [tool.np2ref] key {', '.join(unknown)} (known: {', '.join(KEYS)})")
    values = {}
    for key in ("include", "exclude", "select", "ignore"):
        value = table.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{path}: [tool.np2ref] {key} must be a list of strings")
        values[key] = tuple(value)
    policy = table.get("dtype_policy", _policy.DEFAULT)
    try:
        policy = DtypePolicy.of(policy)
    except ValueError:
        raise ConfigError(f"{path}: [tool.np2ref] dtype_policy must be one of {', '.join(_policy.NAMES)}, "
                          f"not {policy!r}") from None
    sums = table.get("sums", "exact")
    if sums not in _policy.SUMS:
        raise ConfigError(f"{path}: [tool.np2ref] sums must be one of {', '.join(_policy.SUMS)}, not {sums!r}")
    return Config(path, dtype_policy=policy, trace_budget=_trace_budget(path, table), sums=sums, **values)


def _trace_budget(path, table) -> int | None | str:
    """`trace_budget`: a count of equations, or "none" (no limit); "default" when absent."""
    value = table.get("trace_budget", "default")
    if isinstance(value, str) and value.lower() in ("none", "off"):
        return None
    if value == "default" or type(value) is int and value >= 0:
        return value
    raise ConfigError(f"{path}: [tool.np2ref] trace_budget must be a count of equations or \"none\", not {value!r}")
