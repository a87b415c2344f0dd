"""The fuzzer's habit_families.py (guarded appends, a list of Python numbers read item by item,
draws NumPy returns as Python numbers) and identity_families.py (parameters returned through
helpers, Python numbers passed and returned, pooling windows and strided elements in element
loops): each family asked for is in its programs, which NumPy runs, and a program of each runs
end to end without failure (the long runs are `np2ref fuzz --family NAME`: docs/fuzzing.md)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, Phase, given, settings

from fuzz_runs import family_tests
from np2ref import fuzz
from np2ref.fuzz import world

FORMS = {"guarded_append": r"^\s+if .*:\n\s+snaps\d+\.append\(", "items_list": r"\bks\[k\d+\]|in enumerate\(ks\)",
         "py_draws": r"\b(rng\.\w+|np\.random\.\w+|random\.random)\(", "helper_identity": r"^def h\d+\(p\):\n\s+return h\d+\(p\)"
         r"|\b(U|V|r\d+) = h\d+\(", "py_passthrough": r"\bdt\b", "pool_window": r"\[(\d \* )?i( [-+] \d)?:"
         r"|X\[\d \* i"}


test_a_family_asked_for_is_in_its_programs_and_valid_numpy, test_short_family_runs_have_no_failures = \
    family_tests(FORMS)


def test_pool_window_programs_may_end_reading_past_the_end(tmp_path):
    """About one program of three asking for pool_window ends in a loop NumPy raises IndexError on."""
    world.write_lib(tmp_path)
    raised = []

    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None,
              derandomize=True, phases=[Phase.generate])
    @given(fuzz.programs(3, "pool_window"))
    def check(program):
        ns: dict = {}
        source = program.source()
        exec(compile(source, "<fuzz>", "exec"), ns)
        try:
            ns["f"](*ns["make_args"]())
        except IndexError as exc:  # (the tail's read, not an index probe's `[i]`)
            if "out of bounds for axis 0" in str(exc) and re.search(r"X\[\d \* i \+ \d+\]", source):
                raised.append(str(exc))
    check()
    assert raised
