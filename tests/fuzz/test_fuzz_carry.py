"""The fuzzer's carry_families.py: `out=` into windows that move with the loop variable and views of
them written (out_window), recurrences through an array carried by the loop (recur_loop). Each
family asked for is in its programs, which NumPy runs, a program of each runs end to end without
failure, and a recur_loop program's loop is one np2ref carries (the long runs are `np2ref fuzz
--family NAME`: docs/fuzzing.md)."""

from __future__ import annotations

from fuzz_runs import family_tests

FORMS = {"out_window": r"out=[ABC]\[[^\]]*i\d+|= A\[[^\]]*i\d+[^\]]*\]\n",
         "recur_loop": r"\b(Y|F)\[i\d+( \+ \d)?\] [-+]?= .*\b(Y|F)\[i\d+ [-+] \d\]"}


test_a_family_asked_for_is_in_its_programs_and_valid_numpy, test_short_family_runs_have_no_failures = \
    family_tests(FORMS)


def test_recur_loop_programs_have_loops_np2ref_carries(tmp_path):
    """Of recur_loop's first programs, some loop carries what earlier trips stored (rt/recur.py):
    the family reaches the translation it is for, not only Python loops and kept reads."""
    import numpy as np
    from hypothesis import HealthCheck, Phase, given, settings

    import np2ref
    from conftest import load_module
    from np2ref import fuzz
    from np2ref.fuzz import world
    world.write_lib(tmp_path)
    carried = []

    @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), database=None,
              derandomize=True, phases=[Phase.generate])
    @given(fuzz.programs(3, "recur_loop"))
    def check(program):
        module = load_module(program.source(), tmp_path, f"recur_{len(carried)}")
        try:
            compiled = np2ref.compile(module.f, host_below=0)
            with np.errstate(all="ignore"):
                compiled(*module.make_args())
        except np2ref.Np2RefError:
            carried.append(False)
            return
        carried.append("a lax loop carrying" in (compiled.explain() or ""))
    check()
    assert any(carried), carried
