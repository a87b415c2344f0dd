"""A helper that builds Python sets of array values (`set(roots[:n][top].tolist())`, a
percolation script's spanning test) stays NumPy host code, as a printing one does (NPR021 note),
so `np2ref convert` translates the rest of the file; before, `set()` was NPR003 "a class or
object of this module" and the whole file was refused. A builtin np2ref does not translate
(`next()`) is refused by that name, not as the module's class."""

import numpy as np

import np2ref

SOURCE = '''
import numpy as np


def spans(occupied, roots):
    n = occupied.shape[0]
    top = set(roots[:n][occupied[0]].tolist())
    bottom = set(roots[-n:][occupied[-1]].tolist())
    return len(top & bottom) > 0


def relabel(roots, shift):
    roots += shift
    return roots.max()


def advance(u):
    it = iter(range(3))
    u += next(it)
    return u
'''


def _run(code):
    namespace = {}
    exec(compile(code, "<converted>", "exec"), namespace)
    return namespace


def test_a_helper_building_sets_stays_numpy_and_the_rest_converts():
    result = np2ref.convert_source(SOURCE.replace("    it = iter(range(3))\n    u += next(it)\n", "    u += 1\n"))
    assert result.ok and "spans" in result.host
    ours, theirs = _run(result.code), _run(SOURCE)
    occupied = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]], dtype=bool)
    for shift in (0, 5):
        r0, r1 = np.array([0, 1, 2, 0, 0, 5, 6, 0, 0]), np.array([0, 1, 2, 0, 0, 5, 6, 0, 0])
        assert ours["relabel"](r1, shift) == theirs["relabel"](r0, shift) and np.array_equal(r0, r1)
        assert ours["spans"](occupied, r1) == theirs["spans"](occupied, r0)


def test_an_untranslated_builtin_is_named_as_a_builtin():
    result = np2ref.convert_source(SOURCE)
    refused = [d for d in result.diagnostics if d.code == "NPR003"]
    assert [d.message for d in refused] == ["call to the builtin `iter()`, which np2ref does not translate",
                                            "call to the builtin `next()`, which np2ref does not translate"]
