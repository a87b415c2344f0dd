"""The fuzzer's seq_families.py and script_families.py (last session's features: Pallas kernels of
element loop nests, element reads after a store in one trip, covariance-style row and column
fills, trmm products, history lists of a host time loop, helpers sized from Python floats, 0-d
array arguments) and the runner's `loops="pallas"` marker; a program of each family end to end
(two under `-m long`; the long runs are the `np2ref fuzz --family NAME` command's: docs/fuzzing.md)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz_runs import family_forms, short_run
from np2ref.fuzz import edges
from np2ref.fuzz.exprs import Gen
from np2ref.fuzz.program import Block, Line, Param, Program
from np2ref.fuzz.runner import PALLAS_MARK, Runner
from np2ref.fuzz.shadow import evaluate

FORMS = {"pallas_nest": re.escape(PALLAS_MARK), "elem_reread": r"\bQ\[", "tri_fill": r"S\[.*, i\d+\] = S\[i\d+, ",
         "trmm_loop": r"B\[i\d+, j\d+\] \+=", "host_history": r"hist\d+\.append\(", "float_sized": r"= h\d+\(U, ",
         "zero_d_arg": r"\bZ\b"}


@pytest.mark.parametrize("family", sorted(FORMS))
def test_a_family_asked_for_is_in_its_programs_and_valid_numpy(family, tmp_path):
    found = family_forms(family, FORMS[family], tmp_path)  # (IndexError: the index probe, or pallas_nest's tail)
    assert any(found), f"{family}: {found}"


@pytest.mark.parametrize("family", sorted(FORMS))
@pytest.mark.parametrize("count", [1, pytest.param(2, marks=pytest.mark.long)])  # one a family by default
def test_short_family_runs_have_no_failures(family, count, tmp_path, capsys):
    short_run(family, count, 3, tmp_path, capsys)


def test_the_marked_nest_is_compiled_with_pallas_loops(tmp_path):
    nest = Block(f"for i in range(1, m):  {PALLAS_MARK}", (Line("Q[i] = Q[i - 1] * 0.5 + Q[i]"),))
    program = Program((Param("Q", "np.array([1.0, -0.0, 2.0, 0.5])"),), (), (Line("m = Q.shape[0]"), nest), "Q.sum()")
    outcome = Runner(vmap=True, grad=False, workdir=str(tmp_path)).check(program.source())  # vmap's trace: the lax loop
    assert outcome.kind == "exact" and outcome.kernel == "kernel", outcome


@settings(max_examples=5, deadline=None, database=None, derandomize=True)
@given(st.data())
def test_edge_literals_are_numpy_arrays_of_their_shape_and_dtype(data):
    g = Gen(data.draw)
    for dtype, shape in (("np.float64", (2, 3)), ("np.float32", (4,)), ("np.uint8", (3, 1)), ("np.bool_", (2,))):
        value = evaluate(edges.literal(g, dtype, shape, special=50), {"np": np})
        assert value.shape == shape and value.dtype == np.dtype(dtype[3:].replace("bool_", "bool"))
    assert edges.literal(g, "np.int8", (0, 3)) == "np.zeros((0, 3), dtype=np.int8)"


def test_host_code_that_raises_index_error_is_checked_through_convert(tmp_path):
    """f reads the clock (NPR021: convert's route) and indexes out of range: the converted f must
    raise NumPy's IndexError (the runner named an unbound `expected` here, ending the run)."""
    program = Program((Param("Q", "np.array([1.0, 2.0])"),), (),
                      (Line("t = time.perf_counter()"), Line("Q[5] = 1.0")), None)
    outcome = Runner(vmap=False, grad=False, workdir=str(tmp_path)).check(program.source())
    assert outcome.kind == "exact", outcome


def test_a_result_holding_text_is_not_vmapped(tmp_path):
    """`return (Z, type(Z).__name__)`: a str is no JAX type to batch (fuzz_72daed2154, the checker's)."""
    program = Program((Param("Z", "np.array(1.75, dtype=np.float32)"),), (), (), "(Z, type(Z).__name__)")
    outcome = Runner(vmap=True, grad=False, workdir=str(tmp_path)).check(program.source())
    assert outcome.kind == "exact", outcome


def test_a_call_handed_to_the_original_may_leave_numpys_writes_before_an_index_error(tmp_path):
    """A 0-d argument asked its text: np2ref.compile runs the original (NPR041's route), whose
    writes before NumPy's IndexError stay, as in NumPy (fuzz_84c521616d, the checker's)."""
    program = Program((Param("b", "np.arange(4.0)"), Param("Z", "np.array(-0.5)"), Param("i", "np.int64(7)")), (),
                      (Line("Z[...] += 1.0"), Line("print(str(Z))"), Line("b[i] = b[0]")), None)
    outcome = Runner(vmap=False, grad=False, workdir=str(tmp_path)).check(program.source())
    assert outcome.kind == "exact", outcome
