"""The fuzzer's whole_families.py (loop fission forced on, arrays rebound in loops, one buffer under
two names, float32 and integer arrays with float64 constants, integer wrap-around in loops, 0-d
arrays made in the function), idiom_families.py (`np.add.at` under a mask, comprehensions over a
range of a helper, None-only early returns) and the runner's fission check (np2ref/fuzz/fission.py); a program of
each family end to end (the long runs are the `np2ref fuzz --family NAME` command's: docs/fuzzing.md)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from fuzz_runs import family_tests
from np2ref.fuzz import fission
from np2ref.fuzz.program import Block, Line, Param, Program
from np2ref.fuzz.runner import Outcome, Runner
from np2ref.fuzz.whole_families import FISSION_MARK

FORMS = {"fission_loop": re.escape(FISSION_MARK), "swap_loop": r"^\s*for k\d+ in ", "alias_buf": r"\bb\d+ = A\b",
         "promote_mix": r"\b[FID]\b", "int_wrap": r"\bA\b", "made_0d": r"\bz\d+ = ",
         # idiom_families.py: `np.add.at` under a mask of data, `np.array([h(k) for k in range(n)])`,
         # helpers with None-only early returns
         "add_at_mask": r"\.at\((C|D|c\d+), I\[", "comp_range": r"np\.array\(\[h\d+\(.* for k\d+ in range\(",
         "none_return": r"^\s+return( None)?$"}


test_a_family_asked_for_is_in_its_programs_and_valid_numpy, test_short_family_runs_have_no_failures = \
    family_tests(FORMS)


def _tanh_loop(m: int) -> Program:
    body = (Line("acc = acc + np.tanh(X[i]) * 0.5"), Line("O[i] = acc"))
    loop = Block(f"for i in range(X.shape[0]):  {FISSION_MARK}", body, ("i = 0",))
    return Program((Param("X", f"np.linspace(-1.0, 2.0, {m})"), Param("O", f"np.zeros({m})")), (),
                   (Line("acc = 0.0"), loop), "acc")


@pytest.mark.parametrize("m, moved", [(24, "fission"), (1, "rolled")])  # (one trip: nothing to move)
def test_a_marked_loop_runs_with_fission_forced_on_and_says_whether_work_moved(m, moved, tmp_path):
    outcome = Runner(vmap=False, grad=False, workdir=str(tmp_path)).check(_tanh_loop(m).source())
    assert outcome.kind == "exact" and outcome.kernel == moved, outcome


def test_the_fission_check_fails_where_the_bits_differ(monkeypatch):
    """A stand-in that answers one bit off with fission on: a failure, not an exact program."""
    calls = []

    def run(module, on):
        calls.append(on)
        x = np.array([0.1, 0.2])
        return (np.nextafter(x, 1.0) if on else x), [x], 1
    monkeypatch.setattr(fission, "_run", run)
    outcome = fission.fission_bits(None, Outcome("exact"))
    assert calls == [True, False] and outcome.kind == "failed" and "not the same bits" in outcome.detail, outcome
