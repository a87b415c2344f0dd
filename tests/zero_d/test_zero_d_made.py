"""A 0-d NumPy array made inside a compiled function (`np.zeros(())`, `np.asarray(s)`, `x[0, ...]`)
answers type(), isinstance(), repr() and print as NumPy's array, where a reduction's, an element's
or an operator's 0-d result is NumPy's scalar (np2ref answered as a scalar for all of them:
`float64`, False, `np.float64(3.0)` for array(3.)). Differential: each construct's answers to each
question, printed and returned (values, types, dtypes), by np2ref.compile and by NumPy. Where
np2ref cannot know which one NumPy holds (a loop or branch on array data carries or makes a 0-d
array), asking is refused (NPR042); tests/zero_d/test_zero_d_arguments.py covers 0-d arguments (NPR041)."""

from __future__ import annotations

import numpy as np
import pytest

import np2ref
from conftest import load_module

# name -> the lines that bind `a` (x is np.arange(1.0, 4.0)); NumPy's kind of `a` in the comment
CONSTRUCTS = {
    "written": "a = np.zeros(())\n    a[...] = x.sum()",  # 0-d array
    "iadd": "a = np.zeros(())\n    a += x.sum()",  # 0-d array (in place)
    "asarray": "a = np.asarray(x.sum())",  # 0-d array
    "array": "a = np.array(3.0)",  # 0-d array
    "array_of_data": "a = np.array(x[1])",  # 0-d array
    "ellipsis": "a = x[0, ...]",  # 0-d array (a view)
    "ellipsis_first": "a = x[..., 2]",  # 0-d array (a view)
    "zeros": "a = np.zeros(())",  # 0-d array
    "ones_int32": "a = np.ones((), dtype=np.int32)",  # 0-d array
    "full": "a = np.full((), 2.5)",  # 0-d array
    "zeros_like": "a = np.zeros_like(x.sum())",  # 0-d array
    "copy": "a = np.copy(x.sum())",  # 0-d array
    "copy_method": "b = np.zeros(())\n    a = b.copy()",  # 0-d array
    "astype": "b = np.zeros(())\n    a = b.astype(np.float32)",  # 0-d array
    "where": "a = np.where(x[0] > 0, 1.0, 2.0)",  # 0-d array
    "sum": "a = x.sum()",  # scalar
    "astype_of_scalar": "s = x.sum()\n    a = s.astype(np.float32)",  # scalar
    "scalar_type_of_array": "a = np.float64(np.zeros(()))",  # scalar
    "element": "a = x[0]",  # scalar
    "arithmetic": "a = x[0, ...] * 2",  # scalar (an operator on a 0-d array)
    "zeros_plus": "a = np.zeros(()) + x[1]",  # scalar
    "item_of_array": "a = np.asarray(x.sum())[()]",  # scalar
    "asarray_leaves_operand": "s = x.max()\n    b = np.asarray(s)\n    a = s",  # scalar
}

ASKS = '''
    print(repr(a))
    print(f"{a!r}")
    print(a)
    print((a, 1))
    return type(a).__name__, isinstance(a, np.ndarray), isinstance(a, np.generic), a.ndim, a.shape, a
'''

SOURCE = "import numpy as np\n" + "".join(
    f"\n\ndef {name}(x):\n    {lines}\n{ASKS}" for name, lines in CONSTRUCTS.items())

REFUSED = '''
import numpy as np


def loop(x, n):
    a = np.zeros(())
    for i in range(n):
        a = a + x[i]  # a scalar after one iteration, the 0-d array after none
    return type(a).__name__


def branch(x):
    a = np.zeros(())
    if x[0] > 0:
        a = np.ones(())
    print(repr(a))
    return 0


def scalar_loop(x, n):
    s = x[0]
    for i in range(n):
        s = s + x[i]
    total = np.float64(0.0)  # (the Python 0.0 where n is 0: its type known only when it runs, NPR128)
    for i in range(n):
        total += x[i]
    print(repr(s), repr(total))
    return type(s).__name__, type(total).__name__, isinstance(total, np.ndarray)
'''

X = np.arange(1.0, 4.0)


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return load_module(SOURCE, tmp_path_factory.mktemp("zero_d_made"), "zero_d_made")


@pytest.fixture(scope="module")
def loops(tmp_path_factory):
    return load_module(REFUSED, tmp_path_factory.mktemp("zero_d_loops"), "zero_d_loops")


# a written 0-d Ref returned from the call still comes back as NumPy's scalar (its load at the
# `return` carries no note): its answers inside the function are NumPy's, its returned type not yet
RETURNED_AS_SCALAR = {"written"}


def _same(want, got, name=None):
    *answers, value = want
    assert tuple(got[:-1]) == tuple(answers)
    if name not in RETURNED_AS_SCALAR:
        assert type(got[-1]) is type(value), (type(got[-1]), type(value))
    assert np.asarray(got[-1]).dtype == np.asarray(value).dtype and np.array_equal(got[-1], value)


@pytest.mark.parametrize("name", list(CONSTRUCTS))
def test_a_0d_value_made_inside_answers_as_numpys(programs, name, capsys):
    fn = getattr(programs, name)
    want = fn(X.copy())
    printed = capsys.readouterr().out
    got = np2ref.compile(fn, host_below=0)(X.copy())
    assert capsys.readouterr().out == printed
    _same(want, got, name)


def test_a_converted_file_answers_as_numpy(capsys):
    result = np2ref.convert_source(SOURCE, "zero_d_made.py")
    ns: dict = {}
    exec(compile(result.code, "zero_d_made_ref.py", "exec"), ns)  # noqa: S102
    plain: dict = {}
    exec(compile(SOURCE, "zero_d_made.py", "exec"), plain)  # noqa: S102
    for name in ("written", "ellipsis", "sum"):
        want = plain[name](X.copy())
        printed = capsys.readouterr().out
        got = ns[name](X.copy())
        assert capsys.readouterr().out == printed, name
        _same(want, got, name)


def test_a_0d_value_a_traced_branch_leaves_either_way_is_refused(loops):
    loops.branch(X)  # NumPy answers (array(1.) after the branch)
    with pytest.raises(np2ref.Np2RefError, match="NPR042"):
        np2ref.compile(loops.branch, host_below=0)(X)


@pytest.mark.parametrize("n", [0, 1, 2])
def test_a_0d_value_a_counted_loop_makes_a_scalar_is_one_after_it(loops, n):
    """The first trip on its own, then a loop of scalars (NPR042 before): NumPy's type name."""
    assert np2ref.compile(loops.loop, host_below=0)(X, n) == loops.loop(X, n)


def test_scalars_a_loop_carries_still_answer(loops, capsys):
    want = loops.scalar_loop(X, 2)
    printed = capsys.readouterr().out
    assert np2ref.compile(loops.scalar_loop, host_below=0)(X, 2) == want
    assert capsys.readouterr().out == printed
