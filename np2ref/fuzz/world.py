"""What the feature families' programs find around `f`: the modules and objects they name, rendered
into the program's module where its text uses them, and bound in the shadow's namespace.

    Probe        a class whose object `f` is handed (`obj = Probe(3)`): methods np2ref cannot see
                 into (rt/opaque.py: ordered host calls), with a generator and a call counter as
                 state the runner compares after the call
    npr_fuzzlib  a sibling module of higher-order helpers (`from npr_fuzzlib import apply_n`,
                 frontend/imported.py), written beside the program by the runner
    itertools, scipy.special (as `scipy.special` or `special`), jax.numpy (set-up code handing
                 `f` jax.Arrays)
"""

from __future__ import annotations

import itertools
import random
import re
import sys
from pathlib import Path

import numpy as np

PROBE_SOURCE = '''class Probe:
    """An object f is handed: its methods are calls np2ref cannot see into."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.calls = 0

    def noise(self, n):
        self.calls += 1
        return np.round(self.rng.standard_normal(n) * 4.0) / 4.0

    def level(self):
        self.calls += 1
        return float(self.rng.integers(0, 8)) / 4.0

    def scale(self, x):
        self.calls += 1
        return x * (0.5 + self.calls)

    def count(self):
        self.calls += 1
        return self.calls'''

LIB_NAME = "npr_fuzzlib"
LIB_SOURCE = '''"""Higher-order helpers a fuzzed program imports (np2ref fuzz, world.py)."""

import numpy as np


def apply_n(body, n, state):
    for _ in range(n):
        state = body(state)
    return state


def do_while(cond, n, body, state):
    i = 0
    while i < n and cond(state):
        state = body(state)
        i += 1
    return state


def each_row(fn, x):
    for i in range(x.shape[0]):
        fn(x[i])
    return x
'''
LIB_FUNCTIONS = ("apply_n", "do_while", "each_row")

_lib: dict = {"np": np}
exec(compile(LIB_SOURCE, f"<{LIB_NAME}>", "exec"), _lib)
_probe: dict = {"np": np}
exec(compile(PROBE_SOURCE, "<np2ref fuzz>", "exec"), _probe)
Probe = _probe["Probe"]


def write_lib(folder: Path) -> None:
    """The sibling module, beside the programs, importable by them."""
    path = folder / f"{LIB_NAME}.py"
    if not path.exists():
        path.write_text(LIB_SOURCE)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


def namespace() -> dict:
    """The names a program's module may bind, for the shadow's runs."""
    import scipy.special
    import jax.numpy as jnp

    lib = type(sys)(LIB_NAME)
    lib.__dict__.update({k: _lib[k] for k in LIB_FUNCTIONS})
    ns = {"itertools": itertools, "random": random.Random(0),  # (its own state: hypothesis warns of the module's)
          "scipy": sys.modules["scipy"], "special": scipy.special, "jnp": jnp,
          "Probe": Probe, LIB_NAME: lib}
    ns.update({k: _lib[k] for k in LIB_FUNCTIONS})
    return ns


def imports(text: str, params_text: str) -> list[str]:
    """Import lines for what the program's text uses (f's body and helpers; `make_args` for jnp)."""
    lines = []
    if re.search(r"\bitertools\.", text):
        lines.append("import itertools")
    if re.search(r"(?<![.\w])random\.", text):  # Python's own (habit_families.py_draws), not np.random
        lines.append("import random")
    if re.search(r"\bjnp\.", text + params_text):
        lines.append("import jax.numpy as jnp")
    if re.search(r"\bscipy\.special\.", text):
        lines.append("import scipy.special")
    if re.search(r"(?<![.\w])special\.", text):
        lines.append("from scipy import special")
    if re.search(rf"\b{LIB_NAME}\.", text):
        lines.append(f"import {LIB_NAME}")
    used = [fn for fn in LIB_FUNCTIONS if re.search(rf"(?<![.\w]){fn}\(", text)]
    if used:
        lines.append(f"from {LIB_NAME} import {', '.join(used)}")
    return lines


def module_parts(text: str, params_text: str) -> list[str]:
    """Module-level definitions the program needs (the Probe class)."""
    return ["", PROBE_SOURCE, ""] if "Probe(" in params_text else []


def same_object_state(name: str, expected, got) -> str | None:
    """A Probe argument: its call count and generator state as NumPy's run left them (the class is
    the program module's own, made from PROBE_SOURCE: known by its name)."""
    if type(expected).__name__ != "Probe":
        return None
    if type(got).__name__ != "Probe" or expected.calls != got.calls:
        return f"argument `{name}`: {getattr(got, 'calls', None)} calls of its methods, NumPy's run made {expected.calls}"
    if expected.rng.bit_generator.state != got.rng.bit_generator.state:
        return f"argument `{name}`: its generator's state differs from NumPy's after the call"
    return None
