"""Conditional expressions inside a compiled function (issue 19): conditional
expressions and `and`/`or` used as values on traced data become lax.cond with Python's
semantics (only the chosen operand is evaluated; types must not depend on data: NPR128), and
`and`/`or` in an `if` on traced data short-circuit. Differential: the original against
np2ref.compile of it."""

import warnings

import numpy as np
import pytest

import np2ref
from conftest import assert_same_as_numpy, program

P = program("conditional_expressions")


def test_ternary_in_a_loop_accumulates_as_numpy():
    f = np2ref.compile(P.clipped_sum)
    for x in ([1.0, -2.0, 3.0, 0.5], [-1.0, -0.0, np.nan, 2.0]):
        assert_same_as_numpy(P.clipped_sum, f, np.array(x))


def test_unchosen_operand_is_not_evaluated():
    f = np2ref.compile(P.guarded_read)
    x = np.array([1.0, 0.0, 3.0])
    for idx in (np.array([1]), np.array([7])):  # 7: x[7] would raise IndexError if evaluated
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # NumPy does not warn: 1.0 / 0.0 is never computed
            assert_same_as_numpy(P.guarded_read, f, x, idx)


def test_and_or_values_are_the_chosen_operand():
    f = np2ref.compile(P.bool_values)
    for x in ([1.0, 2.0, 0.0, 4.0], [-1.0, 2.0, 3.0, 4.0], [0.0, -0.0, np.nan, 0.0], [np.nan, 1.0, 2.0, 0.0]):
        assert_same_as_numpy(P.bool_values, f, np.array(x))


def test_and_in_a_condition_short_circuits():
    f = np2ref.compile(P.short_circuit_if)
    for x, idx in (([1.0, -2.0, 3.0], 5), ([1.0, -2.0, 3.0], 2), ([-1.0, 2.0, -3.0], 0)):
        assert_same_as_numpy(P.short_circuit_if, f, np.array(x), np.array([idx]))


def test_two_python_floats_stay_weak():
    f = np2ref.compile(P.weak_scalar)
    for x0 in (1.0, -1.0):
        expected, got = assert_same_as_numpy(P.weak_scalar, f, np.arange(3, dtype=np.float32), np.array([x0]))
        assert got.dtype == expected.dtype == np.float32


def test_ternary_of_array_and_row_values():
    f = np2ref.compile(P.ternary_of_arrays)
    assert_same_as_numpy(P.ternary_of_arrays, f, np.array([1.0, 2.0, 3.0]), np.array([1.0, -1.0, 2.0]))


@pytest.mark.parametrize("fn,args,text", [
    ("mixed_types", (np.array([3, 1]),), "differ in type"),
    ("written_choice", (np.ones(2), np.zeros(2)), "arrays that are written")])
def test_types_that_depend_on_data_are_refused(fn, args, text):
    with pytest.raises(Exception, match="NPR128") as info:
        np2ref.compile(getattr(P, fn))(*args)
    assert text in str(info.value)


def test_static_ternary_stays_python():
    source = np2ref.convert_source(open(P.__file__).read(), "p.py").code
    assert 'n = 2 if size == "small" else 3' in source
    assert "npr_ifexp(" in source
    f = np2ref.compile(P.static_ternary)
    assert_same_as_numpy(P.static_ternary, f, np.arange(4.0), "small")


def test_elementwise_lambda_or_def_in_a_masked_store():
    f = np2ref.compile(P.mask_lambda_div)
    g = np2ref.compile(P.mask_def_log)
    a = np.array([1.0, -2.0, 3.0, 0.5, -4.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # masked-out elements: no 1/0, no log of a negative in NumPy
        assert_same_as_numpy(P.mask_lambda_div, f, a, np.array([2.0, 0.0, -1.0, 0.0, 4.0]))
        for k in (0.5, 3.0):
            assert_same_as_numpy(P.mask_def_log, g, a, k)


def test_masked_store_through_a_helper_that_is_not_elementwise_stays_refused():
    with pytest.raises(Exception, match="NPR107"):
        np2ref.compile(P.mask_not_elementwise)(np.array([1.0, -2.0, 3.0]))


def test_a_dict_filled_in_a_loop_is_a_python_dict():
    f = np2ref.compile(P.dict_of_results)
    expected, got = assert_same_as_numpy(P.dict_of_results, f, np.array([1.0, 2.0, 3.0]), (0, 2))
    assert list(got[0]) == [0, 2]
    with pytest.raises(Exception, match="NPR031") as info:  # a list argument is traced: no hash
        f(np.array([1.0, 2.0, 3.0]), [0, 2])
    assert "dict key" in str(info.value)


def test_writing_a_main_block_array_is_npr202(tmp_path):
    source = ("import numpy as np\n\ndef f(x):\n    H[0] = x[0]\n    return x\n\n"
              "if __name__ == '__main__':\n    H = np.zeros(3)\n")
    result = np2ref.convert_source(source, "m.py")
    assert [d.code for d in result.diagnostics if d.is_error] == ["NPR202"]


def test_a_name_only_one_branch_binds_has_that_branchs_type():
    """A data-dependent `if` that binds a name first bound there (or skips it with `continue`):
    the value has the binding branch's dtype (was float64, the placeholder's)."""
    f = np2ref.compile(P.bound_in_one_branch, host_below=0)
    assert_same_as_numpy(P.bound_in_one_branch, f, np.array([-1.5, 1.0], np.float32), np.array([-5, 2]))


def test_and_or_in_a_condition_need_only_truth():
    """`x[i] > 0 and flags[i]` (a bool and an int): a condition needs only the truth of the
    operand Python returns, so types that differ are fine there (unlike a value: NPR128)."""
    f = np2ref.compile(P.condition_of_mixed_types)
    assert_same_as_numpy(P.condition_of_mixed_types, f, np.array([1.0, -7.0, 2.0, -1.0]), np.array([0, 3, 1, 2]))


NO_NUMPY_CALL = '''
import math


def masked(x, t):
    return x[x > t].sum(), max(1.0, x.max()), math.sqrt(t)


def running_max(x):
    m = x[0]
    for i in range(x.shape[0]):
        if x[i] > m:
            m = x[i]
    return m


def pick(a, b):
    return a if a > b else b
'''


def test_converted_function_without_numpy_calls_runs_jitted_with_64_bit_types():
    """A function that calls no NumPy function but whose body np2ref rewrote (a masked
    reduction, a builtin on array values, an `if` on array data) is no plain helper: called from
    host code it was eager 32-bit jax.numpy (float32 results; the `if` raised a tracer error)."""
    result = np2ref.convert_source(NO_NUMPY_CALL, "no_numpy_call.py")
    assert result.ok
    converted, original = {}, {}
    exec(compile(result.code, "no_numpy_call_ref.py", "exec"), converted)
    exec(NO_NUMPY_CALL, original)
    x = np.array([3.0, -1.0, 7.5, 0.25, 2.0])
    assert_same_as_numpy(original["masked"], converted["masked"], x, 1.0)
    assert_same_as_numpy(original["running_max"], converted["running_max"], x)
    # with no array in its arguments it runs as written: Python's float, not a float64 (NEP 50
    # makes the two differ against float32 data in the caller)
    assert "@npr_jit(python_scalars=True)\ndef pick" in result.code
    assert type(converted["pick"](2.5, 1.0)) is float and converted["pick"](2, 5) == 5
