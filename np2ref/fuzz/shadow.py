"""Generated code run under NumPy, strictly, while it is being generated.

The generator keeps a live NumPy namespace (the "shadow") for the scope it is writing: every
proposed statement runs there first, and one that raises is dropped. So shapes, dtypes and
aliasing come from NumPy itself rather than from a model of it, and every program is valid
NumPy for its arguments by construction. Floating-point warnings and other warnings raise
(`strict()`): a program that overflows a float or casts NaN to an integer has no meaningful
result to compare.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from typing import Callable, Iterator

import numpy as np

from .program import Stmt, render


@contextlib.contextmanager
def strict() -> Iterator[None]:
    """NumPy with every floating-point warning and every Python warning raised."""
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def run(body: list[Stmt] | tuple[Stmt, ...], ns: dict) -> None:
    """Execute statements in `ns` (at module level: `f`'s locals become its globals)."""
    if body:
        with strict(), contextlib.redirect_stdout(io.StringIO()):  # what the program prints is the runner's
            exec(compile("\n".join(render(tuple(body))), "<np2ref fuzz>", "exec"), ns)


def evaluate(expr: str, ns: dict):
    with strict(), contextlib.redirect_stdout(io.StringIO()):
        return eval(compile(expr, "<np2ref fuzz>", "eval"), ns)


class Frame:
    """One scope being generated (f's body, a loop body, a helper's body): the statements so
    far and a live namespace in which they have run. `reset()` rebuilds the namespace as it was
    before the first statement of this scope."""

    def __init__(self, reset: Callable[[], dict], names: list[str], depth: int = 0,
                 in_helper: bool = False, shared: dict | None = None):
        self._reset = reset
        self.shared = {} if shared is None else shared  # helpers defined so far, for every scope
        self.body: list[Stmt] = []
        self.names = list(names)      # names this scope may use (arrays are checked in `ns`)
        self.depth = depth            # loop nesting
        self.in_helper = in_helper
        self.ns = reset()

    def fresh(self) -> dict:
        """A new namespace holding this scope's state now (a replay, not a copy: views stay views).
        A replay that raises, where the statements ran when they were added (a draw from NumPy's
        global generator that a later check on the data reads: raise_families.py), rejects the
        program being drawn: hypothesis draws another."""
        ns = self._reset()
        try:
            run(self.body, ns)
        except Exception:  # noqa: BLE001
            from hypothesis import reject
            reject()
        return ns

    def add(self, stmts: list[Stmt], defines: tuple[str, ...] = ()) -> bool:
        """Run `stmts` on the live namespace; keep them if NumPy accepts them."""
        self.ns.update(self.shared)
        try:
            run(stmts, self.ns)
        except Exception:  # noqa: BLE001 - any error means "not a valid statement here"
            self.ns = self.fresh()
            return False
        self.body += stmts
        self.names += [n for n in defines if n not in self.names]
        return True

    def eval(self, expr: str):
        """The value of a side-effect-free expression (an index, a view) in the live namespace."""
        return evaluate(expr, self.ns)

    def arrays(self) -> list[str]:
        return [n for n in self.names if _is_array(self.ns.get(n))]

    def ints(self) -> list[str]:
        return [n for n in self.names if type(self.ns.get(n)) is int]

    def floats(self) -> list[str]:
        return [n for n in self.names if type(self.ns.get(n)) is float]


def _is_array(value) -> bool:
    return isinstance(value, np.ndarray)
