"""The fuzzer's edge_families.py and int_families.py (fuzz11): data on cell edges under chains of
constants and a decision (fold_edges), XLA's identities on special values (xla_identities), signed
integers that wrap (wrapping_ints), flat indexing and union-find (flat_and_links). Each family
asked for is in its programs, which NumPy runs, and a program of each runs end to end without
failure (the long runs are `np2ref fuzz --family NAME`: docs/fuzzing.md)."""

from __future__ import annotations

from fuzz_runs import family_tests, numpy_runs

FORMS = {"fold_edges": r"^\s+(cells\[.*\] = |r\d+ = |w\[y\d+ |for j\d+ ).*\by\d+\b",
         "xla_identities": r'with np\.errstate\(all="ignore"\):.*\n\s+(u\d+ = |v\[\.\.\.\] = )',
         "wrapping_ints": r"^\s+(d\d+ = |q\[\.\.\.\] = ).*\br\d+\b",
         "flat_and_links": r"\.flat\[|\.ravel\(\)\[|while parent\[|parent\[\w+\] = "}


test_a_family_asked_for_is_in_its_programs_and_valid_numpy, test_short_family_runs_have_no_failures = \
    family_tests(FORMS)


def test_fold_edges_data_sit_on_cell_edges(tmp_path):
    """The grid's values are k * h (and one ulp either side), not the quarters of the other
    families: a constant chained onto them lands on an integer, where a second rounding decides."""
    sources = [program.source() for program, _ in numpy_runs("fold_edges", tmp_path, 6)]
    assert all("x = " in s and "np.arange(" in s for s in sources)
    assert any("nextafter" in s for s in sources) or len(sources) < 6


def test_wrapping_ints_data_wrap(tmp_path):
    """The integers are ones whose products wrap (46341 * 46341 in int32, 182 * 182 in int16)."""
    import numpy as np
    wrapped = 0
    for program, _ in numpy_runs("wrapping_ints", tmp_path, 6):
        ns: dict = {}
        exec(compile(program.source(), "<fuzz>", "exec"), ns)
        ia = ns["make_args"]()[list(ns["f"].__code__.co_varnames).index("ia")]
        with np.errstate(all="ignore"):
            wide = ia.astype(object) * ia.astype(object)
        wrapped += any(int(w) != int(v) for w, v in zip(wide, ia * ia))
    assert wrapped >= 2, wrapped


def test_flat_and_links_parents_are_forests(tmp_path):
    """`parent[i] <= i` everywhere: every walk to a root ends (the programs terminate under NumPy)."""
    for program, error in numpy_runs("flat_and_links", tmp_path, 6):
        assert error is None or isinstance(error, IndexError), error
        assert "parent" in program.source()


def test_a_fence_that_fails_is_a_failure_not_a_warning(tmp_path, monkeypatch):
    """The runner makes np2ref's fallback (a program run unfenced, with a RuntimeWarning) an error:
    a bug of np2ref's fence (fuzz11's Literal in a dict key) is a failure of the run."""
    from np2ref.fuzz.runner import Runner
    from np2ref.rt import divisions

    def broken(*args, **kwargs):
        raise TypeError("unhashable type: 'Literal'")
    monkeypatch.delenv("NP2REF_STRICT_REWRITES", raising=False)
    runner = Runner(vmap=False, grad=False, workdir=str(tmp_path))
    monkeypatch.setattr(divisions, "_npr_fence_jaxpr", broken)
    source = ("import numpy as np\n\n\ndef f(x):\n    return x * 2.0\n\n\n"
              "def make_args():\n    return (np.arange(0, 30) / 10.0, )\n")
    outcome = runner.check(source)
    assert outcome.kind == "failed", outcome.describe()
