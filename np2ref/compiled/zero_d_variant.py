"""np2ref.compile's second program of a function, for calls given a 0-d argument where its kind
shows in a result: `z.copy()`, `z.astype(t)` of a 0-d NumPy array z (NumPy's 0-d array; of a
NumPy scalar, a scalar), `np.zeros_like(s)`, `np.where(s > 0, s, 0.0)` of any 0-d value
(NumPy's 0-d array always).

The readable program leaves a parameter's copy, astype, `*_like` and np.where unnoted: they are
ordinary arrays in all but such calls, and noting them would wrap ordinary code. The conversion
records which parameters such calls read (rules/zero_d.py params0_recorded); a call given a 0-d
value for one of them (rt/jit.py _npr_params0, on the general path, where the jit cache's key is
made) traces this variant instead: the same function converted with those parameters taken as
possibly 0-d, with np2ref.compile's options (loops=, sums=, the closure's names). It is made on
the first such call; its refusals are placed on the user's lines as the main program's are, and
explain() reads its Pallas notes (compile.py).
"""

from __future__ import annotations

import builtins
import linecache
import types

from ..pipeline import convert_source
from ..rewrite.pallas_loops import pallas_loops
from ..rewrite.rules.zero_d import params0_recorded
from ..rewrite.sum_reorder import sums_mode


class ZeroDVariant:
    """What NprFunction.variant0 holds (rt/jit.py): `params0`, {parameter: "array" | "any"} (the
    0-d arguments that take the variant: a 0-d NumPy array only, or any 0-d value), and make()."""

    def __init__(self, text: str, filename: str, name: str, known: frozenset, modes: tuple, namespace: dict,
                 params: dict):
        self.params0 = dict(params)
        self._text, self._filename, self._name, self._known, self._modes = text, filename, name, known, modes
        self._namespace = namespace
        self.conversion = None  # the variant's ConversionResult, once made
        self.exec_name = f"<np2ref 0-d: {filename}>"

    def make(self):
        """The variant of the function, its globals the namespace np2ref.compile's entry reads
        (its helpers, module values as they move). A refusal of the variant is raised as is."""
        loops, sums = self._modes
        with pallas_loops(loops), sums_mode(sums), params0_recorded(variant=True):
            result = convert_source(self._text, self._filename, only={self._name}, seeds=True, known=self._known)
        result.raise_for_errors()
        source = result.exec_source
        linecache.cache[self.exec_name] = (len(source), None, source.splitlines(True), self.exec_name)
        self._namespace.setdefault("__npr_sources__", {})[self.exec_name] = source  # (rt/promotion.py)
        scratch = dict(self._namespace)  # (the module's other functions stay the main program's entries)
        exec(builtins.compile(source, self.exec_name, "exec"), scratch)  # noqa: S102 (defs only)
        self.conversion = result
        made = scratch[self._name]
        return types.FunctionType(made.__code__, self._namespace, made.__name__, made.__defaults__, made.__closure__)



def programs(entry, conversion, exec_name: str) -> list:
    """[(conversion, exec name)] of the programs np2ref.compile's `entry` traces: its own, then
    its 0-d variant's once made (where refusals are placed from, and Pallas notes read)."""
    variant = entry.variant0
    made = variant is not None and variant.conversion is not None
    return [(conversion, exec_name), *([(variant.conversion, variant.exec_name)] if made else [])]
