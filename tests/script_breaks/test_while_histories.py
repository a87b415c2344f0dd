"""A history appended in a `while` loop whose trip count is data (an adaptive step recording (t, y)
each accepted step, a solver recording its residuals): refused on main (NPR034: how many items the
list ends with is known only at run time). Now each list's appends are written into a buffer of K
rows that hands full chunks to the host (rt/histories.py), and the list, or np.array of it, is made
there in NumPy's types: one compiled program whatever the trip count."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import np2ref
from np2ref.rt import histories
from exactly import run_both


def _script(name):
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "graph_break_scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


integrate = _script("own_ode_history").integrate  # records (t, y) each accepted step


def halve(x, tol):
    sizes = [float(np.abs(x).max())]
    while np.abs(x).max() > tol:
        x *= 0.5
        sizes.append(np.abs(x).max())
    return x, sizes


def halve_second(x, tol):
    sizes = []
    while np.abs(x).max() > tol:
        x *= 0.5
        sizes.append(np.abs(x).max())
    return x, sizes[-2]


@pytest.mark.parametrize("t_end", [0.0, 2.0])
def test_adaptive_steps_record_times_and_states(t_end):
    run_both(integrate, np.array([1.0, 0.0]), t_end, 1e-4, 0.1)


def test_residuals_with_an_item_before_the_loop():
    run_both(halve, np.linspace(-3.0, 5.0, 7), 1e-3)


def test_chunks_handed_to_the_host(monkeypatch):
    """Six rows a chunk: a loop of 40-odd appends hands over seven chunks, then the rest; twice."""
    monkeypatch.setattr(histories, "NPR_HISTORY_ROWS", 6)
    compiled = np2ref.compile(halve, host_below=0, bitwise=True)
    for tol in (1e-12, 1e-9):
        run_both(halve, np.linspace(-3.0, 5.0, 7), tol, compiled=compiled)


def test_chunks_of_arrays(monkeypatch):
    monkeypatch.setattr(histories, "NPR_HISTORY_ROWS", 4)
    printed = run_both(integrate, np.array([1.0, 0.0]), 6.0, 1e-4, 0.1)
    assert int(printed.split()[0]) > 8


def test_a_list_read_otherwise_is_still_refused():
    with pytest.raises(np2ref.Np2RefError) as info:
        np2ref.compile(halve_second, host_below=0)(np.linspace(-3.0, 5.0, 7), 1e-3)
    assert "NPR034" in str(info.value) or getattr(info.value, "code", "") == "NPR034"


def test_convert_notes_the_history():
    import inspect
    result = np2ref.convert_source("import numpy as np\n\n" + inspect.getsource(halve), "h.py")
    assert "npr_append(sizes, " in result.code and "appends=(sizes,)" in result.code


def last_size(x, tol):
    sizes = []
    while np.abs(x).max() > tol:
        x *= 0.5
        sizes.append(np.abs(x).max())
    print("last", repr(float(sizes[-1])), len(sizes))
    return x


def test_the_last_item_read_after_the_loop():
    run_both(last_size, np.linspace(-3.0, 5.0, 7), 1e-3)


def test_the_last_item_after_a_chunk_was_handed_over(monkeypatch):
    monkeypatch.setattr(histories, "NPR_HISTORY_ROWS", 4)
    run_both(last_size, np.linspace(-3.0, 5.0, 7), 0.6)  # 4 appends: the chunk's last row


def test_the_last_item_of_an_empty_list_raises_numpys_index_error():
    compiled = np2ref.compile(last_size, host_below=0)
    with pytest.raises(IndexError, match="list index out of range"):
        last_size(np.linspace(-3.0, 5.0, 7), 10.0)
    with pytest.raises(IndexError, match="list index out of range"):
        compiled(np.linspace(-3.0, 5.0, 7), 10.0)


def draws_history(rng, x):
    hist = []
    while rng.random() < 0.9:
        x *= 1.01
        hist.append(float(x.sum()))
    return x, hist


def test_a_test_with_draws_hands_chunks_over_from_the_trip(monkeypatch):
    """A test that draws is evaluated once a trip, as NumPy's (no second evaluation per chunk):
    the full buffer goes to the host from inside the trip that fills it."""
    monkeypatch.setattr(histories, "NPR_HISTORY_ROWS", 4)
    run_both(draws_history, np.random.default_rng(3), np.ones(3))


def thirds(x, tol):
    rows = []
    while np.abs(x).max() > tol:
        x *= 0.5
        rows.append((np.abs(x).max() / 3.0, (x > 1e-2).sum() * 2**40 + 3))
    return x, rows


@pytest.mark.parametrize("n", [7, 200_000])
def test_64_bit_rows_cross_to_the_host_whole(n, monkeypatch):
    """A program big enough for XLA to run on a thread of its own (a TPU runs every program so):
    JAX converted the chunks' float64 rows to float32 there (that thread's x64 setting: 0.0125 came
    back 0.012500000186264515) and would have int64 to int32. They cross as words (host_words.py)."""
    monkeypatch.setattr(histories, "NPR_HISTORY_ROWS", 4)
    run_both(thirds, np.linspace(-3.0, 5.0, n), 1e-3)


def two_histories(x, tol):
    sizes, smallest = [], [np.abs(x).min()]
    while np.abs(x).max() > tol:
        x *= 0.5
        sizes.append(np.abs(x).max())
        smallest.append(np.abs(x).min() / 3.0)
    return x, sizes, smallest


def two_histories_one_read(x, tol):
    sizes, smallest = [], [np.abs(x).min()]
    while np.abs(x).max() > tol:
        x *= 0.5
        sizes.append(np.abs(x).max())
        smallest.append(np.abs(x).min() / 3.0)
    return x, sizes, smallest[1]


def test_lists_made_in_one_assignment(monkeypatch):
    """`sizes, smallest = [], [...]`: NPR034 on main (only `x = [...]` was seen as the list's making)."""
    monkeypatch.setattr(histories, "NPR_HISTORY_ROWS", 4)
    run_both(two_histories, np.linspace(-3.0, 5.0, 7), 1e-3)
    with pytest.raises(np2ref.Np2RefError, match="NPR034"):
        np2ref.compile(two_histories_one_read, host_below=0)(np.linspace(-3.0, 5.0, 7), 1e-3)


LIST_USES = '''
def f(x, tol):
    sizes = []
    kept = []
    while x > tol:
        x = x * 0.5
        sizes.append(x)
        kept.append(x)
    count = len(sizes)
    print(kept[-1], np.array(kept))
    return x, sizes, inner(kept)
'''


@pytest.mark.parametrize("escape", ["", "    g = lambda: sizes\n", "    def g():\n        return kept\n"])
def test_one_list_use_visitor_for_while_histories_and_for_appends(escape):
    """rules/loop_appends.ListUses, the base of both visitors: a name passed on (`inner(kept)`) is a
    use neither allows; a nested function or lambda (not lifted here) could take any list: none."""
    import libcst as cst
    from np2ref.rewrite.rules import loop_appends, while_histories

    def parsed(loop_head):
        function = cst.parse_module(LIST_USES.replace("    count = ", escape + "    count = ")
                                    .replace("while x > tol:", loop_head)).body[0]
        return function, next(s for s in function.body.body if isinstance(s, (cst.While, cst.For)))

    function, loop = parsed("while x > tol:")
    finder = while_histories._Uses(loop, frozenset({"sizes", "kept"}))
    function.body.visit(finder)
    assert finder.kept(dict.fromkeys(finder.appended)) == (() if escape else ("sizes",))
    function, loop = parsed("for i in range(3):")
    assert loop_appends.lazy_lists(function, loop, ("sizes", "kept")) == (() if escape else ("sizes",))
