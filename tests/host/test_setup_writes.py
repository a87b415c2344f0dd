"""Module-level set-up that writes an array before the module's first `def` (`WALLS =
np.zeros(...); WALLS[1, 1:4] = True`, `SUB = np.full(...); np.fill_diagonal(SUB, 2)`) made every
function reading it host code (NPR021: "reads module-level `WALLS`, which the module changes after
defining it"), so a grid world's step and an alignment's fill stayed NumPy. No function of the
module exists before its `def` runs: none is called before the last such write, and the value a
compiled function keeps from its first call is the final one. A write after the first `def`
still counts (the driver may call a compiled function between the writes).
A module array handed at module level to a module function that writes nothing and returns no
view of it (`beta = beta_for(CONTACT, R0)`) stays a constant as well (host_code.argument_readers).
Found by tests/third_party/scripts11/qlearning_gridworld.py, align_nw_sw_int16.py and
seir_age_structured.py. A name rebound where no function defined so far reads it (`LIGHT =
LIGHT / norm`) is a constant too (scripts13a/heightfield_raymarch.py). Compared
against NumPy: results, their types, the arguments after the call."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import assert_returns_as_numpy

WALLS = np.zeros((4, 5), dtype=bool)
WALLS[1, 1:4] = True
WALLS[3, 2] = True
SUB = np.full((4, 4), -1, dtype=np.int16)
np.fill_diagonal(SUB, 2)
TABLE = np.zeros(6)
np.add.at(TABLE, [0, 2, 2, 5], 1.5)


def blocked_count(cells):
    n = 0
    for k in range(cells.shape[0]):
        if WALLS[cells[k, 0], cells[k, 1]]:
            n += 1
    return n


def score(a, b, out):
    for i in range(a.shape[0]):
        out[i] = SUB[a[i], b[i]] + TABLE[i % 6]
    return out.sum()


def norm_of(a):
    return np.sqrt(np.sum(a * a)) + float(np.max(np.abs(np.linalg.eigvals(np.diag(a)))))


WEIGHTS = np.array([3.0, 4.0, 1.0])
NORM = norm_of(WEIGHTS)  # handed to a function that only reads it: WEIGHTS stays a constant


def weighted(x, out):
    out[:] = x * WEIGHTS / NORM
    return out


LIGHT = np.array([0.6, 0.5, 0.62])
LIGHT = LIGHT / np.linalg.norm(LIGHT)  # rebound where no function defined so far reads it
GAIN = 3.0
GAIN *= 0.5
if GAIN > 1.0:
    GAIN = GAIN - 1.0


def lit(normals, out):
    out[:] = GAIN * np.clip(normals @ LIGHT, 0.0, 1.0)
    return out


@pytest.mark.parametrize("fn, args", [
    (weighted, lambda: (np.array([1.0, -2.0, 0.5]), np.zeros(3))),
    (lit, lambda: (np.array([[0.0, 0.0, 1.0], [1.0, -2.0, 0.5], [-1.0, 0.0, 0.0]]), np.zeros(3))),
    (blocked_count, lambda: (np.array([[1, 1], [1, 4], [3, 2], [0, 0], [1, 3]]),)),
    (score, lambda: (np.array([0, 1, 2, 3, 1]), np.array([0, 2, 2, 1, 1]), np.zeros(5))),
])
def test_a_function_reading_set_up_written_before_the_first_def_translates(fn, args):
    assert_returns_as_numpy(fn, args)


DRIVER = '''import numpy as np
SETUP = np.zeros(3)
SETUP[0] = 2.0
def total():
    return SETUP.sum() + LATE.sum()
LATE = np.zeros(3)
for t in range(3):
    LATE[t] = t
    print(total())
'''


def test_a_write_after_the_first_def_still_changes_the_name():
    result = np2ref.convert_source(DRIVER, "driver.py")
    assert result.ok
    assert "total" in result.host and "reads module-level `LATE`" in result.host["total"]
    assert "`SETUP`" not in result.host["total"]


HANDED = '''import numpy as np
def reader(a):
    return a.sum() * 2.0
def writer(a):
    a[0] = 1.0
def viewer(a):
    return a[1:]
def uses():
    return A.sum() + B.sum() + C.sum()
A = np.zeros(3)
B = np.zeros(3)
C = np.zeros(3)
s = reader(A)
writer(B)
v = viewer(C)
v[0] = 5.0
print(uses())
'''


def test_a_name_handed_to_a_function_that_may_write_it_still_changes():
    """`reader(A)` leaves A a constant; `writer(B)` writes B, `viewer(C)` returns a view of C
    the module writes: both stay changing state, and uses() stays NumPy code."""
    result = np2ref.convert_source(HANDED, "handed.py")
    assert result.ok and "uses" in result.host
    assert "`B`" in result.host["uses"] or "`C`" in result.host["uses"]
    assert "`A`" not in result.host["uses"]


def test_a_rebinding_no_function_defined_so_far_reads_does_not_count():
    """`LIGHT = np.array(...); LIGHT = LIGHT / np.linalg.norm(LIGHT)` before any `def` made every
    function reading LIGHT host code (NPR021, tests/third_party/scripts13a/heightfield_raymarch.py);
    so did a rebinding after `def`s that do not read it (LIGHT and GAIN above, after
    blocked_count and score). A rebinding that a def existing then reads, one in a module-level
    loop (a def in its body exists on the next trip), a loop's target, a def bound again where a
    def calls it, and a library or None (`try: import ... as plt`) still count."""
    from np2ref.analysis.module_state import changing_globals
    from np2ref.analysis.names import ImportMap
    import libcst as cst
    module = cst.parse_module("import numpy as np\nA = np.ones(2)\nA = A / 2.0\nB = 1.0\nB += 1.0\nC = 0.0\n"
                              "for k in range(2):\n    C = C + k\n    def g():\n        return k\n"
                              "D = 1.0\nE = 1.0\ndef f():\n    return A + B + C + D\nD = 2.0\nE = 3.0\n"
                              "def h():\n    return E\ndef caller():\n    return h()\ndef h():\n    return 0\n"
                              "try:\n    import json as P\nexcept ImportError:\n    P = None\n")
    changing = changing_globals(module, ImportMap(module), setup=True)
    assert {"A", "B", "E"}.isdisjoint(changing) and {"C", "D", "k", "g", "h", "P"} <= changing
    assert {"A", "B", "E"} <= changing_globals(module, ImportMap(module))


def test_the_driver_lifts_keep_every_module_level_write():
    """The lifting of module-level loops (frontend/driver.py) still counts set-up writes."""
    from np2ref.analysis.module_state import changing_globals
    from np2ref.analysis.names import ImportMap
    import libcst as cst
    module = cst.parse_module("import numpy as np\nu = np.zeros(3)\nu[0] = 1.0\nnp.fill_diagonal(u, 2)\n"
                              "def f():\n    return u\n")
    imports = ImportMap(module)
    assert "u" in changing_globals(module, imports)
    assert "u" not in changing_globals(module, imports, setup=True)


INTERLEAVED = '''import numpy as np
def make(n):
    return np.zeros(n, dtype=bool)
PIN = make(5)
PIN[:2] = True
PIN[-1] = True
def clamp(f):
    f[PIN] = 0.0
    return f
def early():
    return EARLY.sum()
EARLY = np.zeros(3)
EARLY[0] = 1.0
def calls_late():
    return late()
LATE = np.zeros(2)
LATE[1] = 3.0
def late():
    return LATE.sum()
print(clamp(np.arange(5.0)), early(), calls_late())
'''


def test_a_set_up_write_after_a_def_no_function_so_far_reads_does_not_count(tmp_path):
    """`PIN = make(5); PIN[:2] = True` after `def make` (a spring network's pinned ring made after
    its lattice helper, tests/third_party/scripts12/fire_spring_network.py): the write came after
    the first `def`, so `clamp` stayed NumPy code (NPR021). No function defined before the
    write reads PIN (directly or through the functions it calls), and no later one exists yet:
    the first call of `clamp` sees the final value. `early` (defined before EARLY is written) and
    `calls_late` (defined before LATE is written, calling `late`, which reads it) stay host code."""
    import contextlib
    import io
    import runpy

    result = np2ref.convert_source(INTERLEAVED, "interleaved.py")
    assert result.ok and "clamp" not in result.host
    assert "early" in result.host and "calls_late" in result.host
    src, dst = tmp_path / "interleaved.py", tmp_path / "interleaved_ref.py"
    src.write_text(INTERLEAVED)
    dst.write_text(result.code)
    printed = []
    for path in (src, dst):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            runpy.run_path(str(path), run_name="__main__")
        printed.append(out.getvalue())
    assert printed[0] == printed[1]


def test_a_set_up_write_in_a_module_loop_with_a_def_after_it_still_counts():
    """In a module-level loop a `def` later in the body exists when the next trip writes: the
    write counts as one every function may see."""
    from np2ref.analysis.module_state import changing_globals
    from np2ref.analysis.names import ImportMap
    import libcst as cst
    module = cst.parse_module("import numpy as np\ndef make(n):\n    return np.zeros(n)\nX = make(3)\nY = make(2)\n"
                              "for t in range(2):\n    X[t] = 1.0\n    def total():\n        return X.sum()\n"
                              "Y[0] = 1.0\ndef late():\n    return Y.sum()\n")
    changing = changing_globals(module, ImportMap(module), setup=True)
    assert "X" in changing and "Y" not in changing
