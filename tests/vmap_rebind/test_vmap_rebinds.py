"""A name that, after a loop on data, is the caller's array in some calls and a new array in
others (rt/rebinds.py: the rebinding linked per batch member, `sole=` of npr_while and
npr_for), against NumPy: the compiled call and jax.jit(.pure) on each member, jax.vmap(.pure)
over members that take either way in one batch, and jax.grad of .pure against central
differences. Before the link, `.pure` skipped the run-time check that refused a call whose loop
ran no trip, and gave the caller's array unwritten (tests/regressions/fuzz_40c22768c2.py): every
program marked "exact" below was a wrong answer under jax.vmap and jax.jit(.pure) on main, and
NPR011 in the compiled call. Where np2ref cannot follow the name, every way refuses (a code)."""

from __future__ import annotations

import numpy as np
import pytest

from rebind_harness import outcomes

f = np.array
EXACT = {"call": "exact", "pure": "exact", "vmap": "exact", "grad": "exact"}
# each program's members: one whose loop runs, one whose loop runs no trip
CASES = {
    "while_shrink": [(f([1.0, 2.0, 3.0]),), (f([-1.0, -2.0, 0.5]),)],
    "while_write_first": [(f([1.0, 4.0, 3.0]), 2.0), (f([1.0, 1.5, 0.5]), 2.0)],
    "while_view_write": [(f([4.0, 2.0, 1.0]),), (f([0.5, 2.0, 1.0]),)],
    "while_two_names": [(f([1.0, 2.0]), f([0.5, 0.25])), (f([-1.0, -2.0]), f([0.5, 0.25]))],
    "while_twice": [(f([3.0, 2.0, 1.0]),), (f([0.5, 0.5, 0.5]),), (f([1.0, 1.0, 2.5]),), (f([5.0, 0.0, -3.0]),)],
    "while_body_writes": [(f([2.0, 0.0, 0.0]),), (f([-1.0, 0.0, 0.0]),)],
    "range_from_data": [(f([1.0, 2.0]),), (f([-1.0, 2.0]),)],
    "range_from_data_write_first": [(f([1.0, 2.0]), f([2])), (f([1.0, 2.0]), f([0]))],
    "helper_while": [(f([1.0, 2.0, 3.0]),), (f([-1.0, -2.0, 0.5]),)],
    "local_in_for": [(f([1.0, 2.0]), np.zeros(3)), (f([0.25, 0.25]), np.zeros(3))],
    "while_break": [(f([1.0, 2.0]),), (f([-1.0, -2.0]),), (f([0.5, 3.0]),)],
}
# np2ref cannot follow these names; each way refuses (or, `.pure`, follows where it can)
REFUSED = {
    # returned: NumPy returns the caller's own array or a new one, by the data (the compiled
    # call refuses the call whose loop ran no trip; `.pure` returns values, which agree)
    "while_returned": ([(f([1.0, 2.0, 3.0]),), (f([-1.0, -2.0, 0.5]),)], {**EXACT, "call": "NPR011"}),
    "while_alias_before": ([(f([1.0, 2.0, 3.0]),), (f([-1.0, -2.0, 0.5]),)],  # `b = a` sees the caller's
                           {**EXACT, "call": "NPR011", "pure": "NPR011", "vmap": "NPR011"}),
    "while_two_params": ([(f([4.0, 2.0]), f([1.0, 1.0])), (f([1.0, 0.5]), f([1.0, 1.0]))],  # `a += b`: a may be a number
                         {**EXACT, "call": "NPR011", "pure": "NPR011", "vmap": "NPR011"}),
    "helper_while_returned": ([(f([1.0, 2.0, 3.0]),), (f([-1.0, -2.0, 0.5]),)],  # the helper returns it
                              {**EXACT, "call": "NPR011", "pure": "NPR011", "vmap": "NPR011"}),
    # a lax loop's trips refill the Ref the first (peeled) trip bound: the name may be the
    # caller's array for some trips and not later (grad: the loop runs as Python, linked)
    "nested_in_for": ([(f([30.0, 2.0]),), (f([1.0, 2.5]),)],
                      {**EXACT, "call": "NPR011", "pure": "NPR011", "vmap": "NPR011"}),
    # a rebinding under an `if` on data (NPR030: a traced `if` kept Python's)
    "break_on_data": ([(f([1.0, 0.5]),), (f([-1.0, -2.0]),)], {**EXACT, "call": "NPR030", "pure": "NPR030", "vmap": "NPR030"}),
    "continue_on_data": ([(f([1.0, 2.0, 3.0]),), (f([-1.0, 2.0, -3.0]),)],
                         {**EXACT, "call": "NPR030", "pure": "NPR030", "vmap": "NPR030"}),
    "if_reverse": ([(f([1.0, 2.0, 3.0]),), (f([-1.0, 2.0, 3.0]),)], {**EXACT, "call": "NPR030", "pure": "NPR030", "vmap": "NPR030"}),
    "if_rebind_copy": ([(f([1.0, 2.0]), f([3.0, 4.0])), (f([-1.0, -2.0]), f([3.0, 4.0]))],
                       {**EXACT, "call": "NPR030", "pure": "NPR030", "vmap": "NPR030"}),
    "if_choose": ([(f([1.0, 2.0]), f([3.0, 4.0])), (f([-1.0, -2.0]), f([3.0, 4.0]))],
                  {**EXACT, "call": "NPR128", "pure": "NPR128", "vmap": "NPR128"}),
    "helper_maybe_copy": ([(f([1.0, 2.0]),), (f([-1.0, -2.0]),)], dict.fromkeys(EXACT, "NPR203")),
    "helper_same_array_twice": ([(f([1.0, 2.0, 3.0]),), (f([-1.0, -2.0, 0.5]),)], dict.fromkeys(EXACT, "NPR201")),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_name_the_data_leaves_the_callers_array_is_numpys_every_way(name):
    assert outcomes(name, CASES[name]) == EXACT


def test_the_fuzzers_int8_program_is_numpys_every_way():
    members = [(f([[1, -5, -2, -2], [127, -1, 6, 2], [6, -2, 3, -1], [5, 9, 0, 7]], np.int8),),
               (f([[1, -5, -2, -2], [-120, -1, 6, 2], [6, -2, 3, -1], [5, 9, 0, 7]], np.int8),)]
    assert outcomes("while_where", members, floats=False) == {"call": "exact", "pure": "exact", "vmap": "exact"}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_name_np2ref_cannot_follow_is_refused_never_wrong(name):
    members, expected = REFUSED[name]
    assert outcomes(name, members) == expected
