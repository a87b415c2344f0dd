"""A host function's loop whose target is read after it (`for step in range(n): ... break`, then
`print(step)`), where nothing before the loop binds it: main left the loop NumPy (the lifted
function might return it unbound: no trip). Now it is lifted (frontend/host_loops._unset): the
target bound to 0 in the lifted function, unbound again after the call where `len(range(...))` is
0, so a read raises NumPy's UnboundLocalError. Against NumPy through convert and np2ref.compile."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from converting import agree, convert_both
from exactly import run_both

SOURCE = """
import time
import numpy as np


def relax(u, nsteps, tol):
    t0 = time.perf_counter()
    for step in range(nsteps):
        change = 0.25 * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        u[1:-1] += change
        if np.abs(change).max() < tol:
            break
    print(f"{step + 1} steps, {time.perf_counter() - t0 >= 0.0}")
    return u


def guarded(u, n, shift):
    try:
        scale = 1.0 / shift
    except ZeroDivisionError:
        scale = 0.0
    for it in range(1, n + 1):
        u[1:] += scale * u[:-1]
        if u.max() > 1e6:
            break
    return u, it


def bound_before(u, n):
    try:
        scale = 0.5 / n
    except ZeroDivisionError:
        scale = 0.5
    if n > 2:
        it = -1
    for it in range(n):
        u *= scale
    return u, it


def printed_before(u, n):
    print("start")
    if n > 2:
        it = -1
    for it in range(n):
        u *= 0.5
    return u, it
"""


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    return convert_both(SOURCE, tmp_path_factory.mktemp("target_after"), "target_after")


def test_the_loop_is_lifted_its_target_returned(both):
    converted, original, lifted = both
    assert "step = _relax_loop_" in converted.code and "del step" in converted.code
    assert "it = _guarded_loop_" in converted.code
    u = np.zeros(10)
    u[-1] = 1.0
    assert agree(original, lifted, "relax", u, 8, 1e-12) == "8 steps, True\n"
    agree(original, lifted, "relax", u, 500, 1e-3)  # it stops early
    agree(original, lifted, "relax", np.zeros(10), 8, 1e-12)  # the first trip breaks
    agree(original, lifted, "guarded", np.linspace(1.0, 2.0, 6), 40, 2.0)
    agree(original, lifted, "guarded", np.linspace(1.0, 2.0, 6), 3, 0.0)


def test_no_trip_raises_numpys_unbound_local_error(both):
    _, original, lifted = both
    agree(original, lifted, "relax", np.ones(5), 0, 1e-12)  # (the same type and message)
    agree(original, lifted, "guarded", np.ones(5), 0, 2.0)


def test_a_target_bound_before_on_some_path_keeps_the_loop_numpy(both):
    converted, original, lifted = both
    assert "_bound_before_loop_" not in converted.code
    for n in (0, 2, 4):
        agree(original, lifted, "bound_before", np.ones(3), n)


def test_compile_of_the_function_with_a_try(both):
    _, original, _ = both
    compiled = np2ref.compile(original.guarded, host_below=0, bitwise=True)
    assert compiled.compiled_loops
    run_both(original.guarded, np.linspace(1.0, 2.0, 6), 40, 2.0, compiled=compiled)
    with pytest.raises(UnboundLocalError) as want:
        original.guarded(np.ones(3), 0, 2.0)
    with pytest.raises(UnboundLocalError) as got:
        compiled(np.ones(3), 0, 2.0)
    assert str(got.value) == str(want.value)


def test_a_print_before_the_unbound_read_of_a_compiled_function(both):
    """NumPy prints 'start', then raises UnboundLocalError; the compiled call raised it while tracing,
    before its program (and the print) ran: now the print, which holds no value of the program's, is
    made by the NumPy-facing call on that error, as the draws before it are (rt/bounds.py)."""
    _, original, lifted = both
    agree(original, lifted, "printed_before", np.ones(3), 0)


def _print_then_index(x, k):
    print("before", k)
    x[0] += 1.0
    return x[k + 5]


def test_a_print_before_an_index_error_known_when_traced(capsys):
    """The same for NumPy's IndexError of an index known when traced (k static): 'before 2' printed,
    then the error; the argument stays as it was (docs/semantics.md, "State after the error")."""
    with pytest.raises(IndexError) as want:
        _print_then_index(np.ones(3), 2)
    printed = capsys.readouterr().out
    x = np.ones(3)
    with pytest.raises(IndexError) as got:
        np2ref.compile(_print_then_index, host_below=0, static_argnames=("k",))(x, 2)
    assert capsys.readouterr().out == printed == "before 2\n"
    assert str(got.value) == str(want.value)
    np.testing.assert_array_equal(x, np.ones(3))
