"""Several appends to one list a trip (two a trip, or an inner loop's appends: set-up loops such as
corpus/nbody_pair_loop.py's lattice of `pts.append(...)` over three nested loops): a Python loop on
main (NPR033, traced once per trip). Now npr_for stacks c items a trip into a buffer of (trips, c)
rows, which the list takes in order (rt/appends.py); values of two types in one trip keep the Python
loop."""

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import np2ref

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "script_breaks"))
from exactly import run_both  # noqa: E402


def lattice(base, cells, a, w):
    pts = []
    for ix in range(cells):
        w *= 0.5
        for iy in range(cells):
            for iz in range(cells):
                pts.append((base + np.array([ix, iy, iz])) * a + w[0])
    return np.concatenate(pts, axis=0)


def pairs(x, n):
    out = []
    for i in range(n):
        x[i] += 1.0
        out.append(x[i] * 2.0)
        out.append(x[i] + 1.0)
    return out


def two_types(x, n):
    out = []
    for i in range(n):
        x[i] += 1.0
        out.append(x[i] * 2.0)
        out.append(float(x[i] + 1))
    return out


def stencil_rows(x, n):
    rows, vals = [], []
    for i in range(n):
        x[i] *= 3.0
        for d in (-1, 1):
            rows.append(i)
            vals.append(x[i] * d)
    return np.array(rows), np.array(vals), len(rows)


CASES = {
    "lattice": (lattice, lambda: (np.array([[0.0, 0.0, 0.0], [0.5, 0.5, 0.0]]), 3, 1.6, np.ones(2))),
    "pairs": (pairs, lambda: (np.linspace(-1.0, 1.0, 5), 5)),
    "stencil_rows": (stencil_rows, lambda: (np.linspace(-1.0, 1.0, 5), 5)),
}


def _python_loops(fn, args):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        np2ref.compile(fn, host_below=0)(*args)
    return [w for w in seen if issubclass(w.category, np2ref.PythonLoopWarning)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_several_appends_a_trip_are_stacked(name):
    fn, make = CASES[name]
    run_both(fn, *make())
    assert not _python_loops(fn, make())


def test_two_types_in_one_trip_keep_the_python_loop():
    run_both(two_types, np.linspace(-1.0, 1.0, 5), 5)
    assert _python_loops(two_types, (np.linspace(-1.0, 1.0, 5), 5))


def test_the_corpus_lattice_is_stacked():
    result = np2ref.convert_file(str(Path(__file__).resolve().parents[2] / "corpus" / "nbody_pair_loop.py"))
    assert not [d for d in result.diagnostics if d.code == "NPR033"]


def dict_histories(u, nsteps):
    hist = {"mean": [], "max": []}
    for step in range(nsteps):
        u[1:-1] = 0.5 * (u[:-2] + u[2:])
        hist["mean"].append(float(u.mean()))
        hist["max"].append(u.max())
    print("last", hist["mean"][-1], len(hist["max"]))
    return u, hist


def test_a_dict_of_histories_is_stacked():
    """`hist["mean"].append(v)` with `hist = {"mean": [], "max": []}`: each key's list stacked."""
    args = (np.linspace(0.0, 1.0, 12) ** 2, 8)
    run_both(dict_histories, *args)
    assert not _python_loops(dict_histories, args)
