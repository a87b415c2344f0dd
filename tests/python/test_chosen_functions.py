"""A module function chosen in a compiled function (`limiter = maxmin if flag else minmod`, an
`if`, a tuple looped over) and passed on to a helper that calls its parameter: np2ref.compile
converts every module function the compiled code names as a value, not only those passed
directly as arguments, so the helper's call through the parameter runs its translation
(NPR021 before: "passed in as an argument, which np2ref cannot see into")."""

import functools

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

INPUT = np.array([0.0, 1.0, 3.0, 2.0, 2.5, -1.0, 0.5, 4.0])


@functools.cache
def compiled(name):
    return np2ref.compile(getattr(program("chosen_functions"), name), host_below=0)


@pytest.mark.parametrize("name, args", [
    ("by_ifexp", (True,)), ("by_ifexp", (False,)), ("by_if", (True,)), ("by_if", (False,)),
    ("by_tuple", ()),
])
def test_a_chosen_module_function_runs_its_translation(name, args):
    assert_same_as_numpy(getattr(program("chosen_functions"), name), compiled(name), INPUT.copy(), *args)


def test_a_chosen_function_that_writes_its_argument_is_still_refused():
    """npr_call traces a converted function only when it writes none of its arguments."""
    assert_same_as_numpy(program("chosen_functions").chosen_writer, compiled("chosen_writer"), INPUT.copy(), False)
    with pytest.raises(np2ref.Np2RefError) as err:
        compiled("chosen_writer")(INPUT.copy(), True)
    assert [d.code for d in err.value.diagnostics] == ["NPR021"]


@pytest.mark.parametrize("name, args", [
    ("called_chosen", (np.array([1, 3, 4, 0]), True)), ("called_chosen", (np.array([1, 3, 4, 0]), False)),
    ("called_by_if", (np.array([2, 5]), True)), ("called_by_if", (np.array([2, 5]), False)),
    ("called_from_tuple", (np.array([3]),)),
])
def test_a_chosen_function_called_with_an_argument_it_writes(name, args):
    """`flip = reverse_all if whole else negate_at` then `flip(t, idx[k])` under a condition on
    data (a 2-opt move picked by a flag, tests/third_party/scripts12/sa_tsp_two_opt.py): the call
    through the local wrote nothing as far as the analysis knew, so `t` reached the helper as a
    loaded value and np2ref.compile stopped with a raw TypeError (npr_at of a tracer; NPR127
    under a traced `if`). A call through a local bound only to module functions writes what any
    of them writes (analysis/collect.chosen_functions)."""
    assert_same_as_numpy(getattr(program("chosen_functions"), name), compiled(name), INPUT.copy(), *args)
